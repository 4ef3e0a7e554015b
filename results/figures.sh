#!/bin/bash
# Regenerates every figure from the HDF5 files alone: each study's
# experiments/<study>/figures.py reads results/raw/<study>.h5 and writes
# results/figures/<study>*.png and .svg. Studies are found by their
# figures.py (no list of names here); those whose file is missing are
# skipped. Uses Debian's python3 (matplotlib, h5py from apt); the scripts
# read the files with privbench.results (results/plots/plotting.py), from
# bazel-bin/python, built here first (with $PRIVBENCH_BAZEL_FLAGS, as
# tools/main.sh builds).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p results/figures
read -r -a bazel_flags <<<"${PRIVBENCH_BAZEL_FLAGS:-}"
if ! bazel build "${bazel_flags[@]}" //python:privbench >&2; then
  echo "figures: cannot build //python:privbench (the result reader)" >&2
  exit 1
fi
status=0
for script in experiments/*/figures.py; do
  [ -e "$script" ] || continue
  study=$(basename "$(dirname "$script")")
  raw="results/raw/$study.h5"
  if [ ! -e "$raw" ]; then
    echo "figures: skipping $study (no $raw)" >&2
    continue
  fi
  if /usr/bin/python3 "$script" "$raw" results/figures; then
    echo "figures: $study" >&2
  else
    echo "figures: $study FAILED" >&2
    status=1
  fi
done
exit $status
