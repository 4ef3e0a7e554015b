"""Smoke test of //experiments/region_of_privacy (study C1) at --scale=test.

1. A run on the surrogate data writes the HDF5 layout the figure script and
   the verify entries read (/meta, /settings, /dp, /baseline, /losses,
   /accounting, /aggregate, /numbers, the three summary tables, the claims);
   the attack numbers agree with a numpy recomputation from the stored
   losses; the accountant ordering claim (deterministic) holds.
2. A second run with the same parts directory trains nothing (every unit is
   reported complete, the parts are untouched) and writes the same study file
   content (apart from /meta's times); so does --merge_only.
3. Another seed into the same parts directory succeeds: the parts are keyed
   by the configuration, so it starts a fresh directory beside the first
   (which stays untouched) and trains other models.
4. Sharding: --shard=0/2 alone exits 0 without a study file, --merge_only then
   fails (units missing) without a file, --shard=1/2 completes it with the same
   content. (Killing and resuming is //experiments/lib/framework:sweep_resume_test's
   job.)
5. Bad parameters exit 2 and leave no file behind.
6. A present but corrupt real Purchase-100 file is fatal (--data=auto falls
   back to the surrogate only when the file is absent).
"""
import glob
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from tests import smoke

check, text = smoke.check, smoke.text
BIN = sys.argv[1]
STUDY = "region_of_privacy"
TMP = smoke.out_dir()
TIMES = ("start_time", "end_time", "duration_seconds", "cpu_seconds")


def run(args, out_dir, parts_dir, quiet=True):
    args = ["--data=surrogate", f"--parts_dir={parts_dir}"] + args
    if quiet:
        return smoke.run(BIN, args, out_dir)
    return subprocess.run([BIN, "--scale=test", f"--output_dir={out_dir}"] + args,
                          capture_output=True, text=True)


def snapshot(path):
    """Every dataset's values and every attribute, except /meta's times."""
    out = {}
    with smoke.open_results(path) as f:
        def visit(name, obj):
            for k, v in getattr(obj, "attrs", {}).items():  # datasets: NumPy arrays
                if name == "meta" and k in TIMES:
                    continue
                out[f"{name}@{k}"] = (text(v) if isinstance(v, (bytes, str))
                                      else np.asarray(v).tolist())
            if not isinstance(obj, dict):
                v = obj[...]
                out[name] = [text(x) for x in v.ravel()] if v.dtype.kind in "OSU" else v.tobytes()
        f.visititems(visit)
    return out


def strip(snap):
    """Without the attributes that record how the program was invoked, the
    training time summed over the parts (a time, like /meta's own), which
    shard and host made the parts, and the file's checksum (it covers those)."""
    return {k: v for k, v in snap.items()
            if k not in ("meta@config", "meta@command_line", "meta@sweep_parts_dir",
                         "meta@unit_seconds_total", "meta@sweep_part_versions",
                         "meta@checksum")}


def differing(a, b):
    """The keys whose values differ between two stripped snapshots (at most 8)."""
    a, b = strip(a), strip(b)
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))[:8]


def config_dirs(parts_dir):
    """The configurations' part directories, <parts_dir>/<study>.<config key>."""
    return sorted(glob.glob(os.path.join(parts_dir, f"{STUDY}.*")))


def parts_state(d):
    return {n: (os.stat(os.path.join(d, n)).st_ino, os.stat(os.path.join(d, n)).st_mtime_ns)
            for n in sorted(os.listdir(d))}


def only_config_dir(parts_dir):
    dirs = config_dirs(parts_dir)
    check(len(dirs) == 1, f"one configuration directory in {parts_dir}: {dirs}")
    return dirs[0] if dirs else os.path.join(parts_dir, "missing")


# ---------------------------------------------------------------- 1. layout
out1, parts1 = os.path.join(TMP, "out1"), os.path.join(TMP, "parts1")
os.makedirs(out1)
smoke.expect_ok(run([], out1, parts1), STUDY)
path = os.path.join(out1, f"{STUDY}.h5")
check(os.path.exists(path), "study file written")
f = smoke.open_results(path)
smoke.check_meta(f, STUDY)
m = f["meta"].attrs
check(text(m["dataset_provenance"]) == "purchase100-surrogate", "provenance is the surrogate")
for key in ("lost_parameters", "sampling", "accounting_rule", "data_resolution", "torch_version",
            "dataset_source", "config", "git_commit", "sweep_parts_dir"):
    check(key in m, f"meta has {key}")
check("Adam" in text(m["lost_parameters"]) and "Poisson" in text(m["lost_parameters"]),
      "lost_parameters name the optimiser and the sampling")
check("poisson" in text(m["sampling"]) and "shuffled" in text(m["sampling"]), "sampling recorded")
check(text(m["sweep_parts_dir"]) == only_config_dir(parts1),
      f"meta records the configuration's parts directory: {text(m['sweep_parts_dir'])}")

noise = f["settings/noise_multiplier"][...]
L, R = len(noise), int(f["settings"].attrs["repetitions"])
nt, npop = int(f["settings"].attrs["n_train"]), int(f["settings"].attrs["n_population"])
check(list(noise) == [136.67, 13.76, 6.99, 1.06, 0.44], f"noise levels {noise}")
check(R == 2 and nt == 300 and npop == 300, "test-scale sizes")
for q in ("train_accuracy", "population_accuracy", "tpr_at_target_fpr", "fpr_at_target_fpr",
          "best_advantage", "auc", "eps_lower_best_advantage", "eps_lower_target_fpr",
          "mean_train_loss", "members_recovered_at_target_fpr"):
    check(f["dp"][q].shape == (L, R), f"/dp/{q} shape {f['dp'][q].shape}")
    check(f["baseline"][q].shape == (R,), f"/baseline/{q} shape")
check(f["losses/dp_train"].shape == (L, R, nt), "dp train losses shape")
check(f["losses/dp_population"].shape == (L, R, npop), "dp population losses shape")
check(f["losses/baseline_train"].shape == (R, nt), "baseline train losses shape")
check(f["dp/loss_per_epoch"].shape == (L, R, 3), "loss per epoch shape")
for name in ("naive", "advanced", "zcdp", "rdp", "rdp_improved"):
    e = f[f"accounting/table_one_orders/{name}/epsilon"][...]
    check(e.shape == (L,) and np.all(e > 0), f"{name} eps present and > 0")
check(f["accounting/default_orders/rdp/epsilon"].shape == (L,), "rdp default orders")
check(int(f["accounting"].attrs["steps"]) == 30, "steps = ceil(3 epochs / q = 0.1)")
# Every level's TrainingRecord metadata, with the accounting rule's inputs.
for g, sig in [("baseline", None), ("sigma=136.67", "136.67"), ("sigma=0.44", "0.44")]:
    check(f"training/{g}" in f, f"training record {g}")
    if f"training/{g}" in f:
        a = f["training"][g].attrs
        check(text(a["sampling"]) == "poisson", f"{g}: Poisson sampling")
        check(text(a["private_training"]) == ("false" if sig is None else "true"), f"{g}: private")
        if sig is not None:
            check(text(a["accounting_noise_multiplier"]) == sig, f"{g}: accounting sigma")
            check(text(a["tf_privacy_0_5_1_noise_multiplier"]) == sig, f"{g}: TF Privacy 0.5.1 sigma")
            check(text(a["eps_reportable"]) == "true", f"{g}: eps reportable")
# Upper bounds shrink as the noise grows (every accountant is monotone).
rdp = f["accounting/table_one_orders/rdp/epsilon"][...]
check(np.all(np.diff(rdp) > 0), "RDP eps rises as the noise falls")


# The attack, recomputed from the stored losses (threshold on -loss; best
# TPR with FPR <= 5% over every distinct threshold; best TPR - FPR).
def attack(tr, po):
    thr = np.unique(np.concatenate([tr, po]))
    tpr = np.array([(tr <= t).mean() for t in thr] + [0.0])
    fpr = np.array([(po <= t).mean() for t in thr] + [0.0])
    ok = fpr <= 0.05
    return tpr[ok].max(), (tpr - fpr).max()


delta = float(f["settings"].attrs["delta"])
for l in (0, L - 1):
    for r_ in range(R):
        tpr, adv = attack(f["losses/dp_train"][l, r_], f["losses/dp_population"][l, r_])
        check(abs(tpr - f["dp/tpr_at_target_fpr"][l, r_]) < 1e-12, f"TPR at 5% FPR [{l},{r_}]")
        check(abs(adv - f["dp/best_advantage"][l, r_]) < 1e-12, f"best advantage [{l},{r_}]")
        eps = max(0.0, np.log((1 - delta) / (1 - adv)))
        check(abs(eps - f["dp/eps_lower_best_advantage"][l, r_]) < 1e-12, "Prop. 3 bound")
tr = f["losses/baseline_train"][0]
check(np.all(np.isfinite(tr)) and np.all(tr >= 0), "losses finite and >= 0")
# Aggregates: means over repetitions; relative accuracy = ratio of means.
acc = f["dp/train_accuracy"][...]
check(np.allclose(f["aggregate/train_accuracy_mean"][...], acc.mean(axis=1)), "accuracy mean")
check(np.allclose(f["aggregate/accuracy_rel_baseline"][...],
                  acc.mean(axis=1) / f["baseline/train_accuracy"][...].mean()), "relative accuracy")

for k in ("acc_rel_pct", "tpr_pct", "eps_lower_target_fpr", "eps_lower_best", "eps_rdp",
          "eps_naive", "eps_advanced"):
    for s in ("136.67", "0.44"):
        check(f"numbers/{STUDY}_{k}_sigma{s}" in f, f"number {k} at sigma {s}")
check(abs(f[f"numbers/{STUDY}_tpr_pct_sigma0.44"][()] -
          100 * f["dp/tpr_at_target_fpr"][L - 1].mean()) < 1e-9, "TPR number in percent")

tables = {"table1": ["noise_multiplier", "train_accuracy_pct", "accuracy_rel_baseline_pct",
                     "attack_tpr_pct", "eps_naive", "eps_advanced", "eps_rdp",
                     "eps_rdp_default_orders"],
          "rotated": ["noise_multiplier", "train_loss", "eps_naive", "eps_advanced", "eps_zcdp",
                      "eps_rdp", "attack_tpr_pct", "members_recovered", "eps_lower_target_fpr"],
          "region": ["noise_multiplier", "best_advantage", "null_best_advantage_mean",
                     "eps_lower_best", "eps_upper_rdp", "ratio"]}
for t, cols in tables.items():
    smoke.check_table(f, t, cols)
    if f"summary/{t}" not in f:
        continue
    cap = text(f["summary"][t].attrs["caption"])
    check("purchase100-surrogate" in cap, f"table {t} caption names the surrogate")
    check("POISSON" in cap and "shuffled" in cap, f"table {t} caption states the sampling")
check(len(f["summary/table1/noise_multiplier"]) == L + 1, "table1 has the baseline row")

claims = smoke.declared_claim_ids(STUDY)
smoke.check_declared_claims(f, STUDY)
for c in claims:
    if f"claims/{c}" in f:
        check(len(text(f["claims"][c].attrs["evidence"])) > 40, f"claim {c} filled")
# Robust at any size: the accountants' ordering does not depend on data.
check(int(f["claims/region_of_privacy_refined_tighter"].attrs["holds"]) == 1,
      "RDP <= advanced, naive")
# The region check compares exactly the stored numbers.
lo = f["aggregate/eps_lower_best_advantage"][...]
up = np.minimum(rdp, f["accounting/default_orders/rdp/epsilon"][...])
worst = f["aggregate/eps_lower_best_advantage_max_over_reps"][...]
want = bool(np.all(lo <= up) and np.all(worst <= up))
check(int(f["claims/region_of_privacy_region_nonempty"].attrs["holds"]) == int(want),
      "region claim matches the stored bounds")
f.close()

# ------------------------------------------------- 2. rerun and merge-only
first = snapshot(path)
dir1 = only_config_dir(parts1)
before = parts_state(dir1)
check(len(before) == (L + 1) * R, f"{len(before)} parts")
t0 = time.time()
r = run([], out1, parts1, quiet=False)
elapsed = time.time() - t0
check(r.returncode == 0, f"rerun exit {r.returncode}: {r.stderr[-300:]}")
check(f"{(L + 1) * R} already complete, 0 to run" in r.stderr, "rerun skips every unit")
check(parts_state(dir1) == before, "rerun leaves the parts untouched")
check(strip(snapshot(path)) == strip(first), "rerun writes the same study file content")
check(snapshot(path)["meta@unit_seconds_total"] == first["meta@unit_seconds_total"],
      "rerun reads the same parts (same recorded training time)")
print(f"rerun with complete parts: {elapsed:.2f} s (information)")
r = run(["--merge_only"], out1, parts1)
check(r.returncode == 0, f"merge_only exit {r.returncode}")
check(strip(snapshot(path)) == strip(first), "--merge_only writes the same study file content")

# ------------------------------- 3. another seed, the same parts directory
out3 = os.path.join(TMP, "out3")
os.makedirs(out3)
r = run(["--seed=7"], out3, parts1)
check(r.returncode == 0, f"another seed into the same parts_dir: exit {r.returncode}: "
      f"{r.stderr[-300:]}")
dirs = config_dirs(parts1)
check(len(dirs) == 2 and dir1 in dirs, f"another seed starts a fresh directory: {dirs}")
check(parts_state(dir1) == before, "another seed leaves the first configuration's parts alone")
path3 = os.path.join(out3, f"{STUDY}.h5")
check(os.path.exists(path3), "another seed writes its study file")
if os.path.exists(path3):
    other = snapshot(path3)
    check(other["losses/dp_train"] != first["losses/dp_train"], "another seed trains other models")
    check(other["meta@sweep_parts_dir"] != first["meta@sweep_parts_dir"],
          "another seed records its own parts directory")

# ---------------------------------------------------------- 4. two shards
out2, parts2 = os.path.join(TMP, "out2"), os.path.join(TMP, "parts2")
os.makedirs(out2)
r = run(["--shard=0/2"], out2, parts2)
check(r.returncode == 0, f"shard 0/2 exit {r.returncode}: {r.stderr[-300:]}")
check(not os.path.exists(os.path.join(out2, f"{STUDY}.h5")), "shard 0/2 alone writes no file")
check(len(parts_state(only_config_dir(parts2))) == (L + 1) * R // 2,
      "shard 0/2 made half the parts")
r = run(["--merge_only"], out2, parts2)
check(r.returncode == 1 and "missing" in r.stderr, f"merge_only before shard 1/2: {r.returncode}")
check(os.listdir(out2) == [], f"failed merge leaves no file: {os.listdir(out2)}")
r = run(["--shard=1/2"], out2, parts2)
check(r.returncode == 0, f"shard 1/2 exit {r.returncode}")
sharded = snapshot(os.path.join(out2, f"{STUDY}.h5"))
check(strip(sharded) == strip(first),
      "two shards give the same study content; differing: " + ", ".join(differing(sharded, first)))

# ---------------------------------------------------- 5. bad parameters
bad_parts = os.path.join(TMP, "bad_parts")
bad = [["--n_train=0"], ["--n_population=0"], ["--repetitions=0"], ["--epochs=0"],
       ["--noise_multipliers=1"], ["--noise_multipliers=1,1"], ["--noise_multipliers=1,-2"],
       ["--batch_size=300"], ["--momentum=1"], ["--delta=0"], ["--target_fpr=1"],
       ["--learning_rate=0"], ["--clip_norm=0"], ["--data=cifar"], ["--shard=2/2"],
       ["--surrogate_model_seed=-1"], ["--optimizer=rmsprop"]]
smoke.check_bad_parameters(BIN, STUDY, [[f"--parts_dir={bad_parts}"] + a for a in bad])
check(not os.path.exists(bad_parts), "bad parameters leave no parts behind")

# --------------------------- 6. a present but corrupt real file is fatal
# --data=auto falls back to the surrogate only when the real file is ABSENT.
d = tempfile.mkdtemp(dir=TMP)
data = os.path.join(d, "purchase100")
os.makedirs(data)
with open(os.path.join(data, "dataset_purchase"), "w") as fh:
    fh.write("1,0,1\n")  # malformed
with open(os.path.join(data, "SHA256SUMS"), "w") as fh:
    fh.write("0" * 64 + "  dataset_purchase\n")
out, parts = os.path.join(d, "out"), os.path.join(d, "parts")
os.makedirs(out)
r = smoke.run(BIN, ["--data=auto", f"--data_dir={data}", f"--parts_dir={parts}"], out)
check(r.returncode != 0, f"corrupt real file: exit {r.returncode}, want an error")
check("present but did not load" in r.stderr, f"corrupt real file: message {r.stderr[-300:]}")
check(os.listdir(out) == [], f"corrupt real file: left {os.listdir(out)}")

smoke.finish()
