"""One study through the whole results pipeline, at test scale.

    study_results_test.py <study binary> <claims.json> <verify> <tables>
                          <make_report.py> <figures.py or ->

Every study package gets this test from privbench_study
(experiments/lib/study.bzl). The study runs at --scale=test into
$TEST_TMPDIR; then, reading only that file and the study's own claims.json:
  - its figure script (if any) writes a non-empty PNG and SVG named after
    the study;
  - //results:tables writes results/tables/<study>.md;
  - //results:verify --list=<claims.json> gives exactly one row per declared
    entry, none "malformed" or "missing"; every declared claim is in the
    file (read by privbench.results, checksum verified) with the declared
    statement and source, and no other claim is (smoke.check_declared_claims);
  - make_report.py writes a page with a section for the study.
So a study that appears here appears in the main command's tables,
verdicts, figures and report, with no edit outside its folder.
"""
import csv
import json
import os
import subprocess
import sys

from tests import smoke
from tests.smoke import check


def run_study(binary, study, tmp):
    raw = os.path.join(tmp, "raw")
    os.makedirs(raw, exist_ok=True)
    smoke.expect_ok(smoke.run_at_test_scale(binary, raw, os.path.join(tmp, "parts")), study)
    return raw


def check_figures(script, study, raw, tmp):
    fig_dir = os.path.join(tmp, "figures")
    p = subprocess.run(["/usr/bin/python3", script, os.path.join(raw, f"{study}.h5"), fig_dir],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"{script} exited {p.returncode}: {p.stderr[-800:]}")
    files = os.listdir(fig_dir) if os.path.isdir(fig_dir) else []
    for ext in (".png", ".svg"):
        made = [n for n in files if n.startswith(study) and n.endswith(ext)]
        check(made, f"{study}: no {ext} figure written ({files})")
        for n in made:
            check(os.path.getsize(os.path.join(fig_dir, n)) > 1000, f"{n} is (nearly) empty")
    return fig_dir


def check_claims_declared(study, raw, entries):
    with smoke.open_results(os.path.join(raw, f"{study}.h5")) as f:
        smoke.check_declared_claims(f, study, entries)


def check_verify(verify, claims, raw, tmp, entries):
    tables = os.path.join(tmp, "tables")
    v = subprocess.run([verify, f"--raw_dir={raw}", f"--out_dir={tables}", f"--list={claims}"],
                       capture_output=True, text=True)
    check(v.returncode in (0, 1), f"verify exited {v.returncode}: {v.stderr[-800:]}")
    with open(os.path.join(tables, "verify.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    judged = [e for e in entries if e["kind"] != "sensitivity"]  # no verdict for these
    check(len(rows) == len(judged), f"verify: {len(rows)} rows for {len(judged)} entries")
    for r in rows:
        check(r["verdict"] not in ("malformed", "missing", "MISMATCH"),
              f"verify: {r['quantity'][:60]}: {r['verdict']} ({r['detail'][:200]})")
    return tables


def check_tables(tables_bin, study, raw, tmp):
    out = os.path.join(tmp, "tables")
    t = subprocess.run([tables_bin, f"--raw_dir={raw}", f"--out_dir={out}"],
                       capture_output=True, text=True)
    check(t.returncode == 0, f"tables exited {t.returncode}: {t.stderr[-800:]}")
    check(os.path.exists(os.path.join(out, f"{study}.md")), f"tables wrote no {study}.md")


def check_report(make_report, study, raw, tables, fig_dir, tmp):
    out = os.path.join(tmp, "report", "index.html")
    r = subprocess.run(["/usr/bin/python3", make_report, f"--raw_dir={raw}",
                        f"--tables_dir={tables}", f"--figures_dir={fig_dir}", f"--out={out}"],
                       capture_output=True, text=True)
    smoke.expect_ok(r, "make_report.py")
    with open(out, encoding="utf-8") as f:
        page = f.read()
    check(f'data-study="{study}"' in page, f"the report page has no section for {study}")


def main():
    if len(sys.argv) != 7:
        raise SystemExit(__doc__)
    binary, claims, verify, tables_bin, make_report, script = sys.argv[1:]
    study = os.path.basename(binary)
    with open(claims, encoding="utf-8") as f:
        entries = json.load(f)
    check(entries and all(e.get("study") == study for e in entries),
          f"{claims}: every entry must belong to study {study}")
    tmp = smoke.out_dir()
    raw = run_study(binary, study, tmp)
    fig_dir = os.path.join(tmp, "figures")
    if script != "-":
        fig_dir = check_figures(script, study, raw, tmp)
    check_claims_declared(study, raw, entries)
    check_tables(tables_bin, study, raw, tmp)
    tables = check_verify(verify, claims, raw, tmp, entries)
    check_report(make_report, study, raw, tables, fig_dir, tmp)
    print(f"{study}: {len(entries)} declared entries through figures, tables, verify, report")
    smoke.finish()


if __name__ == "__main__":
    main()
