"""Smoke test of //experiments/synthetic_data_mia at --scale=test.

Checks: the HDF5 layout and the declared claims; every stored AUC against a
Mann-Whitney recount from the stored test scores; the worst-case flags
against the stored bounds (one-sided Clopper-Pearson; Gaussian-DP where the
test's trade-off is Gaussian) and the claimed eps; the Laplace histogram's white-box scores obey
their bound |LLR| <= (attributes) / b = eps on the one-attribute pair; same
seed, same numbers (timings aside), from two shards of the sweep merged as
from one process; a rerun on the same parts runs no unit and writes the
same data, the games' timings included; --units runs the units it names and
writes no study file; every audit's bound within its ceiling and
no_violation's count of audits that could fail; a power row for every
planted bug; the outlier sweep's exposures; --attacks=dcr_hamming writes only that
attack's rows, with the full run's numbers, and the claims needing other
attacks undecidable; bad parameters (an unknown or empty --attacks
included, and a bad --shard) exit 2 with no file.
"""
import os
import sys
import tempfile

import numpy as np

from tests import smoke

BINARY = sys.argv[1]
STUDY = "synthetic_data_mia"
check, text = smoke.check, smoke.text
TIMINGS = {"games/seconds", "cost/seconds", "cost/slope", "outlier_sweep/games/seconds"}
BUGS = {"domain_from_data", "laplace_half_scale", "mst_unscaled_noise", "one_marginal_low_noise",
        "double_spent_marginal"}


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


def check_ceilings(f):
    """no audit's judged bound exceeds its recorded ceiling (the
    largest it could report), and no_violation counts as able to fail exactly
    the correct DP synthesizers' audits whose ceiling is above eps."""
    synth = [text(x) for x in f["cases/synthesizer"][...]]
    attacks = [text(x) for x in f["games/attack_names"][...]]
    eps, delta, bug = f["cases/epsilon"][...], f["cases/delta"][...], f["cases/bug"][...]
    ceiling, could = f["games/judged_ceiling"][...], 0
    for g, c in enumerate(f["games/case_index"][...]):
        for a, attack in enumerate(attacks):
            gdp = delta[c] > 0 and (synth[c] == "independent_gaussian" or
                                    (synth[c] == "mst" and attack == "white_box"))
            judged = f["games/gdp_eps_lower"][g, a] if gdp else f["games/cp_eps_lower"][g, a]
            check(judged <= ceiling[g, a] * (1 + 1e-9) + 1e-12,
                  f"game {g} attack {attack}: bound {judged} above its ceiling {ceiling[g, a]}")
            could += bool(np.isfinite(eps[c]) and text(bug[c]) == "" and ceiling[g, a] > eps[c])
    w = f["worst_case"]
    for i in range(w["synthesizer"].shape[0]):
        if text(w["bug"][i]) == "":
            could += int(w["white_box_ceiling"][i] > w["epsilon"][i])
            could += int(w["dcr_ceiling"][i] > w["epsilon"][i])
    evidence = text(f["claims/synthetic_data_mia_no_violation"].attrs["evidence"])
    check(evidence.startswith(f"{could} of "), f"no_violation counts {could}: {evidence[:80]}")


def check_bug_power(f):
    """Every planted bug has a detection probability at both scales, in
    [0, 1], the paper one at least the quick one's minus 3 standard errors."""
    w, bp = f["worst_case"], f["bug_power"]
    index = list(bp["worst_case_index"][...])
    for i in range(w["bug"].shape[0]):
        if text(w["bug"][i]) == "":
            continue
        check(i in index, f"planted bug {text(w['bug'][i])} has a power row")
    for k in range(len(index)):
        q, p = bp["quick_probability"][k], bp["paper_probability"][k]
        check(0 <= q <= 1 and 0 <= p <= 1, f"bug power row {k}: {q}, {p}")
        check(p >= q - 3 * (bp["quick_se"][k] + bp["paper_se"][k]) - 1e-9,
              f"bug power row {k}: paper {p} below quick {q}")


def check_outlier_sweep(f):
    """Each sweep target's exposure is the mean of its games' AUCs."""
    s = f["outlier_sweep"]
    auc, target = s["games/auc"][...], s["games/target_index"][...]
    for t, exposure in enumerate(s["targets/exposure"][...]):
        mine = auc[target == t]
        want = mine.mean() if mine.size else np.nan
        check(np.isclose(exposure, want, equal_nan=True), f"sweep target {t}: {exposure} vs {want}")


def datasets(f):
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj[...])
                 if not isinstance(obj, dict) and not name.startswith("meta") else None)
    return out


def check_attack_subset(full):
    """--attacks=dcr_hamming: only dcr_hamming's columns and rows, the same
    numbers as in the full run `full` (datasets()), recorded in /meta's
    config; the claims needing other attacks undecidable with holds = 0."""
    d = tempfile.mkdtemp(dir=smoke.out_dir())
    smoke.expect_ok(smoke.run(BINARY, ["--attacks=dcr_hamming", f"--parts_dir={d}/parts"], d),
                    "--attacks=dcr_hamming")
    with smoke.open_results(os.path.join(d, STUDY + ".h5")) as f:
        smoke.check_declared_claims(f, STUDY)
        names = [text(x) for x in f["games/attack_names"][...]]
        check(names == ["dcr_hamming"], f"--attacks=dcr_hamming: attack_names {names}")
        rows = {text(x) for x in f["summary/games/attack"][...]}
        check(rows == {"dcr_hamming"}, f"--attacks=dcr_hamming: games table attacks {rows}")
        a = [text(x) for x in full["games/attack_names"]].index("dcr_hamming")
        for key in ("auc", "tpr_at_fpr_01", "privacy_gain", "cp_eps_lower", "mu_lower",
                    "test_scores"):
            values, want = f["games/" + key][...], full["games/" + key][:, a]
            check(values.shape[1] == 1 and np.array_equal(values[:, 0], want),
                  f"--attacks=dcr_hamming: games/{key} is the full run's dcr_hamming column")
        config = text(f["meta"].attrs["config"]).splitlines()
        check("attacks = dcr_hamming" in config, "--attacks recorded in /meta config")
        undecidable = {"synthetic_data_mia_features_beat_dcr",
                       "synthetic_data_mia_black_box_far_below"}
        for cid in f["claims"]:
            attrs = f["claims"][cid].attrs
            flag = int(attrs["undecidable"]) if "undecidable" in attrs else 0
            check(flag == (cid in undecidable), f"--attacks=dcr_hamming: {cid} undecidable {flag}")
            if cid in undecidable:
                check(int(attrs["holds"]) == 0 and "needs the attacks" in text(attrs["evidence"]),
                      f"--attacks=dcr_hamming: {cid} holds 0 and names the attacks it needs")
    for args in (["--attacks=gan"], ["--attacks="], ["--attacks=dcr_hamming,oracle"]):
        d = tempfile.mkdtemp(dir=smoke.out_dir())
        r = smoke.run(BINARY, args, d)
        check(r.returncode == 2 and "attacks" in r.stderr,
              f"{args}: exit {r.returncode} naming the flag ({r.stderr.strip()[-200:]})")
        check(os.listdir(d) == [], f"{args}: left files {os.listdir(d)}")


def check_sharded_run(first):
    """Shards 0/2 and 1/2 into fresh parts: the first writes no file, the
    second merges all parts into the numbers of the one-shard run `first`."""
    d = tempfile.mkdtemp(dir=smoke.out_dir())
    parts = f"--parts_dir={d}/parts"
    smoke.expect_ok(smoke.run(BINARY, ["--shard=0/2", parts], d), "--shard=0/2")
    check(os.listdir(d) == ["parts"], f"--shard=0/2 alone writes no study file: {os.listdir(d)}")
    smoke.expect_ok(smoke.run(BINARY, ["--shard=1/2", parts], d), "--shard=1/2")
    with smoke.open_results(os.path.join(d, STUDY + ".h5")) as f:
        second = datasets(f)
    for name, values in first.items():
        if name in TIMINGS or name.startswith("summary/cost") or name.startswith("summary/games"):
            continue
        check(name in second and np.array_equal(values, second[name]),
              f"same seed, same {name} (two shards merged)")


def check_resumed_run(first, parts):
    """A rerun on the parts of the run `first` runs no unit: the same data,
    the games' timings included (the cost measurement is made anew at every
    merge)."""
    d = tempfile.mkdtemp(dir=smoke.out_dir())
    r = smoke.run(BINARY, [f"--parts_dir={parts}", "--quiet=false"], d)
    smoke.expect_ok(r, "rerun on the same parts")
    check(" 0 to run" in r.stderr, f"the rerun runs no unit: {r.stderr.strip()[-300:]}")
    with smoke.open_results(os.path.join(d, STUDY + ".h5")) as f:
        again = datasets(f)
    for name, values in first.items():
        if name.startswith("cost/") or name.startswith("summary/cost"):
            continue
        same = name in again and np.array_equal(values, again[name],
                                                 equal_nan=values.dtype.kind == "f")
        check(same, f"rerun on the same parts: same {name}")


def check_units_flag():
    """--units=<id> runs that unit alone into the parts, no study file."""
    unit = "sweep=mst_eps=4_target=0_adversary=fixed"
    d = tempfile.mkdtemp(dir=smoke.out_dir())
    smoke.expect_ok(smoke.run(BINARY, [f"--units={unit}", f"--parts_dir={d}/parts"], d),
                    f"--units={unit}")
    made = [name for _, _, names in os.walk(os.path.join(d, "parts")) for name in names]
    check(made == [unit + ".h5"], f"--units={unit} makes that part alone: {made}")
    check(not os.path.exists(os.path.join(d, STUDY + ".h5")), "--units writes no study file")


def main():
    parts = os.path.join(smoke.out_dir(), "parts")
    with smoke.run_ok(BINARY, STUDY, [f"--parts_dir={parts}"]) as f:
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
        check(BUGS <= bugs, f"every planted bug audited: {bugs}")
        check_ceilings(f)
        check_bug_power(f)
        check_outlier_sweep(f)
        check([text(x) for x in f["games/attack_names"][...]] == [
            "dcr_hamming", "dcr_l2", "naive_logistic", "histogram_logistic",
            "correlations_forest", "queries_logistic", "queries_forest", "white_box"],
              "the default runs every attack")
        first = datasets(f)
    check_sharded_run(first)
    check_resumed_run(first, parts)
    check_units_flag()
    check_attack_subset(first)
    smoke.check_bad_parameters(BINARY, STUDY, [
        ["--epsilons=0"], ["--delta=1"], ["--synthesizers=gan"], ["--adversaries=oracle"],
        ["--outlier_targets=100000"], ["--train_datasets=41"], ["--shard=2/2"], ["--shard=1"]])
    check_refused_up_front()
    smoke.finish()


def check_refused_up_front():
    """Repeated list entries duplicated cases (or failed
    after the whole run), a subnormal eps and n_records above half of Adult
    failed at run time; each now exits 2 up front, naming the flag, no file."""
    bad = {"--synthesizers=mst,mst": "synthesizers lists 'mst' twice",
           "--attacks=white_box,white_box": "attacks lists 'white_box' twice",
           "--adversaries=fixed,fixed": "adversaries lists 'fixed' twice",
           "--epsilons=4,4": "epsilons lists '4' twice",
           "--cost_sizes=100,100": "cost_sizes lists '100' twice",
           "--epsilons=1e-320": "epsilons[0] must be in [1e-300, 1e+300]",
           "--n_records=20000": "n_records must be in [2, 16280]"}
    for arg, message in bad.items():
        d = tempfile.mkdtemp(dir=smoke.out_dir())
        r = smoke.run(BINARY, [arg], d)
        check(r.returncode == 2 and message in r.stderr,
              f"{arg}: exit {r.returncode}, stderr {r.stderr.strip()[-200:]!r}, want {message!r}")
        check(os.listdir(d) == [], f"{arg}: left files {os.listdir(d)}")


if __name__ == "__main__":
    main()
