#!/usr/bin/python3
"""Lists C++ functions longer than a limit (default 150 lines), tests excluded.

    tools/function_lengths.py [--limit=N] [--all]

A function is a definition that starts at column 0 (Google style does not
indent namespace bodies) with a line ending in '{' and ends at the next
line that is exactly '}'. Files named *_test.cc and the tests/ package are
skipped. Exit 1 when a function is over the limit (tools/test.sh runs it).
"""
import os
import re
import subprocess
import sys

START = re.compile(r"^[A-Za-z_][^;{}]*\)[^;{}]*\{\s*$")
SKIP = re.compile(r"^(namespace|class|struct|enum|union|extern|template\s*<[^>]*>\s*(class|struct))\b")


def functions(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        # A signature may span several lines: join until '{' or ';'.
        if re.match(r"^[A-Za-z_]", line) and not SKIP.match(line):
            j, sig = i, line
            while not sig.rstrip().endswith(("{", ";", "}")) and j + 1 < len(lines) and j - i < 8:
                j += 1
                sig += " " + lines[j].strip()
            if START.match(sig) and "=" not in sig.split("(")[0]:
                k = j + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                yield sig.split("(")[0].split()[-1], i + 1, k - i + 1
                i = k
        i += 1


def main():
    limit = 150
    show_all = "--all" in sys.argv
    for a in sys.argv[1:]:
        if a.startswith("--limit="):
            limit = int(a.split("=", 1)[1])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                            "*.cc"], cwd=root, capture_output=True, text=True).stdout.split()
    over = []
    for rel in files:
        if rel.endswith("_test.cc") or rel.startswith("tests/") or not os.path.exists(
                os.path.join(root, rel)):
            continue
        for name, line, length in functions(os.path.join(root, rel)):
            if length > limit or show_all:
                over.append((length, f"{rel}:{line}", name))
    for length, where, name in sorted(over, reverse=True):
        print(f"{length:5d}  {where}  {name}")
    long_ones = [o for o in over if o[0] > limit]
    if long_ones:
        print(f"function_lengths: {len(long_ones)} function(s) over {limit} lines", file=sys.stderr)
        sys.exit(1)
    print(f"function_lengths: no function over {limit} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
