#!/usr/bin/env python3
"""Checks the quick-scale numbers quoted in the study docs against the result files.

    tools/doc_numbers.py [--root DIR] [--raw_dir DIR]

A number in experiments/<study>/README.md is tied to the study's result
file by an HTML comment right after it (invisible when rendered):

    the Bayesian interval is (0.338<!-- h5: f("numbers/x_lower")[0] -->, ...)

A number from the study's paper-scale shelf file (experiments/<study>/paper/
<study>.h5, README "The paper-scale shelf") is tied the same way with
`shelf:` instead of `h5:`; that file is in the repository, so its ties are
always checked (its scale must be paper).

The expression is Python over `f(path)` (the dataset at `path` of
results/raw/<study>.h5 as a numpy array), `row(table, column, key=value,
...)` (the one value of a summary table's column on the row matching the
keys), `np` and the builtins min, max, abs, len, sum, round. The quoted number must equal the value rounded to the
quoted digits (|value - quoted| <= half a unit of its last digit). Files
that are not the docs' reference run (scale quick, seed 20231121) are
skipped, saying so; a tied number whose file is missing is reported as
unchecked. Exit 1 when a quoted number differs from its file (the docs
drifted), 2 on a malformed tie. Run by tools/main.sh after the studies.
"""
import argparse
import glob
import math
import os
import re
import sys

import h5py
import numpy as np

TIE = re.compile(r"(-?\d[\d,]*(?:\.\d+)?)(%?)<!-- (h5|shelf): (.+?) -->")
REFERENCE_RUN = ("quick", "20231121")


def text(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def half_unit(printed):
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return 0.5 * 10.0 ** (-decimals)


def evaluate(expression, h5):
    def dataset(path):
        if path not in h5:
            raise KeyError(f"no dataset '{path}'")
        return h5[path][()]
    def row(table, column, **where):
        """The one value of /<table>/<column> on the row whose other columns
        equal `where` (strings compared as text)."""
        mask = None
        for key, want in where.items():
            values = dataset(f"{table}/{key}")
            hit = np.array([text(v) == str(want) if isinstance(v, (bytes, str)) else v == want
                            for v in values])
            mask = hit if mask is None else mask & hit
        picked = dataset(f"{table}/{column}")[mask]
        if len(picked) != 1:
            raise KeyError(f"{len(picked)} rows of {table} match {where}")
        return picked[0]
    scope = {"__builtins__": {}, "f": dataset, "row": row, "np": np, "min": min, "max": max,
             "abs": abs, "len": len, "sum": sum, "round": round}
    return float(eval(expression, scope))  # expressions are the repository's own docs


def check_ties(path, ties, h5):
    """The drifted ties of one README against one open result file."""
    drifted = []
    for line_no, m in ties:
        printed, percent, expression = m.group(1).replace(",", ""), m.group(2), m.group(4)
        try:
            value = evaluate(expression, h5)
        except Exception as e:  # a malformed tie is the docs' error: name it
            raise SystemExit(f"{path}:{line_no}: cannot evaluate '{expression}': {e}")
        if percent:
            value *= 100.0
        if not (math.isfinite(value) and abs(value - float(printed)) <= half_unit(printed) + 1e-12):
            drifted.append(f"{path}:{line_no}: quoted {m.group(1)}{percent}, the file gives "
                           f"{value:.6g} ({expression})")
    return drifted


def check_quick_ties(path, ties, raw):
    """(checked, drifted, notes) of the h5: ties against the reference run."""
    if not os.path.exists(raw):
        return 0, [], [f"{path}: {len(ties)} tied numbers unchecked (no {raw})"]
    with h5py.File(raw, "r") as h5:
        run = (text(h5["meta"].attrs.get("scale", "")), text(h5["meta"].attrs.get("seed", "")))
        if run != REFERENCE_RUN:
            return 0, [], [f"{path}: skipped ({raw} is scale {run[0]}, seed {run[1]}; the docs "
                           f"quote scale {REFERENCE_RUN[0]}, seed {REFERENCE_RUN[1]})"]
        return len(ties), check_ties(path, ties, h5), []


def check_shelf_ties(path, ties, shelf):
    """(checked, drifted, notes) of the shelf: ties against the shelf file."""
    if not os.path.exists(shelf):
        raise SystemExit(f"{path}: {len(ties)} numbers tied to {shelf}, which does not exist")
    with h5py.File(shelf, "r") as h5:
        scale = text(h5["meta"].attrs.get("scale", ""))
        if scale != "paper":
            raise SystemExit(f"{path}: {shelf} is scale {scale}, not a paper-scale shelf file")
        return len(ties), check_ties(path, ties, h5), []


def check_readme(path, raw_dir):
    """(checked, drifted, notes) of one study README."""
    study = os.path.basename(os.path.dirname(path))
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    ties = [(n + 1, m) for n, line in enumerate(lines) for m in TIE.finditer(line)]
    quick = [t for t in ties if t[1].group(3) == "h5"]
    shelf = [t for t in ties if t[1].group(3) == "shelf"]
    checked, drifted, notes = 0, [], []
    if quick:
        c, d, n = check_quick_ties(path, quick, os.path.join(raw_dir, f"{study}.h5"))
        checked, drifted, notes = checked + c, drifted + d, notes + n
    if shelf:
        c, d, n = check_shelf_ties(
            path, shelf, os.path.join(os.path.dirname(path), "paper", f"{study}.h5"))
        checked, drifted, notes = checked + c, drifted + d, notes + n
    return checked, drifted, notes


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    p.add_argument("--raw_dir", default=None)
    a = p.parse_args()
    root = os.path.abspath(a.root)
    raw_dir = a.raw_dir or os.path.join(root, "results", "raw")
    total, drifted = 0, []
    for readme in sorted(glob.glob(os.path.join(root, "experiments", "*", "README.md"))):
        checked, bad, notes = check_readme(readme, raw_dir)
        total += checked
        drifted += bad
        for n in notes:
            print("doc_numbers:", n, file=sys.stderr)
    for d in drifted:
        print("doc_numbers: DRIFT", d, file=sys.stderr)
    print(f"doc_numbers: {total} quoted numbers checked against the result files, "
          f"{len(drifted)} drifted")
    sys.exit(1 if drifted else 0)


if __name__ == "__main__":
    main()
