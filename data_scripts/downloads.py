"""What the download scripts share (stdlib only): fetching a file from a
local copy or a URL with a size cap, checking it against pinned digests and
an optional byte count, and writing a set of verified files atomically.

Used by download_adult.py, download_purchase100.py and download_uci_audit.py
(each imports it from its own directory). The rule every script follows: a
file that fails a check is refused with a message naming it (Refused), and
nothing is written; verified files are staged under temporary names in the
target directory, fsynced, and only then renamed over the final names
(os.replace, atomic on POSIX); a refusal or any error removes the temporaries.
"""

import hashlib
import os
import re
import sys
import tempfile
import urllib.error
import urllib.request

MAX_BYTES = 64 << 20  # refuse anything absurdly large before hashing


class Refused(Exception):
    """A file that must not be used; the message says which and why."""


def read_local(label, path, max_bytes=MAX_BYTES):
    """(bytes, path) of a local copy; Refused if unreadable or too large."""
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise Refused(f"{label}: cannot read {path}: {e.strerror}") from None
    if len(data) > max_bytes:
        raise Refused(f"{label}: more than {max_bytes} bytes in {path}")
    return data, path


def download(label, urls, timeout, max_bytes=MAX_BYTES):
    """(bytes, url) from the first URL that answers; Refused naming every
    failure otherwise."""
    errors = []
    for url in urls:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                data = r.read(max_bytes + 1)
        except (urllib.error.URLError, OSError) as e:
            errors.append(f"download from {url} failed: {e}")
            continue
        if len(data) > max_bytes:
            errors.append(f"more than {max_bytes} bytes from {url}")
            continue
        return data, url
    raise Refused(f"{label}: " + "; ".join(errors))


def check_pinned(label, data, where, sha256, size=None, md5=None):
    """Refused unless `data` (from `where`) has the pinned SHA-256 (required),
    byte count and MD5 (each checked when given)."""
    if not sha256:
        raise Refused(f"{label}: no pinned SHA-256; refusing to trust it")
    if size is not None and len(data) != size:
        raise Refused(f"{label} ({where}): {len(data)} bytes, expected {size}; "
                      "truncated or a different version")
    got = hashlib.sha256(data).hexdigest()
    if got != sha256:
        raise Refused(f"{label} ({where}, {len(data)} bytes): SHA-256 mismatch: expected "
                      f"{sha256}, got {got}; the file is corrupt, truncated or a different "
                      "version")
    if md5:
        got = hashlib.md5(data).hexdigest()
        if got != md5:
            raise Refused(f"{label} ({where}): MD5 mismatch: expected {md5}, got {got}")


def write_atomically(target, files):
    """files: [(name, bytes)]. All are staged in `target` first, then renamed
    over their final names; on any error no temporary is left behind."""
    temps = []
    try:
        staged = []
        for name, data in files:
            fd, tmp = tempfile.mkstemp(prefix=".staged.", suffix=".partial", dir=target)
            temps.append(tmp)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            staged.append((tmp, os.path.join(target, name)))
        for tmp, final in staged:
            os.replace(tmp, final)
            temps.remove(tmp)
    finally:
        for tmp in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def read_manifest(path):
    """{file name: sha256} from a sha256sum-format file (SHA256SUMS); {} if absent."""
    try:
        with open(path, encoding="ascii") as f:
            text = f.read()
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise Refused(f"cannot read {path}: {e}") from None
    out = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = re.fullmatch(r"([0-9a-f]{64}) [ *](.+)", line)
        if not m:
            raise Refused(f"{path} line {n}: expected '<64 hex digits>  <file name>'")
        out[m.group(2)] = m.group(1)
    return out


def add_fetch_args(parser, base_url):
    """--source-dir, --base-url, --timeout and --force, as the per-file
    scripts (Adult, the UCI audit files) take them."""
    parser.add_argument("--source-dir", help="copy from this local directory instead of "
                        "downloading (same verification)")
    parser.add_argument("--base-url", default=base_url, help="download base URL")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per download")
    parser.add_argument("--force", action="store_true",
                        help="fetch even if the target already holds verified copies")


def target_dir(parser, given, subdir):
    """--target-dir, else $PRIVBENCH_DATA_DIR/<subdir> (created); a parser
    error (exit 2) when neither is set."""
    target = given
    if target is None:
        env = os.environ.get("PRIVBENCH_DATA_DIR")
        if not env:
            parser.error("give --target-dir or set PRIVBENCH_DATA_DIR")
        target = os.path.join(env, subdir)
    os.makedirs(target, exist_ok=True)
    return target


def refuse(script, error, target):
    """Prints the refusal (naming the file, via the message) and returns 1."""
    print(f"{script}: REFUSED: {error}; nothing was written to {target}", file=sys.stderr)
    return 1
