#!/bin/bash
# The README's install, end to end and offline: a fresh venv
# (/usr/bin/python3 -m venv --system-site-packages), `pip install --no-index
# ./python` from this clone (python/pyproject.toml's in-tree backend runs
# Bazel to build //python:wheel), then `import privbench` from outside the
# clone and privbench.audit on a small example. Exit 1 with pip's or
# Python's output on any failure. tools/test.sh runs it after the Bazel
# tests, so the build is cached and this takes seconds (about 15 s here).
# //python:pip_install_test checks the same wheel inside Bazel; only this
# script runs pip's build through the backend and the real Bazel.
#   tools/pip_install_check.sh
# $PRIVBENCH_BAZEL_FLAGS reaches Bazel through the backend (CI: --config=ci).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# No user pip configuration, cache or index: everything comes from here.
export PIP_CONFIG_FILE=/dev/null PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
unset PYTHONPATH

start=$(date +%s)
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
if ! "$tmp/venv/bin/pip" install --no-index "$repo/python" >"$tmp/pip.log" 2>&1; then
  echo "pip_install_check: pip install --no-index ./python failed:" >&2
  cat "$tmp/pip.log" >&2
  exit 1
fi

cd "$tmp"   # outside the clone: only the installed copy can be imported
"$tmp/venv/bin/python" - "$tmp/venv" <<'EOF'
import os
import sys

import numpy as np
import privbench

venv = os.path.realpath(sys.argv[1])
assert os.path.realpath(privbench.__file__).startswith(venv + os.sep), privbench.__file__
rng = np.random.default_rng(0)
a = privbench.audit(rng.normal(2.0, 1.0, 200), rng.normal(0.0, 1.0, 200), alpha=0.05,
                    delta=1e-5, methods=["clopper_pearson"])
split = a.intervals_for("split")[0]
assert 0.85 < a["auc"] < 0.99 and split["lower"] > 0.5, a
print(a)
EOF
echo "pip_install_check: pip install ./python into a fresh venv, import and audit:" \
  "ok in $(($(date +%s) - start)) s" >&2
