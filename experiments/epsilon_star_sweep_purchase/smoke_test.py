"""Smoke test of //experiments/epsilon_star_sweep_purchase (study C3) at --scale=test."""
import sys

import numpy as np

from experiments.lib.epsilon_star_sweep import smoke_checks as sc
from tests import smoke

STUDY = "epsilon_star_sweep_purchase"
BIN = sys.argv[1]
DATA = ["--dataset=surrogate"]  # the test must not depend on a local copy of the real data

f = sc.run_ok(BIN, STUDY, DATA, "main")
n_cfg, reps = sc.check_layout(f, STUDY)
m = f["meta"].attrs
smoke.check(smoke.text(m["dataset_provenance"]) == "purchase100-surrogate",
            "surrogate provenance")
smoke.check("surrogate" in smoke.text(m["dataset_choice"]), "dataset choice recorded")
for t in ("configurations", "baselines"):
    smoke.check("purchase100-surrogate" in smoke.text(f["summary"][t].attrs["caption"]),
                f"table {t} says purchase100-surrogate")
smoke.check(n_cfg == 3 and reps == 2, f"test grid ({n_cfg}, {reps})")
smoke.check(np.all(np.isnan(f["models/auroc"][...])), "no AUROC for 100 classes")
smoke.check(np.array_equal(f["models/utility"][...], f["models/population_accuracy"][...]),
            "Purchase utility is the test (population) accuracy")
sc.check_claims(f, smoke.declared_claim_ids(STUDY))
smoke.check_declared_claims(f, STUDY)
for e in (1, 3):
    for q in ("epsilon_star_parametric_mean", "test_accuracy_percent"):
        smoke.check(f"numbers/purchase_baseline_epochs_{e}_{q}" in f, f"number {e} {q}")
acc = float(f["numbers/purchase_baseline_epochs_3_test_accuracy_percent"][()])
smoke.check(0 <= acc <= 100, "accuracy in percent")
# An overfitting MLP: more epochs, higher training accuracy (robust at any size).
tr = f["configs/train_accuracy/mean"][...]
smoke.check(tr[1] > tr[0], "3-epoch baseline fits the training rows better than 1 epoch")
sc.check_bad_parameters(BIN, STUDY,
                        [DATA + ["--repetitions=0"], DATA + ["--dataset=kaggle"],
                         DATA + ["--n_population=-5"], DATA + ["--batch_sizes=0"],
                         DATA + ["--shard=1/1"], DATA + ["--data_seed=-1"],
                         DATA + ["--epsilon_star_quantiles=0"]])
sc.check_sharding(BIN, STUDY, f, extra=DATA)
smoke.finish()
