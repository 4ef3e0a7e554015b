#!/usr/bin/python3
"""Tests of download_adult.py and download_purchase100.py (no network).

The scripts' network paths cannot run here; their --source-dir /
--source-file paths share all verification and writing code with the
downloads and are tested instead: good files are accepted and written
atomically, corrupt / truncated / malformed files are refused with a message
and nothing is written. With --dataset-info, the C++ loader is run on the
purchase100 directory the script produced (end-to-end format check).
"""

import gzip
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATASET_INFO = None  # set from --dataset-info

ADULT_DATA_SHA = "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d"
ADULT_TEST_SHA = "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05"


def run(script, *args, env=None):
    e = dict(os.environ)
    e.pop("PRIVBENCH_DATA_DIR", None)
    if env:
        e.update(env)
    p = subprocess.run([sys.executable, os.path.join(HERE, script), *args],
                       capture_output=True, text=True, env=e)
    return p.returncode, p.stdout, p.stderr


def adult_source(tmp):
    """A directory with plain adult.data / adult.test: $PRIVBENCH_DATA_DIR's
    copy if it has one, else the vendored gzip copy (data_scripts/adult/)
    decompressed into `tmp`."""
    env = os.environ.get("PRIVBENCH_DATA_DIR")
    for c in ([os.path.join(env, "adult"), env] if env else []):
        if all(os.path.isfile(os.path.join(c, f)) for f in ("adult.data", "adult.test")):
            return c
    vendored = os.path.join(HERE, "adult")
    d = os.path.join(tmp, "vendored")
    os.makedirs(d)
    for f in ("adult.data", "adult.test"):
        with gzip.open(os.path.join(vendored, f + ".gz"), "rb") as fin:
            data = fin.read()
        with open(os.path.join(d, f), "wb") as fout:
            fout.write(data)
    return d


def listing(d):
    return sorted(os.listdir(d)) if os.path.isdir(d) else []


class AdultScriptTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.src = adult_source(self.tmp)
        self.target = os.path.join(self.tmp, "target")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def modified_source(self, name, change):
        d = os.path.join(self.tmp, "src")
        os.makedirs(d, exist_ok=True)
        for f in ("adult.data", "adult.test"):
            with open(os.path.join(self.src, f), "rb") as fin:
                data = fin.read()
            if f == name:
                data = change(data)
            if data is not None:
                with open(os.path.join(d, f), "wb") as fout:
                    fout.write(data)
        return d

    def test_copy_verifies_and_writes(self):
        rc, out, err = run("download_adult.py", "--target-dir", self.target,
                           "--source-dir", self.src)
        self.assertEqual(rc, 0, err)
        self.assertEqual(listing(self.target), ["adult.data", "adult.test"])
        with open(os.path.join(self.target, "adult.data"), "rb") as f:
            self.assertEqual(hashlib.sha256(f.read()).hexdigest(), ADULT_DATA_SHA)
        self.assertIn("verified sha256=" + ADULT_TEST_SHA, out)
        rc, out, err = run("download_adult.py", "--target-dir", self.target,
                           "--source-dir", "/nonexistent")
        self.assertEqual(rc, 0, err)
        self.assertIn("already present and verified", out)

    def test_environment_variable_gives_default_target(self):
        rc, out, err = run("download_adult.py", "--source-dir", self.src,
                           env={"PRIVBENCH_DATA_DIR": self.tmp})
        self.assertEqual(rc, 0, err)
        self.assertEqual(listing(os.path.join(self.tmp, "adult")), ["adult.data", "adult.test"])
        rc, _, err = run("download_adult.py", "--source-dir", self.src)
        self.assertEqual(rc, 2)
        self.assertIn("give --target-dir or set PRIVBENCH_DATA_DIR", err)

    def test_corrupted_byte_is_refused_and_nothing_written(self):
        def flip(data):
            b = bytearray(data)
            b[5000] ^= 1
            return bytes(b)
        src = self.modified_source("adult.test", flip)
        rc, out, err = run("download_adult.py", "--target-dir", self.target, "--source-dir", src)
        self.assertEqual(rc, 1)
        self.assertIn("REFUSED: adult.test", err)
        self.assertIn("SHA-256 mismatch: expected " + ADULT_TEST_SHA, err)
        self.assertIn("nothing was written", err)
        # adult.data was fine, but is not written either (both or nothing).
        self.assertEqual(listing(self.target), [])

    def test_truncated_file_is_refused(self):
        src = self.modified_source("adult.data", lambda d: d[: len(d) // 3])
        rc, _, err = run("download_adult.py", "--target-dir", self.target, "--source-dir", src)
        self.assertEqual(rc, 1)
        self.assertIn("adult.data (", err)
        self.assertIn("bytes): SHA-256 mismatch", err)
        self.assertEqual(listing(self.target), [])

    def test_missing_file_is_refused(self):
        src = self.modified_source("adult.test", lambda d: None)
        rc, _, err = run("download_adult.py", "--target-dir", self.target, "--source-dir", src)
        self.assertEqual(rc, 1)
        self.assertIn("adult.test: cannot read", err)
        self.assertEqual(listing(self.target), [])

    def test_corrupt_target_copy_is_replaced(self):
        os.makedirs(self.target)
        with open(os.path.join(self.target, "adult.data"), "wb") as f:
            f.write(b"garbage")
        rc, out, err = run("download_adult.py", "--target-dir", self.target,
                           "--source-dir", self.src)
        self.assertEqual(rc, 0, err)
        with open(os.path.join(self.target, "adult.data"), "rb") as f:
            self.assertEqual(hashlib.sha256(f.read()).hexdigest(), ADULT_DATA_SHA)


def purchase_text(rows=150, edit=None):
    lines = []
    for i in range(rows):
        feats = ["1" if (i * 7 + j * 13) % 11 == 0 else "0" for j in range(600)]
        lines.append(",".join([str(i % 100 + 1)] + feats))
    if edit:
        edit(lines)
    return ("\n".join(lines) + "\n").encode("ascii")


def make_tgz(path, members):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


class PurchaseScriptTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.target = os.path.join(self.tmp, "purchase100")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def tgz(self, name, members):
        return make_tgz(os.path.join(self.tmp, name), members)

    def fetch(self, archive, *extra, rows=150):
        return run("download_purchase100.py", "--target-dir", self.target, "--source-file",
                   archive, "--expected-rows", str(rows), *extra)

    def test_trust_on_first_use_then_enforced(self):
        text = purchase_text()
        good = self.tgz("good.tgz", [("dataset_purchase", text)])
        rc, out, err = self.fetch(good)
        self.assertEqual(rc, 0, err)
        self.assertIn("no published checksum exists", err)
        self.assertEqual(listing(self.target),
                         ["PROVENANCE.txt", "SHA256SUMS", "dataset_purchase"])
        with open(good, "rb") as f:
            archive_sha = hashlib.sha256(f.read()).hexdigest()
        with open(os.path.join(self.target, "SHA256SUMS")) as f:
            self.assertEqual(f.read(), f"{archive_sha}  dataset_purchase.tgz\n"
                             f"{hashlib.sha256(text).hexdigest()}  dataset_purchase\n")

        # Same archive again: verified against the record.
        rc, out, err = self.fetch(good)
        self.assertEqual(rc, 0, err)
        self.assertIn("verified against the trust-on-first-use record", out)

        # A different archive later: refused, the first copy kept.
        other = self.tgz("other.tgz", [("dataset_purchase",
                                        purchase_text(edit=lambda l: l.__setitem__(
                                            3, l[3][:-1] + ("1" if l[3][-1] == "0" else "0"))))])
        rc, _, err = self.fetch(other)
        self.assertEqual(rc, 1)
        self.assertIn("SHA-256 mismatch: expected " + archive_sha +
                      " (the trust-on-first-use record in SHA256SUMS)", err)
        with open(os.path.join(self.target, "dataset_purchase"), "rb") as f:
            self.assertEqual(f.read(), text)

        if DATASET_INFO:
            # The C++ loader reads what the script wrote.
            p = subprocess.run([DATASET_INFO, "--datasets=purchase100",
                                "--purchase100_dir=" + self.target, "--purchase100_rows=150"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("provenance: purchase100-shokri", p.stdout)
            self.assertIn("trust-on-first-use record in SHA256SUMS", p.stdout)
            # ... and refuses it once it is modified.
            with open(os.path.join(self.target, "dataset_purchase"), "ab") as f:
                f.write(b"\n")
            p = subprocess.run([DATASET_INFO, "--datasets=purchase100",
                                "--purchase100_dir=" + self.target, "--purchase100_rows=150"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 1)
            self.assertIn("SHA-256 mismatch", p.stderr)

    def test_expected_sha256_is_enforced(self):
        good = self.tgz("good.tgz", [("dataset_purchase", purchase_text())])
        rc, _, err = self.fetch(good, "--expected-sha256", "0" * 64)
        self.assertEqual(rc, 1)
        self.assertIn("expected " + "0" * 64 + " (--expected-sha256)", err)
        self.assertEqual(listing(self.target), [])
        with open(good, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        rc, out, err = self.fetch(good, "--expected-sha256", digest)
        self.assertEqual(rc, 0, err)
        self.assertIn("verified against --expected-sha256", out)

    def assert_refused(self, members, message, rows=150):
        archive = self.tgz("bad.tgz", members)
        rc, _, err = self.fetch(archive, rows=rows)
        self.assertEqual(rc, 1, err)
        self.assertIn(message, err)
        self.assertEqual(listing(self.target), [])

    def test_malformed_content_is_refused(self):
        self.assert_refused(
            [("dataset_purchase", purchase_text(edit=lambda l: l.__setitem__(6, "0" + l[6][1:])))],
            "dataset_purchase line 7: label must be an integer in 1..100, got '0'")
        self.assert_refused(
            [("dataset_purchase", purchase_text(edit=lambda l: l.__setitem__(9, l[9] + ",1")))],
            "dataset_purchase line 10: expected 601 comma-separated fields (label + 600 "
            "features), got 602")
        self.assert_refused(
            [("dataset_purchase", purchase_text(edit=lambda l: l.__setitem__(
                0, l[0][:-1] + "2")))],
            "dataset_purchase line 1: feature 600 must be 0 or 1, got '2'")
        self.assert_refused([("dataset_purchase", purchase_text())],
                            "dataset_purchase: expected 151 records, got 150", rows=151)
        self.assert_refused([("dataset_purchase", purchase_text(rows=60))],
                            "only 60 of the 100 classes occur", rows=60)
        self.assert_refused([("something_else", b"x")],
                            "expected exactly one 'dataset_purchase' in the archive, found 0")
        not_tgz = os.path.join(self.tmp, "not.tgz")
        with open(not_tgz, "wb") as f:
            f.write(b"this is not an archive")
        rc, _, err = self.fetch(not_tgz)
        self.assertEqual(rc, 1)
        self.assertIn("not a readable .tgz archive", err)
        self.assertEqual(listing(self.target), [])


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "--dataset-info":
        DATASET_INFO = os.path.abspath(args[1])
        args = args[2:]
    unittest.main(argv=[sys.argv[0]] + args, verbosity=2)
