#!/bin/bash
# The result files must be readable with h5py without privbench's code.
set -euo pipefail
out="${TEST_TMPDIR:-/tmp}/h5py_check.h5"
"$1" "$out"
/usr/bin/python3 - "$out" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    meta = f["meta"].attrs
    assert meta["study"] == "h5py_check", meta["study"]
    assert int(meta["format_version"]) == 2
    checksum = meta["checksum"]
    assert (checksum.decode() if isinstance(checksum, bytes) else checksum).startswith("sha256:")
    assert list(f["raw/eps_lo"][...]) == [0.25, 0.5]
    assert [s.decode() if isinstance(s, bytes) else s for s in f["raw/method"][...]] == ["cp", "bayesian"]
    cols = f["summary/t"].attrs["columns"].split(",")
    assert cols == ["method", "eps_lo"], cols
    assert int(f["claims/c"].attrs["holds"]) == 1
print("h5py reads the result file")
PY
