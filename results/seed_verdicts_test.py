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
verified). With --claims=<claims.json>, a claim declared "min_scale": "paper"
whose quick-scale verdict differs between the seeds is noted, not failed:
verify does not judge it at quick scale ("needs paper scale"), so there is
no quick-scale verdict to keep stable.
"""
import argparse
import json
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
    parser.add_argument("--claims", help="the study's claims.json (paper-scale claims: noted, not failed)")
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    paper_only = set()
    if args.claims:
        with open(args.claims, encoding="utf-8") as fh:
            paper_only = {e["h5"].rsplit("/", 1)[-1] for e in json.load(fh)
                          if e.get("kind") == "claim" and e.get("min_scale") == "paper"}
    seeds = (DEFAULT_SEED, str(args.second_seed))
    tmp = os.environ.get("TEST_TMPDIR", "/tmp")
    failures = []
    for binary in args.binaries:
        study = os.path.basename(binary)
        got = [verdicts(binary, s, os.path.join(tmp, f"{study}.{s}")) for s in seeds]
        if set(got[0]) != set(got[1]):
            failures.append(f"{study}: different claim sets")
        for claim in sorted(got[0]):
            if got[0][claim] != got[1].get(claim) and claim in paper_only:
                print(f"{study}: note: {claim} (min_scale paper, not judged at quick scale) "
                      f"{got[0][claim]} at seed {seeds[0]}, {got[1].get(claim)} at seed "
                      f"{seeds[1]}")
            elif got[0][claim] != got[1].get(claim):
                failures.append(f"{study}: {claim} (holds, inconclusive) {got[0][claim]} at "
                                f"seed {seeds[0]}, {got[1].get(claim)} at seed {seeds[1]}")
        print(f"{study}: {len(got[0])} claims, same verdicts: "
              f"{all(got[0][c] == got[1].get(c) for c in got[0] if c not in paper_only)} "
              f"({len(paper_only & set(got[0]))} paper-scale claims compared for information)")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
