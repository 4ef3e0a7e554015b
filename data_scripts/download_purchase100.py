#!/usr/bin/python3
"""Fetch Shokri et al.'s Purchase-100 (dataset_purchase) and check it (stdlib only).

Source: dataset_purchase.tgz from the privacytrustlab datasets repository
(the file ML Privacy Meter and most membership-inference code use), with
the NUS mirror as a second URL. The archive holds one file,
dataset_purchase: 197,324 lines "label,x1,...,x600", label 1..100 (k-means
cluster of the purchase vector), x in {0, 1}.

CHECKSUM PROVENANCE: no digest of dataset_purchase.tgz is published by its
authors or pinned by the projects that use it (we searched ML Privacy Meter,
EvaluatingDPML and other loaders and found none). Verification is therefore
TRUST-ON-FIRST-USE unless you pass --expected-sha256: the first successful
fetch records the SHA-256 of the archive and of dataset_purchase in
<target>/SHA256SUMS, later fetches must match that record, and the C++
loader (data_scripts/purchase100.h) refuses a dataset_purchase that no
longer matches it. To make your run reproducible, publish the digests this
script prints alongside your results. Independently of digests, the
structure is checked strictly (row count, 601 fields, labels 1..100 with
every class present, features exactly 0 or 1) and anything else is refused.

    /usr/bin/python3 data_scripts/download_purchase100.py --target-dir DIR
    /usr/bin/python3 data_scripts/download_purchase100.py --target-dir DIR \
        --source-file dataset_purchase.tgz       # a copy you already have

Nothing is written unless every check passes (temporary files in the
target directory, renamed at the end). Exit status 0 on success, 1 on a
refused or unavailable file, 2 on bad arguments.
"""

import argparse
import hashlib
import io
import os
import re
import sys
import tarfile

import downloads
from downloads import Refused

URLS = [
    "https://github.com/privacytrustlab/datasets/raw/master/dataset_purchase.tgz",
    "https://www.comp.nus.edu.sg/~reza/files/dataset_purchase.tgz",
]
ARCHIVE = "dataset_purchase.tgz"
MEMBER = "dataset_purchase"
MANIFEST = "SHA256SUMS"
PROVENANCE = "PROVENANCE.txt"
ROWS = 197324
FEATURES = 600
CLASSES = 100
# Published digests of dataset_purchase.tgz: none known (see the docstring).
# If one becomes available, put it here and it will be enforced.
KNOWN_ARCHIVE_SHA256 = ""
MAX_ARCHIVE_BYTES = 256 << 20
MAX_MEMBER_BYTES = 1 << 30


def fetch(source_file, urls, timeout):
    if source_file is not None:
        return downloads.read_local(ARCHIVE, source_file, MAX_ARCHIVE_BYTES)
    return downloads.download(ARCHIVE, urls, timeout, MAX_ARCHIVE_BYTES)


def extract_member(archive, where):
    try:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:*") as tar:
            members = [m for m in tar.getmembers() if os.path.basename(m.name) == MEMBER]
            if len(members) != 1:
                raise Refused(f"{where}: expected exactly one '{MEMBER}' in the archive, found "
                              f"{len(members)} (members: {[m.name for m in tar.getmembers()]})")
            m = members[0]
            if not m.isfile():
                raise Refused(f"{where}: '{m.name}' is not a regular file")
            if m.size > MAX_MEMBER_BYTES:
                raise Refused(f"{where}: '{m.name}' is larger than {MAX_MEMBER_BYTES} bytes")
            return tar.extractfile(m).read()
    except (tarfile.TarError, EOFError, OSError) as e:
        raise Refused(f"{where}: not a readable .tgz archive ({e})") from None


def check_structure(data, rows):
    """Strict format check; returns the class counts."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise Refused(f"{MEMBER}: not ASCII text") from None
    lines = text.split("\n")
    while lines and lines[-1].strip() == "":
        lines.pop()
    counts = [0] * CLASSES
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        fields = line.split(",")
        if len(fields) != 1 + FEATURES:
            raise Refused(f"{MEMBER} line {n}: expected {1 + FEATURES} comma-separated fields "
                          f"(label + {FEATURES} features), got {len(fields)}")
        label = fields[0]
        if not label.isdigit() or not 1 <= int(label) <= CLASSES:
            raise Refused(f"{MEMBER} line {n}: label must be an integer in 1..{CLASSES}, "
                          f"got '{label[:20]}'")
        for j, f in enumerate(fields[1:], 1):
            if f != "0" and f != "1":
                raise Refused(f"{MEMBER} line {n}: feature {j} must be 0 or 1, got '{f[:20]}'")
        counts[int(label) - 1] += 1
    if len(lines) != rows:
        raise Refused(f"{MEMBER}: expected {rows} records, got {len(lines)}")
    present = sum(1 for c in counts if c > 0)
    if present != CLASSES:
        raise Refused(f"{MEMBER}: only {present} of the {CLASSES} classes occur")
    return counts


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target-dir", help="output directory (default: "
                        "$PRIVBENCH_DATA_DIR/purchase100)")
    parser.add_argument("--source-file", help="use this local dataset_purchase.tgz instead of "
                        "downloading")
    parser.add_argument("--url", action="append", help="download URL (repeatable; default: "
                        "privacytrustlab, then the NUS mirror)")
    parser.add_argument("--expected-sha256", help="SHA-256 the archive must have")
    parser.add_argument("--expected-rows", type=int, default=ROWS,
                        help=f"records in dataset_purchase (default {ROWS}; tests use others)")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args(argv)

    if args.expected_sha256 is not None and not re.fullmatch(r"[0-9a-f]{64}",
                                                             args.expected_sha256):
        parser.error("--expected-sha256 must be 64 lower-case hex digits")
    target = downloads.target_dir(parser, args.target_dir, "purchase100")

    try:
        recorded = downloads.read_manifest(os.path.join(target, MANIFEST))
        archive, where = fetch(args.source_file, args.url or URLS, args.timeout)
        digest = hashlib.sha256(archive).hexdigest()
        if args.expected_sha256:
            expected, basis = args.expected_sha256, "--expected-sha256"
        elif KNOWN_ARCHIVE_SHA256:
            expected, basis = KNOWN_ARCHIVE_SHA256, "the digest pinned in this script"
        elif ARCHIVE in recorded:
            expected, basis = recorded[ARCHIVE], f"the trust-on-first-use record in {MANIFEST}"
        else:
            expected, basis = None, None
        if expected is not None and digest != expected:
            raise Refused(f"{ARCHIVE} ({where}, {len(archive)} bytes): SHA-256 mismatch: "
                          f"expected {expected} ({basis}), got {digest}")
        member = extract_member(archive, where)
        counts = check_structure(member, args.expected_rows)
        member_digest = hashlib.sha256(member).hexdigest()
        if (expected is not None and basis.startswith("the trust") and
                recorded.get(MEMBER, member_digest) != member_digest):
            raise Refused(f"{MEMBER}: SHA-256 {member_digest} differs from the record in "
                          f"{MANIFEST} ({recorded[MEMBER]})")
        manifest = f"{digest}  {ARCHIVE}\n{member_digest}  {MEMBER}\n"
        trust = ("verified against " + basis if expected is not None else
                 "TRUST-ON-FIRST-USE: no published digest exists; this is the first record")
        provenance = (
            f"Purchase-100 (Shokri et al. 2017), fetched from {where}\n"
            f"{ARCHIVE} sha256={digest} ({trust})\n"
            f"{MEMBER} sha256={member_digest}, {args.expected_rows} records x {FEATURES} "
            f"binary features, {CLASSES} classes (sizes {min(counts)}..{max(counts)})\n")
        downloads.write_atomically(target, [(MEMBER, member),
                                            (MANIFEST, manifest.encode("ascii")),
                                            (PROVENANCE, provenance.encode("ascii"))])
    except Refused as e:
        return downloads.refuse("download_purchase100", e, target)
    if expected is None:
        print("WARNING: no published checksum exists for dataset_purchase.tgz; recorded "
              f"sha256={digest} in {os.path.join(target, MANIFEST)} (trust on first use). "
              "Publish it with your results.", file=sys.stderr)
    print(provenance, end="")
    print(f"{target}: {MEMBER}, {MANIFEST}, {PROVENANCE} written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
