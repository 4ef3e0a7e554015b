#!/usr/bin/python3
"""Fetch banknote, credit and thoracic (UCI) for ml_audit and verify them.

The three remaining datasets of ML-Audit's grid (Lu et al., NeurIPS 2022,
Sec. 5; docs/studies.md D1) are not shipped with the repository and cannot
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
The study itself does not read these files yet (docs/studies.md D1: they
are marked unavailable offline and rejected by --datasets).
"""

import argparse
import hashlib
import os
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

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

MAX_BYTES = 64 << 20  # refuse anything absurdly large before hashing


class Refused(Exception):
    """A file that must not be used; the message says why."""


def fetch(dataset, source_dir, base_url, timeout):
    name, remote, _, _ = PINNED[dataset]
    if source_dir is not None:
        path = os.path.join(source_dir, name)
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
        except OSError as e:
            raise Refused(f"{dataset}: cannot read {path}: {e.strerror}") from None
        where = path
    else:
        url = base_url + urllib.parse.quote(remote)
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                data = r.read(MAX_BYTES + 1)
        except (urllib.error.URLError, OSError) as e:
            raise Refused(f"{dataset}: download from {url} failed: {e}") from None
        where = url
    if len(data) > MAX_BYTES:
        raise Refused(f"{dataset}: more than {MAX_BYTES} bytes from {where}")
    return data, where


def verify(dataset, data, where):
    name, _, sha256, size = PINNED[dataset]
    if not sha256:
        raise Refused(f"{dataset}: no pinned SHA-256 for {name}; refusing to trust it")
    if size is not None and len(data) != size:
        raise Refused(f"{dataset} ({where}): {len(data)} bytes, expected {size}; "
                      "truncated or a different version")
    got = hashlib.sha256(data).hexdigest()
    if got != sha256:
        raise Refused(f"{dataset} ({where}, {len(data)} bytes): SHA-256 mismatch: expected "
                      f"{sha256}, got {got}; the file is corrupt, truncated or a different "
                      "version")


def already_verified(target_dir, datasets):
    for dataset in datasets:
        path = os.path.join(target_dir, PINNED[dataset][0])
        try:
            with open(path, "rb") as f:
                verify(dataset, f.read(MAX_BYTES + 1), path)
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


def stage_all(datasets, args, target, temps):
    staged = []
    for dataset in datasets:
        data, where = fetch(dataset, args.source_dir, args.base_url, args.timeout)
        verify(dataset, data, where)
        name = PINNED[dataset][0]
        fd, tmp = tempfile.mkstemp(prefix=".staged.", suffix=".partial", dir=target)
        temps.append(tmp)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        staged.append((tmp, os.path.join(target, name)))
        print(f"{dataset}: {name} verified sha256={PINNED[dataset][2]} ({where})")
    return staged


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target-dir", help="where to put the files "
                        "(default: $PRIVBENCH_DATA_DIR/uci)")
    parser.add_argument("--datasets", default=",".join(PINNED),
                        help="comma-separated subset of banknote,credit,thoracic")
    parser.add_argument("--source-dir", help="copy from this local directory instead of "
                        "downloading (same verification)")
    parser.add_argument("--base-url", default=UCI_BASE_URL, help="download base URL")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per download")
    parser.add_argument("--force", action="store_true",
                        help="fetch even if the target already holds verified copies")
    args = parser.parse_args(argv)
    try:
        datasets = parse_datasets(args.datasets)
    except ValueError as e:
        parser.error(str(e))
    target = args.target_dir
    if target is None:
        env = os.environ.get("PRIVBENCH_DATA_DIR")
        if not env:
            parser.error("give --target-dir or set PRIVBENCH_DATA_DIR")
        target = os.path.join(env, "uci")
    os.makedirs(target, exist_ok=True)
    if not args.force and already_verified(target, datasets):
        print(f"{target}: {','.join(datasets)} already present and verified")
        return 0
    temps = []
    try:
        for tmp, final in stage_all(datasets, args, target, temps):
            os.replace(tmp, final)
            temps.remove(tmp)
    except Refused as e:
        print(f"download_uci_audit: REFUSED: {e}; nothing was written to {target}",
              file=sys.stderr)
        return 1
    finally:
        for tmp in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    print(f"{target}: {','.join(datasets)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
