#!/bin/bash
# Runs the libFuzzer targets of tests/fuzz for a bounded time each.
#   tools/fuzz.sh [seconds per fuzzer, default 10]
# Builds them with --config=fuzz (clang + libFuzzer + ASan + UBSan; see
# .bazelrc and tools/clang/BUILD), then runs each from a scratch copy of its
# seed corpus (tests/fuzz/corpus/<name>; the repository's copy is never
# modified) with a fixed seed. A crash, sanitizer report or oracle failure
# exits non-zero and leaves the reproducer (crash-*) in the scratch
# directory, whose path is printed. tools/test.sh runs it for 10 s each.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
bazel build --config=fuzz //tests/fuzz:cli_line_fuzzer //tests/fuzz:result_reader_fuzzer \
  //tests/fuzz:score_file_fuzzer
bin="$(bazel info --config=fuzz bazel-bin 2>/dev/null)/tests/fuzz"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/privbench_fuzz.XXXXXX")"
for name in cli_line result_reader score_file; do
  mkdir -p "$scratch/$name"
  cp tests/fuzz/corpus/"$name"/* "$scratch/$name/"
  echo "fuzz: $name for ${seconds}s (scratch: $scratch/$name)"
  (cd "$scratch" && TEST_TMPDIR="$scratch" "$bin/${name}_fuzzer" -seed=1 -max_len=4096 \
    -max_total_time="$seconds" -print_final_stats=1 "$scratch/$name" 2>"$scratch/$name.log") || {
    tail -40 "$scratch/$name.log"
    echo "fuzz: $name FAILED; reproducer and log in $scratch" >&2
    exit 1
  }
  grep -E "^stat::number_of_executed_units" "$scratch/$name.log" | sed "s/^/fuzz: $name /"
done
rm -rf "$scratch"
echo "fuzz: no crash, sanitizer report or oracle failure"
