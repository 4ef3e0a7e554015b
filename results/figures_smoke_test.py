"""The figure scripts run on what the studies write.

Arguments: pairs <study binary> <results/plots/<study>.py>. Each study runs
at --scale=test into $TEST_TMPDIR; its figure script then renders from that
file alone, and must exit 0 and write a non-empty PNG and SVG whose names
start with the study's name. A figure script that breaks on a study's
current output (a renamed dataset, a changed shape) fails here, not in the
main command.
"""
import os
import subprocess
import sys

from tests import smoke


def render(binary, script, tmp):
    study = os.path.basename(script)[:-len(".py")]
    raw_dir = os.path.join(tmp, "raw", study)
    fig_dir = os.path.join(tmp, "figures", study)
    os.makedirs(raw_dir, exist_ok=True)
    cmd = [binary, "--scale=test", f"--output_dir={raw_dir}", "--quiet"]
    if "--parts_dir" in help_text(binary):  # a sweep: keep its parts in the test's directory
        cmd.append(f"--parts_dir={os.path.join(tmp, 'parts')}")
    r = subprocess.run(cmd, capture_output=True, text=True)
    smoke.expect_ok(r, study)
    raw = os.path.join(raw_dir, f"{study}.h5")
    p = subprocess.run(["/usr/bin/python3", script, raw, fig_dir], capture_output=True, text=True)
    smoke.check(p.returncode == 0, f"{script} exited {p.returncode}: {p.stderr[-800:]}")
    files = os.listdir(fig_dir) if os.path.isdir(fig_dir) else []
    for ext in (".png", ".svg"):
        made = [n for n in files if n.startswith(study) and n.endswith(ext)]
        smoke.check(made, f"{study}: no {ext} figure written ({files})")
        for n in made:
            smoke.check(os.path.getsize(os.path.join(fig_dir, n)) > 1000, f"{n} is (nearly) empty")
    print(f"{study}: {len(files)} figure files")


def help_text(binary):
    return subprocess.run([binary, "--help"], capture_output=True, text=True).stdout


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        raise SystemExit("usage: figures_smoke_test.py (<study binary> <plot script>)...")
    tmp = smoke.out_dir()
    for binary, script in zip(args[::2], args[1::2]):
        render(binary, script, tmp)
    smoke.finish()


if __name__ == "__main__":
    main()
