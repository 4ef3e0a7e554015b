"""Contract test of //cli:epsilon_cli, driven the way users script it.

Checks the JSON-lines contract (order, id echo, errors per line, "inf",
null upper for one-sided methods, --help lists every op and name) and
cross-checks Bayesian intervals against an independent SciPy computation
(outer integral over FPR with QUADPACK, Brent root finding).
"""
import json
import math
import subprocess
import sys

import numpy as np
from scipy import integrate, optimize, stats

CLI = sys.argv[1]


def run(requests):
    text = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in requests) + "\n"
    out = subprocess.run([CLI, "batch"], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.strip().split("\n")
    return [json.loads(l) for l in lines]


def scipy_bayes_cdf(eps, fn, tp, fp, tn, d):
    E = math.exp(eps)
    X, Y = stats.beta(0.5 + fn, 0.5 + tp), stats.beta(0.5 + fp, 0.5 + tn)

    def inner(y):
        lo = max(0.0, 1 - d - E * y, (1 - d - y) / E)
        hi = min(1.0, E * (1 - y) + d, 1 - (y - d) / E)
        return max(0.0, X.cdf(hi) - X.cdf(lo))

    a, b = Y.ppf(1e-13), Y.isf(1e-13)
    pts = sorted({p for p in (d, (1 - d) / (1 + E), (E + d) / (1 + E), 1 - d) if a < p < b})
    val, _ = integrate.quad(lambda y: Y.pdf(y) * inner(y), a, b, points=pts or None,
                            epsabs=1e-12, epsrel=1e-12, limit=2000)
    return val


def scipy_bayes_quantile(p, *args):
    f = lambda e: scipy_bayes_cdf(e, *args) - p
    if f(0.0) >= 0:
        return 0.0
    hi = 1.0
    while f(hi) < 0:
        hi *= 2
    return optimize.brentq(f, 0.0, hi, xtol=1e-12)


def scipy_one_run(m, r, v, delta, beta):
    """The one-run lower bound by SciPy: bisection on the theorem's p-value."""
    def p_value(eps):
        q = 1 / (1 + math.exp(-eps))
        f = stats.binom.sf(v - 1, r, q)
        best, acc = 0.0, 0.0
        for i in range(1, v + 1):
            acc += stats.binom.pmf(v - i, r, q)
            best = max(best, acc / i)
        return min(1.0, f + 2 * m * delta * best)
    if p_value(0) >= beta:
        return 0.0
    lo, hi = 0.0, 1.0
    while p_value(hi) < beta:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-10:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if p_value(mid) < beta else (lo, mid)
    return lo


def carlini_logit(loss):
    return -loss - math.log(-math.expm1(-loss))


def ons_e_values(correct, p0s):
    """The e-values of sequential_audit's game rounds, written from the
    formulas of estimators/sequential/sequential_audit.h (payoff
    u = (X - p0)/p0, wealth *= 1 + b u, online Newton step on b in [0, 1/2])."""
    scale = 2 / (2 - math.log(3))
    out = []
    for p0 in p0s:
        wealth, bet, a = 1.0, 0.0, 1.0
        for x in correct:
            u = (x - p0) / p0
            wealth *= 1 + bet * u
            g = -u / (1 + bet * u)
            a += g * g
            bet = min(max(bet - scale * g / a, 0.0), 0.5)
        out.append(wealth)
    return out


def mixture_delta(sigma, q, steps, eps):
    """The last-iterate heuristic's delta(eps) by SciPy quadrature of both
    hockey-stick integrals of Binomial(T, q) + N(0, sigma^2 T) against
    N(0, sigma^2 T) (Steinke et al. 2025), for the CLI's accountant."""
    s = sigma * math.sqrt(steps)
    w = stats.binom.pmf(np.arange(steps + 1), steps, q)
    p = lambda x: float(np.dot(w, stats.norm.pdf(x, np.arange(steps + 1), s)))
    qd = lambda x: stats.norm.pdf(x, 0, s)
    e = math.exp(eps)
    lo, hi = -14 * s, steps + 14 * s
    one = integrate.quad(lambda x: max(0.0, p(x) - e * qd(x)), lo, hi, limit=500,
                         epsabs=1e-13, epsrel=1e-10)[0]
    two = integrate.quad(lambda x: max(0.0, qd(x) - e * p(x)), lo, hi, limit=500,
                         epsabs=1e-13, epsrel=1e-10)[0]
    return max(one, two)


def main():
    carlini_train = [0.01, 0.05, 0.1, 0.2, 0.3]
    carlini_population = [0.2, 0.6, 1.0, 1.8, 3.0]
    failures = []

    def check(cond, msg):
        if not cond:
            failures.append(msg)

    reqs = [
        {"id": 1, "op": "interval", "method": "clopper_pearson", "tp": 65, "fn": 35, "fp": 25,
         "tn": 75, "delta": 0.05, "alpha": 0.05},
        {"id": "x", "op": "interval", "method": "jeffreys_one_sided", "tp": 1000, "fn": 0,
         "fp": 0, "tn": 1000, "delta": 1e-5, "alpha": 0.1},
        "{not json",
        {"id": [1, 2], "op": "interval", "method": "clopper_pearson", "tp": 487, "fn": 0,
         "fp": 512, "tn": 1, "delta": 1e-5, "alpha": 0.1},
        {"id": 4, "op": "eps_from_rates", "fnr": 0.2, "fpr": 0.1, "delta": 0.0},
        {"id": 5, "op": "eps_from_rates", "fnr": 1.5, "fpr": 0.1, "delta": 0.0},
        {"id": 6, "op": "katz", "n1": 10000, "n0": 1, "n": 10000, "alpha": 0.05},
        {"id": 7, "op": "accountant", "method": "rdp", "sigma": 6.99, "q": 0.02, "steps": 5000,
         "delta": 1e-5, "orders": [2, 4, 8, 16, 24, 32]},
        {"id": 8, "op": "calibrate", "method": "naive", "target_epsilon": 51.2, "q": 0.02,
         "steps": 5000, "delta": 1e-5},
        {"id": 9, "op": "epsilon_star", "variant": "parametric", "train": [0.1, 0.2, 0.25, 0.4],
         "population": [0.3, 0.5, 0.7, 0.9], "delta": 0.0, "quantiles_per_distribution": 1000},
        {"id": 10, "op": "interval", "method": "bayesian", "tp": -1, "fn": 1, "fp": 1, "tn": 1,
         "delta": 0, "alpha": 0.1},
        {"id": 11, "op": "frobnicate"},
        {"id": 12, "op": "interval", "method": "katz_log", "tp": 90, "fn": 10, "fp": 5,
         "tn": 95, "delta": 1e-5, "alpha": 0.1},
        {"id": 13, "op": "epsilon_star", "variant": "empirical", "train": [],
         "population": [1.0], "delta": 0.0},
        {"id": 14, "op": "accountant", "method": "rdp", "sigma": 1.0, "q": 1.5, "steps": 10,
         "delta": 1e-5},
        {"id": 15, "op": "epsilon_star", "variant": "parametric", "transform": "carlini_logit",
         "train": carlini_train, "population": carlini_population, "delta": 0.0,
         "quantiles_per_distribution": 1000},
        # The same fit by hand: Carlini's logit y = -l - log(-expm1(-l)) is decreasing, so
        # the identity transform of -y must give the same value.
        {"id": 16, "op": "epsilon_star", "variant": "parametric", "transform": "identity",
         "train": [-carlini_logit(l) for l in carlini_train],
         "population": [-carlini_logit(l) for l in carlini_population], "delta": 0.0,
         "quantiles_per_distribution": 1000},
        {"id": 17, "op": "epsilon_star", "variant": "parametric", "transform": "carlini_logit",
         "train": [0.5, -0.1], "population": [0.3], "delta": 0.0},
    ]
    out = run(reqs)
    check(len(out) == len(reqs), f"one response per line: {len(out)} vs {len(reqs)}")
    ids = [o.get("id") for o in out]
    check(ids == [1, "x", None, [1, 2], 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
          f"ids echoed in order: {ids}")
    check(abs(out[0]["lower"] - 0.295) < 0.002 and abs(out[0]["upper"] - 1.489) < 0.002, out[0])
    check(out[1]["upper"] is None and abs(out[1]["lower"] - 6.25) < 0.005, out[1])
    check("error" in out[2] and "invalid JSON" in out[2]["error"], out[2])
    check(out[3]["lower"] == 0.0 and out[3]["upper"] == "inf", out[3])
    check(abs(out[4]["epsilon"] - max(math.log(0.9 / 0.2), math.log(0.8 / 0.1))) < 1e-12, out[4])
    check("fnr" in out[5].get("error", ""), out[5])
    check(abs(out[6]["lower"] - 7.25) < 0.002, out[6])
    check(out[7]["order"] in (2, 4, 8, 16, 24, 32) and out[7]["epsilon"] > 0, out[7])
    check(abs(out[8]["sigma"] - 13.76) / 13.76 < 0.01, out[8])
    check(out[9]["epsilon"] >= 0, out[9])
    check("tp" in out[10].get("error", ""), out[10])
    check("unknown op" in out[11].get("error", ""), out[11])
    check("delta" in out[12].get("error", ""), out[12])
    check("train" in out[13].get("error", ""), out[13])
    check(out[14].get("error", "").startswith("q "), out[14])
    check(out[15]["epsilon"] > 0 and abs(out[15]["epsilon"] - out[16]["epsilon"]) < 1e-9,
          (out[15], out[16]))
    check("train[1] must be >= 0" in out[17].get("error", ""), out[17])  # the field, not train_losses

    # Unknown names: the error names the request's field and lists the registered names.
    out = run([
        {"id": 1, "op": "interval", "method": "wilson", "tp": 1, "fn": 1, "fp": 1, "tn": 1,
         "delta": 0.0, "alpha": 0.1},
        {"id": 2, "op": "epsilon_star", "variant": "kde", "train": [0.1], "population": [0.2],
         "delta": 0.0},
        {"id": 3, "op": "accountant", "method": "moments", "sigma": 1.0, "q": 0.01, "steps": 10,
         "delta": 1e-5},
        {"id": 4, "op": "calibrate", "method": "moments", "target_epsilon": 1.0, "q": 0.01,
         "steps": 10, "delta": 1e-5},
    ])
    check(out[0].get("error", "").startswith("method must be a registered interval estimator (")
          and "bayesian_one_sided" in out[0]["error"] and "got 'wilson'" in out[0]["error"],
          out[0])
    check(out[1].get("error", "").startswith("variant must be a registered loss-sample "
                                             "estimator (empirical, parametric")
          and out[1]["error"].endswith("), got 'kde'"), out[1])
    for o in out[2:]:
        check(o.get("error", "").startswith("method must be a registered accountant (naive, "
                                            "advanced, zcdp, rdp, rdp_improved")
              and o["error"].endswith("), got 'moments'"), o)

    # PLD accountant and one-run audits.
    out = run([
        {"id": 1, "op": "accountant", "method": "pld", "sigma": 1.1, "q": 256 / 60000,
         "steps": 14063, "delta": 1e-5},
        {"id": 2, "op": "accountant", "method": "pld", "sigma": 1.1, "q": 256 / 60000,
         "steps": 14063, "delta": 1e-5, "discretization": 1e-3},
        {"id": 3, "op": "accountant", "method": "rdp", "sigma": 1.1, "q": 0.01, "steps": 10,
         "delta": 1e-5, "discretization": 1e-3},
        {"id": 4, "op": "calibrate", "method": "pld", "target_epsilon": 2.0, "q": 0.01,
         "steps": 1000, "delta": 1e-5},
        {"id": 5, "op": "accountant", "method": "pld", "sigma": 1.1, "q": 0.01, "steps": 10,
         "delta": 1e-5, "discretization": 0},
        {"id": 6, "op": "one_run", "m": 1000, "r": 100, "v": 90, "delta": 0.0, "beta": 0.05},
        {"id": 7, "op": "one_run", "m": 1000, "r": 100, "v": 90, "delta": 1e-5, "beta": 0.05},
        {"id": 8, "op": "one_run", "m": 10, "r": 11, "v": 5, "delta": 0.0, "beta": 0.05},
        {"id": 9, "op": "one_run", "m": 10, "r": 5, "v": 6, "delta": 0.0, "beta": 0.05},
        {"id": 10, "op": "one_run", "m": 10, "r": 5, "v": 5, "delta": 0.0, "beta": 1.0},
        {"id": 11, "op": "one_run", "m": 10, "r": 5, "v": 5, "delta": 1.0, "beta": 0.05},
    ])
    check(2.3 < out[0].get("epsilon", 0) < 2.45, out[0])
    check(out[1].get("epsilon", 0) > out[0].get("epsilon", 9), (out[0], out[1]))
    check(out[2].get("error", "") == "discretization applies to method pld only", out[2])
    check(out[3].get("sigma", 0) > 0, out[3])
    check(out[4].get("error", "").startswith("discretization must be"), out[4])
    check(out[7].get("error", "").startswith("r must be"), out[7])
    check(out[8].get("error", "").startswith("v must be"), out[8])
    check(out[9].get("error", "").startswith("beta must be"), out[9])
    check(out[10].get("error", "").startswith("delta must be"), out[10])
    # One-run bounds against SciPy (Steinke, Nasr & Jagielski 2023, Thm 3.1).
    for o, delta in ((out[5], 0.0), (out[6], 1e-5)):
        want = scipy_one_run(1000, 100, 90, delta, 0.05)
        check(abs(o.get("lower", -1) - want) < 1e-6, f"one_run delta={delta}: {o} vs {want}")


    # The last-iterate heuristic (a HEURISTIC, not an upper bound), reached by
    # its registry name: at q = 1 it is the Gaussian mechanism with
    # sensitivity sqrt(T)/sigma (the analytic curve, solved by SciPy); at
    # q < 1 its eps is where SciPy's quadrature of the mixture's
    # hockey-stick divergence equals delta.
    out = run([
        {"id": 1, "op": "accountant", "method": "last_iterate_heuristic", "sigma": 2.0, "q": 1.0,
         "steps": 16, "delta": 1e-6},
        {"id": 2, "op": "accountant", "method": "last_iterate_heuristic", "sigma": 1.0, "q": 0.1,
         "steps": 10, "delta": 1e-4},
        {"id": 3, "op": "calibrate", "method": "last_iterate_heuristic", "target_epsilon": 1.0,
         "q": 0.01, "steps": 1000, "delta": 1e-5},
    ])
    mu = math.sqrt(16) / 2.0
    gauss = lambda e: (stats.norm.cdf(-e / mu + mu / 2)
                       - math.exp(e) * stats.norm.cdf(-e / mu - mu / 2) - 1e-6)
    want = optimize.brentq(gauss, 0.0, 100.0, xtol=1e-14)
    check(abs(out[0].get("epsilon", -1) - want) < 1e-9 * want, ("heuristic q=1", out[0], want))
    got = out[1].get("epsilon", -1)
    check(got > 0 and abs(mixture_delta(1.0, 0.1, 10, got) / 1e-4 - 1) < 1e-5,
          ("heuristic q=0.1 T=10: scipy delta at the CLI's eps", out[1],
           mixture_delta(1.0, 0.1, 10, got)))
    check(out[2].get("sigma", 0) > 0, out[2])

    # sequential_audit: the e-values against the formulas written out above,
    # the prefix lower bound, and chaining through "state".
    rng = np.random.default_rng(3)
    truths = rng.integers(0, 2, 300)
    guesses = np.where(rng.random(300) < 0.85, truths, 1 - truths)
    grid = [0.0, 0.5, 1.0, 1.5]
    out = run([
        {"id": 1, "op": "sequential_audit", "epsilons": grid, "delta": 0.01,
         "guesses": guesses.tolist(), "truths": truths.tolist()},
        {"id": 2, "op": "sequential_audit", "epsilons": grid, "delta": 0.01,
         "guesses": guesses[:120].tolist(), "truths": truths[:120].tolist()},
    ])
    correct = (guesses == truths).astype(float)
    p0s = [(math.exp(e) + 0.01) / (1 + math.exp(e)) for e in grid]
    want = ons_e_values(correct, p0s)
    rows = out[0].get("epsilons", [])
    check(len(rows) == 4 and all(abs(r["e_value"] / w - 1) < 1e-9 for r, w in zip(rows, want)),
          ("sequential e-values", [r.get("e_value") for r in rows], want))
    check(all(abs(r["p0"] - p) < 1e-15 for r, p in zip(rows, p0s)), "sequential p0")
    rejected = [r["epsilon"] for r in rows if r["rejected_at"] is not None]
    prefix = None
    for r in rows:
        if r["rejected_at"] is None:
            break
        prefix = r["epsilon"]
    check(out[0].get("largest_rejected_epsilon") == prefix and prefix is not None,
          ("prefix rule", out[0].get("largest_rejected_epsilon"), rejected))
    (resumed,) = run([{"id": 1, "op": "sequential_audit", "state": out[1]["state"],
                       "guesses": guesses[120:].tolist(), "truths": truths[120:].tolist()}])
    check(resumed == out[0], "sequential_audit resumed from state == one request")
    out = run([
        {"id": 1, "op": "sequential_audit", "guesses": [1, 0], "truths": [1, 2]},
        {"id": 2, "op": "sequential_audit", "mus": [0.0]},
        {"id": 3, "op": "sequential_audit", "scores": [0.5], "truths": [1]},
        {"id": 4, "op": "sequential_audit", "alpha": 0.0},
    ])
    check(out[0].get("error") == "truths[1] must be 0 or 1, got 2", out[0])
    check(out[1].get("error") == "mus[0] must be finite and > 0, got 0", out[1])
    check(out[2].get("error", "").startswith("scores need the pre-registered threshold"), out[2])
    check(out[3].get("error") == "alpha must be in (0, 1), got 0", out[3])

    help_text = subprocess.run([CLI, "--help"], capture_output=True, text=True, check=True).stdout
    for word in ["interval", "eps_from_rates", "katz", "epsilon_star", "accountant", "calibrate",
                 "bayesian_one_sided", "katz_log", "rdp_improved", "parametric", "pld",
                 "one_run", "audit_scores", "sequential_audit", "last_iterate_heuristic",
                 "score_metrics", "one_run_scores", "multi_split", "bootstrap", "auc_hull"]:
        check(word in help_text, f"--help mentions {word}")
    bad = subprocess.run([CLI, "nonsense"], capture_output=True, text=True)
    check(bad.returncode == 2, "unknown mode exits 2")

    # Bayesian intervals against SciPy (independent implementation).
    cases = [(65, 35, 25, 75, 0.05, 0.05), (300, 200, 200, 300, 1e-5, 0.1), (90, 10, 2, 98, 1e-5, 0.1)]
    out = run([{"id": i, "op": "interval", "method": "bayesian", "tp": tp, "fn": fn, "fp": fp,
                "tn": tn, "delta": d, "alpha": a} for i, (tp, fn, fp, tn, d, a) in enumerate(cases)])
    for (tp, fn, fp, tn, d, a), o in zip(cases, out):
        lo = scipy_bayes_quantile(a / 2, fn, tp, fp, tn, d)
        hi = scipy_bayes_quantile(1 - a / 2, fn, tp, fp, tn, d)
        check(abs(o["lower"] - lo) < 1e-6 and abs(o["upper"] - hi) < 1e-6,
              f"bayesian {tp,fn,fp,tn}: cli {o} vs scipy ({lo}, {hi})")

    # Former Boost failures on values that pass validation: each
    # now gets a correct answer or an error naming the argument and range,
    # never a Boost message or an internal error.
    big = 2 ** 62
    out = run([
        {"id": 0, "op": "interval", "method": "clopper_pearson", "tp": 2, "fn": 3, "fp": 3,
         "tn": 2, "delta": 1e-5, "alpha": 1e-100},
        {"id": 1, "op": "interval", "method": "clopper_pearson", "tp": 2, "fn": 3, "fp": 3,
         "tn": 2, "delta": 1e-5, "alpha": 0.05},
        {"id": 2, "op": "interval", "method": "jeffreys_one_sided", "tp": 17, "fn": 3, "fp": 3,
         "tn": 17, "delta": 1e-5, "alpha": 1e-300},
        {"id": 3, "op": "interval", "method": "bayesian", "tp": 2, "fn": 3, "fp": 3, "tn": 2,
         "delta": 1e-5, "alpha": 1e-100},
        {"id": 4, "op": "interval", "method": "clopper_pearson_one_sided", "tp": 60, "fn": 40,
         "fp": big, "tn": 90, "delta": 1e-5, "alpha": 0.05},
        {"id": 5, "op": "accountant", "method": "pld", "sigma": 1.1, "q": 0.01, "steps": 1000,
         "delta": 1e-5, "discretization": 1e-300},
        {"id": 6, "op": "calibrate", "method": "pld", "target_epsilon": 2.0, "q": 0.01,
         "steps": 1000, "delta": 1e-5, "discretization": 1e-5},
        {"id": 7, "op": "epsilon_star", "variant": "parametric", "train": [0.1, 0.2, 0.25, 0.4],
         "population": [0.3, 0.6, 1.0, 2.0], "delta": 1e-5, "quantiles_per_distribution": 1e8},
        {"id": 8, "op": "audit_scores", "member_scores": [3, 4, 5, 6, 7, 8, 9, 2],
         "nonmember_scores": [0, 1, 2, 3.5, 4, 1.5, 0.5, 2.5], "alpha": 1e-300, "delta": 1e-5,
         "seed": 3},
    ])
    for o in out:
        check("internal" not in o.get("error", "") and "boost" not in o.get("error", ""), o)
    up0, up1 = out[0].get("upper", 0), out[1].get("upper", 0)
    check(0 <= out[0].get("lower", -1) <= out[1].get("lower", -1) and
          (up0 == "inf" or (up1 != "inf" and up0 >= up1)), ("nested", out[0], out[1]))
    check(out[2].get("lower", -1) >= 0 and out[2].get("upper", 0) is None, out[2])
    check(out[3].get("error", "").startswith("alpha (bayesian) must be in [1e-06"), out[3])
    check(out[4].get("error", "").startswith("fp + tn (negative trials) must be <= 1e14"), out[4])
    check(out[5].get("error", "").startswith("discretization must be >= 1e-05"), out[5])
    check(out[6].get("error", "").startswith("discretization must be >= 1e-04"), out[6])
    check(out[7].get("error", "").startswith("quantiles_per_distribution must be in [1, 1000"),
          out[7])
    check("auc" in out[8] or "alpha" in out[8].get("error", ""), out[8])

    if failures:
        print("FAILURES:")
        for f in failures:
            print("  ", f)
        sys.exit(1)
    print("epsilon_cli contract: all checks passed")


if __name__ == "__main__":
    main()
