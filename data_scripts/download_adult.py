#!/usr/bin/python3
"""Fetch UCI Adult (adult.data, adult.test) and verify it (stdlib only).

For users with internet: downloads both files from the UCI repository,
checks the pinned SHA-256 and MD5 digests (the UCI originals, as pinned in
data_scripts/adult.h) and the record counts, and
only then moves them into the target directory. A missing, corrupt or
truncated file is refused with a message and nothing is written: files are
first written to temporary names in the target directory and renamed
(atomic on POSIX) once both have been verified.

    /usr/bin/python3 data_scripts/download_adult.py --target-dir DIR
    /usr/bin/python3 data_scripts/download_adult.py --target-dir DIR \
        --source-dir SRC      # offline: copy from a local copy and verify

Without --target-dir, $PRIVBENCH_DATA_DIR/adult is used. Exit status: 0 on
success (or if the target already holds verified copies), 1 on a refused or
unavailable file, 2 on bad arguments.
"""

import argparse
import hashlib
import os
import sys
import tempfile
import urllib.error
import urllib.request

UCI_BASE_URL = "https://archive.ics.uci.edu/ml/machine-learning-databases/adult/"

# name -> (sha256, md5, records). MD5s as published with the UCI files (and
# pinned by many loaders); SHA-256 computed from the same bytes.
PINNED = {
    "adult.data": (
        "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
        "5d7c39d7b8804f071cdd1f2a7c460872",
        32561,
    ),
    "adult.test": (
        "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
        "35238206dfdf7f1fe215bbb874adecdc",
        16281,
    ),
}

MAX_BYTES = 64 << 20  # refuse anything absurdly large before hashing


class Refused(Exception):
    """A file that must not be used; the message says why."""


def fetch(name, source_dir, base_url, timeout):
    if source_dir is not None:
        path = os.path.join(source_dir, name)
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
        except OSError as e:
            raise Refused(f"{name}: cannot read {path}: {e.strerror}") from None
        where = path
    else:
        url = base_url + name
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                data = r.read(MAX_BYTES + 1)
        except (urllib.error.URLError, OSError) as e:
            raise Refused(f"{name}: download from {url} failed: {e}") from None
        where = url
    if len(data) > MAX_BYTES:
        raise Refused(f"{name}: more than {MAX_BYTES} bytes from {where}")
    return data, where


def verify(name, data, where):
    sha256, md5, records = PINNED[name]
    got = hashlib.sha256(data).hexdigest()
    if got != sha256:
        raise Refused(
            f"{name} ({where}, {len(data)} bytes): SHA-256 mismatch: expected {sha256}, "
            f"got {got}; the file is corrupt, truncated or a different version")
    got = hashlib.md5(data).hexdigest()
    if got != md5:
        raise Refused(f"{name} ({where}): MD5 mismatch: expected {md5}, got {got}")
    # Redundant with the digests, but states what the files are.
    lines = [l for l in data.decode("ascii").split("\n") if l.strip()]
    if name == "adult.test" and lines and lines[0].startswith("|"):
        lines = lines[1:]
    if len(lines) != records:
        raise Refused(f"{name}: expected {records} records, got {len(lines)}")


def already_verified(target_dir):
    for name in PINNED:
        path = os.path.join(target_dir, name)
        try:
            with open(path, "rb") as f:
                verify(name, f.read(MAX_BYTES + 1), path)
        except (OSError, Refused, UnicodeDecodeError):
            return False
    return True


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target-dir", help="where to put adult.data and adult.test "
                        "(default: $PRIVBENCH_DATA_DIR/adult)")
    parser.add_argument("--source-dir", help="copy from this local directory instead of "
                        "downloading (same verification)")
    parser.add_argument("--base-url", default=UCI_BASE_URL, help="download base URL")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per download")
    parser.add_argument("--force", action="store_true",
                        help="fetch even if the target already holds verified copies")
    args = parser.parse_args(argv)

    target = args.target_dir
    if target is None:
        env = os.environ.get("PRIVBENCH_DATA_DIR")
        if not env:
            parser.error("give --target-dir or set PRIVBENCH_DATA_DIR")
            return 2
        target = os.path.join(env, "adult")
    os.makedirs(target, exist_ok=True)

    if not args.force and already_verified(target):
        print(f"{target}: adult.data and adult.test already present and verified")
        return 0

    temps = []
    try:
        staged = []
        for name in PINNED:
            data, where = fetch(name, args.source_dir, args.base_url, args.timeout)
            try:
                verify(name, data, where)
            except UnicodeDecodeError:
                raise Refused(f"{name} ({where}): not ASCII text") from None
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".partial", dir=target)
            temps.append(tmp)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            staged.append((tmp, os.path.join(target, name)))
            print(f"{name}: verified sha256={PINNED[name][0]} md5={PINNED[name][1]} ({where})")
        for tmp, final in staged:
            os.replace(tmp, final)
            temps.remove(tmp)
    except Refused as e:
        print(f"download_adult: REFUSED: {e}; nothing was written to {target}",
              file=sys.stderr)
        return 1
    finally:
        for tmp in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    print(f"{target}: adult.data and adult.test written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
