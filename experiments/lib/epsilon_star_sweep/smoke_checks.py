"""Sweep-specific checks of the Epsilon* sweep smoke tests (C2, C3).

The generic helpers (check, text, run, check_meta, check_claims,
check_table, check_bad_parameters, finish) are tests/smoke.py's; these add
what only the sweeps have: a --parts_dir per run, the file layout and the
accounting columns, and the sharded workflow (a shard that leaves the sweep
incomplete exits 0 without a study file; --merge_only assembles the file
once every shard ran, with exactly the values of a single-process run),
--merge_only with missing parts (exit 1, no file) and --plan_only (exit 0,
no file). Result files are read with privbench.results (smoke.open_results:
checksum verified; //python:privbench is in :smoke_checks' data).
"""
import os
import subprocess
import tempfile

import numpy as np

from tests import smoke

check = smoke.check
text = smoke.text


def fresh_dir(name):
    d = os.path.join(smoke.out_dir(), name)
    os.makedirs(d, exist_ok=True)
    return d


def run(binary, args, out_dir, parts_dir):
    """smoke.run (--scale=test --quiet) with a parts directory of its own."""
    return smoke.run(binary, [f"--parts_dir={parts_dir}"] + list(args), out_dir)


def run_ok(binary, study, args, name):
    """Runs the study into fresh directories <name>_out, <name>_parts; returns the file
    (read by smoke.open_results)."""
    out, parts = fresh_dir(name + "_out"), fresh_dir(name + "_parts")
    smoke.expect_ok(run(binary, args, out, parts), f"{study} {args}")
    path = os.path.join(out, f"{study}.h5")
    check(os.path.exists(path), f"{path} written")
    return smoke.open_results(path)


def check_layout(f, study, estimators=("empirical", "parametric", "parametric_common_window")):
    smoke.check_meta(f, study)
    m = f["meta"].attrs
    for key in ("dataset_provenance", "dataset_source", "epsilon_star_options",
                "calibration_rule", "accounting", "sweep_config", "training_record_dp",
                "training_record_baseline", "quick_scale_reductions", "model_architecture",
                "delta"):
        check(key in m, f"meta has {key}")
    lost = text(m["lost_parameters"])
    for word in ("delta", "epochs of the DP runs", "calibration", "clip window"):
        check(word in lost, f"lost_parameters mentions {word}")
    check("quantiles_per_distribution" in text(m["epsilon_star_options"]), "options text recorded")
    n_cfg = len(f["configs/id"])
    n_models = len(f["models/config_index"])
    reps = int(f["models/repetition"][...].max()) + 1
    check(n_models == n_cfg * reps, f"models {n_models} = configs {n_cfg} x reps {reps}")
    for e in estimators:
        v = f[f"models/epsilon_star/{e}"][...]
        check(v.shape == (n_models,), f"epsilon_star/{e} shape")
        check(np.all(np.isfinite(v)) and np.all(v >= 0), f"epsilon_star/{e} finite, >= 0")
        for s in ("mean", "min", "max"):
            check(f[f"configs/epsilon_star/{e}/{s}"].shape == (n_cfg,), f"configs {e} {s}")
    check(f["models/loss_quantiles/train"].shape == (n_models, 101), "loss quantiles shape")
    q = f["models/loss_quantiles/train"][...]
    check(np.all(np.diff(q, axis=1) >= 0), "loss quantiles non-decreasing")
    u = f["models/utility"][...]
    check(np.all((u >= 0) & (u <= 1)), "utility in [0, 1]")
    check(int(f["configs/pareto"][...].sum()) >= 1, "a Pareto frontier exists")
    check(np.all(f["configs/pareto_convex"][...] <= f["configs/pareto"][...]),
          "convex frontier is a subset of the non-dominated set")
    check(np.all(f["models/diverged"][...] == 0), "no diverged model at test scale")
    check_accounting(f, n_models)
    check_tables(f)
    return n_cfg, reps


def check_accounting(f, n_models):
    """The TF Privacy 0.5.1 rule drives calibration by default, so its eps equals
    the target; the sound eps is larger for microbatched runs (sigma/2);
    baselines have no eps."""
    kind = [text(k) for k in f["configs/kind"][...]]
    tgt = f["configs/target_eps"][...]
    tf = f["configs/eps_tf_privacy_0_5_1"][...]
    snd = f["configs/eps_sound"][...]
    sig = f["configs/noise_multiplier"][...]
    acc = f["configs/accounting_noise_multiplier"][...]
    for i, k in enumerate(kind):
        if k == "dp":
            check(abs(tf[i] / tgt[i] - 1) < 1e-6, f"config {i}: TF 0.5.1 eps = target")
            check(snd[i] > tgt[i], f"config {i}: sound eps > target for a microbatched run")
            check(abs(acc[i] - sig[i] / 2) < 1e-12, f"config {i}: accounting sigma = sigma/2")
        else:
            check(np.isnan(tf[i]) and np.isnan(snd[i]), f"config {i}: baseline has no eps")
    mi = f["models/config_index"][...]
    me = f["models/eps_sound"][...]
    for j in range(n_models):
        if kind[mi[j]] == "dp":
            check(abs(me[j] - snd[mi[j]]) < 1e-9 * snd[mi[j]], f"model {j}: eps from its record")
            check(f["models/eps_reportable"][j] == 1, f"model {j}: eps reportable (Poisson)")


def check_tables(f):
    m = f["meta"].attrs
    for t, cols in (("configurations", ["configuration", "target_eps", "eps_sound",
                                        "eps_tf_privacy_0_5_1", "noise_multiplier",
                                        "epsilon_star_parametric_mean",
                                        "epsilon_star_parametric_min",
                                        "epsilon_star_parametric_max",
                                        "epsilon_star_empirical_mean", "utility_mean",
                                        "utility_min", "utility_max", "pareto"]),
                    ("baselines", ["epochs", "epsilon_star_parametric_mean", "utility_mean"])):
        smoke.check_table(f, t, cols)
        if f"summary/{t}" in f:
            check(text(m["dataset_provenance"]) in text(f["summary"][t].attrs["caption"]),
                  f"table {t} caption names the data")


def check_claims(f, ids):
    smoke.check_claims(f, ids)
    for cid in ids:
        if f"claims/{cid}" in f:
            check(len(text(f["claims"][cid].attrs["evidence"])) > 30, f"claim {cid} has evidence")


def check_bad_parameters(binary, study, bad_args):
    """Each bad argument list exits 2 and leaves no file behind (parts in a temporary dir)."""
    parts = tempfile.mkdtemp(dir=fresh_dir("bad_parts"))
    smoke.check_bad_parameters(binary, study, [[f"--parts_dir={parts}"] + a for a in bad_args])


def count_parts(parts, subdirs):
    return sum(len(os.listdir(os.path.join(parts, d))) for d in subdirs)


def check_sharding(binary, study, reference, extra=()):
    """Shards 0/2, 1/2 then --merge_only; the merged values equal `reference`."""
    out, parts = fresh_dir("shard_out"), fresh_dir("shard_parts")
    path = os.path.join(out, f"{study}.h5")
    r = run(binary, ["--shard=0/2", "--threads=1"] + list(extra), out, parts)
    check(r.returncode == 0, f"shard 0/2 exit {r.returncode}: {r.stderr[-300:]}")
    check(not os.path.exists(path), "an incomplete sweep writes no study file")
    check("pending" in r.stderr, "the incomplete shard says units are pending")
    subdirs = [d for d in os.listdir(parts) if d.startswith(study + ".")]
    check(len(subdirs) == 1, f"one parts directory <study>.<hash>, got {subdirs}")
    check(count_parts(parts, subdirs) > 0, "shard 0/2 wrote parts")
    # Merging now fails: units are missing.
    r = run(binary, ["--merge_only"] + list(extra), out, parts)
    check(r.returncode == 1, f"--merge_only with missing parts exits 1, got {r.returncode}")
    check("missing" in r.stderr, "the error lists the missing units")
    check(not os.path.exists(path), "a failed merge writes no file")
    # The other shard completes the sweep (its run assembles the file too);
    # then --merge_only rebuilds it from the parts alone.
    r = run(binary, ["--shard=1/2", "--threads=1"] + list(extra), fresh_dir("shard1_out"), parts)
    check(r.returncode == 0, f"shard 1/2 exit {r.returncode}: {r.stderr[-300:]}")
    r = run(binary, ["--merge_only"] + list(extra), out, parts)
    check(r.returncode == 0, f"--merge_only exit {r.returncode}: {r.stderr[-300:]}")
    check(os.path.exists(path), "--merge_only writes the study file")
    if os.path.exists(path):
        with smoke.open_results(path) as g:
            for key in ("models/utility", "models/epsilon_star/parametric",
                        "models/epsilon_star/empirical", "models/train_accuracy",
                        "models/eps_sound", "configs/noise_multiplier"):
                a, b = reference[key][...], g[key][...]
                check(a.shape == b.shape and np.array_equal(a, b, equal_nan=True),
                      f"{key}: sharded + merged equals the single run")
    check_reuse(binary, study, reference, out, parts, subdirs, extra)
    # --plan_only: no training, no file.
    out2 = tempfile.mkdtemp(dir=fresh_dir("plan"))
    r = run(binary, ["--plan_only"] + list(extra), out2, fresh_dir("plan_parts"))
    check(r.returncode == 0 and os.listdir(out2) == [], "--plan_only exits 0 without a file")
    check("Slurm" in r.stderr, "--plan_only prints the plan and the Slurm recipe")
    check(f"bazel-bin/experiments/{study}/{study} " in r.stderr,
          "the Slurm recipe names the binary in its package")


def check_reuse(binary, study, reference, out, parts, subdirs, extra):
    """A rerun skips complete units and changes nothing; a run with one more
    repetition reuses every existing part (same directory) and trains only
    the new units."""
    path = os.path.join(out, f"{study}.h5")
    r = run(binary, list(extra), out, parts)
    check(r.returncode == 0, "rerun over complete parts")
    before = count_parts(parts, subdirs)
    reps = int(reference["models/repetition"][...].max()) + 1
    r = subprocess.run([binary, "--scale=test", f"--output_dir={out}", f"--parts_dir={parts}",
                        f"--repetitions={reps + 1}"] + list(extra), capture_output=True, text=True)
    check(r.returncode == 0, f"run with more repetitions: exit {r.returncode}")
    n_cfg = len(reference["configs/id"])
    check(f"{n_cfg * reps} already complete" in r.stderr,
          f"the {n_cfg * reps} existing units are reused ({r.stderr[-400:]})")
    after = count_parts(parts, subdirs)
    check(after == before + n_cfg, f"parts {before} -> {after}, want + {n_cfg}")
    if os.path.exists(path):
        with smoke.open_results(path) as g:
            a = reference["models/epsilon_star/parametric"][...]
            b = g["models/epsilon_star/parametric"][...]
            old = np.array([b[i] for i in range(len(b)) if g["models/repetition"][i] < reps])
            check(np.array_equal(a, old), "the reused models keep their values")
