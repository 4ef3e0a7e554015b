"""A study's paper-scale shelf check (its :shelf_test; results/shelf.h).

    shelf_check.py --study=S --binary=BIN --shelf_tool=TOOL --shelf_file=experiments/S/paper/S.h5

Next to S.h5 (the study's paper-scale file), units/<unit id>.h5 are sample
parts of its sweep. The check fails, naming the
study, when
  1. S.h5 is refused (checksum, another study, a scale other than paper, a
     configuration flag set on its command line: results/shelf.cc);
  2. the study's paper-scale configuration today (BIN --scale=paper
     --seed=<the shelf's seed> --print_config, run-only flags aside) differs
     from the one S.h5 recorded;
  3. a sample unit re-run today (BIN --scale=paper --units=<id>) gives data
     other than the stored part's (everything but /meta, compared by
     SHA-256 of the values: byte for byte).
A sweep study's shelf must hold at least one sample unit. The fix in every
case is to refresh the shelf: tools/shelve.sh S (its README gives the time).
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time


def fail(study, message):
    print(f"shelf check FAILED for study {study}: {message}\n"
          f"refresh the shelf with: tools/shelve.sh {study}", file=sys.stderr)
    sys.exit(1)


def run(args, study, what, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        fail(study, f"{what} exited {result.returncode}: {result.stderr.strip()[-2000:]}")
    return result.stdout


def check_config(a):
    shelf = a.shelf_file
    if not os.path.isfile(shelf):
        fail(a.study, f"no shelf file {shelf}")
    described = run([a.shelf_tool, "describe", a.study, shelf], a.study, "shelf_tool describe")
    seed, sweep, stored_config = described.split("\n", 2)
    printed = run([a.binary, "--scale=paper", f"--seed={seed}", "--print_config"], a.study,
                  "--print_config")
    today = run([a.shelf_tool, "config"], a.study, "shelf_tool config", input=printed)
    if today != stored_config:
        stored, now = set(stored_config.splitlines()), set(today.splitlines())
        fail(a.study, "its paper-scale configuration changed since the shelf was made: "
             f"shelf has {sorted(stored - now)}, the code now {sorted(now - stored)}")
    print(f"{a.study}: shelf file {os.path.basename(shelf)} accepted; paper-scale "
          f"configuration unchanged (seed {seed})")
    return seed, sweep == "sweep"


def digest(a, path):
    line = run([a.shelf_tool, "digest", path], a.study, "shelf_tool digest")
    return line.split(" ", 1)[0]


def check_unit(a, seed, stored_part, work):
    unit = os.path.basename(stored_part)[:-len(".h5")]
    parts_dir = os.path.join(work, unit)
    start = time.monotonic()
    run([a.binary, "--scale=paper", f"--seed={seed}", f"--units={unit}",
         f"--parts_dir={parts_dir}", f"--output_dir={work}", f"--threads={a.threads}",
         "--quiet"], a.study, f"re-running unit {unit}")
    made = glob.glob(os.path.join(parts_dir, "*", unit + ".h5"))
    if len(made) != 1:
        fail(a.study, f"re-running unit {unit} made {len(made)} parts, not 1")
    want, got = digest(a, stored_part), digest(a, made[0])
    if want != got:
        fail(a.study, f"unit {unit} re-run today differs from the stored part "
             f"({want} stored, {got} now): the code no longer makes the shelf's numbers")
    print(f"{a.study}: unit {unit} re-run at paper scale in {time.monotonic() - start:.0f} s: "
          f"identical data ({got[:19]}...)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--study", required=True)
    p.add_argument("--binary", required=True)
    p.add_argument("--shelf_tool", required=True)
    p.add_argument("--shelf_file", required=True, help="experiments/S/paper/S.h5")
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args()
    seed, sweep = check_config(a)
    units_dir = os.path.join(os.path.dirname(a.shelf_file), "units")
    parts = sorted(glob.glob(os.path.join(units_dir, "*.h5")))
    if sweep and not parts:
        fail(a.study, f"it is a sweep, and {units_dir} holds no sample unit to re-run")
    with tempfile.TemporaryDirectory(dir=os.environ.get("TEST_TMPDIR")) as work:
        for part in parts:
            check_unit(a, seed, part, work)
    print(f"{a.study}: shelf check passed ({len(parts)} sample unit(s))")


if __name__ == "__main__":
    main()
