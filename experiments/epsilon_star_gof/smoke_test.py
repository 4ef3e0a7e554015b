"""Smoke test of //experiments/epsilon_star_gof (study C4) at --scale=test.

Runs the study binary into $TEST_TMPDIR (parts included), then checks with privbench.results:
/meta, the raw arrays and their shapes, that the /numbers behind the claims are
recomputable from the raw p-values, the summary tables, the claims, that a rerun
reuses every sweep part and gives identical bytes in the raw data, that a rerun
with another seed starts a fresh parts directory (parts are keyed by the
configuration), and that bad parameters exit with code 2 and leave no file
behind (nor parts).
"""
import os
import sys
import tempfile

import numpy as np

from tests import smoke
from tests.smoke import check, text

STUDY = "epsilon_star_gof"
BIN = sys.argv[1]


def run(directory, args=()):
    return smoke.run(BIN, [f"--parts_dir={directory}/parts"] + list(args), directory)


d = tempfile.mkdtemp(dir=smoke.out_dir())
smoke.expect_ok(run(d), STUDY)
path = os.path.join(d, f"{STUDY}.h5")
check(os.path.exists(path), "study file written")
f = smoke.open_results(path)

# /meta
smoke.check_meta(f, STUDY)
m = f["meta"].attrs
for key in ("dataset_provenance", "dataset_checksums", "accounting", "sweep_config",
            "training_record_no_dp", "training_record_dp"):
    check(key in m, f"meta has {key}")
check(text(m["dataset_provenance"]) == "uci-adult", "provenance uci-adult")
lost = text(m["lost_parameters"])
for word in ("epochs", "target eps", "variance floor", "n_eval", "tolerance"):
    check(word in lost, f"lost_parameters mention {word}")

# Settings and raw arrays.
n_eval = f["settings/n_eval"][...]
ks = f["settings/components"][...]
floors = f["settings/variance_floors"][...]
analyses = [text(x) for x in f["settings/analyses"][...]]
check(analyses == ["app_b_floor1e-06", "app_b_floor1e-12", "carlini_logit_floor1e-06"],
      f"analyses {analyses}")
check([text(x) for x in f["settings/analysis_transform"][...]] ==
      ["epsilon_star_logit", "epsilon_star_logit", "carlini_logit"], "analysis transforms")
check(list(n_eval) == [100, 200], f"n_eval {n_eval}")
check(list(ks) == [1, 2, 3], f"components {ks}")
check(list(floors) == [1e-6, 1e-12], f"floors {floors}")
models = [text(x) for x in f["settings/models"][...]]
sets = [text(x) for x in f["settings/loss_sets"][...]]
check(models == ["no_dp", "dp"], f"models {models}")
check(sets == ["train", "population"], f"loss sets {sets}")
R = int(f["settings"].attrs["repetitions"])
shape = (2, R, 2, 3, 2, 3)  # model, rep, loss set, analysis, n_eval, k
for name in ("p_value", "p_exact", "p_asymptotic", "ks_statistic", "p_one_sample",
             "d_one_sample", "heldout_log_likelihood", "log_likelihood", "bic", "iterations",
             "converged", "active_components", "floored_components"):
    check(f"gof/{name}" in f and f[f"gof/{name}"].shape == shape, f"gof/{name} shape")
p = f["gof/p_value"][...]
check(np.all((p >= 0) & (p <= 1)), "p-values in [0, 1]")
check(np.array_equal(p, f["gof/p_exact"][...]), "primary p-values are the exact ones")
check(np.max(np.abs(f["gof/p_asymptotic"][...] - p)) < 0.003,
      "asymptotic p within 0.003 of exact (ks_test.h bound at n >= 100)")
D = f["gof/ks_statistic"][...]
for i, n in enumerate(n_eval):
    h = D[..., i, :] * n
    check(np.allclose(h, np.round(h), atol=1e-9), f"D is a multiple of 1/{n}")
check(np.array_equal(p[:, :, :, 0, :, 0], p[:, :, :, 1, :, 0]),
      "k = 1 does not depend on the variance floor (data variance far above both)")
# Carlini's logit is a monotone map of the same losses on the same split, so
# the evaluation sets agree; at k = 1 its Normal fit differs, so p differs.
check(not np.array_equal(p[:, :, :, 0, :, 0], p[:, :, :, 2, :, 0]), "Carlini analysis differs")
check(f["gof/fit_size"].shape == (2, R, 2, 2), "fit_size shape")
fit_size = f["gof/fit_size"][...]
check(np.all(fit_size[:, :, 0, :] == 2000 - n_eval), "train fit sizes")
check(np.all(fit_size[:, :, 1, :] == 1000 - n_eval), "population fit sizes")
for mdl in models:
    for s, n in (("train", 2000), ("population", 1000)):
        for suffix in ("", "_transformed"):
            ds = f"losses/{mdl}/{s}{suffix}"
            check(ds in f and f[ds].shape == (1, n), f"{ds} shape (first repetition)")
    t = f[f"losses/{mdl}/train_transformed"][...]
    check(np.all((t >= -1.8546) & (t <= -0.5413)), f"{mdl}: transformed values in the App. B range")
eps = f["models/eps"][...]
check(np.all(np.isnan(eps[0])), "no eps for the non-private model")
check(np.allclose(eps[1], 10.0, rtol=1e-6), f"DP model at the target eps 10: {eps[1]}")
check(np.all(f["models/auroc"][...] > 0.6), "models learned something (AUROC > 0.6)")

# Numbers are recomputable from the raw p-values (training losses, primary floor).
def num(name):
    return float(f[f"numbers/epsilon_star_gof_{name}"][()][0])

train = p[:, :, 0, 0]  # model, rep, n_eval, k
check(abs(num("frac_above_all") - np.mean(train > 0.05)) < 1e-12, "frac_above_all")
check(abs(num("frac_above_dp") - np.mean(train[1] > 0.05)) < 1e-12, "frac_above_dp")
check(abs(num("frac_above_k1") - np.mean(train[..., 0] > 0.05)) < 1e-12, "frac_above_k1")
check(abs(num("frac_above_k_big") - np.mean(train[..., 2:] > 0.05)) < 1e-12,
      "frac_above_k_big (k >= min(10, K) = 3)")
small = p[:, :, 0, 1]
check(abs(num("frac_above_all_floor1e-12") - np.mean(small > 0.05)) < 1e-12,
      "frac_above_all of the 1e-12 floor")
carlini = p[:, :, 0, 2]
check(abs(num("frac_above_all_carlini_logit") - np.mean(carlini > 0.05)) < 1e-12,
      "frac_above_all of the Carlini analysis")
check(abs(num("median_p_k1_dp_n200") - np.median(train[1, :, 1, 0])) < 1e-15, "median_p_k1")

# Tables.
def check_table(name, columns, rows):
    smoke.check_table(f, name, columns)
    if f"summary/{name}" not in f:
        return
    g = f["summary"][name]
    cols = text(g.attrs["columns"]).split(",")
    check({len(g[c]) for c in cols} == {rows}, f"table {name} has {rows} rows")
    cap = text(g.attrs["caption"])
    check("uci-adult" in cap, f"table {name} caption names the data")

check_table("gof_by_n_eval", ["loss_set", "model", "analysis", "variance_floor", "n_eval",
                              "median_p_k1", "frac_above_k1", "frac_above_all_k", "bic_best_k"],
            2 * 2 * 3 * 2)
check_table("gof_by_components", ["loss_set", "model", "analysis", "variance_floor", "k",
                                  "median_p", "frac_above", "heldout_ll", "converged"],
            2 * 2 * 3 * 3)
check_table("models", ["model", "repetition", "eps", "auroc", "membership_auc", "max_loss"], 2 * R)
# What each transform does to the losses: one row per (model, loss set,
# repetition); the App. B transform decreases in the loss.
check_table("transform_shape", ["model", "loss_set", "repetition", "skew_raw", "skew_app_b",
                                "skew_carlini", "corr_app_b", "corr_carlini"], 2 * R * 2)
smoke.check(float(f["numbers/transform_shape_no_dp_train_corr_app_b"][()]) < 0,
            "App. B transform decreasing in the loss")

# Claims: present for every analysis, with a verdict and evidence.
claim_ids = [f"epsilon_star_gof_{base}{sfx}"
             for base in ("most_above", "more_with_dp", "more_with_components",
                          "one_component_most_n_eval", "one_component_more_with_dp")
             for sfx in ("", "_floor1e-12", "_carlini_logit")]
check(sorted(claim_ids) == sorted(smoke.declared_claim_ids(STUDY)),
      "the claims checked below are the declared ones")
smoke.check_declared_claims(f, STUDY)
for cid in claim_ids:
    if f"claims/{cid}" in f:
        a = f["claims"][cid].attrs
        check(text(a["evidence"]) != "", f"{cid} has evidence")
        check("criterion" in text(a["criterion"]), f"{cid} criterion (claims.json)")
        check("App. B.2" in text(a["source"]), f"{cid} source")
holds = int(f["claims/epsilon_star_gof_most_above"].attrs["holds"])
check(holds == int(num("frac_above_all") > 0.5), "most_above verdict follows its number")
raw = {k: f[f"gof/{k}"][...] for k in ("p_value", "bic")}
f.close()

# A rerun reuses every part (nothing retrained) and gives the same raw data.
os.rename(path, path + ".first")
r2 = run(d, ["--quiet=false"])
check(r2.returncode == 0, f"rerun exit {r2.returncode}")
check("2 already complete, 0 to run" in r2.stderr, "rerun skips both units")
with smoke.open_results(path) as g:
    for k, v in raw.items():
        check(np.array_equal(g[f"gof/{k}"][...], v), f"rerun gives identical gof/{k}")
# --merge_only assembles without training.
os.remove(path)
r3 = run(d, ["--merge_only"])
check(r3.returncode == 0 and os.path.exists(path), f"--merge_only exit {r3.returncode}")

# Another seed is another configuration: a fresh parts directory, both
# units trained again, the first directory left as it was.
os.remove(path)
parts = os.path.join(d, "parts")
before = sorted(os.listdir(parts))
check(len(before) == 1 and before[0].startswith(f"{STUDY}."),
      f"one parts directory keyed by the configuration: {before}")
first_parts = sorted(os.listdir(os.path.join(parts, before[0]))) if before else []
r4 = run(d, ["--seed=2", "--quiet=false"])
check(r4.returncode == 0 and os.path.exists(path),
      f"rerun with --seed=2 exit {r4.returncode} ({r4.stderr.strip()[-300:]})")
check("0 already complete, 2 to run" in r4.stderr, "rerun with another seed trains both units")
after = sorted(os.listdir(parts))
check(len(after) == 2 and set(before) < set(after),
      f"another seed starts a fresh parts directory: {after}")
if before:
    check(sorted(os.listdir(os.path.join(parts, before[0]))) == first_parts,
          "the first configuration's parts are untouched")
with smoke.open_results(path) as g:
    check(int(g["meta"].attrs["seed"]) == 2, "the re-seeded file records seed 2")
    check(not np.array_equal(g["gof/p_value"][...], raw["p_value"]),
          "another seed gives other p-values")

# Bad parameters: exit 2, nothing left behind (no study file, no parts).
bad_parts = os.path.join(tempfile.mkdtemp(dir=smoke.out_dir()), "parts")
smoke.check_bad_parameters(BIN, STUDY, [
    args + [f"--parts_dir={bad_parts}"]
    for args in (["--n_eval=0"], ["--n_eval=200,100"], ["--max_components=0"],
                 ["--variance_floors=0"], ["--variance_floors=1e-6,1e-6"], ["--init=kmeans"],
                 ["--ks_method=asymp"], ["--significance=1"], ["--repetitions=0"],
                 ["--dp_epsilon=-1"], ["--delta=1"], ["--n_train=0"], ["--shard=2/2"],
                 ["--calibration_rule=tf"], ["--max_iterations=0"], ["--tolerance=-1"],
                 ["--num_microbatches=65"], ["--n_eval=100,999"], ["--batch_size=5000"])])
check(not os.path.exists(bad_parts), "bad parameters leave no parts directory")

smoke.finish()
