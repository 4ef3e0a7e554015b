"""Finds the privbench Python package for the scripts that read result files.

privbench.results (python/src/privbench/results.py) is the project's one
Python reader of result files. The report page (results/report/make_report.py),
the figure helpers (results/plots/plotting.py) and the smoke-test helpers
(tests/smoke.py) import the package with

    from results.privbench_import import import_privbench
    privbench = import_privbench("<what to do when it is missing>")

with the workspace root on sys.path. The package is used installed
(pip install ./python) or as Bazel built it: python/ in a test's runfiles
(//python:privbench, which this file's target //results:privbench_import
brings along) or bazel-bin/python in a checkout, both found from this
file's place in the tree. This is the only search for the package.
"""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def import_privbench(missing_message):
    """The privbench package: installed, else the first Bazel-built copy
    (put on sys.path); exits with `missing_message` when there is none."""
    try:
        import privbench
        return privbench
    except ImportError:
        pass
    for d in (os.path.join(ROOT, "python"), os.path.join(ROOT, "bazel-bin", "python")):
        if os.path.exists(os.path.join(d, "privbench", "__init__.py")):
            sys.path.insert(0, os.path.normpath(d))
            import privbench
            return privbench
    raise SystemExit(missing_message)
