"""Pins the bad-flag campaign's study-flag fixes: a missing or non-directory --data_dir /
--parts_dir and a value outside a computation's accurate range are refused
up front (exit 2, the message names the flag, no file written).

Arguments: the study binaries (their paths end in /<study>).
"""

import os
import subprocess
import sys
import tempfile
import unittest

BINARIES = {}


def run(study, flag, value):
    """(exit status, stderr, files left under the scratch directory)."""
    with tempfile.TemporaryDirectory() as tmp:
        regular = os.path.join(tmp, "regular_file")
        with open(regular, "w", encoding="utf-8") as f:
            f.write("x\n")
        value = value.replace("{missing}", os.path.join(tmp, "missing", "dir"))
        value = value.replace("{regular}", regular)
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        env = dict(os.environ)
        env.pop("BUILD_WORKSPACE_DIRECTORY", None)
        r = subprocess.run(
            [BINARIES[study], "--scale=test", "--quiet", "--output_dir=" + out,
             "--%s=%s" % (flag, value)],
            cwd=tmp, env=env, capture_output=True, text=True, timeout=120, check=False)
        left = []
        for d, _, names in os.walk(tmp):
            left += [os.path.join(d, n) for n in names if os.path.join(d, n) != regular]
        return r.returncode, r.stderr, left


class RefusedUpFrontTest(unittest.TestCase):
    CASES = [
        # (a) directory flags
        ("epsilon_star_gof", "data_dir", "{missing}", "is missing"),
        ("one_run_audit", "data_dir", "{regular}", "not a directory"),
        ("epsilon_star_sweep_adult", "data_dir", "{missing}", "is missing"),
        ("epsilon_star_sweep_adult", "parts_dir", "{regular}", "not a directory"),
        ("epsilon_star_sweep_adult", "parts_dir", "{regular}/sub", "cannot be created"),
        # (b) values outside the accurate range
        ("epsilon_star_distance", "train_shape", "9223372036854775808", "[0.1, 1000]"),
        ("epsilon_star_distance", "train_scale", "9223372036854775808", "[0.001, 1000]"),
        ("epsilon_star_distance", "population_scale", "1e-100", "[0.001, 1000]"),
        ("epsilon_star_identical", "gamma_shape", "1e12", "[0.01, 1e+09]"),
        ("epsilon_star_noise_curves", "population_mean", "9223372036854775808", "1e9"),
        ("epsilon_star_noise_curves", "population_mean", "1000", "overlapping"),
        ("epsilon_star_gof", "dp_epsilon", "1e6", "<= 10000"),
        ("epsilon_star_sweep_adult", "target_eps", "1,9223372036854775808", "<= 10000"),
        ("lira_bayes_audit", "learning_rate", "9223372036854775808", "<= 1000"),
        ("lira_bayes_audit", "clip_norm", "9223372036854775808", "<= 1000"),
        ("lira_bayes_audit", "target_epsilon", "9223372036854775808", "<= 10000"),
        ("one_run_audit", "epsilons", "2,9223372036854775808", "<= 10000"),
    ]

    def test_refused_naming_the_flag_and_writing_nothing(self):
        for study, flag, value, expected in self.CASES:
            with self.subTest(study=study, flag=flag, value=value):
                rc, err, left = run(study, flag, value)
                self.assertEqual(rc, 2, err)
                self.assertIn(flag, err)
                self.assertIn(expected, err)
                self.assertEqual(left, [], err)

    def test_empty_data_dir_keeps_meaning_the_default(self):
        rc, err, _ = run("epsilon_star_gof", "data_dir", "")
        self.assertNotEqual(rc, 2, err)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        BINARIES[os.path.basename(path)] = os.path.abspath(path)
    unittest.main(argv=sys.argv[:1])
