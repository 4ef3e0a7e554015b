"""Killing a sweep midway and rerunning it loses nothing and redoes nothing.

1. Start the fixture sweep (40 units x 150 ms, 2 worker threads), SIGKILL it
   once at least 8 parts exist.
2. Record each complete part's inode and mtime.
3. Rerun: it must report exactly those parts as skipped, compute only the
   rest, and leave the old parts untouched (same inode and mtime).
4. The merged values equal those of an uninterrupted run in another
   directory, and a run split over 3 shards.
"""
import os
import signal
import subprocess
import sys
import time

import h5py

FIXTURE = sys.argv[1]
TMP = os.environ.get("TEST_TMPDIR", "/tmp")


def parts(d):
    # The parts directory is keyed by the configuration: sweep_fixture.<key>.
    if not os.path.isdir(d):
        return {}
    keyed = [n for n in os.listdir(d) if n.startswith("sweep_fixture.")]
    assert len(keyed) <= 1, f"one configuration, one parts directory: {keyed}"
    if not keyed:
        return {}
    p = os.path.join(d, keyed[0])
    return {n: os.stat(os.path.join(p, n)) for n in os.listdir(p) if n.endswith(".h5")}


def run(d, *extra):
    out = subprocess.run([FIXTURE, f"--parts_dir={d}", "--units=40", "--unit_ms=150", *extra],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return dict(kv.split("=") for kv in out.stdout.split())


def merged(d):
    target = os.path.join(d, "merged.h5")
    run(d, f"--merge_to={target}")
    with h5py.File(target, "r") as f:
        return list(f["values"][...])


def main():
    d = os.path.join(TMP, "killed")
    proc = subprocess.Popen([FIXTURE, f"--parts_dir={d}", "--units=40", "--unit_ms=150",
                             "--threads=2"])
    deadline = time.time() + 60
    while len(parts(d)) < 8 and time.time() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = parts(d)
    assert 8 <= len(before) < 40, f"kill happened at {len(before)} parts"

    report = run(d, "--threads=2")
    assert int(report["skipped"]) == len(before), (report, len(before))
    assert int(report["ran"]) == 40 - len(before), report
    after = parts(d)
    assert len(after) == 40
    for name, st in before.items():
        assert after[name].st_ino == st.st_ino and after[name].st_mtime_ns == st.st_mtime_ns, \
            f"{name} was redone"

    # A second rerun does nothing at all.
    report = run(d)
    assert int(report["ran"]) == 0 and int(report["skipped"]) == 40, report

    # Same values as an uninterrupted run and as a 3-shard run.
    clean = os.path.join(TMP, "clean")
    run(clean)
    sharded = os.path.join(TMP, "sharded")
    for i in range(3):
        r = run(sharded, f"--shard={i}/3")
        assert int(r["owned"]) in (13, 14), r
    assert merged(d) == merged(clean) == merged(sharded)

    # Merging an incomplete sweep is an error naming the missing units.
    partial = os.path.join(TMP, "partial")
    run(partial, "--shard=0/2")
    out = subprocess.run([FIXTURE, f"--parts_dir={partial}", "--units=40", "--unit_ms=0",
                          "--shard=0/2", f"--merge_to={partial}/m.h5"],
                         capture_output=True, text=True)
    assert out.returncode != 0 and "20 of 40 units missing" in out.stderr, out.stderr
    assert not os.path.exists(f"{partial}/m.h5")
    # Another configuration (here another seed) starts a fresh parts
    # directory of its own and leaves the first one as it was.
    first = sorted(os.listdir(partial))
    out = subprocess.run([FIXTURE, f"--parts_dir={partial}", "--units=40", "--unit_ms=0",
                          "--seed=8"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "ran=40" in out.stdout and "skipped=0" in out.stdout, out.stdout
    second = sorted(os.listdir(partial))
    assert len([n for n in second if n.startswith("sweep_fixture.")]) == 2, second
    assert set(first) <= set(second), (first, second)
    # A part in the right directory whose recorded configuration differs (a
    # hash collision, or a hand-copied file) is refused, never reused. Edited
    # by h5py, it also no longer matches its /meta checksum, which the reader
    # checks first.
    keyed = [n for n in first if n.startswith("sweep_fixture.")][0]
    some_part = sorted(os.listdir(os.path.join(partial, keyed)))[0]
    with h5py.File(os.path.join(partial, keyed, some_part), "r+") as f:
        f["meta"].attrs["sweep_config"] = "units = 40\nseed = 999\n"
    out = subprocess.run([FIXTURE, f"--parts_dir={partial}", "--units=40", "--unit_ms=0",
                          "--shard=0/2"], capture_output=True, text=True)
    assert out.returncode != 0 and ("different sweep configuration" in out.stderr
                                    or "checksum mismatch" in out.stderr), out.stderr
    print(f"killed at {len(before)}/40 parts; rerun skipped them and ran the rest; "
          "merged values match an uninterrupted and a sharded run")


if __name__ == "__main__":
    main()
