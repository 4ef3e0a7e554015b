"""tools/doc_numbers.py finds a quoted number that drifted from its file,
accepts one that matches to its printed digits, skips files of another run,
and refuses a tie it cannot evaluate."""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

SCRIPT = sys.argv[1]


def make_root(quoted, seed="20231121"):
    root = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    os.makedirs(os.path.join(root, "experiments", "toy"))
    os.makedirs(os.path.join(root, "results", "raw"))
    with h5py.File(os.path.join(root, "results", "raw", "toy.h5"), "w") as f:
        f["numbers/x"] = np.array([0.3846])
        f["t/name"] = np.array([b"a", b"b"], dtype=object)
        f["t/value"] = np.array([1.25, 2.5])
        f.create_group("meta").attrs.update({"scale": "quick", "seed": seed})
    with open(os.path.join(root, "experiments", "toy", "README.md"), "w") as f:
        f.write(quoted + "\n")
    return root


def run(root):
    return subprocess.run(["/usr/bin/python3", SCRIPT, f"--root={root}"], capture_output=True,
                          text=True)


def main():
    failures = []
    ok = run(make_root('x is 0.385<!-- h5: f("numbers/x")[0] --> and b is '
                       '2.5<!-- h5: row("t", "value", name="b") -->.'))
    if ok.returncode != 0 or "2 quoted numbers checked" not in ok.stdout:
        failures.append(f"matching numbers: exit {ok.returncode}: {ok.stdout} {ok.stderr}")
    drift = run(make_root('x is 0.477<!-- h5: f("numbers/x")[0] -->.'))
    if drift.returncode != 1 or "quoted 0.477" not in drift.stderr:
        failures.append(f"drifted number: exit {drift.returncode}: {drift.stderr}")
    other = run(make_root('x is 0.477<!-- h5: f("numbers/x")[0] -->.', seed="7"))
    if other.returncode != 0 or "skipped" not in other.stderr:
        failures.append(f"another seed: exit {other.returncode}: {other.stderr}")
    bad = run(make_root('x is 0.385<!-- h5: f("numbers/nope")[0] -->.'))
    if bad.returncode == 0 or "cannot evaluate" not in bad.stderr:
        failures.append(f"malformed tie: exit {bad.returncode}: {bad.stderr}")
    # A shelf: tie reads experiments/<study>/paper/<study>.h5 (scale paper),
    # checked whatever results/raw holds.
    root = make_root('at paper scale x is 0.91<!-- shelf: f("numbers/x")[0] -->.', seed="7")
    os.makedirs(os.path.join(root, "experiments", "toy", "paper"))
    shelf_file = os.path.join(root, "experiments", "toy", "paper", "toy.h5")
    with h5py.File(shelf_file, "w") as f:
        f["numbers/x"] = np.array([0.9104])
        f.create_group("meta").attrs.update({"scale": "paper", "seed": "20231121"})
    shelf = run(root)
    if shelf.returncode != 0 or "1 quoted numbers checked" not in shelf.stdout:
        failures.append(f"shelf tie: exit {shelf.returncode}: {shelf.stdout} {shelf.stderr}")
    with h5py.File(shelf_file, "r+") as f:
        f["numbers/x"][0] = 0.95
    moved = run(root)
    if moved.returncode != 1 or "quoted 0.91" not in moved.stderr:
        failures.append(f"drifted shelf number: exit {moved.returncode}: {moved.stderr}")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
