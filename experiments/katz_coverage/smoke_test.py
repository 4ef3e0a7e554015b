"""Smoke test of //experiments/katz_coverage (README.md).

usage: smoke_test.py <katz_coverage binary>

Runs the study at --scale=test and checks the HDF5 layout, that the four
bounds agree with an independent SciPy computation of the Katz-log and
Clopper-Pearson formulas on the stored counts, that coverage is in [0, 1]
and equals what the raw bounds give, determinism across thread counts,
robust claim directions, overrides, and that bad or unknown parameters exit
with code 2 and leave no file behind. Every check is deterministic given the
stored counts (no statistical false failures).
"""
import os
import sys

import numpy as np
from scipy import stats

from tests import smoke

BINARY = sys.argv[1]
STUDY = "katz_coverage"
check, text = smoke.check, smoke.text


def run(args, name):
    """Runs at --scale=test into its own directory; returns (result, directory)."""
    out = os.path.join(smoke.out_dir(), name)
    os.makedirs(out, exist_ok=True)
    return smoke.run(BINARY, args, out), out


def katz_lo(n1, n0, n, z):
    return smoke.katz_log_lower(n1, n0, n, z)


def cp_ratio(n1, n0, n, one_sided):
    p1_lo = stats.beta.ppf(one_sided, n1, n - n1 + 1) if n1 > 0 else 0.0
    p0_hi = stats.beta.ppf(1 - one_sided, n0 + 1, n - n0) if n0 < n else 1.0
    return -np.inf if p1_lo <= 0 else np.log(p1_lo / p0_hi)


f = smoke.run_ok(BINARY, STUDY)
path = f.filename
smoke.check_meta(f, STUDY)
meta = f["meta"].attrs
check("Lemma A.3" in text(meta["lost_parameters"]), "lost_parameters recorded")
names = [text(x) for x in f["methods/name"][...]]
check(names == ["katz_log", "katz_log_one_sided", "clopper_pearson_ratio",
                "clopper_pearson_ratio_strict"], f"methods {names}")
nominal = f["methods/nominal"][...]
check(np.allclose(nominal, [0.975, 0.95, 0.95, 0.975]), f"nominal levels {nominal}")
s = f["settings"]
S = len(s["p1"])
n1, n0 = f["trials/n1"][...], f["trials/n0"][...]
T = n1.shape[1]
check(S == 10 and T == 200, f"test scale is 5 pairs x 2 N x 200 trials, got {S} x {T}")
N = s["n"][...]
target = s["target"][...]
check(np.allclose(target, np.log(s["p1"][...] / s["p0"][...])), "target = log(p1/p0)")
check(np.all((n1 >= 0) & (n1 <= N[:, None]) & (n0 >= 0) & (n0 <= N[:, None])), "counts in range")

alpha = 0.05
z2, z1 = stats.norm.isf(alpha / 2), stats.norm.isf(alpha)
reference = {
    "katz_log": lambda a, b, n: katz_lo(a, b, n, z2),
    "katz_log_one_sided": lambda a, b, n: katz_lo(a, b, n, z1),
    "clopper_pearson_ratio": lambda a, b, n: cp_ratio(a, b, n, alpha / 2),
    "clopper_pearson_ratio_strict": lambda a, b, n: cp_ratio(a, b, n, alpha / 4),
}
bounds = {}
for m in names:
    g = f["bounds"][m]
    b = g["log_ratio_lo"][...]
    bounds[m] = b
    check(b.shape == (S, T) and not np.any(np.isnan(b)), f"{m} bounds shape, no NaN")
    worst = 0.0
    for si in range(S):
        for t in range(0, T, 17):
            want = reference[m](n1[si, t], n0[si, t], N[si])
            got = b[si, t]
            if np.isinf(want) or np.isinf(got):
                check(want == got, f"{m} infinite bound matches at setting {si} trial {t}")
            else:
                worst = max(worst, abs(want - got))
    check(worst < 1e-8, f"{m} agrees with SciPy (max |diff| {worst:g})")
    cov = g["coverage"][...]
    check(np.all((cov >= 0) & (cov <= 1)), f"{m} coverage in [0, 1]")
    check(np.allclose(cov, (b <= target[:, None]).mean(axis=1)), f"{m} coverage from raw data")
    check(np.allclose(g["frac_vacuous"][...], (b <= 0).mean(axis=1)), f"{m} vacuous fraction")
    check(np.allclose(g["mean_eps_bound"][...], np.maximum(b, 0).mean(axis=1)),
          f"{m} mean eps bound")
    for k in ("coverage_se", "median_eps_bound", "mean_eps_bound_covering", "coverage_class"):
        check(k in g and g[k].shape == (S,), f"{m}/{k} present")
smoke.check_table(f, "coverage", ["p1", "p0", "N", "target", "method", "nominal", "coverage",
                                  "se", "class", "mean_eps_bound", "median_eps_bound",
                                  "frac_vacuous", "mean_eps_bound_covering"])
smoke.check_table(f, "coverage_by_method",
                  ["p1", "p0", "N", "target"] + [f"{m} coverage" for m in names])
smoke.check_table(f, "detection_ceiling", ["N", "n1", "n0", "corollary_4.0.1"] + names)
smoke.check_declared_claims(f, STUDY)

# Robust directions: per trial, the strict (alpha/4) CP bound is below the
# alpha/2 one and the z_{alpha/2} Katz bound below the z_alpha one; Corollary
# 4.0.1's ceiling is the Katz bound at n1 = N, n0 = 1.
check(np.all(bounds["clopper_pearson_ratio_strict"] <= bounds["clopper_pearson_ratio"]),
      "stricter CP level gives lower bounds")
check(np.all(bounds["katz_log"] <= bounds["katz_log_one_sided"]),
      "z_{alpha/2} Katz bound below the z_alpha one")
c = f["summary/detection_ceiling"]
rows = c["n0"][...] == 1
check(np.allclose(c["katz_log"][...][rows], c["corollary_4.0.1"][...][rows]),
      "Katz bound at (N, 1) equals Corollary 4.0.1")
f.close()

r1, out1 = run(["--threads=1"], "threads1")
smoke.expect_ok(r1, "threads=1 run")
with smoke.open_results(os.path.join(out1, f"{STUDY}.h5")) as g1, smoke.open_results(path) as g2:
    check(all(np.array_equal(g1["bounds"][m]["log_ratio_lo"][...],
                             g2["bounds"][m]["log_ratio_lo"][...]) for m in names),
          "results do not depend on the thread count")

r, out = run(["--p1=0.3", "--p0=0.1", "--n=50", "--trials=7", "--alpha=0.1"], "override")
smoke.expect_ok(r, "override run")
with smoke.open_results(os.path.join(out, f"{STUDY}.h5")) as g:
    check(g["trials/n1"].shape == (1, 7), "overrides change the grid")
    check(np.allclose(g["methods/nominal"][...], [0.95, 0.9, 0.9, 0.95]), "alpha override")

smoke.check_bad_parameters(BINARY, STUDY, [["--trials=0"], ["--n=0"], ["--p1=0"], ["--p0=1.5"],
                                           ["--p0=0.1"], ["--alpha=1"], ["--delta=0"],
                                           ["--bogus=3"]])
smoke.finish()
