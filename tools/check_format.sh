#!/bin/bash
# Fails (exit 1) when a C++ file of the repository differs from what
# clang-format makes of it under the committed .clang-format (Google style,
# 100 columns), listing the files. Fix with:
#   git ls-files '*.cc' '*.h' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cc' '*.h')
else
  mapfile -t files < <(find . \( -path ./bazel-\* -o -path ./.venv \) -prune -o \( -name '*.cc' -o -name '*.h' \) -print)
fi
unformatted=()
for f in "${files[@]}"; do
  [ -e "$f" ] || continue
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    unformatted+=("$f")
  fi
done
if [ ${#unformatted[@]} -gt 0 ]; then
  echo "check_format: ${#unformatted[@]} file(s) not clang-formatted:" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  echo "fix: clang-format -i <file>  (style: .clang-format)" >&2
  exit 1
fi
echo "check_format: ${#files[@]} C++ files formatted" >&2
