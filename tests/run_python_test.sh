#!/bin/bash
# Runs a Python test with Debian's interpreter (numpy/scipy/h5py come from
# apt; the python3 on PATH may be a different installation). The workspace
# root (the runfiles directory a Bazel test starts in) goes on PYTHONPATH, so
# tests import shared helpers as `from tests import smoke`.
set -euo pipefail
script="$1"
shift
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
exec /usr/bin/python3 "$script" "$@"
