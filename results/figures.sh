#!/bin/bash
# Regenerates every figure from the HDF5 files alone: each study's
# experiments/<study>/figures.py reads results/raw/<study>.h5 and writes
# results/figures/<study>*.png and .svg. Studies are found by their
# figures.py (no list of names here); those whose file is missing are
# skipped. Uses Debian's python3 (matplotlib, h5py from apt).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p results/figures
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
