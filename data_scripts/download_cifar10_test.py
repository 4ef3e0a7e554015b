"""Tests of download_cifar10.py (no network): small archives in the official
format (a .tar.gz holding cifar-10-batches-py/ with the batches pickled as
Python 2's cPickle wrote them, plus batches.meta and readme.html) served from
a local file and from a file:// URL. Checks: the pinned digests; a wrong
size, MD5 or recorded SHA-256 deletes the download, exits 1 and names the
file; a batch whose MD5 is wrong, a hostile pickle (it names os.system) and
malformed batches are refused with nothing written; a good archive is
converted to CIFAR-10's binary layout byte for byte (and numpy's own pickles
of the same arrays convert identically), recorded in SHA256SUMS and
PROVENANCE.txt, and recognised on a rerun; bad arguments exit 2."""
import contextlib
import hashlib
import importlib.util
import io
import os
import pickle
import random
import struct
import subprocess
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "download_cifar10.py")
ROWS = 4  # images per batch in these archives
BATCHES = ["data_batch_1", "data_batch_2", "data_batch_3", "data_batch_4", "data_batch_5",
           "test_batch"]
NAMES = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]


def load():
    spec = importlib.util.spec_from_file_location("download_cifar10", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args, env=None):
    e = {k: v for k, v in os.environ.items() if k != "PRIVBENCH_DATA_DIR"}
    e.update(env or {})
    r = subprocess.run(["/usr/bin/python3", SCRIPT, *args], capture_output=True, text=True, env=e)
    return r.returncode, r.stdout, r.stderr


# ------------------------------------------- pickles as Python 2's cPickle wrote them

def p2_str(b):
    """A Python 2 str: SHORT_BINSTRING, or BINSTRING from 256 bytes."""
    if len(b) < 256:
        return b"U" + bytes([len(b)]) + b
    return b"T" + struct.pack("<i", len(b)) + b


def p2_int(v):
    if 0 <= v < 256:
        return b"K" + bytes([v])
    if 0 <= v < 65536:
        return b"M" + struct.pack("<H", v)
    return b"J" + struct.pack("<i", v)


def p2_uint8_array(raw, shape, typestr=b"u1"):
    """numpy's ndarray pickle: _reconstruct(ndarray, (0,), 'b') and its state
    (1, shape, dtype('u1'), False, raw bytes)."""
    dtype = (b"cnumpy\ndtype\n" + p2_str(typestr) + p2_int(0) + p2_int(1) + b"\x87R" +
             b"(" + p2_int(3) + p2_str(b"|") + b"NNN" + p2_int(-1) + p2_int(-1) + p2_int(0) +
             b"tb")
    dims = b"".join(p2_int(d) for d in shape) + b"\x86"
    return (b"cnumpy.core.multiarray\n_reconstruct\n" + b"cnumpy\nndarray\n" + p2_int(0) +
            b"\x85" + p2_str(b"b") + b"\x87R" + b"(" + p2_int(1) + dims + dtype + b"\x89" +
            p2_str(raw) + b"tb")


def p2_dict(items):
    return b"\x80\x02}(" + b"".join(k + v for k, v in items) + b"u."


def p2_list(values):
    return b"](" + b"".join(values) + b"e"


def p2_batch(name, raw, labels, typestr=b"u1", shape=None):
    return p2_dict([
        (p2_str(b"data"), p2_uint8_array(raw, shape or (len(labels), 3072), typestr)),
        (p2_str(b"labels"), p2_list([p2_int(y) for y in labels])),
        (p2_str(b"batch_label"), p2_str(name.encode())),
        (p2_str(b"filenames"), p2_list([p2_str(b"img_%d.png" % i) for i in range(len(labels))])),
    ])


def p2_meta():
    return p2_dict([(p2_str(b"num_cases_per_batch"), p2_int(ROWS)),
                    (p2_str(b"label_names"), p2_list([p2_str(n.encode()) for n in NAMES])),
                    (p2_str(b"num_vis"), p2_int(3072))])


def arrays(seed=1):
    """{batch: (raw pixels, labels)}: random bytes, labels 0..9."""
    rng = random.Random(seed)
    return {b: (bytes(rng.randrange(256) for _ in range(ROWS * 3072)),
                [rng.randrange(10) for _ in range(ROWS)]) for b in BATCHES}


def tar_gz(members):
    """A .tar.gz with cifar-10-batches-py/ and `members` ({name: bytes}), in
    a shuffled order as the real archive's."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        d = tarfile.TarInfo("cifar-10-batches-py")
        d.type = tarfile.DIRTYPE
        tar.addfile(d)
        names = sorted(members)
        random.Random(3).shuffle(names)
        for name in names:
            info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
            info.size = len(members[name])
            tar.addfile(info, io.BytesIO(members[name]))
    return buf.getvalue()


def official_members(data, batch=p2_batch):
    members = {b: batch(b, *data[b]) for b in BATCHES}
    members["batches.meta"] = p2_meta()
    members["readme.html"] = b"<html>CIFAR-10</html>"
    return members


def expected_bin(raw, labels):
    return b"".join(bytes([y]) + raw[i * 3072:(i + 1) * 3072] for i, y in enumerate(labels))


def md5(b):
    return hashlib.md5(b).hexdigest()


class DownloadCifar10Test(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.target = os.path.join(self.tmp, "target")
        self.m = load()
        self.data = arrays()
        self.members = official_members(self.data)

    def write_archive(self, members=None):
        archive = tar_gz(members or self.members)
        path = os.path.join(self.tmp, "cifar-10-python.tar.gz")
        with open(path, "wb") as f:
            f.write(archive)
        return path, archive

    def pin(self, archive, members=None):
        """Pins the script to this archive (what the real pins are to the real one)."""
        members = members or self.members
        self.m.ARCHIVE_BYTES = len(archive)
        self.m.ARCHIVE_MD5 = md5(archive)
        self.m.BATCH_MD5 = {b: md5(members[b]) for b in BATCHES}
        self.m.META_MD5 = md5(members["batches.meta"])
        self.m.ROWS_PER_BATCH = ROWS

    def main(self, *args):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()) as out:
            rc = self.m.main(list(args))
        return rc, out.getvalue(), err.getvalue()

    def listing(self):
        return sorted(os.listdir(self.target)) if os.path.isdir(self.target) else []

    def test_pins_are_the_published_digests(self):
        m = self.m
        self.assertEqual(m.URL, "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz")
        self.assertEqual(m.ARCHIVE_MD5, "c58f30108f718f92721af3b95e74349a")
        self.assertEqual(m.ARCHIVE_BYTES, 170498071)
        self.assertEqual(m.BATCH_MD5, {
            "data_batch_1": "c99cafc152244af753f735de768cd75f",
            "data_batch_2": "d4bba439e000b95fd0a9bffe97cbabec",
            "data_batch_3": "54ebc095f3ab1f0389bbae665268c751",
            "data_batch_4": "634d18415352ddfa80567beed471001a",
            "data_batch_5": "482c414d41f54cd18b22e5b47cb7c3cb",
            "test_batch": "40351d587109b95175f43aff81a1287e",
        })
        self.assertEqual(m.META_MD5, "5ff9c542aee3614f3951f8cda6e48888")
        self.assertEqual(m.ROWS_PER_BATCH, 10000)

    def test_wrong_size_deletes_the_download(self):
        path, _ = self.write_archive()
        rc, _, err = run(self.target, "--url", "file://" + path)
        self.assertEqual(rc, 1, err)
        self.assertIn("REFUSED: cifar-10-python.tar.gz (file://" + path, err)
        self.assertIn("bytes, expected 170498071; truncated or a different file; the download "
                      "was deleted", err)
        self.assertEqual(self.listing(), [])  # the staged download is gone

    def test_wrong_md5_deletes_the_download(self):
        path, archive = self.write_archive()
        self.m.ARCHIVE_BYTES = len(archive)  # the size passes, the published MD5 cannot
        rc, _, err = self.main(self.target, "--source-file", path)
        self.assertEqual(rc, 1)
        self.assertIn(f"REFUSED: cifar-10-python.tar.gz ({path}, {len(archive)} bytes): MD5 "
                      f"mismatch: expected c58f30108f718f92721af3b95e74349a (published), got "
                      f"{md5(archive)}", err)
        self.assertIn("the download was deleted", err)
        self.assertEqual(self.listing(), [])

    def test_converts_to_the_binary_layout(self):
        path, archive = self.write_archive()
        self.pin(archive)
        rc, out, err = self.main(self.target, "--url", "file://" + path)
        self.assertEqual(rc, 0, err)
        bins = [f"{b}.bin" for b in BATCHES]
        self.assertEqual(self.listing(), sorted(bins + [
            "PROVENANCE.txt", "SHA256SUMS", "batches.meta.txt", "cifar-10-python.tar.gz"]))
        written = {}
        for b in BATCHES:
            with open(os.path.join(self.target, f"{b}.bin"), "rb") as f:
                written[f"{b}.bin"] = f.read()
            self.assertEqual(written[f"{b}.bin"], expected_bin(*self.data[b]), b)
            self.assertEqual(len(written[f"{b}.bin"]), ROWS * 3073)
        with open(os.path.join(self.target, "batches.meta.txt")) as f:
            self.assertEqual(f.read().split(), NAMES)
        with open(os.path.join(self.target, "cifar-10-python.tar.gz"), "rb") as f:
            self.assertEqual(f.read(), archive)
        sha = hashlib.sha256(archive).hexdigest()
        with open(os.path.join(self.target, "SHA256SUMS")) as f:
            record = f.read().splitlines()
        self.assertEqual(record[0], f"{sha}  cifar-10-python.tar.gz")
        self.assertIn(f"{hashlib.sha256(written['test_batch.bin']).hexdigest()}  test_batch.bin",
                      record)
        with open(os.path.join(self.target, "PROVENANCE.txt")) as f:
            provenance = f.read()
        self.assertIn(f"fetched from file://{path}", provenance)
        self.assertIn(f"sha256={sha} (computed on this first fetch", provenance)
        self.assertIn(f"data_batch_2: md5={md5(self.members['data_batch_2'])} (verified), "
                      "batch_label 'data_batch_2', 4 images", provenance)
        self.assertIn(provenance, out)
        # A rerun finds the files verified; a forced one checks the recorded SHA-256.
        rc, out, _ = self.main(self.target, "--source-file", "/nonexistent")
        self.assertEqual(rc, 0)
        self.assertIn("already present and verified", out)
        rc, out, err = self.main("--target-dir", self.target, "--source-file", path, "--force")
        self.assertEqual(rc, 0, err)
        self.assertIn("verified against the SHA-256 recorded in SHA256SUMS", out)
        with open(os.path.join(self.target, "data_batch_1.bin"), "ab") as f:
            f.write(b"x")
        self.assertFalse(self.m.already_verified(self.target))

    def test_archive_differing_from_the_record_is_refused(self):
        path, archive = self.write_archive()
        self.pin(archive)
        os.makedirs(self.target)
        with open(os.path.join(self.target, "SHA256SUMS"), "w") as f:
            f.write(f"{'0' * 64}  cifar-10-python.tar.gz\n")
        rc, _, err = self.main(self.target, "--source-file", path)
        self.assertEqual(rc, 1)
        self.assertIn(f"cifar-10-python.tar.gz ({path}): SHA-256 mismatch: expected {'0' * 64} "
                      "(recorded in SHA256SUMS on the first fetch)", err)
        self.assertEqual(self.listing(), ["SHA256SUMS"])

    def test_numpy_pickles_convert_identically(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("numpy is not installed")
        for protocol in (2, pickle.DEFAULT_PROTOCOL):
            def batch(name, raw, labels):
                return pickle.dumps({
                    b"data": np.frombuffer(raw, dtype=np.uint8).reshape(len(labels), 3072),
                    b"labels": labels, b"batch_label": name.encode(),
                    b"filenames": [b"x.png"] * len(labels)}, protocol=protocol)
            members = official_members(self.data, batch)
            path, archive = self.write_archive(members)
            self.pin(archive, members)
            target = os.path.join(self.tmp, f"numpy{protocol}")
            rc, _, err = self.main(target, "--source-file", path)
            self.assertEqual(rc, 0, f"protocol {protocol}: {err}")
            for b in BATCHES:
                with open(os.path.join(target, f"{b}.bin"), "rb") as f:
                    self.assertEqual(f.read(), expected_bin(*self.data[b]), f"{protocol} {b}")

    def test_batch_with_a_wrong_md5_is_refused(self):
        path, archive = self.write_archive()
        self.pin(archive)
        self.m.BATCH_MD5["data_batch_3"] = "0" * 32
        rc, _, err = self.main(self.target, "--source-file", path)
        self.assertEqual(rc, 1)
        self.assertIn("REFUSED: data_batch_3 (in cifar-10-python.tar.gz from " + path +
                      "): MD5 mismatch: expected 00000000000000000000000000000000", err)
        self.assertEqual(self.listing(), [])

    def test_hostile_pickle_is_refused_without_running_it(self):
        marker = os.path.join(self.tmp, "pwned")
        hostile = (b"\x80\x02cos\nsystem\n" + p2_str(f"touch {marker}".encode()) + b"\x85R.")
        members = dict(self.members, data_batch_4=hostile)
        path, archive = self.write_archive(members)
        self.pin(archive, members)
        rc, _, err = self.main(self.target, "--source-file", path)
        self.assertEqual(rc, 1)
        self.assertIn("REFUSED: data_batch_4: the pickle references os.system, which is not "
                      "allowed", err)
        self.assertFalse(os.path.exists(marker))
        self.assertEqual(self.listing(), [])

    def test_malformed_batches_are_refused(self):
        raw, labels = self.data["test_batch"]
        cases = [
            (p2_batch("test_batch", raw, labels[:2] + [10] + labels[3:]),
             "test_batch: label 2 must be an integer in 0..9, got 10"),
            (p2_batch("test_batch", raw, labels, typestr=b"i1"),
             "test_batch: 'data' must be uint8, got dtype 'i1'"),
            (p2_batch("test_batch", raw, labels, shape=(ROWS * 2, 1536)),
             "test_batch: 'data' has shape (8, 1536), expected (4, 3072)"),
            (b"not a pickle", "test_batch: not a readable pickle"),
        ]
        for bad, message in cases:
            members = dict(self.members, test_batch=bad)
            path, archive = self.write_archive(members)
            self.pin(archive, members)
            rc, _, err = self.main(self.target, "--source-file", path)
            self.assertEqual(rc, 1, message)
            self.assertIn(message, err)
            self.assertEqual(self.listing(), [], message)

    def test_missing_member_is_refused(self):
        members = {k: v for k, v in self.members.items() if k != "data_batch_5"}
        path, archive = self.write_archive(members)
        self.pin(archive, self.members)
        self.m.ARCHIVE_BYTES, self.m.ARCHIVE_MD5 = len(archive), md5(archive)
        rc, _, err = self.main(self.target, "--source-file", path)
        self.assertEqual(rc, 1)
        self.assertIn("no member cifar-10-batches-py/data_batch_5", err)

    def test_environment_variable_gives_the_default_target(self):
        path, archive = self.write_archive()
        self.pin(archive)
        os.environ["PRIVBENCH_DATA_DIR"] = self.tmp
        try:
            rc, _, err = self.main("--source-file", path)
        finally:
            del os.environ["PRIVBENCH_DATA_DIR"]
        self.assertEqual(rc, 0, err)
        self.assertIn("test_batch.bin", os.listdir(os.path.join(self.tmp, "cifar10")))

    def test_bad_arguments_exit_2(self):
        rc, _, err = run("--source-file", "x")
        self.assertEqual(rc, 2)
        self.assertIn("give --target-dir or set PRIVBENCH_DATA_DIR", err)
        rc, _, err = run(self.target, "--target-dir", self.target + "2")
        self.assertEqual(rc, 2)
        self.assertIn("--target-dir", err)
        self.assertEqual(self.listing(), [])


if __name__ == "__main__":
    unittest.main()
