"""Smoke test of //experiments/epsilon_star_sweep_adult (study C2) at --scale=test."""
import sys

import numpy as np

from experiments.lib.epsilon_star_sweep import smoke_checks as sc
from tests import smoke

STUDY = "epsilon_star_sweep_adult"
BIN = sys.argv[1]

f = sc.run_ok(BIN, STUDY, [], "main")
n_cfg, reps = sc.check_layout(f, STUDY)
smoke.check(smoke.text(f["meta"].attrs["dataset_provenance"]) == "uci-adult",
            "provenance uci-adult")
smoke.check(n_cfg == 3 and reps == 2,
            f"test grid: 2 baselines + 1 DP, 2 repetitions ({n_cfg}, {reps})")
# Utility is the AUROC; a trained Adult classifier ranks far better than chance.
kind = [smoke.text(k) for k in f["configs/kind"][...]]
auroc = f["models/auroc"][...]
smoke.check(np.array_equal(auroc, f["models/utility"][...]), "Adult utility is the AUROC")
smoke.check(np.all(auroc[[i for i, c in enumerate(f["models/config_index"][...])
                          if kind[c] == "baseline"]] > 0.75), "baseline AUROC > 0.75")
sc.check_claims(f, smoke.declared_claim_ids(STUDY))
smoke.check_declared_claims(f, STUDY)
for key in ("adult_max_model_epsilon_star", "adult_baseline_epochs_5_epsilon_star_mean",
            "adult_max_dp_config_epsilon_star_mean",
            "adult_common_window_max_model_epsilon_star"):
    smoke.check(f"numbers/{key}" in f, f"number {key}")
# The claim's verdict follows from the raw data.
mx = float(f["models/epsilon_star/parametric"][...].max())
smoke.check(int(f["claims/epsilon_star_sweep_adult_all_below_0_3"].attrs["holds"]) ==
            int(mx < 0.3), "all_below_0_3 verdict matches the raw maximum")
smoke.check(abs(float(f["numbers/adult_max_model_epsilon_star"][()]) - mx) < 1e-12, "max number")
# The sound calibration rule: the sound eps is the target.
g = sc.run_ok(BIN, STUDY, ["--calibration_rule=sound"], "sound")
for i, k in enumerate([smoke.text(x) for x in g["configs/kind"][...]]):
    if k == "dp":
        smoke.check(abs(g["configs/eps_sound"][i] / g["configs/target_eps"][i] - 1) < 1e-6,
                    "sound rule: sound eps = target")
        smoke.check(g["configs/eps_tf_privacy_0_5_1"][i] < g["configs/target_eps"][i],
                    "sound rule: TF 0.5.1 eps below the target")
smoke.check(smoke.text(g["meta"].attrs["calibration_rule"]) == "sound", "rule recorded")
g.close()
# The delta of Epsilon*: the DP delta (1/n_train) by default, recorded in
# /meta; the _delta0 variants are the sensitivity analysis; another value is
# used and recorded.
n_train = int(f["meta"].attrs["n_train"])
smoke.check(abs(float(f["meta"].attrs["epsilon_star_delta"]) * n_train - 1) < 1e-12,
            "Epsilon* delta = 1/n_train by default, recorded in /meta")
smoke.check(float(f["meta"].attrs["epsilon_star_delta"]) == float(f["meta"].attrs["delta"]),
            "Epsilon* delta = the DP delta")
p, p0 = f["models/epsilon_star/parametric"][...], f["models/epsilon_star/parametric_delta0"][...]
smoke.check(np.all(p <= p0 + 1e-12), "a positive Epsilon* delta never raises Epsilon*")
for c in ("all_below_0_3", "baselines_rise_with_epochs", "dp_below_baselines_5plus"):
    smoke.check(f"claims/epsilon_star_sweep_adult_{c}_delta0" in f, f"{c} at delta 0")
h = sc.run_ok(BIN, STUDY, ["--epsilon_star_delta=0"], "delta0")
smoke.check(float(h["meta"].attrs["epsilon_star_delta"]) == 0.0, "--epsilon_star_delta=0 recorded")
smoke.check(np.array_equal(h["models/epsilon_star/parametric"][...], p0),
            "--epsilon_star_delta=0 gives the _delta0 values")
h.close()
sc.check_bad_parameters(BIN, STUDY,
                        [["--repetitions=0"], ["--target_eps=-1"], ["--clip_norms=0"],
                         ["--microbatches=0"], ["--shard=2/2"], ["--shard=x"],
                         ["--calibration_rule=tf2"], ["--delta=1"], ["--sampling=random"],
                         ["--n_train=0"], ["--n_train=40000"], ["--baseline_epochs=0"],
                         ["--merge_only", "--plan_only"], ["--learning_rate=0"],
                         ["--epsilon_star_delta=1"], ["--epsilon_star_delta=-0.1"],
                         ["--epsilon_star_delta=nan"], ["--epsilon_star_delta=dpx"]])
sc.check_sharding(BIN, STUDY, f)
smoke.finish()
