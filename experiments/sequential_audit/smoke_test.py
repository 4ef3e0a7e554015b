"""Smoke test of //experiments/sequential_audit at --scale=test.

Runs the study and checks: the HDF5 layout (/settings, /cases, /dpsgd, the
four tables, the declared claims); each case's exact rule rates and null
bound against an independent SciPy computation from the case's stored
parameters; the tables against recounts from the raw rejection rounds and
batch counts; every trace against its rejection round (the first round with
ln K >= ln(1/alpha)); every verdict recomputed from the raw data; same seed,
same data (a second run); bad parameters exit 2 with no file.
"""
import math
import sys

import numpy as np
from scipy import stats

from tests import smoke

BINARY = sys.argv[1]
STUDY = "sequential_audit"
check, text = smoke.check, smoke.text
CASES = ["rr_correct", "laplace_correct", "gaussian_correct", "laplace_half_scale",
         "gaussian_double_sensitivity"]


def laplace_sf(t, b):
    return stats.laplace.sf(t, scale=b)


def exact_rates(name, eps, mu):
    if name == "rr_correct":
        keep = math.exp(eps) / (1 + math.exp(eps))
        return keep, 1 - keep
    if name == "laplace_correct":
        return laplace_sf(-0.5, 1 / eps), laplace_sf(0.5, 1 / eps)
    if name == "laplace_half_scale":
        return laplace_sf(-0.5, 0.5 / eps), laplace_sf(0.5, 0.5 / eps)
    if name == "gaussian_correct":
        return stats.norm.sf(0.5, loc=1, scale=1 / mu), stats.norm.sf(0.5, scale=1 / mu)
    return stats.norm.sf(0.5, loc=2, scale=1 / mu), stats.norm.sf(0.5, scale=1 / mu)


def median_rounds(at):
    v = np.sort(np.where(at > 0, at.astype(float), np.inf))
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def table(f, name):
    g = f["summary"][name]
    return {c: [text(x) if isinstance(x, bytes) else x for x in g[c][...]]
            for c in text(g.attrs["columns"]).split(",")}


f = smoke.run_ok(BINARY, STUDY)
smoke.check_meta(f, STUDY)
smoke.check_declared_claims(f, STUDY)
smoke.check_table(f, "type1", ["mechanism", "claim", "tpr_minus_fpr", "tau", "replications",
                               "max_rounds", "rejected", "rejection_rate", "alpha", "binomial_p"])
smoke.check_table(f, "detection", ["mechanism", "sequential_median_outputs",
                                   "batch_outputs_to_detect", "batch_over_sequential"])
smoke.check_table(f, "batch_power", ["mechanism", "n_per_neighbour", "rejected"])
smoke.check_table(f, "dpsgd", ["variant", "runs_rejected", "median_rejection_step"])
s = f["settings"].attrs
alpha, eps, mu = float(s["alpha"]), float(s["claimed_epsilon"]), float(s["claimed_mu"])
log_bar = math.log(1 / alpha)
type1, detection = table(f, "type1"), table(f, "detection")
type1_ok, few_hundred, orders = True, True, True
for name in CASES:
    g = f["cases"][name]
    a = g.attrs
    tpr, fpr = exact_rates(name, eps, mu)
    check(abs(a["tpr"] - tpr) < 1e-12 and abs(a["fpr"] - fpr) < 1e-12, f"{name}: exact rates")
    claim = text(a["claim"])
    tau = math.tanh(float(a["claimed"]) / 2) if claim == "eps-DP" else \
        2 * stats.norm.cdf(float(a["claimed"]) / 2) - 1
    check(abs(a["tau"] - tau) < 1e-12, f"{name}: tau {a['tau']} vs {tau}")
    at, trace = g["rejected_at"][...], g["trace"][...]
    if at[0] > 0 and at[0] <= len(trace):
        check(trace[at[0] - 1] >= log_bar - 1e-12 and np.all(trace[:at[0] - 1] < log_bar),
              f"{name}: trace crosses ln(1/alpha) at its rejection round {at[0]}")
    elif at[0] == 0:
        check(np.all(trace < log_bar), f"{name}: never rejected, trace stays below")
    n_b, rej_b = g["batch/n"][...], g["batch/rejections"][...]
    reps_b = int(s["batch_replications"])
    if int(a["correct"]):
        i = type1["mechanism"].index(name)
        k = int(np.sum(at > 0))
        check(type1["rejected"][i] == k, f"{name}: type1 rejected {type1['rejected'][i]} vs {k}")
        p = stats.binom.sf(k - 1, len(at), alpha) if k > 0 else 1.0
        check(abs(type1["binomial_p"][i] - p) < 1e-9, f"{name}: binomial p")
        type1_ok = type1_ok and p >= 0.001
    else:
        i = detection["mechanism"].index(name)
        seq = 2 * median_rounds(at)
        check(detection["sequential_median_outputs"][i] == seq, f"{name}: median outputs")
        hits = [2 * n for n, r in zip(n_b, rej_b) if 2 * r >= reps_b]
        batch = hits[0] if hits else math.inf
        check(detection["batch_outputs_to_detect"][i] == batch, f"{name}: batch outputs")
        few_hundred = few_hundred and seq <= 1000
        orders = orders and math.isfinite(seq) and seq * 10 <= batch
dp_bug = f["dpsgd/noise_on_mean/rejected_at"][...]
dp_ok = f["dpsgd/correct/rejected_at"][...]
for variant in ("correct", "noise_on_mean"):
    g = f["dpsgd"][variant]
    for r, (at, trace) in enumerate(zip(g["rejected_at"][...], g["trace"][...])):
        want = int(np.argmax(trace >= log_bar)) + 1 if np.any(trace >= log_bar) else 0
        check(at == want, f"dpsgd {variant} run {r}: rejected_at {at} vs trace {want}")
steps = int(s["dpsgd_steps"])
k = int(np.sum(dp_ok > 0))
dpsgd_holds = bool(np.all(dp_bug > 0)) and median_rounds(dp_bug) <= steps and \
    (stats.binom.sf(k - 1, len(dp_ok), alpha) if k else 1.0) >= 0.001
verdicts = {"sequential_audit_type1_controlled": type1_ok,
            "sequential_audit_detects_few_hundred": few_hundred,
            "sequential_audit_orders_below_batch": orders,
            "sequential_audit_dpsgd_bug_within_one_run": dpsgd_holds}
for cid, want in verdicts.items():
    check(bool(f["claims"][cid].attrs["holds"]) == want, f"{cid}: verdict {want} recomputed")

# Same seed, same data.
g = smoke.run_ok(BINARY, STUDY)
for name in CASES:
    for d in ("rejected_at", "trace", "batch/rejections"):
        check(np.array_equal(f["cases"][name][d][...], g["cases"][name][d][...]),
              f"{name}/{d} identical on a second run")
check(np.array_equal(f["dpsgd/noise_on_mean/trace"][...], g["dpsgd/noise_on_mean/trace"][...]),
      "DP-SGD traces identical on a second run")
f.close()

smoke.check_bad_parameters(BINARY, STUDY, [["--alpha=1"], ["--claimed_epsilon=-1"],
                                           ["--batch_sizes=50,20"], ["--dpsgd_batch_size=5000"],
                                           ["--null_rounds=0"]])
smoke.finish()
