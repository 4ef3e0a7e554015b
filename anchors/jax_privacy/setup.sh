#!/bin/bash
# Installs the jax_privacy anchor benchmark's Python side
# (anchors/jax_privacy/README.md) into .venv-anchors/jax_privacy/ (git-ignored,
# inside the Opacus anchor's .venv-anchors/; a separate venv because
# jax 0.10 needs NumPy 2 and Opacus' pins are another set): the pins of
# anchors/jax_privacy/requirements.txt (jax-privacy, CPU-only jax/jaxlib and
# their requirements) with --no-deps --require-hashes, then privbench itself
# as a wheel of tools/build_wheels.sh for that venv's interpreter (Bazel;
# $PRIVBENCH_BAZEL_FLAGS is passed on, e.g. --config=ci to reuse that cache).
# Idempotent: a stamp holds the requirements' digest; the privbench wheel is
# rebuilt and reinstalled on every run (cheap when Bazel's cache is warm).
#
#   anchors/jax_privacy/setup.sh                     # pins + privbench wheel
#   anchors/jax_privacy/setup.sh --no-privbench      # pins only
#   anchors/jax_privacy/setup.sh --wheel=FILE.whl    # pins + this privbench wheel
#
# Note: anchors/opacus/setup.sh recreates .venv-anchors/ (and so removes this
# venv) when its own stamp is missing or stale; run this script again then.
set -euo pipefail
cd "$(dirname "$0")/../.."

REQ=anchors/jax_privacy/requirements.txt
VENV=.venv-anchors/jax_privacy
STAMP=$VENV/privbench-anchors-jax.sha256
WHEEL_DIR=${PRIVBENCH_WHEEL_DIR:-/tmp/pbwheel}

usage() {
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

privbench=build
wheel=
for arg in "$@"; do
  case "$arg" in
    --no-privbench) privbench=no ;;
    --wheel=*) privbench=given wheel=${arg#--wheel=} ;;
    *) usage ;;
  esac
done

platform="$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')/$(uname -m)"
if [ "$platform" != "3.11/x86_64" ]; then
  echo "anchors/jax_privacy setup: $REQ pins wheels for CPython 3.11 on x86_64;" >&2
  echo "  this machine has Python/arch $platform: pin that platform's wheels there" >&2
  exit 1
fi

digest=$(sha256sum "$REQ" | cut -d' ' -f1)
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$digest" ]; then
  echo "anchors/jax_privacy setup: installing $REQ (~150 MB) into $VENV/" >&2
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  /usr/bin/python3 -m venv "$VENV"
  if ! "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps --require-hashes \
    -r "$REQ" >/tmp/privbench-anchors-jax-pip.log 2>&1; then
    echo "anchors/jax_privacy setup: pip install failed; see /tmp/privbench-anchors-jax-pip.log" >&2
    tail -20 /tmp/privbench-anchors-jax-pip.log >&2
    exit 1
  fi
  echo "$digest" >"$STAMP"
fi

case "$privbench" in
  build)
    mkdir -p "$WHEEL_DIR"
    rm -f "$WHEEL_DIR"/privbench-*.whl
    tools/build_wheels.sh --python="$PWD/$VENV/bin/python" --out="$WHEEL_DIR" >&2
    wheel=$(ls "$WHEEL_DIR"/privbench-*.whl)
    ;;
esac
if [ "$privbench" != no ]; then
  # --no-deps: NumPy is the pinned one (the wheel's pybind11 2.13 supports NumPy 2).
  "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps --force-reinstall "$wheel"
fi

JAX_PLATFORMS=cpu "$VENV/bin/python" -c '
import importlib.metadata as md
import jax, jaxlib, numpy, scipy
from jax_privacy import auditing
print("anchors/jax_privacy setup: %s: jax %s, jaxlib %s, jax-privacy %s, numpy %s, scipy %s, devices %s"
      % ("'"$VENV"'", jax.__version__, jaxlib.__version__, md.version("jax-privacy"),
         numpy.__version__, scipy.__version__, jax.devices()))
try:
    import privbench
    print("anchors/jax_privacy setup: privbench %s from %s" % (md.version("privbench"), privbench.__file__))
except ImportError as e:
    print("anchors/jax_privacy setup: no privbench (%s)" % e)'
