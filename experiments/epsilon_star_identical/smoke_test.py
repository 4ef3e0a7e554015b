"""Smoke test of //experiments/epsilon_star_identical (study B2) at --scale=test."""
import sys

import numpy as np

from tests import smoke

STUDY = "epsilon_star_identical"
BIN = sys.argv[1]

f = smoke.run_ok(BIN, STUDY)
# A non-default distribution runs and is recorded.
g = smoke.run_ok(BIN, STUDY, ["--gamma_shape=2", "--gamma_scale=0.5", "--n=100,300",
                           "--repetitions=2"])
smoke.check("shape 2, scale 0.5" in smoke.text(g["settings"].attrs["distribution"]), "distribution")
g.close()
f = smoke.run_ok(BIN, STUDY)
smoke.check_meta(f, STUDY)
n = f["settings/n"][...]
reps = int(f["settings"].attrs["repetitions"])
names = [smoke.text(x) for x in f["estimators"][...]]
smoke.check("empirical" in names and "parametric" in names, "both registered estimators present")
for a in ("primary", "common_window"):
    for e in names:
        g = f[a][e]
        smoke.check(g["values"].shape == (len(n), reps), f"{a}/{e}/values shape {g['values'].shape}")
        v = g["values"][...]
        smoke.check(np.all(np.isfinite(v)) and np.all(v >= 0), f"{a}/{e} values finite, >= 0")
        smoke.check(np.allclose(g["mean"][...], v.mean(axis=1)), f"{a}/{e} mean is the mean of values")
        smoke.check(np.allclose(g["sd"][...], v.std(axis=1, ddof=1)), f"{a}/{e} sd is the sample sd")
for k in ("rate_window", "clip_window", "common_window"):
    smoke.check(abs(float(f["exact"][k][()])) < 1e-8, f"exact {k} is 0 for identical distributions")
# The empirical variant uses the same window in both analyses: same values.
smoke.check(np.array_equal(f["primary/empirical/values"][...], f["common_window/empirical/values"][...]),
         "empirical values equal in both analyses")
# Robust even at test scale: the parametric supremum over its wide primary
# window [1e-6, 1-1e-6] is at least the one over the common window
# [0.001, 0.999] on the same fits. (The empirical mean need not shrink from
# n = 200 to 3000: with n = 200 few thresholds reach the window's tails.)
pp = f["primary/parametric/values"][...]
pc = f["common_window/parametric/values"][...]
smoke.check(np.all(pp >= pc - 1e-9), "parametric: wider window gives the larger value")
smoke.check(f"numbers/identical_primary_empirical_mean_n{int(n[0])}" in f, "numbers written")
smoke.check_declared_claims(f, STUDY)
for t in ("identical_primary", "identical_common_window"):
    smoke.check_table(f, t, ["n", "estimator", "window", "exact", "mean", "sd"])
smoke.check("1e-06" in smoke.text(f["meta"].attrs["lost_parameters"]), "parametric window recorded")
smoke.check_bad_parameters(BIN, STUDY, [["--n=0"], ["--n=1000,100"], ["--gamma_shape=-1"], ["--gamma_scale=0"],
                                     ["--clip_lo=0.6"], ["--common_hi=1"], ["--repetitions=1"],
                                     ["--transform=cube"]])
smoke.finish()
