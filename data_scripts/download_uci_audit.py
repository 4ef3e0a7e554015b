#!/usr/bin/python3
"""Fetch banknote, credit and thoracic (UCI) for ml_audit and verify them.

The three remaining datasets of ML-Audit's grid (Lu et al., NeurIPS 2022,
Sec. 5; experiments/ml_audit/README.md) are not shipped with the repository and cannot
be fetched offline. For users with internet this script downloads each file
from the UCI repository, checks its pinned SHA-256 (and its byte count where
one is pinned) and only then moves it into the target directory: a missing,
corrupt, truncated or re-issued file is refused with a message and nothing is
written (files are staged under temporary names in the target directory and
renamed once verified). A file without a pinned digest is never trusted.

    /usr/bin/python3 data_scripts/download_uci_audit.py --target-dir DIR
    /usr/bin/python3 data_scripts/download_uci_audit.py --target-dir DIR \
        --datasets banknote --source-dir SRC   # offline: verify a local copy

Without --target-dir, $PRIVBENCH_DATA_DIR/uci is used. Exit status: 0 on
success (or when the target already holds verified copies), 1 on a refused or
unavailable file, 2 on bad arguments.

Where the digests come from (none could be computed here: no network). Each
is the digest other public projects pin for the same UCI file; the two with
many independent pins are well corroborated, thoracic rests on one:
  banknote  data_banknote_authentication.txt (46,400 bytes): SHA-256 pinned
            by JackDunnNZ/UCIData.jl (src/data/classification/
            banknote-authentication.jl) and, independently, by several
            other projects that downloaded the UCI file (the same digest and
            byte count).
  credit    "default of credit card clients.xls" (5,539,328 bytes): SHA-256
            pinned by a scikit-learn-style fetcher (RemoteFileMetadata) and
            by several independent data-provenance records of the UCI file
            (the same digest and byte count; the file is also the single
            member of UCI's newer default+of+credit+card+clients.zip).
  thoracic  ThoraricSurgery.arff (UCI's spelling): SHA-256 pinned by
            JackDunnNZ/UCIData.jl (src/data/classification/
            thoracic-surgery.jl) only; no byte count was found, so none is
            checked. Treat a mismatch as "re-verify by hand", not as proof
            of corruption.
credit is an Excel 97 (BIFF8) workbook: once its digest is verified it is
converted here (Debian's python3-xlrd 1.2.0, which reads .xls) to
default_of_credit_card_clients.csv, the sheet's 25 columns (ID, X1..X23 under
their sheet names, "default payment next month") with the banner row dropped
and every value written as an integer; default_of_credit_card_clients.sha256
(sha256sum format) records the .xls digest and the CSV's. The C++ loader
(data_scripts/uci_audit.h) checks that record's .xls digest against its own
pin and the CSV against the record. The original .xls is kept beside them.

The study ml_audit reads all three (experiments/ml_audit/README.md); without them the
datasets are unavailable and --datasets naming one exits 2 pointing here.
"""

import argparse
import hashlib
import os
import sys
import urllib.parse

import downloads
from downloads import Refused

UCI_BASE_URL = "https://archive.ics.uci.edu/ml/machine-learning-databases/"

# dataset -> (file name, path under UCI_BASE_URL, sha256, bytes or None)
PINNED = {
    "banknote": (
        "data_banknote_authentication.txt",
        "00267/data_banknote_authentication.txt",
        "d0539aaed2139ba7a587b3e34fb345ce503ff7d5d33dbf9912d8e195ce425cb9",
        46400,
    ),
    "credit": (
        "default of credit card clients.xls",
        "00350/default of credit card clients.xls",
        "30c6be3abd8dcfd3e6096c828bad8c2f011238620f5369220bd60cfc82700933",
        5539328,
    ),
    "thoracic": (
        "ThoraricSurgery.arff",
        "00277/ThoraricSurgery.arff",
        "a92b446b681138619ac3e210d5641744fe77b039c2b7219456a21533e36f3015",
        None,
    ),
}

# The credit conversion (see the docstring).
CREDIT_CSV = "default_of_credit_card_clients.csv"
CREDIT_RECORD = "default_of_credit_card_clients.sha256"
CREDIT_ROWS = 30000
CREDIT_COLUMNS = (["ID", "LIMIT_BAL", "SEX", "EDUCATION", "MARRIAGE", "AGE", "PAY_0"] +
                  [f"PAY_{i}" for i in range(2, 7)] + [f"BILL_AMT{i}" for i in range(1, 7)] +
                  [f"PAY_AMT{i}" for i in range(1, 7)] + ["default payment next month"])


def fetch(dataset, source_dir, base_url, timeout):
    name, remote, _, _ = PINNED[dataset]
    if source_dir is not None:
        return downloads.read_local(dataset, os.path.join(source_dir, name))
    return downloads.download(dataset, [base_url + urllib.parse.quote(remote)], timeout)


def verify(dataset, data, where):
    _, _, sha256, size = PINNED[dataset]
    downloads.check_pinned(dataset, data, where, sha256, size)


def cell_int(sheet, r, c):
    """The integer in a numeric (or integer-text) cell; Refused otherwise."""
    v = sheet.cell_value(r, c)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v.strip())
    raise Refused(f"credit: sheet row {r + 1}, column {c + 1} ({CREDIT_COLUMNS[c]}): expected "
                  f"an integer, got {v!r}")


def credit_csv(data):
    """The .xls bytes as CSV text: the header row (sheet row 2), then
    CREDIT_ROWS rows of 25 integers; the banner row (sheet row 1: X1..X23, Y)
    dropped."""
    rows = CREDIT_ROWS
    try:
        import xlrd  # Debian's python3-xlrd (tools/setup.sh)
    except ImportError:
        raise Refused("credit: converting the .xls needs python3-xlrd "
                      "(apt-get install python3-xlrd; tools/setup.sh)") from None
    try:
        sheet = xlrd.open_workbook(file_contents=data).sheet_by_index(0)
    except xlrd.XLRDError as e:
        raise Refused(f"credit: not a readable .xls workbook ({e})") from None
    nrows = sheet.nrows  # trailing rows with no value in any cell do not count
    while nrows > 0 and all(v == "" for v in sheet.row_values(nrows - 1)):
        nrows -= 1
    if sheet.ncols != len(CREDIT_COLUMNS) or nrows != rows + 2:
        raise Refused(f"credit: sheet '{sheet.name}' is {nrows} x {sheet.ncols}, expected "
                      f"{rows + 2} x {len(CREDIT_COLUMNS)} (banner, header, {rows} rows)")
    header = [str(v).strip() for v in sheet.row_values(1)]
    if header != CREDIT_COLUMNS:
        raise Refused(f"credit: sheet row 2 is {header}, expected {CREDIT_COLUMNS}")
    lines = [",".join(CREDIT_COLUMNS)]
    for r in range(2, rows + 2):
        values = [cell_int(sheet, r, c) for c in range(len(CREDIT_COLUMNS))]
        if values[-1] not in (0, 1):
            raise Refused(f"credit: sheet row {r + 1}: the target must be 0 or 1, "
                          f"got {values[-1]}")
        lines.append(",".join(str(v) for v in values))
    return ("\n".join(lines) + "\n").encode("ascii")


def credit_record(xls, csv):
    name = PINNED["credit"][0]
    return (f"{hashlib.sha256(xls).hexdigest()}  {name}\n"
            f"{hashlib.sha256(csv).hexdigest()}  {CREDIT_CSV}\n").encode("ascii")


def names_of(dataset):
    """The files a verified download writes."""
    extra = [CREDIT_CSV, CREDIT_RECORD] if dataset == "credit" else []
    return [PINNED[dataset][0]] + extra


def files_of(dataset, data):
    """[(name, bytes)] to write for a verified download."""
    files = [(PINNED[dataset][0], data)]
    if dataset == "credit":
        csv = credit_csv(data)
        files += [(CREDIT_CSV, csv), (CREDIT_RECORD, credit_record(data, csv))]
    return files


def already_verified(target_dir, datasets):
    for dataset in datasets:
        try:
            present = []
            for name in names_of(dataset):
                with open(os.path.join(target_dir, name), "rb") as f:
                    present.append((name, f.read(downloads.MAX_BYTES + 1)))
            verify(dataset, present[0][1], os.path.join(target_dir, present[0][0]))
            if dataset == "credit" and present[2][1] != credit_record(present[0][1],
                                                                      present[1][1]):
                return False
        except (OSError, Refused):
            return False
    return True


def parse_datasets(text):
    out = [d for d in text.split(",") if d]
    bad = [d for d in out if d not in PINNED]
    if not out or bad:
        raise ValueError(f"--datasets must be a comma-separated subset of "
                         f"{','.join(PINNED)}; got '{text}'")
    return out


def verified_files(datasets, args):
    files = []
    for dataset in datasets:
        data, where = fetch(dataset, args.source_dir, args.base_url, args.timeout)
        verify(dataset, data, where)
        files += files_of(dataset, data)
        print(f"{dataset}: {PINNED[dataset][0]} verified sha256={PINNED[dataset][2]} ({where})")
    return files


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target-dir", help="where to put the files "
                        "(default: $PRIVBENCH_DATA_DIR/uci)")
    parser.add_argument("--datasets", default=",".join(PINNED),
                        help="comma-separated subset of banknote,credit,thoracic")
    downloads.add_fetch_args(parser, UCI_BASE_URL)
    args = parser.parse_args(argv)
    try:
        datasets = parse_datasets(args.datasets)
    except ValueError as e:
        parser.error(str(e))
    target = downloads.target_dir(parser, args.target_dir, "uci")
    if not args.force and already_verified(target, datasets):
        print(f"{target}: {','.join(datasets)} already present and verified")
        return 0
    try:
        files = verified_files(datasets, args)
        downloads.write_atomically(target, files)
    except Refused as e:
        return downloads.refuse("download_uci_audit", e, target)
    for name, data in files:
        print(f"{name}: sha256={hashlib.sha256(data).hexdigest()}")
    print(f"{target}: {','.join(datasets)} written; check them with `bazel run "
          f"//data_scripts:dataset_info -- --datasets={','.join(datasets)} --uci_dir={target}`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
