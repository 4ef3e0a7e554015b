"""Tightness of the Gaussian-DP eps lower bound, privbench beside jax_privacy
(anchors/jax_privacy/README.md, "Tightness").

The setup of jax_privacy's own test of epsilon_from_gdp
(test_epsilon_from_gdp_tight: within 5% of the true eps): member scores
N(mu, 1), non-member scores N(0, 1), n a side (default 5 * 10^5), delta =
0.05, alpha = 0.1, for mu in 0.1, 0.3, 1, 3 and a few data seeds (numpy
default_rng([seed, round(1000 mu)])). The true eps is the mu-GDP profile's
eps(delta) (Dong, Roth & Su 2022, Cor. 2.13), computed by privbench's
accountant. Printed per row:

  jax:gdp     jax_privacy epsilon_from_gdp (Bonferroni over every threshold,
              each rate at alpha / (2 n_thresholds))
  pb:gdp:<s>  privbench's Gaussian-DP eps_lower under selection s: split,
              bonferroni (16 quantiles of the selection half), bonferroni_all
              (every score a threshold, level alpha / K)
  jax:cp:<s>, pb:cp:<s>  the one-sided Clopper-Pearson eps lower end under
              jax_privacy's Split() / Bonferroni() and privbench's split /
              bonferroni_all (not the same halves: the split rows are two
              independent valid statements, not one quantity)

and each bound's ratio to the true eps. Run (anchors/jax_privacy/setup.sh
first):
  nice -n 10 .venv-anchors/jax_privacy/bin/python anchors/jax_privacy/tightness.py
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from jax_privacy import auditing  # noqa: E402
import privbench  # noqa: E402

SELECTIONS = ("split", "bonferroni", "bonferroni_all")


def true_eps(mu, delta):
    """eps(delta) of mu-GDP: the root of Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta."""
    from scipy.optimize import brentq
    from scipy.stats import norm
    gap = lambda e: norm.cdf(-e / mu + mu / 2) - np.exp(e) * norm.cdf(-e / mu - mu / 2) - delta
    return 0.0 if gap(0.0) <= 0 else brentq(gap, 0.0, 100.0, xtol=1e-12)


def row(mu, n, seed, delta, alpha):
    rng = np.random.default_rng([seed, int(round(1000 * mu))])
    member, non = rng.normal(mu, 1.0, n), rng.normal(0.0, 1.0, n)
    a = privbench.audit(member, non, alpha=alpha, delta=delta, seed=seed,
                        selections=list(SELECTIONS), methods=["clopper_pearson_one_sided"])
    out = {"true": true_eps(mu, delta)}
    for g in a["gaussian_dp"]:
        out["pb:gdp:" + g["selection"]] = g["eps_lower"]
    for r in a["intervals"]:
        out["pb:cp:" + r["selection"]] = r["lower"]
    aud = auditing.CanaryScoreAuditor(member, non)
    out["jax:gdp"] = float(aud.epsilon_from_gdp(alpha, delta))
    out["jax:cp:split"] = float(aud.epsilon_clopper_pearson(
        alpha, delta, threshold_strategy=auditing.Split(seed=seed)))
    out["jax:cp:bonferroni"] = float(aud.epsilon_clopper_pearson(
        alpha, delta, threshold_strategy=auditing.Bonferroni()))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=500000)
    p.add_argument("--mus", default="0.1,0.3,1,3")
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--delta", type=float, default=0.05)
    p.add_argument("--alpha", type=float, default=0.1)
    args = p.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    from importlib.metadata import version
    print("Gaussian-DP eps lower bound tightness, privbench %s (tree of commit %s) beside"
          " jax-privacy %s" % (version("privbench"), commit or "?", version("jax-privacy")))
    print("N(mu, 1) vs N(0, 1), n = %d a side, delta = %g, alpha = %g, python %s; %s"
          % (args.n, args.delta, args.alpha, sys.version.split()[0], time.strftime("%Y-%m-%d")))
    cols = ["jax:gdp"] + ["pb:gdp:" + s for s in SELECTIONS] + [
        "jax:cp:split", "pb:cp:split", "jax:cp:bonferroni", "pb:cp:bonferroni_all"]
    print("%-4s %-4s %-8s" % ("mu", "seed", "true") + "".join(" %16s" % c for c in cols))
    ratios = {c: [] for c in cols}
    for mu in [float(x) for x in args.mus.split(",")]:
        for seed in range(args.seeds):
            r = row(mu, args.n, seed, args.delta, args.alpha)
            print("%-4g %-4d %-8.4f" % (mu, seed, r["true"])
                  + "".join(" %16.4f" % r[c] for c in cols))
            if r["true"] > 0:
                for c in cols:
                    ratios[c].append(r[c] / r["true"])
    print("bound / true eps over the rows with true eps > 0: min, median")
    for c in cols:
        v = np.array(ratios[c])
        print("  %-22s %.3f  %.3f" % (c, v.min(), np.median(v)))


if __name__ == "__main__":
    main()
