#!/bin/bash
# Installs the Opacus anchor benchmark's Python side (anchors/opacus/README.md)
# into the project-local environment .venv-anchors/: the pins of
# anchors/opacus/requirements.txt (Opacus, PyTorch 2.11.0 -- the wheel of
# privbench's LibTorch -- and their Python requirements), with
# --no-deps --require-hashes. Idempotent: a stamp holds the requirements'
# digest, and a second run only checks `import torch, opacus` and prints
# the versions.
#
#   anchors/opacus/setup.sh                  # install (or check) .venv-anchors/
#   anchors/opacus/setup.sh --download DIR   # put the opacus and opt_einsum
#                                            # wheels in DIR (hash-checked), for a
#                                            # machine without network that has
#                                            # torch 2.11.0 already
#   anchors/opacus/setup.sh --download DIR --all   # every pinned wheel
set -euo pipefail
cd "$(dirname "$0")/../.."

REQ=anchors/opacus/requirements.txt
VENV=.venv-anchors
STAMP=$VENV/privbench-anchors.sha256

usage() {
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

check_platform() {
  local platform
  platform="$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')/$(uname -m)"
  if [ "$platform" != "3.11/x86_64" ]; then
    echo "anchors setup: $REQ pins wheels for CPython 3.11 on x86_64 (Debian 12);" >&2
    echo "  this machine has Python/arch $platform: pin that platform's wheels there" >&2
    exit 1
  fi
}

# A bare venv (pip only) for `pip download`, unless one is there.
ensure_bare_venv() {
  [ -x "$VENV/bin/pip" ] || /usr/bin/python3 -m venv "$VENV"
}

download() {
  local dir=$1 all=$2 sub
  mkdir -p "$dir"
  sub=$(mktemp)
  trap 'rm -f "$sub"' RETURN
  if [ "$all" = 1 ]; then
    grep -E '^[A-Za-z]' "$REQ" >"$sub"
  else
    grep -E '^(opacus|opt_einsum)==' "$REQ" >"$sub"
  fi
  ensure_bare_venv
  if ! "$VENV/bin/pip" download -q --disable-pip-version-check --no-deps --require-hashes \
    --only-binary=:all: -d "$dir" -r "$sub" >/tmp/privbench-anchors-pip.log 2>&1; then
    echo "anchors setup: pip download failed; see /tmp/privbench-anchors-pip.log" >&2
    tail -20 /tmp/privbench-anchors-pip.log >&2
    exit 1
  fi
  echo "anchors setup: wheels in $dir:" >&2
  (cd "$dir" && sha256sum ./*.whl) >&2
  echo "On the machine without network (torch 2.11.0 installed), in its Python:" >&2
  echo "  python -m pip install --no-deps --no-index --find-links $dir opacus opt_einsum" >&2
}

install() {
  check_platform
  local digest
  digest=$(sha256sum "$REQ" | cut -d' ' -f1)
  if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$digest" ]; then
    echo "anchors setup: installing $REQ (torch 2.11.0 and its CUDA wheels, ~2.5 GB) into $VENV/" >&2
    rm -rf "$VENV"
    /usr/bin/python3 -m venv "$VENV"
    if ! "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps --require-hashes \
      -r "$REQ" >/tmp/privbench-anchors-pip.log 2>&1; then
      echo "anchors setup: pip install failed; see /tmp/privbench-anchors-pip.log" >&2
      tail -20 /tmp/privbench-anchors-pip.log >&2
      exit 1
    fi
    echo "$digest" >"$STAMP"
  fi
  "$VENV/bin/python" -c '
import torch, opacus, numpy, scipy
print("anchors setup: .venv-anchors: torch %s, opacus %s, numpy %s, scipy %s"
      % (torch.__version__, opacus.__version__, numpy.__version__, scipy.__version__))'
}

case "${1:-}" in
  "") install ;;
  --download)
    [ $# -ge 2 ] || usage
    all=0
    if [ $# -ge 3 ]; then
      if [ "$3" != --all ] || [ $# -ne 3 ]; then usage; fi
      all=1
    fi
    download "$2" "$all"
    ;;
  *) usage ;;
esac
