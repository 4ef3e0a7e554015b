"""The verdicts of the fast studies at quick scale do not depend on the seed.

Runs each study given on the command line (binary paths) at --scale=quick
with the default seed (20231121) and with --second_seed (default 1; the
trained-model studies use 7), and compares every
claim's verdict: holds (0/1) and, where a study judges a claim by a test on
its random replicates, the attributes inconclusive and undecidable. A claim whose verdict
differs between the seeds is one whose test (or replicate count) is too weak
for its data: it fails here. Which claims needed more replicates to pass is
documented in docs/studies.md ("Verdicts that do not depend on the seed").
The files are read with privbench.results (smoke.open_results: checksum
verified).
"""
import argparse
import os
import subprocess
import sys

from tests import smoke

DEFAULT_SEED = "20231121"


def verdicts(binary, seed, directory):
    os.makedirs(directory, exist_ok=True)
    r = subprocess.run([binary, "--scale=quick", "--quiet", f"--seed={seed}",
                        f"--output_dir={directory}"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{binary} --seed={seed} exited {r.returncode}: {r.stderr[-2000:]}")
    (name,) = [f for f in os.listdir(directory) if f.endswith(".h5")]
    out = {}
    with smoke.open_results(os.path.join(directory, name)) as f:
        for claim in f.get("claims", {}):
            a = f["claims"][claim].attrs
            out[claim] = (int(a["holds"]), int(float(a.get("inconclusive", 0))),
                          int(a.get("undecidable", 0)))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--second_seed", type=int, default=1)
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    seeds = (DEFAULT_SEED, str(args.second_seed))
    tmp = os.environ.get("TEST_TMPDIR", "/tmp")
    failures = []
    for binary in args.binaries:
        study = os.path.basename(binary)
        got = [verdicts(binary, s, os.path.join(tmp, f"{study}.{s}")) for s in seeds]
        if set(got[0]) != set(got[1]):
            failures.append(f"{study}: different claim sets")
        for claim in sorted(got[0]):
            if got[0][claim] != got[1].get(claim):
                failures.append(f"{study}: {claim} (holds, inconclusive) {got[0][claim]} at "
                                f"seed {seeds[0]}, {got[1].get(claim)} at seed {seeds[1]}")
        print(f"{study}: {len(got[0])} claims, same verdicts: "
              f"{all(got[0][c] == got[1].get(c) for c in got[0])}")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
