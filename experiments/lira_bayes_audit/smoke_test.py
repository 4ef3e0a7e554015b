"""Smoke test of //experiments/lira_bayes_audit (study E1) at --scale=test.

1. A run writes the layout the tables, verify and the figure read (/meta with
   the Fashion-MNIST provenance, /settings/<setting>/..., /figure, /accounting,
   the three summary tables, the claims, the numbers); the LiRA scores and the
   confusion counts of every table2 row are recomputed with numpy from the
   stored shadow and target statistics; every pool point is IN for exactly
   half of the shadows; the DP setting's accountant reaches eps = 8.
2. A rerun into the same parts directory trains nothing and writes the same
   table2.
3. Two shards: shard 0/2 (half the shadows), 1/2 (the other half, then half
   the targets), 0/2 again (the other targets, then the study file) give the
   same table2.
4. Bad parameters (fewer than 4 shadows, odd or zero trials, a split outside
   (0, 1), ...) exit 2 naming the argument and leave no file behind.
"""
import os
import subprocess
import sys

import numpy as np

from tests import smoke

check, text = smoke.check, smoke.text
BIN = sys.argv[1]
STUDY = "lira_bayes_audit"
TMP = smoke.out_dir()
PARTS = os.path.join(TMP, "parts")

out1 = os.path.join(TMP, "out1")
os.makedirs(out1)
smoke.expect_ok(smoke.run(BIN, [f"--parts_dir={PARTS}"], out1), STUDY)

path = os.path.join(out1, f"{STUDY}.h5")
f = smoke.open_results(path)
smoke.check_meta(f, STUDY)
m = f["meta"].attrs
check(text(m["dataset_provenance"]) == "fashion-mnist", "provenance is Fashion-MNIST")
check("CIFAR-10" in text(m["stand_in"]), "the stand-in is stated")
acc = f["accounting"].attrs
check(abs(float(acc["epsilon"]) - 8.0) < 1e-6, f"accountant eps {acc['epsilon']}")

settings = ["no_dp", "dp_eps8"]
M = int(f["settings/no_dp"].attrs["shadows"])
P = int(f["settings/no_dp"].attrs["pool_size"])
check((M, P) == (8, 128), f"test sizes {M}, {P}")


def table(name):
    t = f["summary"][name]
    cols = text(t.attrs["columns"]).split(",")
    return {c: [text(x) if isinstance(x, bytes) else x for x in t[c][...]] for c in cols}


t2 = table("table2")
for c in ("setting", "selection", "method", "threshold", "tp", "fn", "fp", "tn", "lower", "upper",
          "width"):
    check(c in t2, f"table2 column {c}")
check("Fashion-MNIST" in text(f["summary/table2"].attrs["caption"]), "table2 names the stand-in")
check(set(t2["selection"]) == {"max_lower", "split_half", "bonferroni"}, "three selections")
check("bayesian" in t2["method"] and "clopper_pearson" in t2["method"] and
      "jeffreys" in t2["method"], "the registered methods")
check("katz_log" not in t2["method"], "katz_log (delta = 0 only) is skipped")

for s in settings:
    g = f["settings"][s]
    phi = g["shadow_phi"][...].reshape(M, P)
    keep = f["shadow_is_in"][...].reshape(M, P)
    check(np.all(keep.sum(axis=0) == M // 2), f"{s}: every point IN for exactly M/2 shadows")
    ch, bits, tphi = g["challenge"][...], g["bits"][...], g["target_phi"][...]
    check(len(ch) == 16 and len(set(ch)) == 16, f"{s}: 16 distinct challenge points")
    check(not set(ch) & set(g["base"][...]), f"{s}: base excludes the challenge points")
    # Online LiRA recomputed: median location, population std floored at 1e-6.
    want = []
    for z, x in zip(ch, tphi):
        a, b = phi[keep[:, z] == 1, z], phi[keep[:, z] == 0, z]
        mi, si = np.median(a), max(np.std(a), 1e-6)
        mo, so = np.median(b), max(np.std(b), 1e-6)
        want.append((-0.5 * ((x - mi) / si) ** 2 - np.log(si)) -
                    (-0.5 * ((x - mo) / so) ** 2 - np.log(so)))
    check(np.allclose(want, g["score_online"][...], rtol=1e-9, atol=1e-9),
          f"{s}: online LiRA scores recomputed")
    sc = g["score_online"][...]
    for i in range(len(t2["setting"])):
        if t2["setting"][i] != s or t2["selection"][i] == "split_half":
            continue
        thr = t2["threshold"][i]
        tp = int(np.sum((sc >= thr) & (bits == 1)))
        fp = int(np.sum((sc >= thr) & (bits == 0)))
        got = (t2["tp"][i], t2["fn"][i], t2["fp"][i], t2["tn"][i])
        check(got == (tp, int(bits.sum()) - tp, fp, int((1 - bits).sum()) - fp),
              f"{s} {t2['selection'][i]} {t2['method'][i]}: counts {got} at threshold {thr}")
    for i in range(len(t2["setting"])):
        if t2["setting"][i] == s and t2["selection"][i] == "split_half":
            n = t2["tp"][i] + t2["fn"][i] + t2["fp"][i] + t2["tn"][i]
            check(n == 8, f"{s} split_half estimates on half the trials ({n})")
    check(f"figure/{s}/density" in f, f"{s}: figure data")

lo, up = np.array(t2["lower"], float), np.array(t2["upper"], float)
check(np.all(lo >= 0) and np.all(up >= lo), "0 <= lower <= upper")
for t in ("width_reduction", "accuracy"):
    check(f"summary/{t}" in f, f"summary {t}")
smoke.check_declared_claims(f, STUDY)
for k in ("no_dp_bayesian_lower", "dp_eps8_clopper_pearson_upper", "no_dp_test_accuracy_pct"):
    check(f"numbers/{STUDY}_{k}" in f, f"number {k}")


# RMIA beside LiRA: an independent NumPy recomputation from the stored
# arrays (attacks/rmia.h: Pr(.|model) = sigmoid(phi), offline marginal
# ((1 + a) P_out + 1 - a) / 2, Pr(z) by that formula in both modes, gamma 1).
def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def mw_auc(sc, bits):
    m, n = sc[bits == 1], sc[bits == 0]
    return (np.sum(m[:, None] > n[None, :]) + 0.5 * np.sum(m[:, None] == n[None, :])) / (
        len(m) * len(n))


def rmia(px_target, px_marg, z_target, z_marg):
    return np.mean(px_target / px_marg > z_target / z_marg)


from scipy.special import log_ndtr  # noqa: E402

check(len(f["population_rows"][...]) == 100, "population: the 100 test rows")
att = table("attacks")
for s in settings:
    g = f["settings"][s]
    phi = g["shadow_phi"][...].reshape(M, P)
    keep = f["shadow_is_in"][...].reshape(M, P)
    ch, bits, tphi = g["challenge"][...], g["bits"][...], g["target_phi"][...]
    a = float(g["attacks/rmia_offline_a"][()])
    check(0.0 <= a <= 1.0 and abs(a * 10 - round(a * 10)) < 1e-9, f"{s}: a = {a} on the grid")
    zs = g["population/shadow_prob"][...].reshape(M, -1)
    zt = g["population/target_prob"][...].reshape(len(ch), -1)
    check(zs.shape[1] == 100 and np.all((zs >= 0) & (zs <= 1)), f"{s}: population probabilities")
    off = lambda m: 0.5 * ((1 + a) * m + 1 - a)  # noqa: E731
    for i in range(4):
        z, pr = ch[i], sigmoid(phi[:, ch[i]])
        want = {"rmia_online_all": rmia(sigmoid(tphi[i]), pr.mean(), zt[i], off(zs.mean(axis=0))),
                "rmia_offline_all": rmia(sigmoid(tphi[i]), off(pr[keep[:, z] == 0].mean()), zt[i],
                                         off(zs.mean(axis=0)))}
        for k in (1, 2, 4):
            refs = np.flatnonzero(keep[:, z] == 0)[:k]
            stored = g[f"attacks/rmia_offline_k{k}/reference_shadows"][...].reshape(-1, k)[i]
            check(list(stored) == list(refs), f"{s} trial {i} k={k}: reference shadows")
            want[f"rmia_offline_k{k}"] = rmia(sigmoid(tphi[i]), off(pr[refs].mean()), zt[i],
                                              off(zs[refs].mean(axis=0)))
        for name, w in want.items():
            got = g[f"attacks/{name}/score"][i]
            check(abs(got - w) < 1e-12, f"{s} trial {i} {name}: {got} vs NumPy {w}")
    for k in (1, 2, 4):  # offline LiRA, k references, one global std
        refs = g[f"attacks/lira_offline_k{k}/reference_shadows"][...].reshape(-1, k)
        used = np.array([phi[r, c] for r, c in zip(refs, ch)])
        sd = max(np.std(used), 1e-6)
        want = log_ndtr((tphi - np.median(used, axis=1)) / sd)
        check(np.allclose(want, g[f"attacks/lira_offline_k{k}/score"][...], rtol=1e-9, atol=1e-9),
              f"{s}: offline LiRA with {k} references recomputed")
    for j in range(len(att["name"])):
        if att["setting"][j] == s:
            sc = g[f"attacks/{att['name'][j]}/score"][...]
            check(abs(mw_auc(sc, bits) - att["auc"][j]) < 1e-12, f"{s} {att['name'][j]}: AUC")
check(len(att["name"]) == 20, f"attacks table: 2 settings x 10 attacks ({len(att['name'])})")

first = {k: list(v) for k, v in t2.items()}
f.close()

# ------------------------------------------------------------ 2. rerun
r = subprocess.run([BIN, "--scale=test", f"--output_dir={out1}", f"--parts_dir={PARTS}"],
                   capture_output=True, text=True)
check(r.returncode == 0, f"rerun exit {r.returncode}")
check("0 to run" in r.stderr, "rerun trains nothing")
with smoke.open_results(path) as f:
    t = f["summary/table2"]
    again = {c: [text(x) if isinstance(x, bytes) else x for x in t[c][...]] for c in first}
check(again == first, "rerun: same table2")

# ------------------------------------------- 3. two shards, two phases
out2, parts2 = os.path.join(TMP, "out2"), os.path.join(TMP, "parts2")
os.makedirs(out2)
for i, shard in enumerate(["0/2", "1/2", "0/2"]):
    r = smoke.run(BIN, [f"--parts_dir={parts2}", f"--shard={shard}"], out2)
    check(r.returncode == 0, f"shard {shard} (call {i}) exit {r.returncode}: {r.stderr[-300:]}")
    exists = os.path.exists(os.path.join(out2, f"{STUDY}.h5"))
    check(exists == (i == 2), f"call {i}: study file present = {exists}")
    if i < 2:
        check("no result file written" in r.stderr and "pending" in r.stderr,
              f"call {i} says what is pending: {r.stderr[-300:]}")
if os.path.exists(os.path.join(out2, f"{STUDY}.h5")):
    with smoke.open_results(os.path.join(out2, f"{STUDY}.h5")) as f:
        t = f["summary/table2"]
        sharded = {c: [text(x) if isinstance(x, bytes) else x for x in t[c][...]] for c in first}
    check(sharded == first, "two shards in two phases give the same table2")

# ------------------------------------------------------ 4. bad parameters
bad = [["--shadows=2"], ["--shadows=5"], ["--trials=0"], ["--trials=3"], ["--fit_fraction=0"],
       ["--fit_fraction=1"], ["--fit_fraction=1.5"], ["--trials=200"], ["--alpha=0"],
       ["--selection_weight=f1"], ["--shadows=4"], ["--fit_fraction=0.1"], ["--model=resnet"], ["--shard=1/1"], ["--batch_size=64"]]
smoke.check_bad_parameters(BIN, STUDY, [[f"--parts_dir={PARTS}.bad"] + a for a in bad])
for arg, name in ((["--shadows=2"], "shadows"), (["--trials=3"], "trials"),
                  (["--fit_fraction=1"], "fit_fraction")):
    r = smoke.run(BIN, arg, os.path.join(TMP, "out1"))
    check(r.returncode == 2 and name in r.stderr, f"{arg}: names {name}: {r.stderr[-200:]}")
check(not os.path.exists(f"{PARTS}.bad"), "bad parameters leave no parts behind")
smoke.finish()
