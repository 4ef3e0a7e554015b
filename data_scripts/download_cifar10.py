#!/usr/bin/python3
"""Fetch CIFAR-10 (python version), verify it and convert it (stdlib only).

CIFAR-10 (Alex Krizhevsky, "Learning Multiple Layers of Features from Tiny
Images", technical report, University of Toronto, 2009) is the data of the
Bayesian paper's Table 2 (study E1, experiments/lira_bayes_audit/README.md).
For users with internet: downloads the official python archive

    https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz

and checks it before anything is used:
  - the archive: its byte count (170,498,071) and the MD5 its authors publish
    on the CIFAR-10 page (c58f30108f718f92721af3b95e74349a, the digest
    torchvision's CIFAR10 also checks); its SHA-256 cannot be known here
    without the file, so it is computed on the first download and recorded
    in <target>/SHA256SUMS and PROVENANCE.txt; later downloads into the same
    target must match that record (trust on first use, on top of the MD5);
  - every member used: the MD5 torchvision checks for data_batch_1..5,
    test_batch and batches.meta (torchvision/datasets/cifar.py).
A file that fails a check is refused with a message naming it, the staged
download is deleted and nothing is written (exit status 1).

The batches are pickled dicts of numpy arrays ({b'data': uint8 (10000,
3072), b'labels': [...], b'batch_label': ..., b'filenames': [...]}). They are
unpickled by a restricted Unpickler that resolves only the names numpy's
array pickles use (numpy.core.multiarray._reconstruct, numpy.ndarray,
numpy.dtype; _codecs.encode for bytes pickled by Python 3) to inert
stand-ins that record the array's shape, dtype and bytes: no other code can
run, and numpy is not needed. The arrays are written in CIFAR-10's binary
layout, which the C++ loader (data_scripts/cifar10.h) reads without Python:
per image 1 label byte (0..9) and 3,072 pixel bytes (the red, green and blue
planes of 32 x 32, row-major; the rows of b'data' are already in this
order), 10,000 images a file:

    data_batch_1.bin .. data_batch_5.bin, test_batch.bin   (30,730,000 bytes each)
    batches.meta.txt     the 10 label names, one a line (as in the binary archive)
    SHA256SUMS           sha256sum-format record of the archive and every file written
    PROVENANCE.txt       where it came from, what was verified, what was written
    cifar-10-python.tar.gz  the verified archive itself

Every file is staged under a temporary name in the target directory and
renamed only when all of them have been verified and converted.

    python3 data_scripts/download_cifar10.py DIR
    python3 data_scripts/download_cifar10.py --target-dir DIR --source-file cifar-10-python.tar.gz

Without DIR (or --target-dir), $PRIVBENCH_DATA_DIR/cifar10 is used. Then:

    bazel run //experiments/lira_bayes_audit -- --dataset=cifar10 --data_dir=DIR

Exit status: 0 on success (or when the target already holds verified
files), 1 on a refused or unavailable file, 2 on bad arguments.
"""

import argparse
import datetime
import hashlib
import io
import os
import pickle
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
import zlib

import downloads
from downloads import Refused

URL = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
ARCHIVE = "cifar-10-python.tar.gz"
# The archive's MD5 as its authors publish it (and torchvision's tgz_md5), and
# its byte count.
ARCHIVE_MD5 = "c58f30108f718f92721af3b95e74349a"
ARCHIVE_BYTES = 170498071
# No SHA-256 of the archive is published; if one becomes known, pin it here.
ARCHIVE_SHA256 = ""
MAX_ARCHIVE_BYTES = 256 << 20
MEMBER_DIR = "cifar-10-batches-py"
# Member -> MD5, as torchvision's CIFAR10 checks them (train_list, test_list, meta).
BATCH_MD5 = {
    "data_batch_1": "c99cafc152244af753f735de768cd75f",
    "data_batch_2": "d4bba439e000b95fd0a9bffe97cbabec",
    "data_batch_3": "54ebc095f3ab1f0389bbae665268c751",
    "data_batch_4": "634d18415352ddfa80567beed471001a",
    "data_batch_5": "482c414d41f54cd18b22e5b47cb7c3cb",
    "test_batch": "40351d587109b95175f43aff81a1287e",
}
META = "batches.meta"
META_MD5 = "5ff9c542aee3614f3951f8cda6e48888"
MAX_MEMBER_BYTES = 64 << 20
ROWS_PER_BATCH = 10000
PIXELS = 3 * 32 * 32
CLASSES = 10
MANIFEST = "SHA256SUMS"
PROVENANCE = "PROVENANCE.txt"
LABEL_NAMES = "batches.meta.txt"
CHUNK = 1 << 20


# ----------------------------------------------------------------- fetching

def copy_verified_stream(source, out, where):
    """Copies `source` (a binary file object) into `out`, hashing as it goes;
    (bytes, md5, sha256). Refused beyond MAX_ARCHIVE_BYTES."""
    md5, sha256, n = hashlib.md5(), hashlib.sha256(), 0
    while True:
        block = source.read(CHUNK)
        if not block:
            return n, md5.hexdigest(), sha256.hexdigest()
        n += len(block)
        if n > MAX_ARCHIVE_BYTES:
            raise Refused(f"{ARCHIVE} ({where}): more than {MAX_ARCHIVE_BYTES} bytes")
        md5.update(block)
        sha256.update(block)
        out.write(block)


def open_source(source_file, url, timeout):
    """A readable binary stream of the archive, from a local file or a URL."""
    if source_file is not None:
        try:
            return open(source_file, "rb")
        except OSError as e:
            raise Refused(f"{ARCHIVE}: cannot read {source_file}: {e.strerror}") from None
    try:
        return urllib.request.urlopen(url, timeout=timeout)
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise Refused(f"{ARCHIVE}: download from {url} failed: {e}") from None


def stage_archive(target, source_file, url, timeout):
    """Streams the archive into a temporary file in `target`:
    (path, where, bytes, md5, sha256). The file is deleted on any error."""
    where = source_file if source_file is not None else url
    fd, tmp = tempfile.mkstemp(prefix=".staged.", suffix=".partial", dir=target)
    try:
        with os.fdopen(fd, "wb") as out, open_source(source_file, url, timeout) as source:
            n, md5, sha256 = copy_verified_stream(source, out, where)
            out.flush()
            os.fsync(out.fileno())
        return tmp, where, n, md5, sha256
    except BaseException:
        remove(tmp)
        raise


def remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def check_archive(where, n, md5, sha256, recorded):
    """Refused unless the archive has the pinned size and MD5 and the SHA-256
    pinned here or recorded in the target's SHA256SUMS; returns how its
    SHA-256 was established."""
    if n != ARCHIVE_BYTES:
        raise Refused(f"{ARCHIVE} ({where}): {n} bytes, expected {ARCHIVE_BYTES}; truncated or "
                      "a different file; the download was deleted")
    if md5 != ARCHIVE_MD5:
        raise Refused(f"{ARCHIVE} ({where}, {n} bytes): MD5 mismatch: expected {ARCHIVE_MD5} "
                      f"(published), got {md5}; the file is corrupt or a different version; "
                      "the download was deleted")
    for expected, basis in ((ARCHIVE_SHA256, "pinned in this script"),
                            (recorded.get(ARCHIVE), f"recorded in {MANIFEST} on the first fetch")):
        if expected:
            if sha256 != expected:
                raise Refused(f"{ARCHIVE} ({where}): SHA-256 mismatch: expected {expected} "
                              f"({basis}), got {sha256}; the download was deleted")
            return f"verified against the SHA-256 {basis}"
    return "computed on this first fetch (no published SHA-256 exists) and recorded"


# ------------------------------------------------------ restricted unpickling

class _Dtype:
    """Inert stand-in for numpy.dtype(name, align, copy)."""

    def __init__(self, name, align=0, copy=0):
        self.name = name.decode("latin1") if isinstance(name, bytes) else name

    def __setstate__(self, state):
        self.state = state


class _Array:
    """Inert stand-in for a numpy.ndarray: shape, dtype, order and bytes."""

    shape, dtype, fortran, data = None, None, None, None

    def __setstate__(self, state):
        if not isinstance(state, tuple) or len(state) not in (4, 5):
            raise Refused(f"an ndarray state that is not numpy's: {type(state).__name__}")
        self.shape, self.dtype, self.fortran, self.data = state[-4:]


def _reconstruct(cls, shape, typecode):
    if cls is not _Array:
        raise Refused("_reconstruct of something other than numpy.ndarray")
    return _Array()


def _encode(text, encoding="utf-8"):
    """_codecs.encode as Python 3 pickles bytes (protocol < 3): latin-1 only."""
    if encoding not in ("latin1", "latin-1") or not isinstance(text, str):
        raise Refused(f"_codecs.encode with encoding {encoding!r}")
    return text.encode("latin1")


class _Unpickler(pickle.Unpickler):
    """Resolves only the names numpy's array pickles use, to the stand-ins."""

    ALLOWED = {
        ("numpy.core.multiarray", "_reconstruct"): _reconstruct,
        ("numpy._core.multiarray", "_reconstruct"): _reconstruct,
        ("numpy", "ndarray"): _Array,
        ("numpy", "dtype"): _Dtype,
        ("_codecs", "encode"): _encode,
    }

    def find_class(self, module, name):
        if (module, name) not in self.ALLOWED:
            raise Refused(f"the pickle references {module}.{name}, which is not allowed "
                          "(only numpy's array reconstruction is)")
        return self.ALLOWED[(module, name)]


def unpickle(member, data):
    try:
        obj = _Unpickler(io.BytesIO(data), encoding="bytes").load()
    except Refused as e:
        raise Refused(f"{member}: {e}") from None
    except Exception as e:  # a malformed pickle: any unpickling error
        raise Refused(f"{member}: not a readable pickle ({type(e).__name__}: {e})") from None
    if not isinstance(obj, dict):
        raise Refused(f"{member}: expected a pickled dict, got {type(obj).__name__}")
    return {(k.decode("latin1") if isinstance(k, bytes) else k): v for k, v in obj.items()}


def text_of(value):
    return value.decode("latin1") if isinstance(value, bytes) else str(value)


# ------------------------------------------------------------------ converting

def pixels_of(member, batch, rows):
    """The bytes of batch['data'], checked to be uint8 (rows, 3072), C order."""
    a = batch.get("data")
    if not isinstance(a, _Array):
        raise Refused(f"{member}: 'data' is not a numpy array")
    if not isinstance(a.dtype, _Dtype) or a.dtype.name not in ("u1", "uint8"):
        raise Refused(f"{member}: 'data' must be uint8, got dtype "
                      f"{getattr(a.dtype, 'name', a.dtype)!r}")
    shape = tuple(a.shape) if isinstance(a.shape, (tuple, list)) else a.shape
    if shape != (rows, PIXELS) or a.fortran:
        raise Refused(f"{member}: 'data' has shape {shape}"
                      f"{' (Fortran order)' if a.fortran else ''}, expected ({rows}, {PIXELS})")
    data = a.data.encode("latin1") if isinstance(a.data, str) else a.data
    if not isinstance(data, bytes) or len(data) != rows * PIXELS:
        raise Refused(f"{member}: 'data' holds {len(data)} bytes, expected {rows * PIXELS}")
    return data


def labels_of(member, batch, rows):
    labels = batch.get("labels")
    if not isinstance(labels, list) or len(labels) != rows:
        raise Refused(f"{member}: 'labels' must be a list of {rows} labels")
    for i, y in enumerate(labels):
        if not isinstance(y, int) or not 0 <= y < CLASSES:
            raise Refused(f"{member}: label {i} must be an integer in 0..9, got {y!r}")
    return labels


def binary_layout(pixels, labels):
    """CIFAR-10's binary layout: per image the label byte, then its 3,072 bytes."""
    out = bytearray(len(labels) * (1 + PIXELS))
    for i, y in enumerate(labels):
        base = i * (1 + PIXELS)
        out[base] = y
        out[base + 1:base + 1 + PIXELS] = pixels[i * PIXELS:(i + 1) * PIXELS]
    return bytes(out)


def member_bytes(tar, m, name, where):
    """The bytes of member `m` (cifar-10-batches-py/<name>), checked against its MD5."""
    if not m.isfile() or m.size > MAX_MEMBER_BYTES:
        raise Refused(f"{ARCHIVE} ({where}): {m.name} is not a regular file of at most "
                      f"{MAX_MEMBER_BYTES} bytes")
    data = tar.extractfile(m).read()
    expected = META_MD5 if name == META else BATCH_MD5[name]
    got = hashlib.md5(data).hexdigest()
    if got != expected:
        raise Refused(f"{name} (in {ARCHIVE} from {where}): MD5 mismatch: expected {expected} "
                      f"(torchvision's), got {got}; the download was deleted")
    return data


def convert_batch(name, data):
    """(file name, bytes, provenance line) of one verified batch in the binary layout."""
    batch = unpickle(name, data)
    pixels = pixels_of(name, batch, ROWS_PER_BATCH)
    labels = labels_of(name, batch, ROWS_PER_BATCH)
    binary = binary_layout(pixels, labels)
    counts = [labels.count(c) for c in range(CLASSES)]
    line = (f"{name}: md5={BATCH_MD5[name]} (verified), batch_label "
            f"'{text_of(batch.get('batch_label', ''))}', {len(labels)} images, label counts "
            f"{counts} -> {name}.bin sha256={hashlib.sha256(binary).hexdigest()}\n")
    return f"{name}.bin", binary, line


def label_names(data):
    meta = unpickle(META, data)
    names = meta.get("label_names")
    if not isinstance(names, list) or len(names) != CLASSES:
        raise Refused(f"{META}: 'label_names' must be a list of {CLASSES} names")
    return [text_of(n) for n in names]


def read_members(archive_path, where):
    """{member name: verified bytes} of the batches and batches.meta, in one
    pass over the archive (a .tar.gz seeks backwards only by decompressing
    again)."""
    wanted = set(BATCH_MD5) | {META}
    found = {}
    try:
        with tarfile.open(archive_path, mode="r:gz") as tar:
            for m in tar:
                top, _, name = m.name.partition("/")
                if top == MEMBER_DIR and name in wanted:
                    if name in found:
                        raise Refused(f"{ARCHIVE} ({where}): {m.name} occurs twice")
                    found[name] = member_bytes(tar, m, name, where)
    except (tarfile.TarError, EOFError, OSError, zlib.error) as e:
        raise Refused(f"{ARCHIVE} ({where}): not a readable .tar.gz archive ({e})") from None
    missing = sorted(wanted - set(found))
    if missing:
        raise Refused(f"{ARCHIVE} ({where}): no member {MEMBER_DIR}/{missing[0]}")
    return found


def convert(archive_path, where):
    """[(name, bytes)] of the converted files and the provenance lines."""
    members = read_members(archive_path, where)
    files, lines = [], []
    for name in BATCH_MD5:
        out, binary, line = convert_batch(name, members.pop(name))
        files.append((out, binary))
        lines.append(line)
    names = label_names(members[META])
    files.append((LABEL_NAMES, ("\n".join(names) + "\n").encode("utf-8")))
    lines.append(f"{META}: md5={META_MD5} (verified), label names {', '.join(names)} -> "
                 f"{LABEL_NAMES}\n")
    return files, lines


# ----------------------------------------------------------------- recording

def manifest_text(archive_sha256, files):
    lines = [f"{archive_sha256}  {ARCHIVE}"]
    lines += [f"{hashlib.sha256(data).hexdigest()}  {name}" for name, data in files]
    return ("\n".join(lines) + "\n").encode("ascii")


def provenance_text(where, n, md5, sha256, basis, lines):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    head = (f"CIFAR-10 (Krizhevsky 2009), python version, fetched from {where} on {now}\n"
            f"{ARCHIVE}: {n} bytes, md5={md5} (verified against the published {ARCHIVE_MD5}), "
            f"sha256={sha256} ({basis})\n"
            "Converted to CIFAR-10's binary layout (per image 1 label byte, then 3,072 bytes: "
            "the red, green and blue planes of 32 x 32, row-major):\n")
    return (head + "".join(lines)).encode("utf-8")


def already_verified(target):
    """True if SHA256SUMS lists the archive and every converted file, and
    each file matches its record."""
    try:
        recorded = downloads.read_manifest(os.path.join(target, MANIFEST))
    except Refused:
        return False
    names = [f"{b}.bin" for b in BATCH_MD5] + [LABEL_NAMES, ARCHIVE]
    if any(n not in recorded for n in names) or not os.path.isfile(
            os.path.join(target, PROVENANCE)):
        return False
    for n in names:
        sha = hashlib.sha256()
        try:
            with open(os.path.join(target, n), "rb") as f:
                for block in iter(lambda: f.read(CHUNK), b""):
                    sha.update(block)
        except OSError:
            return False
        if sha.hexdigest() != recorded[n]:
            return False
    return True


# ----------------------------------------------------------------------- main

def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", nargs="?", help="output directory (default: "
                        "$PRIVBENCH_DATA_DIR/cifar10)")
    parser.add_argument("--target-dir", help="the output directory, as the other download "
                        "scripts take it (same as the positional DIR)")
    parser.add_argument("--source-file", help="use this local cifar-10-python.tar.gz instead "
                        "of downloading (same verification)")
    parser.add_argument("--url", default=URL, help="download URL (default: the official one)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per read")
    parser.add_argument("--force", action="store_true",
                        help="fetch even if the target already holds verified files")
    args = parser.parse_args(argv)
    if args.target and args.target_dir and (os.path.abspath(args.target) !=
                                            os.path.abspath(args.target_dir)):
        parser.error(f"DIR ({args.target}) and --target-dir ({args.target_dir}) differ; give one")
    return parser, args


def fetch_and_convert(args, target):
    """Stages, verifies and converts the archive, then writes everything;
    returns the provenance text."""
    recorded = downloads.read_manifest(os.path.join(target, MANIFEST))
    tmp, where, n, md5, sha256 = stage_archive(target, args.source_file, args.url, args.timeout)
    try:
        basis = check_archive(where, n, md5, sha256, recorded)
        files, lines = convert(tmp, where)
        provenance = provenance_text(where, n, md5, sha256, basis, lines)
        downloads.write_atomically(target, files + [(MANIFEST, manifest_text(sha256, files)),
                                                    (PROVENANCE, provenance)])
        os.replace(tmp, os.path.join(target, ARCHIVE))
    finally:
        remove(tmp)
    return provenance.decode("utf-8")


def main(argv):
    parser, args = parse_args(argv)
    target = downloads.target_dir(parser, args.target or args.target_dir, "cifar10")
    if not args.force and already_verified(target):
        print(f"{target}: CIFAR-10 already present and verified (see {PROVENANCE})")
        return 0
    try:
        provenance = fetch_and_convert(args, target)
    except Refused as e:
        return downloads.refuse("download_cifar10", e, target)
    print(provenance, end="")
    print(f"{target}: {', '.join(f'{b}.bin' for b in BATCH_MD5)}, {LABEL_NAMES}, {MANIFEST}, "
          f"{PROVENANCE} and {ARCHIVE} written; run E1 on it with `bazel run "
          f"//experiments/lira_bayes_audit -- --dataset=cifar10 --data_dir={target}`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
