"""Smoke test of //experiments/epsilon_star_distance (study B3) at --scale=test."""
import sys

import numpy as np

from tests import smoke

STUDY = "epsilon_star_distance"
BIN = sys.argv[1]

f = smoke.run_ok(BIN, STUDY)
smoke.check_meta(f, STUDY)
d = f["settings/d"][...]
n = f["settings/n"][...]
reps = int(f["settings"].attrs["repetitions"])
names = [smoke.text(x) for x in f["estimators"][...]]
smoke.check("empirical" in names and "parametric" in names, "both registered estimators present")
smoke.check(np.allclose(f["settings/population_shape"][...], 1.0 + d), "population shape 1 + d")
ex = {k: f["exact"][k][...] for k in ("rate_window", "clip_window", "common_window")}
for k, v in ex.items():
    smoke.check(v.shape == d.shape, f"exact {k} shape")
    smoke.check(abs(v[0]) < 1e-8, f"exact {k} is 0 at d = 0")
    smoke.check(np.all(np.diff(v) > 0), f"exact {k} increases with d: {v}")
# Deterministic: the wider parametric window gives the larger exact value.
smoke.check(np.all(ex["clip_window"][1:] > ex["rate_window"][1:]), "clip-window exact > rate-window exact")
smoke.check(np.allclose(ex["common_window"], ex["rate_window"]), "common window = rate window by default")
for a in ("primary", "common_window"):
    for e in names:
        g = f[a][e]
        smoke.check(g["values"].shape == (len(d), len(n), reps), f"{a}/{e}/values shape")
        v = g["values"][...]
        smoke.check(np.all(np.isfinite(v)) and np.all(v >= 0), f"{a}/{e} values finite, >= 0")
        ref = g["exact_reference"][...]
        smoke.check(np.allclose(g["bias"][...], v.mean(axis=2) - ref[:, None]), f"{a}/{e} bias")
        # Robust at test scale: the estimates grow with the distance.
        smoke.check(g["mean"][-1, -1] > g["mean"][0, -1] + 1.0, f"{a}/{e} grows with d")
smoke.check(smoke.text(f["primary/parametric"].attrs["exact_reference_window"]) == "clip_window",
         "parametric bias against its own window")
smoke.check(smoke.text(f["primary/empirical"].attrs["exact_reference_window"]) == "rate_window",
         "empirical bias against the rate window")
smoke.check_declared_claims(f, STUDY)
smoke.check_table(f, "distance_exact", ["d", "exact_rate_window", "exact_clip_window",
                                     "exact_common_window"])
for t in ("distance_primary", "distance_common_window"):
    smoke.check_table(f, t, ["d", "n", "estimator", "window", "exact", "mean", "sd", "bias"])
smoke.check("numbers/distance_exact_rate_window_d1" in f, "numbers written")

# The location-shift parameterisation runs too.
g = smoke.run_ok(BIN, STUDY, ["--shift=location", "--distances=0,2", "--n=200,400",
                           "--repetitions=2"])
smoke.check(np.allclose(g["settings/population_offset"][...], [0, 2]), "location offsets")
smoke.check(g["exact/rate_window"][1] > 0, "location shift moves the exact value")
smoke.check_bad_parameters(BIN, STUDY, [["--n=0"], ["--train_shape=-1"], ["--population_scale=0"],
                                     ["--clip_lo=0.5"], ["--clip_hi=0.3"], ["--distances=1,0"],
                                     ["--distances=-1"], ["--shift=scale"], ["--common_lo=0"]])
smoke.finish()
