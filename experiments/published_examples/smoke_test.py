"""Smoke test of //experiments/published_examples (README.md and B8).

The study has no parameters of its own and every scale is the same, so the
run at --scale=test is the quick (and paper) run. Checks with privbench.results: /meta;
that every published number of experiments/published_examples/claims.json
has its scalar at the h5 path the list names, and that each gets the verdict
results/verify would give (within max(tolerance, rel_tolerance * |published|,
half a unit of the last printed digit) of the published value, or a
documented finding; never a MISMATCH); the raw per-method intervals and the
summary tables of every example; that the study writes no claims (its
entries are all numbers); and that a bad or unknown parameter exits with
code 2 and leaves no file behind.
"""
import json
import math
import sys

import numpy as np

from tests import smoke
from tests.smoke import check, text

BIN = sys.argv[1]
PUBLISHED = sys.argv[2]
STUDY = "published_examples"
TABLES = {
    "worked_example": ["method", "lower", "upper", "kind"],
    "footnote1": ["quantity", "value"],
    "perfect_attack": ["method", "trials", "eps_lower"],
    "privacy_estimates_readme": ["method", "lower", "upper", "kind"],
    "erlingsson_table2": ["noise_multiplier", "attack_tpr", "eps_lower"],
    "accountant_table": ["noise_multiplier", "accountant", "epsilon", "rdp_order"],
}


def strip_printed(printed):
    """The number as verify reads it: spaces and a trailing % dropped (verify_lib.cc Strip)."""
    return printed.strip().rstrip("% ").strip()


def half_unit(printed):
    """Half a unit of the last printed digit (results/verify_lib.cc PrintedHalfUnit)."""
    s = strip_printed(printed)
    mantissa, _, exponent = s.lower().partition("e")
    decimals = len(mantissa) - mantissa.index(".") - 1 if "." in mantissa else 0
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def verdict(entry, got):
    want = float(strip_printed(entry["published"]))
    tol = max(entry.get("tolerance", 0.0), entry.get("rel_tolerance", 0.0) * abs(want),
              half_unit(entry["published"]))
    ok = got == want if math.isinf(want) else abs(got - want) <= tol
    if ok:
        return "reproduced"
    return "FINDING" if entry.get("finding") else "MISMATCH"


def check_published_numbers(f, entries):
    verdicts = {}
    for e in entries:
        check(e["kind"] in ("number", "claim"), f"{e['id']}: kind {e['kind']}")
        if e["kind"] == "claim":  # a hypothesis about a paper's table, judged in the file
            cid = e["h5"].rsplit("/", 1)[-1]
            smoke.check_claims(f, [cid])
            continue
        path = e["h5"].lstrip("/")
        check(path in f, f"{e['id']}: {e['h5']} missing")
        if path not in f:
            continue
        got = f[path][()]
        check(np.size(got) == 1, f"{e['id']}: {e['h5']} is not a scalar")
        got = float(np.ravel(got)[0])
        verdicts[e["id"]] = verdict(e, got)
        check(verdicts[e["id"]] != "MISMATCH",
              f"{e['id']}: {got} vs published {e['published']} (no finding documented)")
    # The examples the papers' numbers reproduce outright (README.md).
    for i in ("worked_bayes_lo", "worked_cp_lo", "worked_cp_hi", "fn1_corner", "fn1_dropped",
              "perfect_cp2", "readme_cp_hi", "readme_j_hi", "katz_ceiling", "t2_row1",
              "b8_r2_naive", "b8_r3_rdp"):
        check(verdicts.get(i) == "reproduced", f"{i}: verdict {verdicts.get(i)}")
    return verdicts


def check_examples(f):
    nums = f["numbers"]
    for example in ("worked_example", "privacy_estimates_readme"):
        g = f[example]
        n = len(g["method"])
        check(n > 0 and g["eps_lo"].shape == g["eps_hi"].shape == (n,), f"/{example} shapes")
        methods = [text(m) for m in g["method"][...]]
        for m in ("bayesian", "jeffreys", "clopper_pearson"):
            check(m in methods, f"/{example}: method {m} missing")
        check(len(f[f"summary/{example}/method"]) == n, f"table {example}: one row per method")
    for prefix in ("worked", "readme"):
        for m in ("bayesian", "jeffreys", "clopper_pearson"):
            lo, hi = float(nums[f"{prefix}_{m}_lower"][()]), float(nums[f"{prefix}_{m}_upper"][()])
            check(0 <= lo < hi, f"{prefix} {m}: [{lo}, {hi}]")
    check(len(f["summary/perfect_attack/method"]) == 8, "perfect attack: 4 methods x 2 trials")
    check(len(f["summary/erlingsson_table2/eps_lower"]) == 5, "Table 2: five rows")
    acc = f["summary/accountant_table"]
    names = sorted({text(a) for a in acc["accountant"][...]})
    check(len(acc["epsilon"]) == 5 * len(names), "accountant table: every accountant x 5 rows")
    check(text(f["summary"].attrs["b8_orders"]) == "TableOneRdpOrders()", "/summary b8_orders")
    for a in names:
        eps = [float(nums[f"b8_row{r}_{a}"][()]) for r in range(1, 6)]
        check(all(x < y for x, y in zip(eps, eps[1:])), f"{a}: eps grows as the noise shrinks")


def main():
    with open(PUBLISHED) as p:
        entries = [e for e in json.load(p) if e["study"] == STUDY]
    check(len(entries) >= 40, f"{len(entries)} published numbers listed")
    with smoke.run_ok(BIN, STUDY) as f:
        smoke.check_meta(f, STUDY)
        check(text(f["meta"].attrs["config"]).splitlines()[0] == "scale = test", "meta config")
        check_published_numbers(f, entries)
        for name, columns in TABLES.items():
            smoke.check_table(f, name, columns)
        check_examples(f)
        claims = {e["h5"].rsplit("/", 1)[-1] for e in entries if e["kind"] == "claim"}
        check(set(f["claims"]) == claims if "claims" in f else not claims,
              "the only claims are the published list's hypotheses about tables")
    smoke.check_bad_parameters(BIN, STUDY, [["--scale=huge"], ["--threads=0"], ["--seed=-1"],
                                            ["--output_dir="], ["--fpr=0.5"]])
    smoke.finish()


if __name__ == "__main__":
    main()
