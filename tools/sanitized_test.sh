#!/bin/bash
# The non-statistical tests under AddressSanitizer + UndefinedBehaviorSanitizer.
#   tools/sanitized_test.sh [bazel test arguments: targets, flags; default //...]
# Builds with --config=asan (.bazelrc: GCC's -fsanitize=address,undefined,
# every UBSan finding fatal; its own output directory, so the normal build
# is not disturbed) and runs every test not tagged `statistical` (their
# Monte-Carlo loops are slow under ASan and add no new code paths).
# Expect a full rebuild the first time (tens of minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(//...)
read -r -a bazel_flags <<<"${PRIVBENCH_BAZEL_FLAGS:-}"
bazel test "${bazel_flags[@]}" --config=asan --test_tag_filters=-statistical \
  --test_timeout=600,1800,3600,7200 "${args[@]}"
