"""Smoke test of //experiments/ml_audit_dpsgd (README.md).

usage: smoke_test.py <ml_audit_dpsgd binary>

Runs the study at --scale=test (Fashion-MNIST 0 vs 1, 235 rows, N = 10,
eps_th {2, 50}, k = 1, 2 replicates) and checks the layout, that the
replicates trained their own models and that eps_lb_median is the median of
each cell's replicates, that sigma reaches each eps_th
under the recorded accounting, that every reported bound is the Katz-log
bound of its stored fresh counts divided by k (recomputed with SciPy), the
detection ceiling, the claims, that a rerun on the same parts and a
one-thread run in a fresh directory give the same bounds, and that bad
parameters exit with code 2 and leave no file behind. Every check is
deterministic given the stored counts. A run with --clipbkd_pair=flip_replace
--clipbkd_label_from=dp checks that ClipBKD's bounds are divided by 2k
(shadow's by k), that the result file records the pair and one DP-chosen
label per eps_th, and that D and D' took the same number of steps.
"""
import os
import sys

import numpy as np
from scipy import stats

from tests import smoke

BINARY = sys.argv[1]
STUDY = "ml_audit_dpsgd"
check, text = smoke.check, smoke.text


def run(args, name):
    out = os.path.join(smoke.out_dir(), name)
    os.makedirs(out, exist_ok=True)
    return smoke.run(BINARY, [f"--parts_dir={out}/parts"] + args, out), out


def katz(n1, n0, n, alpha):
    """The Katz-log eps lower bound (0 when negative or n1 = 0)."""
    return max(0.0, smoke.katz_log_lower(n1, n0, n, stats.norm.isf(alpha / 2)))


r, out = run([], "main")
smoke.expect_ok(r, "test-scale run")
f = smoke.open_results(os.path.join(out, f"{STUDY}.h5"))
smoke.check_meta(f, STUDY)
check(text(f["meta"].attrs["dataset_provenance"]) == "fashion-mnist", "provenance")
a = f["audits"]
rows = len(a["eps_lb"])
check(rows == 2 * 2 * 3 * 1, f"2 replicates x 2 eps x 3 attacks x 1 k rows, got {rows}")
check(sorted(set(a["replicate"][...])) == [0, 1], "replicates 0 and 1")
cells = {}
for i in range(rows):
    cells.setdefault((text(a["attack"][i]), a["eps_th"][i], a["k"][i]), []).append(a["eps_lb"][i])
for i in range(rows):
    key = (text(a["attack"][i]), a["eps_th"][i], a["k"][i])
    check(len(cells[key]) == 2 and abs(a["eps_lb_median"][i] - np.median(cells[key])) < 1e-12,
          f"row {i}: eps_lb_median is the median of its cell's replicates")
worst = 0.0
for i in range(rows):
    worst = max(worst, abs(katz(a["fresh_n1"][i], a["fresh_n0"][i], 10, 0.05) - a["eps_lb_raw"][i]))
    check(abs(a["eps_lb"][i] * a["k"][i] - a["eps_lb_raw"][i]) < 1e-12, f"row {i}: eps_lb = raw / k")
    check(0 <= a["fresh_n1"][i] <= 10 and 0 <= a["fresh_n0"][i] <= 10, f"row {i}: counts in [0, N]")
check(worst < 1e-9, f"bounds agree with SciPy's Katz-log (max |diff| {worst:g})")
dims = {text(x): int(d) for x, d in zip(a["attack"][...], a["summary_dim"][...])}
check(dims == {"clipbkd": 1, "clipbkd_vec": 4, "shadow": 1}, f"summary dims {dims}")
check(text(f["meta"].attrs["clipbkd_pair"]) == "append", "default pair: append")
check(all(text(x) == "append" for x in a["pair"][...]) and
      np.array_equal(a["group"][...], a["k"][...]), "append: group size k")
check(list(f["poisons/clipbkd_label/y"][...]) == [f["poisons/y"][0]] * 2,
      "nonprivate: one label for every eps_th")
acc = f["accounting"]
check(np.allclose(acc["eps_rdp"][...], acc["eps_th"][...], rtol=1e-6), "sigma reaches each eps_th")
check(acc["sigma"][0] > acc["sigma"][1], "more noise at the smaller eps_th")
check(list(acc["steps"][...]) == [8, 8], "T = ceil(2 * 235 / 60) = 8")
for side in ("D_clipbkd_k1", "Dprime_clipbkd_k1", "D_shadow_k1", "Dprime_shadow_k1"):
    p = f[f"probes/rep_0/eps_0/{side}"][...]
    check(p.shape == (20, 5), f"{side}: 2N models x (2 probes + 3)")
    check(np.all((p >= 0) & (p <= 1)), f"{side}: probabilities")
    check(not np.any(np.isclose(p, f[f"probes/rep_1/eps_0/{side}"][...]).all(axis=1)),
          f"{side}: replicate 1 trained models of its own")
check(f["poisons/x"].shape == (2, 784), "poisons stored")
xs = f["poisons/x"][1]
check(np.all((xs >= 0) & (xs <= 1)), "shadow poison inside [0, 1]^784")
smoke.check_table(f, "eps_lb", ["attack", "eps_th", "k", "replicate", "sigma", "eps_lb",
                              "eps_lb_median", "fresh_n1", "fresh_n0"])
smoke.check_table(f, "accounting", ["eps_th", "sigma", "eps_rdp", "q", "steps"])
smoke.check_table(f, "detection_ceiling", ["N", "k", "ceiling_z_alpha_2", "ceiling_z_alpha_4"])
c = f["summary/detection_ceiling"]
check(abs(c["ceiling_z_alpha_2"][0] - (np.log(10) - stats.norm.isf(0.025) * np.sqrt(0.9))) < 1e-9,
      "Cor. 4.0.1 ceiling")
smoke.check_declared_claims(f, STUDY)
first = a["eps_lb_raw"][...].copy()
probes = f["probes/rep_1/eps_1/Dprime_shadow_k1"][...].copy()
f.close()

r2, out2 = run([], "main")
smoke.expect_ok(r2, "rerun")
with smoke.open_results(os.path.join(out2, f"{STUDY}.h5")) as g:
    check(np.array_equal(g["audits/eps_lb_raw"][...], first), "rerun on the parts: same bounds")

r3, out3 = run(["--threads=1"], "threads1")
smoke.expect_ok(r3, "one-thread run")
with smoke.open_results(os.path.join(out3, f"{STUDY}.h5")) as g:
    check(np.array_equal(g["probes/rep_1/eps_1/Dprime_shadow_k1"][...], probes),
          "fresh directory, one thread: the same models")

r4, out4 = run(["--clipbkd_pair=flip_replace", "--clipbkd_label_from=dp", "--k=2",
                "--replicates=1"], "flip")
smoke.expect_ok(r4, "flip_replace run")
with smoke.open_results(os.path.join(out4, f"{STUDY}.h5")) as g:
    check(text(g["meta"].attrs["clipbkd_pair"]) == "flip_replace" and
          text(g["meta"].attrs["clipbkd_label_from"]) == "dp", "pair and label source recorded")
    b = g["audits"]
    for i in range(len(b["eps_lb"])):
        flip = text(b["attack"][i]) != "shadow"
        want = 2 * b["k"][i] if flip else b["k"][i]
        check(b["group"][i] == want and text(b["pair"][i]) == ("flip_replace" if flip else "append"),
              f"flip row {i}: group {b['group'][i]}")
        check(abs(b["eps_lb"][i] * want - b["eps_lb_raw"][i]) < 1e-12, f"flip row {i}: raw / group")
    lab = g["poisons/clipbkd_label"]
    check(len(lab["y"]) == 2 and np.all(lab["prob"][...] <= 0.5) and
          all(text(x) == "dp" for x in lab["from"][...]), "one DP-chosen label per eps_th")
    ceil = g["summary/detection_ceiling"]
    check(sorted(zip(ceil["k"][...], ceil["group"][...])) == [(2, 2), (2, 4)],
          "ceiling rows per (k, group)")

smoke.check_bad_parameters(BINARY, STUDY, [["--clipbkd_pair=swap"], ["--clipbkd_label_from=x"],["--shard=2/2"], ["--shard=x"],
                                           ["--attacks=swapx"], ["--eps=0"], ["--eps=-1"],
                                           ["--k=0"], ["--n=1"], ["--alpha=1"], ["--replicates=0"], ["--activation=gelu"],
                                           ["--class_b=0"], ["--n_train=236", "--k=8"],
                                           ["--data_dir=/nonexistent"], ["--batch_size=300"]])
smoke.finish()
