"""Writes privbench's wheel (PEP 427) with zipfile: the one place a wheel is made.

The //python:wheel genrule runs it on the Bazel-built package files;
the in-tree PEP 517 backend (privbench_backend.py) builds that genrule and
uses the functions below for the metadata and the file name, so a wheel
from `bazel build //python:wheel` and one from `pip install ./python` are
the same bytes.

    privbench_wheel.py --pyproject python/pyproject.toml --out privbench.whl \\
        [--tag cp39-cp39-linux_x86_64] <files of the package, each .../privbench/<name>>

The output has a fixed name (Bazel needs it before the build); pip needs
the canonical one, privbench-<version>-<tag>.whl, which canonical_name()
reads back from the wheel. The tag is that of the interpreter running this
script: the genrule runs Debian's /usr/bin/python3, whose headers the
extension is compiled against (cp311-cp311-linux_x86_64 on bookworm/amd64).
tools/build_wheels.sh passes --tag for the interpreter it compiled the
extension for (the wheels for CPython 3.9-3.13, before auditwheel repairs
them into manylinux wheels).
Entries are sorted and dated 1980-01-01 so the same inputs give the same
bytes (Bazel's cache and reproducible wheels).
"""
import argparse
import base64
import hashlib
import os
import sys
import sysconfig
import tomllib
import zipfile

PACKAGE = "privbench"
_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip entry can carry
_GENERATOR = "privbench_wheel (python/build_backend)"


def read_project(pyproject_path):
    """The [project] table of pyproject.toml: name, version, description, ..."""
    with open(pyproject_path, "rb") as f:
        project = tomllib.load(f)["project"]
    for key in ("name", "version"):
        if key not in project:
            raise ValueError("%s: [project] has no %s" % (pyproject_path, key))
    return project


def interpreter_tag():
    """The wheel tag of the running CPython, e.g. cp311-cp311-linux_x86_64.

    The extension module uses the full (not the limited) C API, so the
    interpreter and ABI tags are both cpXY; the platform tag is what pip
    itself derives from sysconfig.
    """
    if sys.implementation.name != "cpython":
        raise RuntimeError("privbench's extension module needs CPython, not %s"
                           % sys.implementation.name)
    python = "cp%d%d" % sys.version_info[:2]
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "%s-%s-%s" % (python, python, platform)


def dist_info(project):
    """The .dist-info directory name (PEP 427: '-' in the name becomes '_')."""
    return "%s-%s.dist-info" % (project["name"].replace("-", "_"), project["version"])


def metadata_text(project):
    """METADATA (core metadata 2.1) from pyproject's [project] table."""
    lines = ["Metadata-Version: 2.1", "Name: " + project["name"],
             "Version: " + project["version"]]
    if "description" in project:
        lines.append("Summary: " + project["description"])
    if "requires-python" in project:
        lines.append("Requires-Python: " + project["requires-python"])
    lines += ["Requires-Dist: " + d for d in project.get("dependencies", [])]
    for extra, requirements in sorted(project.get("optional-dependencies", {}).items()):
        lines.append("Provides-Extra: " + extra)
        lines += ['Requires-Dist: %s; extra == "%s"' % (r, extra) for r in requirements]
    return "\n".join(lines) + "\n"


def wheel_text(tag):
    """WHEEL: not pure Python (it holds a compiled module), one tag."""
    return ("Wheel-Version: 1.0\nGenerator: %s\nRoot-Is-Purelib: false\nTag: %s\n"
            % (_GENERATOR, tag))


def record_line(arcname, data):
    """One RECORD row: path, urlsafe base64 sha256 without padding, size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "%s,sha256=%s,%d" % (arcname, digest.decode("ascii"), len(data))


def _package_entries(files):
    """(archive name, bytes, mode) for each package file, named privbench/<base>."""
    entries = []
    for path in sorted(files, key=os.path.basename):
        with open(path, "rb") as f:
            data = f.read()
        mode = 0o755 if path.endswith(".so") else 0o644
        entries.append(("%s/%s" % (PACKAGE, os.path.basename(path)), data, mode))
    names = [e[0] for e in entries]
    if len(set(names)) != len(names):
        raise ValueError("two package files share a name: %s" % names)
    return entries


def _add(zf, arcname, data, mode):
    info = zipfile.ZipInfo(arcname, date_time=_EPOCH)
    info.external_attr = (0o100000 | mode) << 16  # a regular file with these permissions
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def write_wheel(out_path, files, project, tag):
    """Writes the wheel of `files` (the package's modules) to out_path."""
    info_dir = dist_info(project)
    entries = _package_entries(files)
    entries.append((info_dir + "/METADATA", metadata_text(project).encode("utf-8"), 0o644))
    entries.append((info_dir + "/WHEEL", wheel_text(tag).encode("utf-8"), 0o644))
    record = [record_line(name, data) for name, data, _ in entries]
    record.append(info_dir + "/RECORD,,")  # RECORD cannot hash itself
    entries.append((info_dir + "/RECORD", ("\n".join(record) + "\n").encode("utf-8"), 0o644))
    with zipfile.ZipFile(out_path, "w") as zf:
        for name, data, mode in entries:
            _add(zf, name, data, mode)


def _dist_info_file(zf, base):
    matches = [n for n in zf.namelist() if n.endswith(".dist-info/" + base)]
    if len(matches) != 1:
        raise ValueError("%s: expected one .dist-info/%s, found %d"
                         % (zf.filename, base, len(matches)))
    return zf.read(matches[0]).decode("utf-8")


def _field(text, key):
    for line in text.splitlines():
        if line.startswith(key + ": "):
            return line[len(key) + 2:]
    raise ValueError("no %s field" % key)


def canonical_name(wheel_path):
    """The file name pip requires for this wheel: <name>-<version>-<tag>.whl."""
    with zipfile.ZipFile(wheel_path) as zf:
        metadata = _dist_info_file(zf, "METADATA")
        tag = _field(_dist_info_file(zf, "WHEEL"), "Tag")
    return "%s-%s-%s.whl" % (_field(metadata, "Name").replace("-", "_"),
                             _field(metadata, "Version"), tag)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pyproject", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--tag", help="the wheel's tag (tools/build_wheels.sh: the target "
                        "interpreter's, e.g. cp39-cp39-linux_x86_64); default: this one's")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    write_wheel(args.out, args.files, read_project(args.pyproject),
                args.tag or interpreter_tag())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
