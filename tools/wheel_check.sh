#!/bin/bash
# The wheels as a user gets them (README "From Python", "Wheels"): builds
# one manylinux wheel per pyenv CPython 3.9-3.13 with tools/build_wheels.sh
# (into a temporary directory), then for each wheel a fresh venv of its
# interpreter (no system site packages), NumPy 1.26.4 (3.9-3.12) and then
# the newest NumPy 2.x for that interpreter (tools/wheel-test-numpy*-
# requirements.txt, exact versions with hashes), `pip install --no-index`
# of the wheel, and from outside the clone (python -I): privbench.audit on a
# fixed case with a known answer (tools/pip_install_check.sh's), the same
# audit read from .npy files, an array-valued interval (pybind11 before
# 2.12 got its strides wrong under NumPy 2), and `ldd` of the installed
# module: every library it loads is in the wheel's privbench.libs/ or one
# a manylinux system provides. Last, each wheel must be refused by the next
# interpreter's pip ("not a supported wheel on this platform").
#   tools/wheel_check.sh [--wheels=DIR]   # DIR: check wheels built before
# tools/test.sh runs it after the Bazel tests (about 3 minutes on 2 cores).
#
# NumPy comes from a wheelhouse, ${PRIVBENCH_WHEELHOUSE:-~/.cache/privbench/
# wheelhouse}: filled from PyPI on the first run (pip download, hashes
# checked), then read with --no-index, so later runs are offline. If a pinned
# NumPy is neither there nor downloadable the check fails saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

die() {
  echo "wheel_check: $*" >&2
  exit 1
}

wheels=
for arg in "$@"; do
  case "$arg" in
    --wheels=*) wheels=$(cd "${arg#--wheels=}" && pwd) ;;
    *) die "unknown argument '$arg' (usage: tools/wheel_check.sh [--wheels=DIR])" ;;
  esac
done

wheelhouse=${PRIVBENCH_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/privbench/wheelhouse}
mkdir -p "$wheelhouse"
# In memory where there is a tmpfs: a venv with NumPy is ~110 MB of small
# files, and writing and deleting them on a busy disk took longer than the check.
tmp=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# pip reads nothing but what is named here (no user find-links or cache).
unset PYTHONPATH PIP_FIND_LINKS PIP_NO_INDEX PIP_REQUIRE_VIRTUALENV
export PIP_DISABLE_PIP_VERSION_CHECK=1

start=$(date +%s)
listed=$(tools/build_wheels.sh --list-pythons) || die "tools/build_wheels.sh --list-pythons failed"
mapfile -t pythons <<<"$listed"
for minor in 9 10 11 12 13; do
  printf '%s\n' "${pythons[@]}" | grep -q "/3\.$minor\.[0-9]*/bin/python$" ||
    die "no pyenv CPython 3.$minor (tools/build_wheels.sh --list-pythons); the check needs 3.9-3.13"
done
if [ -z "$wheels" ]; then
  wheels=$tmp/dist
  tools/build_wheels.sh --out="$wheels" 2>"$tmp/build.log" ||
    { cat "$tmp/build.log" >&2; die "tools/build_wheels.sh failed"; }
fi
built=$(date +%s)

# A pinned NumPy into a venv: from the wheelhouse, else downloaded into it first.
install_numpy() {
  local venv=$1 req=$2 label=$3
  "$venv/bin/pip" install -q --no-compile --no-index --find-links "$wheelhouse" --require-hashes -r "$req" \
    >"$tmp/pip.log" 2>&1 && return 0
  if ! "$venv/bin/pip" download -q --only-binary=:all: --no-deps --require-hashes -r "$req" \
    -d "$wheelhouse" >"$tmp/pip.log" 2>&1; then
    cat "$tmp/pip.log" >&2
    die "$label: the NumPy pinned in $req is not in the wheelhouse $wheelhouse and could" \
      "not be downloaded from the package index (pip's output above); run once with PyPI reachable"
  fi
  "$venv/bin/pip" install -q --no-compile --no-index --find-links "$wheelhouse" --require-hashes -r "$req" \
    >"$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log" >&2; die "$label: pip install of $req failed"; }
}

cat >"$tmp/check.py" <<'EOF'
import os
import subprocess
import sys

import numpy as np
import privbench

venv, label = os.path.realpath(sys.argv[1]), sys.argv[2]
assert os.path.realpath(privbench.__file__).startswith(venv + os.sep), privbench.__file__
# Every library the module loads is the wheel's own or one manylinux allows.
ext = sys.modules["privbench._privbench"].__file__
system = {"linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libstdc++.so.6",
          "libgcc_s.so.1", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libresolv.so.2",
          "libz.so.1"}
for line in subprocess.run(["ldd", ext], check=True, capture_output=True, text=True).stdout.splitlines():
    name, _, where = line.strip().partition(" => ")
    name = os.path.basename(name.split()[0])
    assert "not found" not in where, line
    assert "/privbench.libs/" in where or name in system, "loaded from the system: " + line
# tools/pip_install_check.sh's audit, whose numbers are known exactly.
rng = np.random.default_rng(0)
members, others = rng.normal(2.0, 1.0, 200), rng.normal(0.0, 1.0, 200)
a = privbench.audit(members, others, alpha=0.05, delta=1e-5, methods=["clopper_pearson"])
split = a.intervals_for("split")[0]
assert abs(a["auc"] - 0.9291) < 1e-12 and abs(split["lower"] - 1.0290092753843) < 1e-9, a
np.save("members.npy", members)
np.save("others.npy", others.astype(np.float32))
b = privbench.audit("members.npy", "others.npy", alpha=0.05, delta=1e-5, methods=["clopper_pearson"])
assert abs(b["auc"] - 0.9291) < 1e-3, b
# Array in, array out (pybind11 < 2.12 under NumPy 2 returned [1.98797456] * 3).
lower, upper = privbench.interval("clopper_pearson_one_sided", tp=[90, 80, 70], fn=[10, 20, 30],
                                  fp=5, tn=95, delta=0.0, alpha=0.05)
assert upper is None and np.allclose(lower, [1.98797456, 1.83674047, 1.67131269], rtol=0, atol=1e-8), lower
print("wheel_check: %s with NumPy %s: ok (AUC %.4f, split eps >= %.4f)"
      % (label, np.__version__, a["auc"], split["lower"]))
EOF

wheel_files=()
for python in "${pythons[@]}"; do
  tag=$("$python" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
  matches=("$wheels"/privbench-*-"$tag-$tag"-manylinux_*_x86_64.whl)
  [ -f "${matches[0]}" ] && [ ${#matches[@]} -eq 1 ] ||
    die "expected one $tag manylinux wheel in $wheels, found: ${matches[*]}"
  wheel_files+=("${matches[0]}")
done

for i in "${!pythons[@]}"; do
  python=${pythons[$i]}
  wheel=${wheel_files[$i]}
  tag=$("$python" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
  minor=$("$python" -c 'import sys; print(sys.version_info[1])')
  venv=$tmp/venv-$tag
  "$python" -m venv "$venv" || die "$python -m venv failed"
  passes=("$repo/tools/wheel-test-numpy2-requirements.txt")
  [ "$minor" -le 12 ] && passes=("$repo/tools/wheel-test-numpy1-requirements.txt" "${passes[@]}")
  for req in "${passes[@]}"; do
    install_numpy "$venv" "$req" "$tag"
    # --no-index: the wheel's one requirement, numpy, is installed already.
    "$venv/bin/pip" install -q --no-compile --no-index "$wheel" >"$tmp/pip.log" 2>&1 ||
      { cat "$tmp/pip.log" >&2; die "pip install $(basename "$wheel") into a $tag venv failed"; }
    mkdir -p "$tmp/run"
    (cd "$tmp/run" && "$venv/bin/python" -I "$tmp/check.py" "$venv" "$(basename "$wheel")") ||
      die "$(basename "$wheel") failed its check"
  done
  # The next interpreter's wheel is refused here.
  other=${wheel_files[$(((i + 1) % ${#wheel_files[@]}))]}
  if "$venv/bin/pip" install --no-index --no-deps "$other" >"$tmp/pip.log" 2>&1; then
    die "pip installed $(basename "$other") into a $tag venv"
  fi
  grep -q "is not a supported wheel on this platform" "$tmp/pip.log" ||
    { cat "$tmp/pip.log" >&2; die "pip refused $(basename "$other") for another reason"; }
  rm -rf "$venv"
done
echo "wheel_check: ${#pythons[@]} wheels, each refused by the next interpreter's pip: ok;" \
  "$((built - start)) s building, $(($(date +%s) - built)) s checking" >&2
