#!/bin/bash
# A binary built inside a git checkout reports that checkout's commit
# (core/provenance.h), from the bytes stamped into it: it is run directly,
# from another directory and without BUILD_WORKSPACE_DIRECTORY, as a binary
# started from bazel-bin/ would be. Outside a git checkout (or without git)
# the test says so and only checks that the binary reports "unknown".
#
# Usage: provenance_test.sh <path of //core:provenance_info>
set -euo pipefail
bin=$(readlink -f "$1")
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

out=$(cd / && env -u BUILD_WORKSPACE_DIRECTORY -u BUILD_WORKING_DIRECTORY "$bin")
commit=$(sed -n 's/^commit //p' <<<"$out")
dirty=$(sed -n 's/^dirty //p' <<<"$out")
echo "provenance_info: commit=$commit dirty=$dirty"
[[ "$dirty" == 0 || "$dirty" == 1 ]] || fail "dirty must be 0 or 1, got '$dirty'"

# The source tree the test was built from (its runfiles link back to it);
# a git checkout if its root is the top of one (as tools/workspace_status.sh).
src_dir=$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")
if ! command -v git >/dev/null 2>&1 ||
  [[ "$(git -C "$src_dir" rev-parse --show-toplevel 2>/dev/null)" != "$src_dir" ]] ||
  ! git -C "$src_dir" rev-parse --verify --quiet HEAD >/dev/null 2>&1; then
  echo "SKIP: not built inside a git checkout (or git is missing): $src_dir;" \
    "only checking that the binary reports 'unknown'"
  [[ "$commit" == unknown ]] || fail "expected commit 'unknown' outside a git checkout, got '$commit'"
  exit 0
fi

[[ "$commit" != unknown ]] || fail "built inside the git checkout $src_dir but the commit is 'unknown'"
[[ "$commit" =~ ^[0-9a-f]{40}$ ]] || fail "commit is not 40 hex digits: '$commit'"
git -C "$src_dir" cat-file -e "$commit^{commit}" 2>/dev/null ||
  fail "commit $commit is not a commit of the checkout $src_dir"
grep -qF "$commit" "$bin" || fail "commit $commit is not stored in the binary $bin"
head=$(git -C "$src_dir" rev-parse HEAD)
if [[ "$commit" == "$head" ]]; then
  echo "PASS: the binary reports HEAD $head of $src_dir"
else
  # A commit made between the build and this test: not an error.
  echo "PASS: the binary reports $commit, a commit of $src_dir (HEAD is now $head)"
fi
