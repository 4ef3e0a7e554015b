#!/usr/bin/env python3
"""Bad-flag campaign over the study binaries.

For every study binary and every flag its --help lists, runs it once with
that flag set to each hostile value (plus, for directory flags, a missing
path and a regular file) at --scale=test --quiet with a fresh --output_dir,
under a timeout, and classifies the outcome:

  refused      exit 2, the message names the flag, no file written
  exit 0       the value was accepted and the run finished
  started      the run was still going at the timeout (a valid value)
  exit 1       a run-time failure (should have been refused up front)
  crash        killed by a signal
  not naming   exit 2 whose message does not name the flag
  wrote file   exit 2 naming the flag, but a file was left behind
  other        any other exit status

Prints a table of counts and lists every exit 1, crash, not-naming,
wrote-file and other case. Exit status: 1 if any of those occurred, else 0.

  bazel build //experiments/...
  /usr/bin/python3 tools/campaign/bad_flags.py [--bin_dir bazel-bin] [--studies a,b]
"""

import argparse
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile

HOSTILE = ["", "-1", "nan", "1e400", "abc", "9223372036854775808", "1,,2"]
CLASSES = [
    "refused", "exit 0", "started", "exit 1", "crash", "not naming", "wrote file", "other"
]
BAD = {"exit 1", "crash", "not naming", "wrote file", "other"}
FLAG_RE = re.compile(r"^  --([A-Za-z0-9_]+)=<([a-z ]+)>", re.M)


def find_studies(repo):
    """Study names: experiments/<s>/BUILD declaring privbench_study(name = "<s>")
    (the macro behind every cc_binary tagged study)."""
    out = []
    root = os.path.join(repo, "experiments")
    for name in sorted(os.listdir(root)):
        build = os.path.join(root, name, "BUILD")
        if not os.path.isfile(build):
            continue
        with open(build, encoding="utf-8") as f:
            text = f.read()
        out += re.findall(r'privbench_study\(\s*name\s*=\s*"(\w+)"', text)
    return out


def parse_flags(binary):
    """(name, type) of every flag --help lists."""
    r = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60,
                       check=False)
    return FLAG_RE.findall(r.stdout)


def is_directory_flag(name, kind):
    return kind == "string" and (name.endswith("_dir") or "path" in name or "file" in name)


def files_under(top, skip):
    found = []
    for d, _, names in os.walk(top):
        found += [os.path.join(d, n) for n in names if os.path.join(d, n) != skip]
    return found


def run_case(case):
    """Runs one (study, binary, flag, value label, value) case; returns its record."""
    study, binary, flag, label, value, timeout = case
    with tempfile.TemporaryDirectory(prefix="bad_flags_") as tmp:
        regular = os.path.join(tmp, "regular_file")
        with open(regular, "w", encoding="utf-8") as f:
            f.write("not a directory\n")
        value = value.replace("{missing}", os.path.join(tmp, "missing", "dir"))
        value = value.replace("{regular}", regular)
        out_dir = os.path.join(tmp, "out")
        os.mkdir(out_dir)
        args = [binary, "--quiet"]
        if flag != "scale":
            args.append("--scale=test")
        if flag != "output_dir":
            args.append("--output_dir=" + out_dir)
        args.append("--%s=%s" % (flag, value))
        env = dict(os.environ)
        env.pop("BUILD_WORKSPACE_DIRECTORY", None)
        proc = subprocess.Popen(args, cwd=tmp, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return (study, flag, label, "started", "")
        rc = proc.returncode
        written = files_under(tmp, regular)
        message = (stderr + stdout).strip().splitlines()
        message = message[-1] if message else ""
        if rc < 0:
            kind = "crash"
        elif rc == 0:
            kind = "exit 0"
        elif rc == 1:
            kind = "exit 1"
        elif rc == 2:
            if flag not in stderr:
                kind = "not naming"
            elif written:
                kind = "wrote file"
                message += " [files: %s]" % ", ".join(written[:3])
            else:
                kind = "refused"
        else:
            kind = "other"
        return (study, flag, label, kind, "rc=%d: %s" % (rc, message[:300]))


def make_cases(studies, bin_dir, timeout):
    cases = []
    for study in studies:
        binary = os.path.abspath(os.path.join(bin_dir, "experiments", study, study))
        if not os.access(binary, os.X_OK):
            print("missing binary %s (bazel build //experiments/...)" % binary, file=sys.stderr)
            continue
        for flag, kind in parse_flags(binary):
            values = [(v if v else "''", v) for v in HOSTILE]
            if is_directory_flag(flag, kind):
                values += [("missing path", "{missing}"), ("regular file", "{regular}")]
            for label, value in values:
                cases.append((study, binary, flag, label, value, timeout))
    return cases


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin_dir", default=os.path.join(repo, "bazel-bin"))
    p.add_argument("--studies", default="", help="comma-separated (default: every study)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args()
    studies = a.studies.split(",") if a.studies else find_studies(repo)
    cases = make_cases(studies, a.bin_dir, a.timeout)
    with multiprocessing.Pool(a.workers) as pool:
        records = pool.map(run_case, cases, chunksize=1)

    counts = {}
    for study, _, _, kind, _ in records:
        counts.setdefault(study, {k: 0 for k in CLASSES})[kind] += 1
    width = max([len(s) for s in counts] + [5])
    print(("%-*s" % (width, "study")) + "".join("%12s" % k for k in CLASSES))
    total = {k: 0 for k in CLASSES}
    for study in sorted(counts):
        print(("%-*s" % (width, study)) + "".join("%12d" % counts[study][k] for k in CLASSES))
        for k in CLASSES:
            total[k] += counts[study][k]
    print(("%-*s" % (width, "total")) + "".join("%12d" % total[k] for k in CLASSES))
    print("%d runs over %d studies" % (len(records), len(counts)))
    bad = [r for r in records if r[3] in BAD]
    for study, flag, label, kind, message in bad:
        print("%s: %s --%s=%s: %s" % (kind, study, flag, label, message))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
