"""`pip install` of privbench into a fresh venv, as a user does it, offline.

    pip_install_test.py <privbench.whl (//python:wheel)>

Bazel cannot run inside a Bazel test, so the wheel comes from the
//python:wheel genrule (the same bytes `pip install ./python` installs:
build_backend/privbench_backend.py builds that target and copies it) and
the backend's hooks are run with a stand-in `bazel`. The real end-to-end
`pip install ./python` is tools/pip_install_check.sh.

  - WheelTest: RECORD lists every file with its sha256 and size, METADATA
    requires numpy and offers h5py as the extra "results" (pyproject.toml
    says why), the name and tag are those of this interpreter.
  - BackendTest: build_wheel runs `bazel build //python:wheel` (with
    $PRIVBENCH_BAZEL_FLAGS) and copies the wheel under its canonical name;
    prepare_metadata_for_build_wheel writes the wheel's METADATA; outside a
    clone and for an sdist the error says what to do.
  - InstallTest: /usr/bin/python3 -m venv --system-site-packages, then
    pip install --no-index (numpy found in Debian's site-packages, nothing
    downloaded, `pip check` clean), then from a directory outside
    the source tree, with no PYTHONPATH: the installed copy is imported and
    privbench.audit on Gaussian scores gives the AUC a direct Mann-Whitney
    count gives, valid split/bonferroni rows, max_over_thresholds marked
    invalid, a ValueError naming member_scores for an empty array, and
    Debian's h5py visible to privbench.results.
"""
import base64
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile
from unittest import mock

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "build_backend"))
import privbench_wheel  # noqa: E402

WHEEL = None  # set from argv


def scratch():
    return tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))


class WheelTest(unittest.TestCase):

    def setUp(self):
        self.zf = zipfile.ZipFile(WHEEL)
        self.project = privbench_wheel.read_project(os.path.join(HERE, "pyproject.toml"))
        self.info = privbench_wheel.dist_info(self.project)

    def tearDown(self):
        self.zf.close()

    def test_record_lists_every_file_with_hash_and_size(self):
        rows = self.zf.read(self.info + "/RECORD").decode("utf-8").splitlines()
        record = {r.split(",")[0]: r for r in rows}
        self.assertEqual(set(record), set(self.zf.namelist()))
        self.assertEqual(record[self.info + "/RECORD"], self.info + "/RECORD,,")
        for name in self.zf.namelist():
            if name.endswith("/RECORD"):
                continue
            data = self.zf.read(name)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            self.assertEqual(record[name], "%s,sha256=%s,%d" % (name, digest.decode(), len(data)))

    def test_package_files_metadata_and_tag(self):
        names = set(self.zf.namelist())
        for f in ("__init__.py", "results.py", "_privbench.so"):
            self.assertIn("privbench/" + f, names)
        metadata = self.zf.read(self.info + "/METADATA").decode("utf-8").splitlines()
        self.assertIn("Requires-Dist: numpy", metadata)
        self.assertIn("Provides-Extra: results", metadata)
        self.assertIn('Requires-Dist: h5py; extra == "results"', metadata)
        self.assertIn("Root-Is-Purelib: false",
                      self.zf.read(self.info + "/WHEEL").decode("utf-8").splitlines())
        self.assertEqual(privbench_wheel.canonical_name(WHEEL), "privbench-%s-%s.whl" % (
            self.project["version"], privbench_wheel.interpreter_tag()))


FAKE_BAZEL = """#!/bin/sh
# Stand-in for bazel: logs its arguments; `info ... bazel-bin` prints $FAKE_BAZEL_BIN.
echo "$@" >> "$FAKE_BAZEL_LOG"
case "$1" in
  info) echo "$FAKE_BAZEL_BIN" ;;
esac
"""


class BackendTest(unittest.TestCase):
    """The hooks pip calls, in a copy of the backend laid out as in a clone."""

    def setUp(self):
        root = scratch()
        self.workspace = os.path.join(root, "ws")
        shutil.copytree(os.path.join(HERE, "build_backend"),
                        os.path.join(self.workspace, "python", "build_backend"))
        shutil.copy(os.path.join(HERE, "pyproject.toml"), os.path.join(self.workspace, "python"))
        open(os.path.join(self.workspace, "WORKSPACE"), "w").close()
        bazel_bin = os.path.join(root, "bazel-bin")
        os.makedirs(os.path.join(bazel_bin, "python"))
        shutil.copy(WHEEL, os.path.join(bazel_bin, "python", "privbench.whl"))
        bin_dir = os.path.join(root, "bin")
        os.makedirs(bin_dir)
        with open(os.path.join(bin_dir, "bazel"), "w") as f:
            f.write(FAKE_BAZEL)
        os.chmod(os.path.join(bin_dir, "bazel"), 0o755)
        self.log = os.path.join(root, "bazel.log")
        self.out = os.path.join(root, "out")
        os.makedirs(self.out)
        self.env = {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
                    "FAKE_BAZEL_LOG": self.log, "FAKE_BAZEL_BIN": bazel_bin}
        self.backend = self.load_backend()

    def load_backend(self):
        path = os.path.join(self.workspace, "python", "build_backend", "privbench_backend.py")
        spec = importlib.util.spec_from_file_location("privbench_backend_under_test", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    def bazel_calls(self):
        with open(self.log) as f:
            return f.read().splitlines()

    def test_build_wheel_builds_the_target_and_copies_it(self):
        with mock.patch.dict(os.environ, self.env):
            os.environ.pop("PRIVBENCH_BAZEL_FLAGS", None)
            name = self.backend.build_wheel(self.out)
        self.assertEqual(name, privbench_wheel.canonical_name(WHEEL))
        with open(os.path.join(self.out, name), "rb") as a, open(WHEEL, "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.assertEqual(self.bazel_calls(), ["build //python:wheel", "info bazel-bin"])

    def test_build_wheel_passes_the_project_bazel_flags(self):
        with mock.patch.dict(os.environ, dict(self.env, PRIVBENCH_BAZEL_FLAGS="--config=ci")):
            self.backend.build_wheel(self.out)
        self.assertEqual(self.bazel_calls(),
                         ["build --config=ci //python:wheel", "info --config=ci bazel-bin"])

    def test_bazel_path_drops_pip_build_overlay(self):
        overlay = "/tmp/pip-build-env-abc/overlay/bin"
        with mock.patch.dict(os.environ, {"PATH": overlay + ":/usr/bin:/bin"}):
            self.assertEqual(self.backend._bazel_env()["PATH"], "/usr/bin:/bin")

    def test_prepare_metadata_is_the_wheels(self):
        info = self.backend.prepare_metadata_for_build_wheel(self.out)
        with open(os.path.join(self.out, info, "METADATA"), encoding="utf-8") as f:
            prepared = f.read()
        with zipfile.ZipFile(WHEEL) as zf:
            self.assertEqual(prepared, zf.read(info + "/METADATA").decode("utf-8"))
        self.assertEqual(self.backend.get_requires_for_build_wheel(), [])

    def test_outside_a_clone_and_sdist_say_what_to_do(self):
        os.remove(os.path.join(self.workspace, "WORKSPACE"))
        with mock.patch.dict(os.environ, self.env):
            with self.assertRaisesRegex(RuntimeError, "needs the whole clone"):
                self.backend.build_wheel(self.out)
        with self.assertRaisesRegex(RuntimeError, r"pip install \./python"):
            self.backend.build_sdist(self.out)


# Run by the venv's interpreter from a directory outside the source tree.
AUDIT_SCRIPT = """
import json, sys
import numpy as np
import privbench
scores = np.load(sys.argv[1])
a = privbench.audit(scores[0], scores[1], alpha=0.05, delta=1e-5, seed=3,
                    methods=["clopper_pearson"])
try:
    privbench.audit([], scores[1])
    error = None
except ValueError as e:
    error = str(e)
print(json.dumps({"file": privbench.__file__, "auc": a["auc"], "repr": repr(a),
                  "rows": a["intervals"], "error": error,
                  "h5py": privbench.results.h5py is not None}, default=str))
"""


class InstallTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        root = scratch()
        cls.venv = os.path.join(root, "venv")
        cls.elsewhere = os.path.join(root, "elsewhere")  # not the source tree, not runfiles
        os.makedirs(cls.elsewhere)
        # No PYTHONPATH (run_python_test.sh sets it to the runfiles), no user
        # pip configuration or cache, no index: everything must come from here.
        cls.env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_"))}
        cls.env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull, PIP_NO_CACHE_DIR="1",
                       PIP_DISABLE_PIP_VERSION_CHECK="1")
        cls.run_checked(["/usr/bin/python3", "-m", "venv", "--system-site-packages", cls.venv])
        wheel = os.path.join(root, privbench_wheel.canonical_name(WHEEL))
        shutil.copy(WHEEL, wheel)
        cls.run_checked([cls.python(), "-m", "pip", "install", "--no-index",
                         "--no-build-isolation", wheel])

    @classmethod
    def python(cls):
        return os.path.join(cls.venv, "bin", "python")

    @classmethod
    def run_checked(cls, command):
        done = subprocess.run(command, cwd=cls.elsewhere, env=cls.env, capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise AssertionError("%s failed (%d):\n%s\n%s" % (
                " ".join(command), done.returncode, done.stdout, done.stderr))
        return done.stdout

    def test_dependencies_come_from_system_site_packages(self):
        self.run_checked([self.python(), "-m", "pip", "check"])
        shown = self.run_checked([self.python(), "-m", "pip", "show", "privbench"])
        self.assertIn("Requires: numpy", shown.splitlines())

    def test_audit_from_the_installed_package(self):
        rng = np.random.default_rng(11)
        scores = np.stack([rng.normal(2.0, 1.0, 300), rng.normal(0.0, 1.0, 300)])
        path = os.path.join(self.elsewhere, "scores.npy")
        np.save(path, scores)
        out = json.loads(self.run_checked([self.python(), "-c", AUDIT_SCRIPT, path]))
        site = os.path.realpath(self.venv) + os.sep
        self.assertTrue(os.path.realpath(out["file"]).startswith(site), out["file"])
        # Continuous scores have no ties: AUC is the fraction of (member,
        # non-member) pairs the member wins.
        mann_whitney = np.mean(scores[0][:, None] > scores[1][None, :])
        self.assertAlmostEqual(out["auc"], mann_whitney, places=12)
        rows = {r["selection"]: r for r in out["rows"]}
        self.assertEqual(set(rows), {"split", "bonferroni", "max_over_thresholds"})
        for selection in ("split", "bonferroni"):
            self.assertTrue(rows[selection]["valid_confidence_statement"])
            self.assertGreater(rows[selection]["lower"], 0.5)  # mu = 2 separates clearly
        self.assertFalse(rows["max_over_thresholds"]["valid_confidence_statement"])
        split = rows["split"]
        self.assertEqual(split["tp"] + split["fn"] + split["fp"] + split["tn"], 300)  # one half
        self.assertIn("NOT a valid confidence statement", out["repr"])
        self.assertIn("member_scores", out["error"])
        self.assertTrue(out["h5py"])  # Debian's, through --system-site-packages


if __name__ == "__main__":
    WHEEL = sys.argv.pop(1)
    unittest.main()
