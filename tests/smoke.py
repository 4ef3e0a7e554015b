"""The shared helpers of every study's smoke test (experiments/<study>/smoke_test.py).

A smoke test runs its study binary at --scale=test into $TEST_TMPDIR and
checks the file with privbench.results, the project's one Python reader
(python/src/privbench/results.py: the C++ reader's checks, checksum
included, then the whole file as nested dicts of NumPy arrays, read like an
h5py file: f["a/b"], "a/b" in f, f["meta"].attrs, f.visititems). The
module comes from //python:privbench in the test's runfiles
(privbench_study adds it). These helpers run the binary, check /meta, the
claims and the summary tables, check that bad parameters exit with code 2
and leave no result file behind, and collect failures so that one run
reports all of them:

    from tests import smoke
    f = smoke.run_ok(binary, "my_study")
    smoke.check(f["n"].shape == (3,), "/n shape")
    smoke.finish()   # exits 1 listing the failures, else prints OK

Other files of a test: smoke.open_results(path).

tests/run_python_test.sh puts the workspace root on PYTHONPATH, so
`from tests import smoke` works in every sh_test that lists
//tests:smoke in its data.
"""
import json
import os
import subprocess
import sys
import tempfile

from results import privbench_import

FAILURES = []


def open_results(path):
    """The result file at `path`, read by privbench.read_results (refused files
    raise ValueError naming the file); usable like an open h5py file. The
    package is found by results/privbench_import.py."""
    privbench = privbench_import.import_privbench(
        "tests/smoke.py reads result files with privbench.results: add "
        "//python:privbench to the test's data (or bazel build //python:privbench)")
    return privbench.read_results(path)


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL:", msg, file=sys.stderr)


def out_dir():
    d = os.environ.get("TEST_TMPDIR") or tempfile.mkdtemp()
    os.makedirs(d, exist_ok=True)
    return d


def run(binary, args, directory):
    quiet = [] if any(a.startswith("--quiet") for a in args) else ["--quiet"]
    return subprocess.run([binary, "--scale=test", f"--output_dir={directory}"] + quiet + args,
                          capture_output=True, text=True)


def run_at_test_scale(binary, directory, parts_dir):
    """Runs a study binary at --scale=test, quietly, into `directory`; a sweep
    (a binary with --parts_dir) keeps its parts in `parts_dir`."""
    cmd = [binary, "--scale=test", f"--output_dir={directory}", "--quiet"]
    if "--parts_dir" in subprocess.run([binary, "--help"], capture_output=True, text=True).stdout:
        cmd.append(f"--parts_dir={parts_dir}")
    return subprocess.run(cmd, capture_output=True, text=True)


def run_ok(binary, study, args=()):
    """Runs the study at test scale; returns the file read by open_results."""
    d = out_dir()
    r = run(binary, list(args), d)
    if r.returncode != 0:
        print(r.stdout, r.stderr, file=sys.stderr)
        raise SystemExit(f"{study} exited {r.returncode}")
    path = os.path.join(d, f"{study}.h5")
    check(os.path.exists(path), f"{path} written")
    return open_results(path)


def text(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def check_meta(f, study):
    m = f["meta"].attrs
    check(text(m["study"]) == study, "meta study")
    check(text(m["scale"]) == "test", "meta scale")
    for key in ("config", "lost_parameters", "paper", "section", "git_commit", "seed"):
        check(key in m, f"meta has {key}")
    if "lost_parameters" in m:
        check(len(text(m["lost_parameters"])) > 40, "lost_parameters is filled in")


def check_claims(f, ids):
    for cid in ids:
        check(f"claims/{cid}" in f, f"claim {cid} present")
        if f"claims/{cid}" in f:
            a = f["claims"][cid].attrs
            check(int(a["holds"]) in (0, 1), f"claim {cid} has holds")
            check(len(text(a["evidence"])) > 20, f"claim {cid} has evidence")
            check(len(text(a["statement"])) > 20, f"claim {cid} has a statement")


def declared_entries(study):
    """The entries of the study's claims.json (its one declaration of published
    numbers and claims), read from the runfiles: experiments/<study>/ or, for
    the example study, tests/<study>/."""
    for folder in ("experiments", "tests"):
        path = os.path.join(folder, study, "claims.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f)
    raise SystemExit(f"no claims.json of {study} in the runfiles (privbench_study adds it)")


def declared_claim_ids(study):
    """The /claims/<group> names of the study's declared claims, in order."""
    return [e["h5"][len("/claims/"):] for e in declared_entries(study) if e["kind"] == "claim"]


def check_declared_claims(f, study, entries=None):
    """Every declared claim is in the file with holds, evidence and the
    declared statement and source; the file holds no undeclared claim.
    `entries`: the study's claims.json entries (default: read from the
    runfiles by declared_entries)."""
    entries = {e["h5"][len("/claims/"):]: e
               for e in (declared_entries(study) if entries is None else entries)
               if e["kind"] in ("claim", "sensitivity")}
    check_claims(f, list(entries))
    for cid in f.get("claims", {}):
        check(cid in entries, f"claim {cid} is not declared in claims.json")
        if cid in entries:
            a = f["claims"][cid].attrs
            check(text(a["statement"]) == entries[cid]["quantity"], f"claim {cid}: statement")
            check(text(a["source"]) == entries[cid]["source"], f"claim {cid}: source")


def check_table(f, name, columns):
    check(f"summary/{name}" in f, f"table {name} present")
    if f"summary/{name}" not in f:
        return
    g = f["summary"][name]
    cols = text(g.attrs["columns"]).split(",")
    for c in columns:
        check(c in cols, f"table {name} has column {c}")
    lengths = {len(g[c]) for c in cols}
    check(len(lengths) == 1 and lengths.pop() > 0, f"table {name} columns have one non-zero length")
    check(len(text(g.attrs["caption"])) > 20, f"table {name} has a caption")


def check_bad_parameters(binary, study, bad_args):
    """Each bad argument list exits 2 and leaves no file (nor temporary) behind."""
    for args in bad_args + [["--no_such_parameter=1"]]:
        d = tempfile.mkdtemp(dir=out_dir())
        r = run(binary, args, d)
        check(r.returncode == 2, f"{args}: exit code {r.returncode}, want 2 ({r.stderr.strip()[-200:]})")
        check(os.listdir(d) == [], f"{args}: left files {os.listdir(d)}")


def expect_ok(result, what):
    """Fails the test at once (printing the study's stderr) if a run failed."""
    if result.returncode != 0:
        print(result.stdout, result.stderr, file=sys.stderr)
        raise SystemExit(f"{what} exited {result.returncode}")


def katz_log_lower(n1, n0, n, z):
    """Independent reference of the Katz-log lower end of log(p1/p0) with n
    trials per side (ML-Audit Lemma A.3): Haldane-Anscombe (+1/2 per cell) at
    a zero count, -inf at n1 = 0, and at n0 = 0 at least the lower end at
    n0 = 1 (the monotone zero-count rule of estimators/intervals/katz_log.h)."""
    import math
    x1, t1, x0, t0 = float(n1), float(n), float(n0), float(n)
    if n1 == 0 or n0 == 0:
        x1, t1, x0, t0 = x1 + 0.5, t1 + 1, x0 + 0.5, t0 + 1
    if n1 == 0:
        return -math.inf
    lo = math.log((x1 / t1) / (x0 / t0)) - z * math.sqrt(
        max(0.0, 1 / x1 - 1 / t1 + 1 / x0 - 1 / t0))
    return max(lo, katz_log_lower(n1, 1, n, z)) if n0 == 0 else lo


def finish():
    if FAILURES:
        print(f"{len(FAILURES)} failures", file=sys.stderr)
        sys.exit(1)
    print("OK")
