"""Smoke test of //experiments/epsilon_star_noise_curves (study B1) at --scale=test."""
import sys

import numpy as np

from tests import smoke

STUDY = "epsilon_star_noise_curves"
BIN = sys.argv[1]

f = smoke.run_ok(BIN, STUDY)
smoke.check_meta(f, STUDY)
floor = float(f["exact"].attrs["rate_floor"])
n = int(f["empirical"].attrs["n"])
smoke.check(f["samples/train"].shape == (n,) and f["samples/population"].shape == (n,), "samples")
for curve in ("exact", "empirical"):
    g = f[curve]
    k = len(g["threshold"])
    smoke.check(k > 10, f"{curve} curve has points")
    for key in ("fpr", "fnr", "term1", "term2"):
        smoke.check(g[key].shape == (k,), f"{curve}/{key} shape")
    tau = g["threshold"][...]
    smoke.check(np.all(np.diff(tau) > 0), f"{curve} thresholds ascending and distinct")
    fpr, fnr = g["fpr"][...], g["fnr"][...]
    smoke.check(np.all(fpr >= floor) and np.all(fnr >= floor), f"{curve}: rates below the floor dropped")
    smoke.check(np.allclose(g["term1"][...], (1 - fpr) / fnr), f"{curve} term1 = (1-FPR)/FNR (delta 0)")
    smoke.check(np.allclose(g["term2"][...], (1 - fnr) / fpr), f"{curve} term2 = (1-FNR)/FPR")
    # FPR rises and FNR falls with the threshold.
    smoke.check(np.all(np.diff(fpr) >= 0) and np.all(np.diff(fnr) <= 0), f"{curve} rates monotone")
k = len(f["empirical/threshold"])
for key in ("exact_fpr", "exact_fnr", "exact_term1", "exact_term2"):
    smoke.check(f["empirical"][key].shape == (k,), f"empirical/{key} shape")
smoke.check(f["numbers/noise_curves_exact_epsilon_star"][()] > 0, "exact Epsilon* > 0")
smoke.check_declared_claims(f, STUDY)
# Robust even at n = 500: the exact maxima sit at the floor (monotone terms).
smoke.check(int(f["claims/epsilon_star_noise_curves_max_at_ends"].attrs["holds"]) == 1,
         "maxima at the ends")
smoke.check_table(f, "noise_curves_maxima", ["curve", "term", "points", "max_term"])
smoke.check_table(f, "noise_curves_noise", ["term", "region", "points", "median_abs_log_error"])
smoke.check_bad_parameters(BIN, STUDY, [["--n=0"], ["--train_sd=-1"], ["--rate_floor=0"],
                                     ["--quantiles_per_distribution=0"], ["--delta=1"]])
smoke.finish()
