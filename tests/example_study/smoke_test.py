"""Smoke test of //tests/example_study: the file's layout, its claim (whose
statement comes from claims.json), same seed same data, and a bad parameter
exiting 2 with no file. Result files are read with privbench.results
(smoke.open_results)."""
import os
import sys
import tempfile

from tests import smoke
from tests.smoke import check

BIN = sys.argv[1]
STUDY = "example_study"


def main():
    with smoke.run_ok(BIN, STUDY) as f:
        smoke.check_meta(f, STUDY)
        smoke.check_declared_claims(f, STUDY)
        smoke.check_table(f, "estimate", ["eps", "estimate", "standard_error"])
        ones = f["counts/ones"][...]
        check(ones[0] > ones[1], f"more ones from input 1 than from input 0: {ones}")
    again = tempfile.mkdtemp(dir=smoke.out_dir())
    smoke.expect_ok(smoke.run(BIN, [], again), "second run")
    with smoke.open_results(os.path.join(again, STUDY + ".h5")) as f:
        check(list(f["counts/ones"][...]) == list(ones), "same seed, same counts")
    smoke.check_bad_parameters(BIN, STUDY, [["--eps=0"], ["--trials=3"]])
    smoke.finish()


if __name__ == "__main__":
    main()
