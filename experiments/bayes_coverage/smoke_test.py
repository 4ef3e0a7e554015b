"""Smoke test of //experiments/bayes_coverage (README.md).

usage: smoke_test.py <bayes_coverage binary> <registry_names binary>

Runs the study at --scale=test and checks the HDF5 layout, that every
registered interval estimator is present, that coverage is in [0, 1] and
equals what the raw per-trial intervals give, determinism across thread
counts, the robust directions of the claims, parameter overrides, and that
bad or unknown parameters exit with code 2 and leave no file behind.

False-failure probabilities of the statistical checks (test scale: 12 trials
x 12 settings): pooled Clopper-Pearson coverage < 0.85 when its true coverage
is >= 0.95 in every setting: below 1e-4 (binomial tail, 144 trials); the
other direction checks are deterministic or per-trial properties.
"""
import os
import subprocess
import sys

import numpy as np

from tests import smoke

BINARY, NAMES = sys.argv[1], sys.argv[2]
STUDY = "bayes_coverage"
check, text = smoke.check, smoke.text


def run(args, name):
    """Runs at --scale=test into its own directory; returns (result, directory)."""
    out = os.path.join(smoke.out_dir(), name)
    os.makedirs(out, exist_ok=True)
    return smoke.run(BINARY, args, out), out


def strings(ds):
    return [text(s) for s in ds[...]]


# --- the test-scale run -----------------------------------------------------
f = smoke.run_ok(BINARY, STUDY)
path = f.filename
smoke.check_meta(f, STUDY)
meta = f["meta"].attrs
check("lost_parameters" in meta and "0.001" in text(meta["lost_parameters"]),
      "meta lost_parameters names the chosen grid")
cfg = text(meta["config"])
for key in ("fpr", "fnr", "n", "trials", "alpha", "delta"):
    check(any(line.startswith(key + " =") for line in cfg.splitlines()),
          f"config records parameter {key}")

registered = subprocess.run([NAMES], capture_output=True, text=True, check=True).stdout.split()
methods = strings(f["methods/name"])
check(methods == registered, f"every registered estimator, in order: {methods} vs {registered}")
labels = strings(f["methods/label"])
one_sided = f["methods/one_sided"][...].astype(bool)
deltas = f["methods/delta"][...]

s = f["settings"]
S = len(s["fpr"])
T = f["trials/fn"].shape[1]
check(S == 12 and T == 12, f"test scale is 6 pairs x 2 n x 12 trials, got S={S} T={T}")
for k in ("pair_index", "fpr", "fnr", "n", "positives", "negatives", "true_eps",
          "true_eps_delta0"):
    check(k in s and s[k].shape == (S,), f"/settings/{k} has shape ({S},)")
fn, fp = f["trials/fn"][...], f["trials/fp"][...]
pos, neg = s["positives"][...], s["negatives"][...]
check(fn.shape == (S, T) and fp.shape == (S, T), "counts are [S, T]")
check(np.all((fn >= 0) & (fn <= pos[:, None])) and np.all((fp >= 0) & (fp <= neg[:, None])),
      "counts within [0, side size]")
check(np.all(pos + neg == s["n"][...]), "positives + negatives = n")

covered_all = {}
for m, name in enumerate(methods):
    g = f["estimates"][name]
    lo = g["eps_lo"][...]
    check(lo.shape == (S, T), f"{name} eps_lo shape")
    check(np.all(np.isfinite(lo) & (lo >= 0)), f"{name} lower ends finite and >= 0")
    truth = g["true_eps"][...]
    if one_sided[m]:
        check("eps_hi" not in g, f"one-sided {name} has no eps_hi")
        covered = lo <= truth[:, None]
    else:
        hi = g["eps_hi"][...]
        check(hi.shape == (S, T) and np.all(hi >= lo), f"{name} eps_hi shape and hi >= lo")
        covered = (lo <= truth[:, None]) & (truth[:, None] <= hi)
    cov = g["coverage"][...]
    check(cov.shape == (S,) and np.all((cov >= 0) & (cov <= 1)), f"{name} coverage in [0, 1]")
    check(np.allclose(cov, covered.mean(axis=1)), f"{name} coverage equals the raw data's")
    se = g["coverage_se"][...]
    check(np.allclose(se, np.sqrt(cov * (1 - cov) / T)), f"{name} se = sqrt(c(1-c)/T)")
    for k in ("miss_low", "miss_high", "mean_width", "frac_infinite", "mean_lower",
              "median_lower", "coverage_class"):
        check(k in g and g[k].shape == (S,), f"{name}/{k} present")
    covered_all[name] = covered
    if name == "katz_log":
        check(deltas[m] == 0.0 and "(delta=0)" in labels[m],
              "katz_log runs at delta = 0 and is labelled so")
        check(np.allclose(truth, s["true_eps_delta0"][...]), "katz_log truth at delta = 0")

smoke.check_table(f, "coverage", ["fpr", "fnr", "n", "method", "kind", "true_eps", "coverage",
                                  "se", "class", "miss_low", "miss_high", "mean_width",
                                  "frac_infinite", "median_lower"])
smoke.check_table(f, "coverage_by_method", ["fpr", "fnr", "n", "true_eps"] + labels)
smoke.check_table(f, "width_by_method", ["fpr", "fnr", "n", "true_eps"])
smoke.check_table(f, "coverage_classes", ["method", "kind", "under", "near", "over",
                                          "min_coverage", "max_coverage"])
check(len(f["summary/coverage/method"]) == S * len(methods), "long table has S x M rows")
smoke.check_declared_claims(f, STUDY)
smoke.check_table(f, "diagonal_limit", ["fpr_equals_fnr", "n", "method", "rho", "coverage", "se",
                                        "limit_rho0", "limit_at_rho", "z"])
check(abs(float(f["numbers/bayes_coverage_diagonal_limit_one_sided"][()]) -
          (0.9 + 0.1 * np.log(0.1))) < 1e-12, "one-sided limit 1 - alpha + alpha ln(alpha)")

# Robust directions.
truth = s["true_eps"][...]
if "clopper_pearson" in covered_all:
    check(covered_all["clopper_pearson"].mean() >= 0.85,
          f"pooled CP coverage >= 0.85, got {covered_all['clopper_pearson'].mean()}")
if "bayesian" in methods:
    chance = truth == 0
    b = f["estimates/bayesian"]
    check(np.all(b["eps_lo"][...][chance] > 0), "Bayesian lower end > 0 at the chance point")
    check(bool(f["claims/bayes_coverage_bayes_eps0_miss"].attrs["holds"]),
          "eps = 0 miss claim holds")
    for other in ("clopper_pearson", "jeffreys"):
        if other not in methods:
            continue
        o = f["estimates"][other]
        wb = b["eps_hi"][...] - b["eps_lo"][...]
        wo = o["eps_hi"][...] - o["eps_lo"][...]
        both = np.isfinite(wb) & np.isfinite(wo)
        check(both.sum() > 0 and wb[both].mean() < wo[both].mean(),
              f"Bayesian narrower than {other} on the trials where both are finite")
f.close()

# --- determinism: same seed, other thread count -> same data ----------------
r1, out1 = run(["--threads=1"], "threads1")
smoke.expect_ok(r1, "threads=1 run")
with smoke.open_results(os.path.join(out1, f"{STUDY}.h5")) as g1, smoke.open_results(path) as g2:
    same = np.array_equal(g1["trials/fn"][...], g2["trials/fn"][...]) and all(
        np.array_equal(g1["estimates"][m]["eps_lo"][...], g2["estimates"][m]["eps_lo"][...])
        for m in methods)
    check(same, "results do not depend on the thread count")

# --- overrides ---------------------------------------------------------------
r, out = run(["--fpr=0.2", "--fnr=0.3", "--n=100", "--trials=5", "--alpha=0.2",
              "--delta=0.001"], "override")
smoke.expect_ok(r, "override run")
with smoke.open_results(os.path.join(out, f"{STUDY}.h5")) as g:
    check(g["trials/fn"].shape == (1, 5), "overrides change the grid")
    check("alpha = 0.2" in text(g["meta"].attrs["config"]), "alpha override recorded")

# --- bad and unknown parameters: exit 2, no file, an error message -----------
BAD = [["--trials=0"], ["--n=201"], ["--n=0"], ["--fnr=0.1"], ["--fpr=0,0.1", "--fnr=0.1,0.1"],
       ["--delta=1.5"], ["--alpha=0"], ["--trials=abc"]]
smoke.check_bad_parameters(BINARY, STUDY, BAD)
for i, args in enumerate(BAD):
    r, _ = run(args, f"bad_message{i}")
    check(len(r.stderr) > 0, f"{args} prints an error")

smoke.finish()
