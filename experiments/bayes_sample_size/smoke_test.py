"""Smoke test of //experiments/bayes_sample_size (Bayesian paper Fig. 4).

Runs the study at --scale=test (n = 100..2000 step 100) and checks with privbench.results:
/meta, the datasets and their shapes, the summary tables, the claims and the
directions that are robust even on the coarse test grid (the Bayesian
interval is the narrowest at every n and needs the fewest samples); that a
second run gives identical data; and that a bad or unknown parameter exits
with code 2 and leaves no file behind.
"""
import os
import sys
import tempfile

import numpy as np

from tests import smoke
from tests.smoke import check, text

BIN = sys.argv[1]
STUDY = "bayes_sample_size"
BAD = [["--n_step=3"], ["--n_min=0"], ["--fpr=1.5"], ["--alpha=0"], ["--target_half_width=-1"],
       ["--n_max=50"], ["--bogus=1"]]


def check_file(f):
    smoke.check_meta(f, STUDY)
    meta = f["meta"].attrs
    for p in ("fpr = 0.4", "fnr = 0.4", "alpha = 0.1", "target_half_width = 0.15"):
        check(p in text(meta["config"]), f"config lacks '{p}'")
    n = f["n"][...]
    check(list(n) == list(range(100, 2001, 100)), f"/n is {n}")
    G = len(n)
    for c in ("tp", "fn", "fp", "tn"):
        check(f[f"counts/{c}"].shape == (G,), f"/counts/{c} shape")
    check(np.array_equal(f["counts/fn"][...], np.round(0.4 * n / 2)), "FN = round(0.4 n/2)")
    check(np.array_equal(f["counts/tp"][...] + f["counts/fn"][...], n // 2), "TP + FN = n/2")
    methods = [text(m) for m in f["methods"][...]]
    for m in ("clopper_pearson", "jeffreys", "bayesian"):
        check(m in methods, f"method {m} missing")
    for m in methods:
        g = f["intervals"][m]
        lo, hi, w = g["eps_lo"][...], g["eps_hi"][...], g["width"][...]
        check(lo.shape == hi.shape == w.shape == (G,), f"{m}: shapes")
        check(np.all(lo >= 0), f"{m}: negative lower end")
        if int(g.attrs["one_sided"]):
            check(np.all(np.isnan(hi)) and np.all(np.isnan(w)), f"{m}: one-sided has upper")
        else:
            check(np.all(hi >= lo), f"{m}: upper < lower")
            check(w[-1] < w[0], f"{m}: width does not shrink with n")
            check("samples_needed" in g.attrs, f"{m}: samples_needed attribute")
        if "katz_log" in m:
            check(float(g.attrs["delta"]) == 0.0, "katz_log must run at delta = 0")
            check("(delta=0)" in text(g.attrs["label"]), "katz_log label")
    nums = f["numbers"]
    for k in ("samples_needed_clopper_pearson", "samples_needed_jeffreys",
              "samples_needed_bayesian", "cp_to_bayesian_sample_ratio", "true_eps"):
        check(k in nums, f"/numbers/{k} missing")
    # Robust directions: CP needs ~1500, Bayesian ~550 on any grid.
    cp = float(nums["samples_needed_clopper_pearson"][()])
    by = float(nums["samples_needed_bayesian"][()])
    check(by < cp, f"Bayesian needs {by}, CP {cp}")
    check(abs(float(nums["true_eps"][()]) - np.log(0.6 / 0.4)) < 1e-4, "true eps")
    smoke.check_table(f, "samples_needed", ["method", "samples_needed"])
    smoke.check_table(f, "endpoints", ["method", "n", "eps_lower", "eps_upper", "width"])
    check(len(f["summary/samples_needed/method"]) == len(methods), "one row per method")
    smoke.check_declared_claims(f, STUDY)
    for c in ("bayes_sample_size_bayesian_fewest", "bayes_sample_size_bayesian_narrowest"):
        if f"claims/{c}" in f:
            check(int(f["claims"][c].attrs["holds"]) == 1, f"claim {c} should hold")


def main():
    keys = ("intervals/bayesian/eps_lo", "intervals/bayesian/eps_hi")
    with smoke.run_ok(BIN, STUDY) as f:
        check_file(f)
        first = {k: f[k][...] for k in keys}

    # Same seed, same data.
    again = tempfile.mkdtemp(dir=smoke.out_dir())
    smoke.expect_ok(smoke.run(BIN, [], again), "second run")
    with smoke.open_results(os.path.join(again, STUDY + ".h5")) as f:
        for k, v in first.items():
            check(np.array_equal(f[k][...], v), f"{k} differs between runs")

    # Bad and unknown parameters: exit 2, no file (check_bad_parameters adds
    # an unknown one).
    smoke.check_bad_parameters(BIN, STUDY, BAD)
    for bad in BAD:
        r = smoke.run(BIN, bad, tempfile.mkdtemp(dir=smoke.out_dir()))
        check(r.stderr.strip() != "", f"{bad}: no message")
    r = smoke.run(BIN, ["--n_step=3"], tempfile.mkdtemp(dir=smoke.out_dir()))
    check("n_step" in r.stderr, f"error does not name n_step: {r.stderr}")
    smoke.finish()


if __name__ == "__main__":
    main()
