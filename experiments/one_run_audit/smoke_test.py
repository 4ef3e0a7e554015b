"""Smoke test of //experiments/one_run_audit at --scale=test.

Runs the study and checks: the HDF5 layout (/settings, /runs, /audit, the
bounds table, the three claims); the stored correct-guess counts against a
recount from the stored scores and inclusions; every lower bound against an
independent SciPy computation of Steinke, Nasr & Jagielski's Thm 3.1 at
beta / K; the accountants' ordering (last-iterate heuristic <= pld <= rdp); determinism (a second run
gives the same bytes apart from /meta); bad parameters exit 2 with no file.
"""
import math
import os
import sys

import numpy as np
from scipy import stats

from tests import smoke

BINARY = sys.argv[1]
STUDY = "one_run_audit"
check, text = smoke.check, smoke.text


def p_value(m, r, v, eps, delta):
    q = 1 / (1 + math.exp(-eps))
    f = stats.binom.sf(v - 1, r, q)
    acc, best = 0.0, 0.0
    for i in range(1, v + 1):
        acc += stats.binom.pmf(v - i, r, q)
        best = max(best, acc / i)
    return min(1.0, f + 2 * m * delta * best)


def lower_bound(m, r, v, delta, beta):
    if p_value(m, r, v, 0.0, delta) >= beta:
        return 0.0
    lo, hi = 0.0, 1.0
    while p_value(m, r, v, hi, delta) < beta:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if p_value(m, r, v, mid, delta) < beta else (lo, mid)
    return lo


f = smoke.run_ok(BINARY, STUDY)
smoke.check_meta(f, STUDY)
smoke.check_declared_claims(f, STUDY)
smoke.check_table(f, "bounds", ["target_epsilon", "canaries", "eps_rdp", "eps_pld", "eps_lower",
                                "eps_pld_over_lower", "trained_models"])
smoke.check_table(f, "comparison", ["target_epsilon", "audit", "kind", "eps_lower", "eps_pld",
                                    "trained_models", "records_audited"])
adv = f["runs/attack_advantage"][...]
check(np.allclose(f["runs/attack_eps_lower"][...],
                  np.maximum(0, np.log((1 - float(f["settings"].attrs["delta"])) / (1 - adv)))),
      "attack bound is Prop. 3 of the stored advantage")
kp = f["settings/k_plus"][...]
km = f["settings/k_minus"][...]
m = int(f["settings"].attrs["canaries"])
delta = float(f["settings"].attrs["delta"])
beta = float(f["settings"].attrs["beta"])
target = f["runs/target_epsilon"][...]
rdp, pld = f["runs/eps_rdp"][...], f["runs/eps_pld"][...]
check(np.all(pld[np.isfinite(target)] <= rdp[np.isfinite(target)]), f"pld <= rdp: {pld} {rdp}")
check(np.isinf(target[-1]) and np.isinf(rdp[-1]), "last run non-private")
li = f["runs/eps_last_iterate"][...]
fin = np.isfinite(target)
check(np.all(li[fin] > 0) and np.all(li[fin] <= pld[fin] * (1 + 1e-9)) and np.isinf(li[-1]),
      f"last-iterate heuristic in (0, pld] at every finite eps, inf without DP: {li} {pld}")
for kind in ("input_space", "white_box"):
    g = f["audit/" + kind]
    scores, inc, v, lower = g["scores"][...], g["included"][...], g["v"][...], g["lower"][...]
    check(scores.shape == (len(target), m) and v.shape == (len(target), len(kp)), kind + " shapes")
    for e in range(len(target)):
        order = np.argsort(-scores[e], kind="stable")
        for k in range(len(kp)):
            want = int(inc[e][order[:kp[k]]].sum()) + int(
                (1 - inc[e][order[m - km[k]:]]).sum()) if km[k] else int(inc[e][order[:kp[k]]].sum())
            check(v[e, k] == want, f"{kind} run {e} pair {k}: v {v[e, k]} vs recount {want}")
            ref = lower_bound(m, int(kp[k] + km[k]), int(v[e, k]), delta, beta / len(kp))
            check(abs(lower[e, k] - ref) < 1e-6, f"{kind} run {e} pair {k}: {lower[e, k]} vs {ref}")
        check(g["best_lower"][e] == lower[e].max(), f"{kind} best of run {e}")
path = f.filename
f.close()

smoke.check_bad_parameters(BINARY, STUDY, [["--canaries=1"], ["--k_plus=5"], ["--beta=1"],
                                           ["--epsilons=-1"], ["--k_plus=500", "--k_minus=0"]])
smoke.finish()
