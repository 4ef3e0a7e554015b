"""Smoke test of //experiments/synthetic_data_mia at --scale=test.

Checks: the HDF5 layout and the declared claims; every stored AUC against a
Mann-Whitney recount from the stored test scores; the worst-case flags
against the stored bounds (one-sided Clopper-Pearson; Gaussian-DP where the
test's trade-off is Gaussian) and the claimed eps; the Laplace histogram's white-box scores obey
their bound |LLR| <= (attributes) / b = eps on the one-attribute pair; same
seed, same numbers (timings aside); bad parameters exit 2 with no file.
"""
import os
import sys
import tempfile

import h5py
import numpy as np

from tests import smoke

BINARY = sys.argv[1]
STUDY = "synthetic_data_mia"
check, text = smoke.check, smoke.text
TIMINGS = {"games/seconds", "cost/seconds", "cost/slope"}


def auc(scores):
    members, others = scores[1::2], scores[0::2]
    greater = (members[:, None] > others[None, :]).sum()
    ties = (members[:, None] == others[None, :]).sum()
    return (greater + ties / 2) / (len(members) * len(others))


def check_aucs(f):
    scores, stored = f["games/test_scores"][...], f["games/auc"][...]
    for g in range(scores.shape[0]):
        for a in range(scores.shape[1]):
            check(abs(auc(scores[g, a]) - stored[g, a]) < 1e-12,
                  f"game {g} attack {a}: AUC {stored[g, a]} vs recount {auc(scores[g, a])}")


def check_worst_case(f):
    """The flag is the judged bound (compute.h JudgedBound) above eps."""
    w = f["worst_case"]
    names = [text(x) for x in w["synthesizer"][...]]
    for i, name in enumerate(names):
        eps = w["epsilon"][i]
        white_box, dcr = w["white_box_eps_lower"][i], w["dcr_eps_lower"][i]
        if name == "independent_gaussian":
            white_box, dcr = w["white_box_gdp_eps_lower"][i], w["dcr_gdp_eps_lower"][i]
        elif name == "mst":
            white_box = w["white_box_gdp_eps_lower"][i]
        judged = max(white_box, dcr)
        check(bool(w["flagged"][i]) == (judged > eps),
              f"worst case {i} ({name}): flagged {w['flagged'][i]} vs judged bound {judged} > {eps}")


def check_laplace_llr_bound(f):
    w = f["worst_case"]
    for i in range(w["synthesizer"].shape[0]):
        if (text(w["synthesizer"][i]) == "independent_laplace" and text(w["bug"][i]) == ""
                and w["attributes"][i] == 1):
            scores = w["white_box_scores"][i]
            bound = w["epsilon"][i]  # one attribute: |LLR| <= 1 / b = eps
            check(np.all(np.abs(scores) <= bound * (1 + 1e-12)),
                  f"worst case {i}: Laplace LLR beyond +-{bound}: {np.abs(scores).max()}")


def datasets(f):
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj[...])
                 if isinstance(obj, h5py.Dataset) and not name.startswith("meta") else None)
    return out


def main():
    with smoke.run_ok(BINARY, STUDY) as f:
        smoke.check_meta(f, STUDY)
        smoke.check_declared_claims(f, STUDY)
        smoke.check_table(f, "games", ["synthesizer", "epsilon", "target", "adversary", "attack",
                                       "auc", "tpr_at_fpr_01", "privacy_gain", "eps_lower"])
        smoke.check_table(f, "by_case", ["synthesizer", "epsilon", "black_box_eps_lower",
                                         "worst_case_eps_lower"])
        smoke.check_table(f, "worst_case", ["synthesizer", "bug", "attributes", "flagged"])
        smoke.check_table(f, "cost", ["synthesizer", "slope"])
        n_targets = f["targets/kind"].shape[0]
        n_cases = f["cases/synthesizer"].shape[0]
        check(f["games/auc"].shape[0] == n_cases * n_targets * 2,
              f"one game per (case, target, adversary): {f['games/auc'].shape}")
        check_aucs(f)
        check_worst_case(f)
        check_laplace_llr_bound(f)
        bugs = {text(b) for b in f["worst_case/bug"][...]}
        check({"domain_from_data", "laplace_half_scale", "mst_unscaled_noise"} <= bugs,
              f"every planted bug audited: {bugs}")
        first = datasets(f)
    again = tempfile.mkdtemp(dir=smoke.out_dir())
    smoke.expect_ok(smoke.run_at_test_scale(BINARY, again, tempfile.mkdtemp()), "second run")
    with h5py.File(os.path.join(again, STUDY + ".h5"), "r") as f:
        second = datasets(f)
    for name, values in first.items():
        if name in TIMINGS or name.startswith("summary/cost") or name.startswith("summary/games"):
            continue
        check(name in second and np.array_equal(values, second[name]),
              f"same seed, same {name}")
    smoke.check_bad_parameters(BINARY, STUDY, [
        ["--epsilons=0"], ["--delta=1"], ["--synthesizers=gan"], ["--adversaries=oracle"],
        ["--outlier_targets=100000"], ["--train_datasets=41"]])
    smoke.finish()


if __name__ == "__main__":
    main()
