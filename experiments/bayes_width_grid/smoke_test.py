"""Smoke test of //experiments/bayes_width_grid (Bayesian paper Fig. 5).

Runs the study at --scale=test (an 8 x 8 grid over [0.01, 0.99], 28 points
with FPR + FNR < 1) and checks with privbench.results: /meta, the datasets and their
shapes, NaN outside the evaluated triangle, the reductions recomputed from
the widths, the summary tables, the claims and the robust direction (the
Bayesian interval is narrower than CP and Jeffreys at every point, so every
reduction is positive); that a second run gives identical data; and that a
bad or unknown parameter exits with code 2 and leaves no file behind.
"""
import os
import sys
import tempfile

import numpy as np

from tests import smoke
from tests.smoke import check, text

BIN = sys.argv[1]
STUDY = "bayes_width_grid"
BAD = [["--n=3"], ["--n=0"], ["--fpr_points=0"], ["--fnr_min=0.5", "--fnr_max=0.4"],
       ["--subgrids=0.1,0.2,0.3"], ["--subgrids=0.2,0.1,0,1"], ["--delta=1"],
       ["--fpr_min=0.6", "--fnr_min=0.6"], ["--bogus=1"]]


def check_grid(f):
    """The axes and the evaluated triangle; returns (fpr, fnr, valid)."""
    fpr, fnr = f["fpr"][...], f["fnr"][...]
    check(np.allclose(fpr, 0.01 + 0.14 * np.arange(8)), f"/fpr {fpr}")
    check(np.allclose(fnr, fpr), "/fnr")
    A, B = len(fpr), len(fnr)
    valid = f["valid"][...].astype(bool)
    check(valid.shape == (A, B), "/valid shape")
    want_valid = (fpr[:, None] + fnr[None, :]) < 1 - 1e-9
    check(np.array_equal(valid, want_valid), "/valid is FPR + FNR < 1")
    check(valid.sum() == 28, f"{valid.sum()} valid points, want 28")
    check(np.array_equal(f["counts/fp"][...], np.round(fpr * 500)), "FP = round(FPR 500)")
    return fpr, fnr, valid


def check_intervals(f, shape, valid):
    """Every method's datasets; returns the widths by method."""
    W = {}
    for m in [text(m) for m in f["methods"][...]]:
        g = f["intervals"][m]
        for k in ("eps_lo", "eps_hi", "width"):
            check(g[k].shape == shape, f"{m}/{k} shape")
        lo, w = g["eps_lo"][...], g["width"][...]
        check(np.all(np.isnan(lo[~valid])), f"{m}: values outside the triangle")
        check(np.all(lo[valid] >= 0), f"{m}: negative lower end")
        if int(g.attrs["one_sided"]):
            check(np.all(np.isnan(w)), f"{m}: one-sided has a width")
        else:
            check(np.all(w[valid] > 0), f"{m}: non-positive width")
        W[m] = w
    for m in ("clopper_pearson", "jeffreys", "bayesian"):
        check(m in W, f"method {m} missing")
    return W


def check_reductions(f, shape, valid, W):
    for ref in ("clopper_pearson", "jeffreys"):
        red = f["reduction"]["vs_" + ref][...]
        check(red.shape == shape, f"reduction vs {ref} shape")
        want = 100 * (1 - W["bayesian"] / W[ref])
        check(np.allclose(red[valid], want[valid]), f"reduction vs {ref} recomputed")
        check(np.all(red[valid] > 0), f"Bayesian not narrower than {ref} somewhere")
        nums = f["numbers"]
        check(np.isclose(float(nums[f"reduction_vs_{ref}_min"][()]), red[valid].min()),
              f"min reduction vs {ref}")
        check(np.isclose(float(nums[f"reduction_vs_{ref}_max"][()]), red[valid].max()),
              f"max reduction vs {ref}")


def check_file(f):
    smoke.check_meta(f, STUDY)
    meta = f["meta"].attrs
    check("lost_parameters" in meta and "grid" in text(meta["lost_parameters"]),
          "meta/lost_parameters")
    fpr, fnr, valid = check_grid(f)
    shape = (len(fpr), len(fnr))
    W = check_intervals(f, shape, valid)
    if all(m in W for m in ("clopper_pearson", "jeffreys", "bayesian")):
        check_reductions(f, shape, valid, W)
    check(len(f["subgrids/name"]) == 5, "default: the whole grid plus four sub-grids")
    smoke.check_table(f, "reduction_ranges", ["subgrid", "points", "vs_jeffreys_min_pct",
                                              "vs_cp_max_pct", "bayesian_narrowest_everywhere"])
    smoke.check_table(f, "widths", ["method", "min_width", "median_width", "max_width"])
    check(len(f["summary/reduction_ranges/subgrid"]) == 5, "one row per sub-grid")
    smoke.check_declared_claims(f, STUDY)
    # The convention test: CP at 1 - alpha/2 is wider than CP at 1 - alpha,
    # so the Bayesian reduction against it is larger.
    red95 = f["reduction/vs_clopper_pearson_half_alpha"][...]
    check(np.all(red95[valid] > f["reduction/vs_clopper_pearson"][...][valid]),
          "reduction vs CP at 95% exceeds the one vs CP at 90%")
    if "claims/bayes_width_grid_bayesian_narrowest" in f:
        check(int(f["claims/bayes_width_grid_bayesian_narrowest"].attrs["holds"]) == 1,
              "Bayesian should be narrowest at every point")


def main():
    with smoke.run_ok(BIN, STUDY) as f:
        check_file(f)
        first = f["intervals/bayesian/width"][...]

    again = tempfile.mkdtemp(dir=smoke.out_dir())
    smoke.expect_ok(smoke.run(BIN, ["--threads=1"], again), "second run")
    with smoke.open_results(os.path.join(again, STUDY + ".h5")) as f:
        check(np.array_equal(f["intervals/bayesian/width"][...], first, equal_nan=True),
              "results depend on the run or the thread count")

    smoke.check_bad_parameters(BIN, STUDY, BAD)
    for bad in BAD:
        r = smoke.run(BIN, bad, tempfile.mkdtemp(dir=smoke.out_dir()))
        check(r.stderr.strip() != "", f"{bad}: no message")
    r = smoke.run(BIN, ["--fpr_points=0"], tempfile.mkdtemp(dir=smoke.out_dir()))
    check("fpr_points" in r.stderr, f"error does not name fpr_points: {r.stderr}")
    smoke.finish()


if __name__ == "__main__":
    main()
