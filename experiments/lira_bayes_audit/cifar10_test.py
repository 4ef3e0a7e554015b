"""Study E1 on CIFAR-10 end to end (--dataset=cifar10, --scale=test).

The test writes the six files download_cifar10.py produces (CIFAR-10's
binary layout, 10,000 random records each, and SHA256SUMS) and checks:
1. the run succeeds and records /meta dataset_provenance = "cifar10" (what
   //results:verify compares with claims.json's requires_dataset), the
   per-channel preprocessing, the 3,072-input MLP, the verified checksums
   and the CIFAR-10 captions; pool rows index the 50,000 training images;
2. --scale=paper --dataset=cifar10 defaults to the paper's CNN on a pool of
   all 50,000 training images; without --dataset the study stays on
   Fashion-MNIST;
3. a missing CIFAR-10 directory is exit 2 at start-up naming --data_dir and
   the download command, a pool larger than 50,000 is exit 2, a corrupt file
   is exit 1 naming it; none of them leaves a result file.
"""
import hashlib
import os
import subprocess
import sys

import numpy as np

from tests import smoke

check, text = smoke.check, smoke.text
BIN = sys.argv[1]
STUDY = "lira_bayes_audit"
TMP = smoke.out_dir()
os.environ.pop("PRIVBENCH_DATA_DIR", None)  # the directory comes from --data_dir only
FILES = [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]


def write_cifar10(d):
    os.makedirs(d)
    rng = np.random.default_rng(0)
    lines = []
    for name in FILES:
        records = np.empty((10000, 3073), dtype=np.uint8)
        records[:, 0] = rng.integers(0, 10, 10000)
        records[:, 1:] = rng.integers(0, 256, (10000, 3072))
        data = records.tobytes()
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        lines.append(f"{hashlib.sha256(data).hexdigest()}  {name}")
    with open(os.path.join(d, "SHA256SUMS"), "w") as f:
        f.write("\n".join(lines) + "\n")


def config(args):
    r = subprocess.run([BIN] + args + [f"--output_dir={TMP}", "--print_config"],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"{args} --print_config: exit {r.returncode}: {r.stderr[-300:]}")
    return dict(line.split(" = ", 1) for line in r.stdout.splitlines() if " = " in line)


def refused(args, rc, *needles):
    out = os.path.join(TMP, "refused")
    os.makedirs(out, exist_ok=True)
    r = smoke.run(BIN, args + [f"--parts_dir={out}/parts"], out)
    check(r.returncode == rc, f"{args}: exit {r.returncode}, expected {rc}: {r.stderr[-300:]}")
    for n in needles:
        check(n in r.stderr, f"{args}: the error names {n!r}: {r.stderr[-400:]}")
    check(not os.path.exists(os.path.join(out, f"{STUDY}.h5")), f"{args}: no result file")


data = os.path.join(TMP, "cifar10")
write_cifar10(data)

# ------------------------------------------------------------ 1. the run
out = os.path.join(TMP, "out")
os.makedirs(out)
r = smoke.run(BIN, ["--dataset=cifar10", f"--data_dir={data}", f"--parts_dir={out}/parts"], out)
smoke.expect_ok(r, STUDY)
with smoke.open_results(os.path.join(out, f"{STUDY}.h5")) as f:
    smoke.check_meta(f, STUDY)
    m = f["meta"].attrs
    check(text(m["dataset_provenance"]) == "cifar10", f"provenance {text(m['dataset_provenance'])}")
    check("dataset = cifar10" in text(m["config"]), "the config records --dataset=cifar10")
    check("(0.49139968, 0.48215841, 0.44653091)" in text(m["dataset_preprocessing"]) and
          "(0.24703223, 0.24348513, 0.26158784)" in text(m["dataset_preprocessing"]),
          f"preprocessing: {text(m['dataset_preprocessing'])}")
    check(text(m["architecture"]) == "Linear(3072->8) Tanh Linear(8->10)",
          f"architecture {text(m['architecture'])}")
    for name in FILES:
        check(f"{name} sha256=" in text(m["dataset_checksums"]), f"checksum of {name} recorded")
    check(text(m["stand_in"]).startswith("CIFAR-10, the data of the paper's Table 2"),
          f"stand_in: {text(m['stand_in'])}")
    check("Data: CIFAR-10" in text(m["lost_parameters"]), "lost_parameters names CIFAR-10")
    check("CIFAR-10, the data" in text(f["summary/table2"].attrs["caption"]),
          "table2's caption names CIFAR-10")
    pool = f["pool_rows"][...]
    check(len(pool) == 128 and pool.max() < 50000, f"pool rows among 50,000: max {pool.max()}")
    check(f["settings/no_dp/shadow_phi"].shape == (8 * 128,), "shadow statistics written")
    check(np.all(np.isfinite(f["settings/dp_eps8/target_phi"][...])), "target statistics finite")

# --------------------------------------------------------- 2. the defaults
paper = config(["--scale=paper", "--dataset=cifar10", f"--data_dir={data}"])
check(paper.get("pool_size") == "50000" and paper.get("model") == "paper_cnn",
      f"paper scale on CIFAR-10: pool_size {paper.get('pool_size')}, model {paper.get('model')}")
default = config(["--scale=paper"])
check(default.get("dataset") == "fashion_mnist" and default.get("pool_size") == "60000",
      f"default dataset {default.get('dataset')}, pool_size {default.get('pool_size')}")

# ---------------------------------------------------------- 3. refusals
empty = os.path.join(TMP, "empty")
os.makedirs(empty)
download = "python3 data_scripts/download_cifar10.py DIR"
refused(["--dataset=cifar10", f"--data_dir={empty}"], 2, f"--data_dir={empty}", download)
refused(["--dataset=cifar10"], 2, "--data_dir", download)
refused(["--dataset=cifar10", f"--data_dir={data}", "--pool_size=50001"], 2,
        "pool_size must be at most 50000")
with open(os.path.join(data, "test_batch.bin"), "r+b") as f:
    f.seek(5000)
    byte = f.read(1)
    f.seek(5000)
    f.write(bytes([byte[0] ^ 1]))
refused(["--dataset=cifar10", f"--data_dir={data}"], 1, "test_batch.bin (", "SHA-256 mismatch")
smoke.finish()
