"""Smoke test of //experiments/ml_audit (README.md).

usage: smoke_test.py <ml_audit binary>

Runs the study at --scale=test (iris, N = 300) and checks the layout, that
every reported bound is the Katz-log bound of its stored fresh counts
divided by k (recomputed here with SciPy), the per-copy guarantees, the
claims, the sweep's parts (a rerun reuses them and gives the same bytes),
and that bad parameters (unknown names, eps <= 0, k < 1, N < 2, a data file
failing its checksum) exit with code 2 and leave no file behind. Every check
is deterministic given the stored counts. Result files are read with
privbench.results (smoke.open_results: checksum verified).
"""
import os
import shutil
import sys

import numpy as np
from scipy import stats

from tests import smoke

BINARY = sys.argv[1]
STUDY = "ml_audit"
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
path = os.path.join(out, f"{STUDY}.h5")
f = smoke.open_results(path)
smoke.check_meta(f, STUDY)
check("iris" in text(f["meta"].attrs["dataset_provenance"]), "dataset provenance recorded")
a = f["audits"]
rows = len(a["eps"])
check(rows == 24 * 2 * 2, f"24 cases (one of them the library variant) x 2 eps x 2 k rows, got {rows}")
worst = 0.0
for i in range(rows):
    want = katz(a["fresh_n1"][i], a["fresh_n0"][i], a["n"][i], 0.05)
    worst = max(worst, abs(want - a["eps_lb_raw"][i]))
    check(abs(a["eps_lb"][i] * a["k"][i] - a["eps_lb_raw"][i]) < 1e-9, f"row {i}: eps_lb = raw / k")
check(worst < 1e-9, f"bounds agree with SciPy's Katz-log (max |diff| {worst:g})")
cases = [text(x) for x in a["case"][...]]
mech = [text(x) for x in a["mechanism"][...]]
mode = [text(x) for x in a["mode"][...]]
g = a["guarantee"][...] / a["eps"][...]
for i in range(rows):
    doubled = mode[i] == "replace" and mech[i] in ("nb", "rf")
    check(g[i] == (2.0 if doubled else 1.0), f"{cases[i]}: guarantee factor {g[i]}")
check(np.all(a["eps_lb_raw"][...] <= np.log(301) + 1e-9), "no bound above ln(N + 1)")
library = [i for i in range(rows) if cases[i].startswith("lr_objective-diffprivlib_0_5.")]
check(len(library) == 4, f"the library variant's case ran at 2 eps x 2 k, got {len(library)} rows")
check(all("diffprivlib 0.5" in text(a["mechanism_description"][i]) for i in library),
      "the library variant's calibration is recorded in its rows' mechanism_description")
smoke.check_table(f, "eps_lb", ["dataset", "case", "role", "eps_th", "k", "replicate", "guarantee",
                                "eps_lb", "fresh_n1", "fresh_n0", "search_bound"])
smoke.check_table(f, "median_eps_lb", ["dataset", "case", "role", "eps_th", "k", "replicates",
                                       "guarantee", "median_eps_lb", "max_eps_lb"])
m = f["summary/median_eps_lb"]
check(len(m["k"]) == rows and np.allclose(np.sort(m["median_eps_lb"][...]),
                                          np.sort(a["eps_lb"][...])),
      "one replicate: the medians are the bounds")
smoke.check_table(f, "detection_ceiling", ["N", "k", "ceiling_z_alpha_2", "ceiling_z_alpha_4"])
c = f["summary/detection_ceiling"]
check(abs(c["ceiling_z_alpha_2"][0] - (np.log(300) - stats.norm.isf(0.025) * np.sqrt(1 - 1 / 300)))
      < 1e-9, "Cor. 4.0.1 ceiling")
smoke.check_declared_claims(f, STUDY)
lb = {cases[i] + str(a["eps"][i]) + str(a["k"][i]): a["eps_lb"][i] for i in range(rows)}
bug1 = [a["eps_lb_raw"][i] for i in range(rows) if cases[i].startswith("nb-expose_counts")]
check(min(bug1) > 3, f"bug 1 (exposed counts) is far above eps_th at N = 300: {bug1}")
first = a["eps_lb"][...].copy()
f.close()

# A rerun with the same parts directory reuses every part: same bounds.
r2, out2 = run([], "main")
smoke.expect_ok(r2, "rerun")
with smoke.open_results(os.path.join(out2, f"{STUDY}.h5")) as g2:
    check(np.array_equal(g2["audits/eps_lb"][...], first), "rerun gives the same bounds")

# A fresh directory and one thread: same bounds (seeds do not depend on scheduling).
r3, out3 = run(["--threads=1"], "threads1")
smoke.expect_ok(r3, "threads=1 run")
with smoke.open_results(os.path.join(out3, f"{STUDY}.h5")) as g3:
    check(np.array_equal(g3["audits/eps_lb"][...], first), "same bounds with one thread")

# A subset of cases.
r4, out4 = run(["--mechanisms=rf", "--roles=bug2", "--eps=1", "--k=1"], "subset")
smoke.expect_ok(r4, "subset run")
with smoke.open_results(os.path.join(out4, f"{STUDY}.h5")) as g4:
    check([text(x) for x in g4["audits/case"][...]] == ["rf.rf_flip.replace"], "subset selects one case")

# A downloadable dataset whose files are absent (no data directory in the test
# environment) is reported, not skipped silently and not an error.
r5, out5 = run(["--optional_datasets=banknote,credit", "--mechanisms=rf", "--roles=bug2",
                "--eps=1", "--k=1"], "optional")
smoke.expect_ok(r5, "run with absent optional datasets")
with smoke.open_results(os.path.join(out5, f"{STUDY}.h5")) as g5:
    check(text(g5["meta"].attrs["datasets_unavailable"]) == "banknote,credit",
          "/meta datasets_unavailable lists the absent datasets")
    t = g5["summary/datasets"]
    check([text(x) for x in t["status"][...]] == ["read", "unavailable", "unavailable"],
          "table datasets: iris read, banknote and credit unavailable")
    check(set(text(x) for x in g5["audits/dataset"][...]) == {"iris"}, "only iris audited")
with smoke.open_results(path) as g:
    check(text(g["meta"].attrs["datasets_unavailable"]) == "", "nothing unavailable by default")

# A data file failing its checksum is bad input (exit 2, no file).
bad = os.path.join(smoke.out_dir(), "bad_data")
os.makedirs(bad, exist_ok=True)
with open(os.path.join(bad, "iris.csv"), "w") as fh:
    fh.write("150,4,setosa,versicolor,virginica\n")
smoke.check_bad_parameters(BINARY, STUDY, [["--shard=2/2"], ["--shard=x"],
                                           ["--mechanisms=svm"], ["--attacks=svm"], ["--roles=x"],
                                           ["--datasets=credit"], ["--optional_datasets=iris"],
                                           ["--eps=0"], ["--eps=-1"],
                                           ["--k=0"], ["--n=1"], ["--alpha=1"],
                                           [f"--data_dir={bad}"],
                                           ["--mechanisms=lr_output", "--attacks=rf_flip"]])
smoke.finish()
