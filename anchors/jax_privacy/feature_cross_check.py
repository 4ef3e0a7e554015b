"""privbench's score metrics beside jax_privacy's CanaryScoreAuditor, one
feature at a time, on the same scores (anchors/jax_privacy/README.md,
"Feature cross-check").

For each feature privbench took from jax_privacy's auditing module
(estimators/score_audit/score_metrics.h, one_run_scores.h, resampling.h;
privbench.auc, tpr_at_fpr, max_accuracy, raw_count_epsilon,
one_run_epsilon, multi_split, bootstrap_ci) it computes privbench's value
and jax_privacy's on the same arrays and prints

  feature, data, n/side, privbench, jax_privacy, |diff|, tolerance, verdict

Data: N(mu, 1) member and N(0, 1) non-member scores, numpy
default_rng([seed, n]), n a side for n in --sizes; "ties": the same rounded
to 0.1 (many tied scores). Each row has a tolerance where both libraries
compute the same number (its verdict is "ok" or "FAIL"), or none where they
differ by design ("differs": the README says why; the row shows by how
much). The script exits 1 if any row fails.

Where jax_privacy's number is not the same quantity, the row compares what
is: its Bonferroni() divides alpha by H, the number of the ROC hull's
vertices, where privbench divides by m = P + N (one_run_scores.h), so the
Bonferroni rows call jax_privacy at significance alpha * H / m (the same
level per test); the raw Mann-Whitney AUC, which jax_privacy does not
compute, is checked against SciPy's Mann-Whitney U; the bootstrap's BC/BCa
step is checked by applying jax_privacy's formula (the lines of its
_bootstrap) to privbench's own replicates, since the two libraries draw
different resamples.

Run (anchors/jax_privacy/setup.sh first: the venv's privbench must be a wheel
built from this tree):
  nice -n 10 .venv-anchors/jax_privacy/bin/python anchors/jax_privacy/feature_cross_check.py
  ... --sizes=1000 --bootstrap_samples=200      # quicker
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import scipy.stats  # noqa: E402

from jax_privacy import auditing  # noqa: E402
import privbench  # noqa: E402

ROWS = []


def row(feature, data, n, pb, jax, tol, note=""):
    """Records one comparison; tol None: different by design (reported only)."""
    diff = abs(pb - jax)
    if tol is None:
        verdict = "differs"
    else:
        verdict = "ok" if diff <= tol else "FAIL"
    ROWS.append((feature, data, n, pb, jax, diff, tol, verdict, note))
    print("%-44s %-6s %7d %14.9f %14.9f %9.2e %8s %-7s %s"
          % (feature, data, n, pb, jax, diff, "-" if tol is None else "%.0e" % tol, verdict,
             note), flush=True)


def datasets(sizes, seed, mu):
    for n in sizes:
        rng = np.random.default_rng([seed, n])
        m, nm = rng.normal(mu, 1.0, n), rng.normal(0.0, 1.0, n)
        yield "gauss", n, m, nm
        if n <= 10000:
            yield "ties", n, np.round(m, 1), np.round(nm, 1)


def roc_metrics(data, n, m, nm):
    aud = auditing.CanaryScoreAuditor(m, nm)
    row("auc hull (attack_auroc)", data, n, privbench.auc(m, nm, "hull"), aud.attack_auroc(),
        1e-12)
    u = scipy.stats.mannwhitneyu(m, nm).statistic / (m.size * nm.size)
    row("auc mann_whitney (vs SciPy's U / PN)", data, n, privbench.auc(m, nm), u, 1e-12,
        "jax_privacy has no Mann-Whitney AUC")
    for fpr in (0.001, 0.01, 0.1):
        row("tpr_at_fpr %g" % fpr, data, n, privbench.tpr_at_fpr(m, nm, fpr),
            float(aud.tpr_at_given_fpr(fpr)), 1e-12)
    for prevalence in (None, 0.3):
        row("max_accuracy prevalence=%s" % prevalence, data, n,
            privbench.max_accuracy(m, nm, prevalence)["accuracy"],
            float(aud.max_accuracy(prevalence=prevalence)), 1e-12)
    row("max_accuracy upper, alpha 0.05", data, n,
        privbench.max_accuracy(m, nm, alpha=0.05)["upper"],
        float(aud.max_accuracy(significance=0.05)), None,
        "pb: every ROC point; jax: hull vertices only")
    for min_count, delta, one_sided in ((50, 0.0, True), (10, 0.0, False), (50, 1e-5, True),
                                        (10, 1e-3, False)):
        row("raw_count_epsilon k=%d delta=%g %s" % (min_count, delta,
                                                    "1-sided" if one_sided else "2-sided"),
            data, n, privbench.raw_count_epsilon(m, nm, min_count, delta, one_sided),
            float(aud.epsilon_raw_counts(min_count, delta, one_sided)), 1e-12)


def one_run(data, n, m, nm, alpha, delta, fdp_max):
    aud = auditing.CanaryScoreAuditor(m, nm)
    total = m.size + nm.size
    hull = len(aud._fn_counts)  # H: what jax_privacy's Bonferroni() divides by
    t = float(np.median(np.concatenate((m, nm))) + 0.5)
    fixed = auditing.Explicit(t)
    row("one_run eps, fixed threshold", data, n,
        privbench.one_run_epsilon(m, nm, alpha, delta, threshold=t)["eps_lower"],
        aud.epsilon_one_run(alpha, delta, threshold_strategy=fixed), 2e-6,
        "jax: brentq xtol 1e-6")
    row("one_run eps, Bonferroni (jax at alpha H/m)", data, n,
        privbench.one_run_epsilon(m, nm, alpha, delta)["eps_lower"],
        aud.epsilon_one_run(alpha * hull / total, delta), 2e-6, "H = %d" % hull)
    row("one_run eps, jax's own Bonferroni (alpha/H)", data, n,
        privbench.one_run_epsilon(m, nm, alpha, delta)["eps_lower"],
        aud.epsilon_one_run(alpha, delta), None, "jax divides by H = %d, pb by m" % hull)
    if n > fdp_max:
        return  # jax_privacy's f-DP recursion is a Python loop: slow beyond a few thousand
    gdp = "one_run_gaussian_dp"
    row("one_run_fdp eps (Gaussian), fixed threshold", data, n,
        privbench.one_run_epsilon(m, nm, alpha, delta, gdp, threshold=t)["eps_lower"],
        aud.epsilon_one_run_fdp(alpha, delta, threshold_strategy=fixed), 2e-6,
        "jax: brentq xtol 1e-6")
    row("one_run_fdp eps (Gaussian), Bonferroni", data, n,
        privbench.one_run_epsilon(m, nm, alpha, delta, gdp)["eps_lower"],
        aud.epsilon_one_run_fdp(alpha * hull / total, delta), 2e-6, "jax at alpha H/m")


def multi_split(data, n, m, nm, alpha, delta, splits, seed):
    aud = auditing.CanaryScoreAuditor(m, nm)
    row("multi_split one_run, median of %d" % splits, data, n,
        privbench.multi_split(m, nm, "one_run", alpha, delta, splits, seed)["bound"],
        float(aud.epsilon_one_run(alpha, delta, threshold_strategy=auditing.MultiSplit(
            num_samples=splits, seed=seed))), None,
        "other random splits (pb: pooled, jax: per side)")


def jax_bc_levels(replicates, estimate, quantiles, accel):
    """jax_privacy's _bootstrap correction, its lines applied to given values."""
    prop_less = (np.sum(replicates < estimate) + 1) / (len(replicates) + 2)
    z0 = scipy.stats.norm.ppf(prop_less)
    num = z0 + scipy.stats.norm.ppf(quantiles)
    return scipy.stats.norm.cdf(z0 + num / (1 - accel * num))


def jax_jackknife_acceleration(fn, m, nm):
    """jax_privacy's acceleration (its _bootstrap's jackknife lines), fn on
    privbench's metric."""
    est = [fn(np.delete(m, i), nm) for i in range(m.size)]
    est += [fn(m, np.delete(nm, i)) for i in range(nm.size)]
    mean = np.mean(est)
    num = np.sum((mean - np.asarray(est)) ** 3)
    den = 6 * (np.sum((mean - np.asarray(est)) ** 2)) ** 1.5
    return 0 if den == 0 else num / den


def bootstrap(data, n, m, nm, samples, seed):
    aud = auditing.CanaryScoreAuditor(m, nm)
    params = auditing.BootstrapParams.confidence_interval(samples, 0.95, seed)
    cases = (("auc_hull", {}, lambda a: a.attack_auroc(bootstrap_params=params)),
             ("tpr_at_fpr", {"fpr": 0.05},
              lambda a: a.tpr_at_given_fpr(0.05, bootstrap_params=params)),
             ("raw_count_epsilon", {"min_count": 10},
              lambda a: a.epsilon_raw_counts(10, bootstrap_params=params)))
    for name, kw, jax_call in cases:
        pb = privbench.bootstrap_ci(name, m, nm, 0.95, samples, seed, **kw)
        jq = np.asarray(jax_call(aud), dtype=float)
        sd = float(np.std(pb["replicates"]))
        for end, value, j in (("lower", pb["lower"], jq[0]), ("upper", pb["upper"], jq[1])):
            row("bootstrap BC 95%% %s %s" % (name, end), data, n, value, float(j), None,
                "other resamples; replicate sd %.3g" % sd)
        # The correction itself, on privbench's replicates.
        levels = jax_bc_levels(pb["replicates"], pb["estimate"], pb["quantiles"], 0.0)
        row("bootstrap BC levels, jax's formula", data, n, pb["levels"][0], float(levels[0]),
            1e-12, name)
        row("bootstrap BC value at them (np.quantile)", data, n, pb["upper"],
            float(np.quantile(pb["replicates"], levels[1])), 1e-12, name)
    if m.size + nm.size <= 2000:
        pb = privbench.bootstrap_ci("auc_hull", m, nm, 0.95, samples, seed, acceleration=True)
        accel = jax_jackknife_acceleration(lambda a, b: privbench.auc(a, b, "hull"), m, nm)
        row("bootstrap BCa acceleration, jax's jackknife", data, n, pb["acceleration"],
            float(accel), 1e-12, "auc_hull")
        levels = jax_bc_levels(pb["replicates"], pb["estimate"], pb["quantiles"], accel)
        row("bootstrap BCa lower level, jax's formula", data, n, pb["levels"][0],
            float(levels[0]), 1e-12, "auc_hull")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1000,10000,100000")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mu", type=float, default=1.0)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--delta", type=float, default=1e-8)
    p.add_argument("--fdp_max", type=int, default=10000,
                   help="largest n a side for jax_privacy's f-DP one-run (a Python loop)")
    p.add_argument("--splits", type=int, default=25)
    p.add_argument("--bootstrap_samples", type=int, default=1000)
    p.add_argument("--bootstrap_max", type=int, default=1000,
                   help="largest n a side for the bootstrap rows")
    a = p.parse_args()
    for name in ("auc", "one_run_epsilon", "bootstrap_ci"):
        if not hasattr(privbench, name):
            sys.exit("privbench %s has no %s: run anchors/jax_privacy/setup.sh to install a wheel "
                     "of this tree" % (privbench.__file__, name))
    sizes = [int(s) for s in a.sizes.split(",")]
    print("privbench %s; jax_privacy %s; numpy %s, scipy %s; mu %g, alpha %g, delta %g, seed %d"
          % (privbench.__file__, auditing.__file__, np.__version__, scipy.__version__, a.mu,
             a.alpha, a.delta, a.seed))
    print("%-44s %-6s %7s %14s %14s %9s %8s %-7s %s" % (
        "feature", "data", "n/side", "privbench", "jax_privacy", "|diff|", "tol", "verdict",
        "note"))
    t0 = time.time()
    for data, n, m, nm in datasets(sizes, a.seed, a.mu):
        roc_metrics(data, n, m, nm)
        one_run(data, n, m, nm, a.alpha, a.delta, a.fdp_max)
        multi_split(data, n, m, nm, a.alpha, a.delta, a.splits, a.seed)
        if n <= a.bootstrap_max:
            bootstrap(data, n, m, nm, a.bootstrap_samples, a.seed)
    print("\nmax |diff| by feature (verdicts):")
    summary = {}
    for feature, _, _, _, _, diff, _, verdict, _ in ROWS:
        key = feature.split(",")[0] if feature.startswith("bootstrap BC 95") else feature
        d, v = summary.get(key, (0.0, set()))
        summary[key] = (max(d, diff), v | {verdict})
    for key, (d, v) in summary.items():
        print("  %-48s %9.2e  %s" % (key, d, "/".join(sorted(v))))
    failed = [r for r in ROWS if r[7] == "FAIL"]
    print("%d rows, %d failed, %.0f s" % (len(ROWS), len(failed), time.time() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
