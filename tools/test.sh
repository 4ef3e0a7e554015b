#!/bin/bash
# The tests: set-up, the formatting check (tools/check_format.sh), the
# function-length check (tools/function_lengths.py), every test in the
# repository, the pip installs (tools/pip_install_check.sh, and
# tools/wheel_check.sh: the manylinux wheels for CPython 3.9-3.13), then the
# fuzzers for a bounded time (tools/fuzz.sh).
#   tools/test.sh [extra bazel test flags, e.g. --test_tag_filters=-statistical]
# $PRIVBENCH_BAZEL_FLAGS is passed to bazel too (CI sets --config=ci).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/check_format.sh
tools/function_lengths.py   # no function outside tests over 150 lines
read -r -a bazel_flags <<<"${PRIVBENCH_BAZEL_FLAGS:-}"
bazel test "${bazel_flags[@]}" //... "$@"
tools/pip_install_check.sh   # README "From Python": pip install ./python into a fresh venv, offline
tools/wheel_check.sh   # README "Wheels": a wheel per CPython 3.9-3.13, each with NumPy 1.26 and 2.x
tools/fuzz.sh 10   # the libFuzzer targets of tests/fuzz, 10 s each (clang)
