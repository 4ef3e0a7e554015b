"""Tests of `import privbench` (python/).

The module is compared with //cli:epsilon_cli on the same inputs
(both call the same library, so every value must be equal to the last bit
and every error message identical), then its own behaviour is checked:
NumPy broadcasting and shapes, argument conversion errors naming the
argument, no NaN, and the HDF5 reader on a file written by the project's
ResultWriter.

    privbench_test.py <epsilon_cli> <results_fixture>
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import numpy as np

# The package lies beside this file in the runfiles tree
# (python/privbench/).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import privbench  # noqa: E402

CLI = None
FIXTURE = None


def cli(requests):
    """epsilon_cli's responses to a list of request dicts."""
    text = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run([CLI, "batch"], input=text, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def number(v):
    """A CLI number ("inf" is written as a string)."""
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    return v


def module_error(f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except ValueError as e:
        return str(e)
    raise AssertionError("no ValueError from %s%r" % (f.__name__, args))


# Counts with zeros, extremes and ordinary cells (tp, fn, fp, tn).
COUNTS = np.array([
    [90, 10, 5, 95], [50, 50, 50, 50], [0, 100, 0, 100], [100, 0, 100, 0], [100, 0, 0, 100],
    [1, 0, 0, 1], [999, 1, 3, 997], [30, 70, 80, 20], [5000, 0, 0, 5000], [7, 3, 2, 8],
], dtype=np.int64)


class AgreesWithCli(unittest.TestCase):
    def test_every_interval_method(self):
        for method in privbench.interval_methods():
            zero_delta = privbench.interval_method_info(method)["requires_zero_delta"]
            for delta in [0.0] if zero_delta else [0.0, 1e-3]:
                for alpha in (0.05, 0.1):
                    tp, fn, fp, tn = COUNTS.T
                    lower, upper = privbench.interval(method, tp, fn, fp, tn, delta, alpha)
                    want = cli([{"op": "interval", "method": method, "tp": int(a), "fn": int(b),
                                 "fp": int(c), "tn": int(d), "delta": delta, "alpha": alpha}
                                for a, b, c, d in COUNTS])
                    self.assertEqual(lower.tolist(), [number(w["lower"]) for w in want], method)
                    if upper is None:
                        self.assertTrue(all(w["upper"] is None for w in want), method)
                    else:
                        self.assertEqual(upper.tolist(), [number(w["upper"]) for w in want])
                    # Scalars in, scalars out: the same numbers.
                    lo, up = privbench.interval(method, 90, 10, 5, 95, delta, alpha)
                    self.assertEqual(lo, lower[0])
                    self.assertEqual(up, None if upper is None else upper[0])

    def test_eps_from_rates(self):
        fnr = np.array([0.0, 0.1, 0.5, 0.9, 1.0, 0.01, 0.3])
        fpr = np.array([0.0, 0.05, 0.5, 0.9, 0.0, 0.2, 1.0])
        for delta in (0.0, 1e-5, 0.1):
            got = privbench.eps_from_rates(fnr, fpr, delta)
            want = cli([{"op": "eps_from_rates", "fnr": a, "fpr": b, "delta": delta}
                        for a, b in zip(fnr, fpr)])
            self.assertEqual(got.tolist(), [number(w["epsilon"]) for w in want])

    def test_katz(self):
        n1 = np.array([0, 10, 100, 1000, 1000, 57])
        n0 = np.array([0, 0, 10, 1, 1000, 3])
        for alpha in (0.05, 0.01):
            got = privbench.katz(n1, n0, 1000, alpha)
            want = cli([{"op": "katz", "n1": int(a), "n0": int(b), "n": 1000, "alpha": alpha}
                        for a, b in zip(n1, n0)])
            self.assertEqual(got.tolist(), [number(w["lower"]) for w in want])

    def test_every_epsilon_star_variant_and_transform(self):
        rng = np.random.default_rng(5)
        train, population = rng.gamma(1.0, 1.0, 800), rng.gamma(1.7, 1.0, 600)
        cases = []
        for variant in privbench.epsilon_star_variants():
            for delta in (0.0, 1e-3):
                cases.append((variant, delta, {}))
                cases.append((variant, delta, {"quantiles_per_distribution": 500}))
            cases.append((variant, 0.0, {"rate_floor": 0.01, "rate_ceiling": 0.99}))
            cases.append((variant, 0.0, {"clip_lo": 1e-4, "clip_hi": 1 - 1e-4}))
            for transform in privbench.loss_transforms():
                cases.append((variant, 0.0, {"transform": transform}))
        for variant, delta, options in cases:
            got = privbench.epsilon_star(train, population, variant, delta, **options)
            request = {"op": "epsilon_star", "variant": variant, "train": train.tolist(),
                       "population": population.tolist(), "delta": delta}
            request.update(options)
            (want,) = cli([request])
            self.assertEqual(got, number(want["epsilon"]), (variant, delta, options))

    def test_every_accountant_and_calibration(self):
        for method in privbench.accountant_methods():
            rdp = method.startswith("rdp")
            for sigma, q, steps, delta, orders in [(1.1, 0.01, 1000, 1e-5, None),
                                                   (0.8, 0.05, 200, 1e-6,
                                                    [2.0, 4.0, 32.0] if rdp else None)]:
                eps, order = privbench.accountant(method, sigma, q, steps, delta, orders,
                                                  with_order=True)
                request = {"op": "accountant", "method": method, "sigma": sigma, "q": q,
                           "steps": steps, "delta": delta}
                if orders is not None:
                    request["orders"] = orders
                (want,) = cli([request])
                self.assertEqual(eps, number(want["epsilon"]), method)
                self.assertEqual(order, want.get("order"), method)
                self.assertEqual(privbench.accountant(method, sigma, q, steps, delta, orders), eps)
            sigma = privbench.calibrate(method, 2.0, 0.01, 100, 1e-5)
            (want,) = cli([{"op": "calibrate", "method": method, "target_epsilon": 2.0,
                            "q": 0.01, "steps": 100, "delta": 1e-5}])
            self.assertEqual(sigma, want["sigma"], method)

    def test_registries_are_the_clis(self):
        help_text = subprocess.run([CLI, "--help"], capture_output=True, text=True,
                                   check=True).stdout
        for names in (privbench.interval_methods(), privbench.accountant_methods(),
                      privbench.epsilon_star_variants(), privbench.loss_transforms()):
            self.assertTrue(names)
            for name in names:
                self.assertIn(name, help_text)
        # The papers' methods (the registries may grow).
        for m in ("clopper_pearson", "jeffreys", "bayesian", "katz_log"):
            self.assertIn(m, privbench.interval_methods())
        for m in ("rdp", "zcdp", "naive", "advanced"):
            self.assertIn(m, privbench.accountant_methods())
        self.assertEqual(set(privbench.epsilon_star_variants()) >= {"empirical", "parametric"},
                         True)


class SameErrorsAsCli(unittest.TestCase):
    def check(self, f, args, request):
        (want,) = cli([request])
        self.assertIn("error", want, request)
        self.assertEqual(module_error(f, *args), want["error"], request)

    def test_interval_errors(self):
        base = {"op": "interval", "method": "bayesian", "tp": 9, "fn": 1, "fp": 2, "tn": 8,
                "delta": 0.0, "alpha": 0.05}
        order = ["method", "tp", "fn", "fp", "tn", "delta", "alpha"]
        for field, bad in [("method", "nope"), ("tp", -1), ("fn", -3), ("tn", -1),
                           ("delta", 1.0), ("delta", -0.1), ("alpha", 0.0), ("alpha", 1.5)]:
            request = dict(base, **{field: bad})
            self.check(privbench.interval, [request[k] for k in order], request)
        request = dict(base, tp=0, fn=0)
        self.check(privbench.interval, [request[k] for k in order], request)
        request = dict(base, method="katz_log", delta=0.01)
        self.check(privbench.interval, [request[k] for k in order], request)

    def test_other_errors(self):
        self.check(privbench.eps_from_rates, [1.5, 0.1, 0.0],
                   {"op": "eps_from_rates", "fnr": 1.5, "fpr": 0.1, "delta": 0.0})
        self.check(privbench.eps_from_rates, [0.5, 0.1, 1.0],
                   {"op": "eps_from_rates", "fnr": 0.5, "fpr": 0.1, "delta": 1.0})
        self.check(privbench.katz, [11, 1, 10, 0.05],
                   {"op": "katz", "n1": 11, "n0": 1, "n": 10, "alpha": 0.05})
        self.check(privbench.katz, [1, 1, 0, 0.05],
                   {"op": "katz", "n1": 1, "n0": 1, "n": 0, "alpha": 0.05})
        acc = {"op": "accountant", "method": "rdp", "sigma": 1.0, "q": 0.01, "steps": 10,
               "delta": 1e-5}
        order = ["method", "sigma", "q", "steps", "delta"]
        for field, bad in [("method", "nope"), ("sigma", -1.0), ("q", 0.0), ("q", 1.5),
                           ("steps", 0), ("delta", 0.0)]:
            request = dict(acc, **{field: bad})
            self.check(privbench.accountant, [request[k] for k in order], request)
        self.check(privbench.accountant, [acc[k] for k in order] + [[0.5, 2.0]],
                   dict(acc, orders=[0.5, 2.0]))
        # An empty list no longer means the default, and orders given to an
        # accountant that ignores them are an error, not silently dropped.
        self.check(privbench.accountant, [acc[k] for k in order] + [[]], dict(acc, orders=[]))
        pld = dict(acc, method="pld")
        self.check(privbench.accountant, [pld[k] for k in order] + [[2.0]], dict(pld, orders=[2.0]))
        self.check(privbench.calibrate, ["rdp", -1.0, 0.01, 10, 1e-5],
                   {"op": "calibrate", "method": "rdp", "target_epsilon": -1.0, "q": 0.01,
                    "steps": 10, "delta": 1e-5})

    def test_epsilon_star_errors(self):
        train, population = [0.1, 0.2, float("nan")], [0.3, 0.4, 0.5]
        base = {"op": "epsilon_star", "variant": "empirical", "train": [0.1, 0.2, 0.3],
                "population": population, "delta": 0.0}
        # NaN cannot travel in JSON: the CLI gets an empty sample instead,
        # and both name the argument.
        msg = module_error(privbench.epsilon_star, train, population, "empirical")
        self.assertIn("train_losses", msg)
        # The same message, each naming its own argument: train_losses in
        # Python, the field "train" in the CLI.
        for field in ("train", "population"):
            request = dict(base, **{field: []})
            (want,) = cli([request])
            got = module_error(privbench.epsilon_star, request["train"], request["population"],
                               "empirical", 0.0)
            self.assertTrue(got.startswith(field + "_losses "), got)
            self.assertEqual(want["error"], got.replace(field + "_losses", field))
        for field, bad in [("variant", "nope"), ("delta", 1.0)]:
            request = dict(base, **{field: bad})
            self.check(privbench.epsilon_star, [request["train"], request["population"],
                                                request["variant"], request["delta"]], request)
        for option, bad in [("clip_lo", 0.7), ("rate_floor", 0.6), ("transform", "nope"),
                            ("quantiles_per_distribution", 0)]:
            (want,) = cli([dict(base, **{option: bad})])
            got = module_error(privbench.epsilon_star, base["train"], population, "empirical",
                               **{option: bad})
            self.assertEqual(got, want["error"], option)
        request = dict(base, variant="parametric", train=[1.0, 1.0], population=[2.0, 2.0])
        (want,) = cli([request])
        got = module_error(privbench.epsilon_star, request["train"], request["population"],
                           "parametric", 0.0)
        self.assertEqual(want["error"], got.replace("train_losses", "train"))


class PythonSide(unittest.TestCase):
    def test_shapes_and_broadcasting(self):
        tp = np.array([[90], [80], [70]])  # (3, 1) against (4,)
        lower, upper = privbench.interval("jeffreys", tp, [10, 20, 30, 40], 5, 95, 0.0, 0.05)
        self.assertEqual(lower.shape, (3, 4))
        self.assertEqual(upper.shape, (3, 4))
        self.assertEqual(lower[1, 2], privbench.interval("jeffreys", 80, 30, 5, 95, 0.0, 0.05)[0])
        lo, up = privbench.interval("clopper_pearson_one_sided", 9, 1, 1, 9, 0.0, 0.05)
        self.assertIsInstance(lo, float)
        self.assertIsNone(up)
        lower, upper = privbench.interval("clopper_pearson", [], [], [], [], 0.0, 0.05)
        self.assertEqual(lower.shape, (0,))
        # alpha and delta broadcast too.
        lower, _ = privbench.interval("clopper_pearson", 90, 10, 5, 95, 0.0, [0.01, 0.05, 0.1])
        self.assertTrue(lower[0] < lower[1] < lower[2])
        eps = privbench.eps_from_rates(np.full((2, 2), 0.1), 0.2, 0.0)
        self.assertEqual(eps.shape, (2, 2))
        self.assertIsInstance(privbench.katz(100, 10, 1000, 0.05), float)
        # Threads change nothing but the time; an error is the lowest index's.
        rng = np.random.default_rng(3)
        pos, neg = rng.integers(1, 300, 257), rng.integers(1, 300, 257)
        tp, fp = rng.integers(0, pos + 1), rng.integers(0, neg + 1)
        for method in ("bayesian", "clopper_pearson_one_sided"):
            one = privbench.interval(method, tp, pos - tp, fp, neg - fp, 0.0, 0.05)
            three = privbench.interval(method, tp, pos - tp, fp, neg - fp, 0.0, 0.05, threads=3)
            self.assertEqual(one[0].tolist(), three[0].tolist())
            self.assertEqual(one[1] is None, three[1] is None)
            if one[1] is not None:
                self.assertEqual(one[1].tolist(), three[1].tolist())
        bad = tp.copy()
        bad[[100, 200]] = -1
        msg = module_error(privbench.interval, "jeffreys", bad, pos - tp, fp, neg - fp, 0.0, 0.05,
                           threads=4)
        self.assertTrue(msg.endswith("(at index 100)"), msg)
        self.assertTrue(module_error(privbench.interval, "jeffreys", 1, 1, 1, 1, 0.0, 0.05,
                                     threads=0).startswith("threads must be in [1, 1024]"))
        # Integral floats and any integer dtype are counts.
        a = privbench.interval("bayesian", np.int32(90), 10.0, np.uint8(5), 95, 0.0, 0.05)
        self.assertEqual(a, privbench.interval("bayesian", 90, 10, 5, 95, 0.0, 0.05))

    def test_threads_the_system_cannot_create_are_no_abort(self):
        """threads=1024 under a 4 GiB address-space limit: the threads that
        cannot be created (8 MiB of stack each) are not an abort
        ('terminate called without an active exception' before); the others
        share the work and the values are those of one thread."""
        code = textwrap.dedent("""
            import resource, sys
            import numpy as np
            resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
            import privbench
            n = 4096
            tp = np.arange(n) % 50
            one = privbench.interval("clopper_pearson", tp, 50 - tp, 5, 45, 0.0, 0.05)
            many = privbench.interval("clopper_pearson", tp, 50 - tp, 5, 45, 0.0, 0.05,
                                      threads=1024)
            sys.exit(0 if one[0].tolist() == many[0].tolist() else 3)
        """)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])

    def test_errors_name_the_argument_and_the_element(self):
        msg = module_error(privbench.interval, "clopper_pearson", [[9, 9], [9, -2]], 1, 1, 9,
                           0.0, 0.05)
        self.assertEqual(msg, "tp must be >= 0, got -2 (at index (1, 1))")
        self.assertEqual(module_error(privbench.eps_from_rates, [0.1, 2.0], 0.1, 0.0),
                         "fnr must be in [0, 1], got 2 (at index 1)")
        for args, name in [((2.5, 1, 1, 9), "tp"), ((9, True, 1, 9), "fn"),
                           ((9, 1, "x", 9), "fp"), ((9, 1, 1, [[1, 2], [3]]), "tn")]:
            msg = module_error(privbench.interval, "bayesian", *args, 0.0, 0.05)
            self.assertTrue(msg.startswith(name + " must be an integer"), msg)
        msg = module_error(privbench.interval, "bayesian", [1, 2], [1, 2, 3], 1, 1, 0.0, 0.05)
        self.assertIn("cannot be broadcast", msg)
        self.assertTrue(module_error(privbench.interval, 3, 1, 1, 1, 1, 0.0, 0.05)
                        .startswith("method must be a string"))
        self.assertTrue(module_error(privbench.accountant, "rdp", "1", 0.1, 10, 1e-5)
                        .startswith("sigma must be a number"))
        self.assertTrue(module_error(privbench.accountant, "rdp", 1.0, 0.1, 10.5, 1e-5)
                        .startswith("steps must be an integer"))
        self.assertTrue(module_error(privbench.epsilon_star, np.ones((2, 2)), [1.0], "empirical")
                        .startswith("train_losses must be a 1-D array"))
        self.assertTrue(module_error(privbench.epsilon_star, [1.0, 2.0], [1.0, 3.0], "empirical",
                                     clip=0.1).startswith("unknown option 'clip'"))
        self.assertTrue(module_error(privbench.epsilon_star, ["a"], [1.0], "empirical")
                        .startswith("train_losses must be a 1-D array of numbers"))

    def test_nan_in_is_an_error_not_nan_out(self):
        nan = float("nan")
        for f, args in [(privbench.interval, ("bayesian", 9, 1, 1, 9, nan, 0.05)),
                        (privbench.interval, ("bayesian", 9, 1, 1, 9, 0.0, nan)),
                        (privbench.eps_from_rates, (nan, 0.1, 0.0)),
                        (privbench.katz, (1, 1, 10, nan)),
                        (privbench.accountant, ("rdp", nan, 0.1, 10, 1e-5)),
                        (privbench.calibrate, ("rdp", nan, 0.1, 10, 1e-5)),
                        (privbench.epsilon_star, ([1.0, 2.0], [1.0, np.inf], "parametric"))]:
            module_error(f, *args)

    def test_epsilon_star_layouts_give_one_value(self):
        rng = np.random.default_rng(9)
        train, population = rng.gamma(1.0, 1.0, 2001), rng.gamma(2.0, 1.0, 2001)
        for variant in privbench.epsilon_star_variants():
            ref = privbench.epsilon_star(train, population, variant)
            self.assertEqual(privbench.epsilon_star(train.tolist(), population, variant), ref)
            # A strided view and a Fortran-ordered copy are converted once.
            wide = np.stack([train, population], axis=1)
            self.assertEqual(privbench.epsilon_star(wide[:, 0], wide[:, 1], variant), ref)
            self.assertTrue(math.isfinite(ref) and ref >= 0)

    def test_results_reader(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "fixture.h5")
            subprocess.run([FIXTURE, path], check=True)
            r = privbench.read_results(path)
            meta = privbench.meta(r)
            self.assertEqual(meta["study"], "python_fixture")
            self.assertEqual(meta["seed"], "7")  # written as text (uint64)
            self.assertEqual(meta["scale"], "test")
            tables = privbench.summary_tables(r)
            self.assertEqual(list(tables["widths"]), ["method", "n", "width"])
            self.assertEqual(tables["widths"]["method"].tolist(),
                             ["clopper_pearson", "jeffreys", "bayesian"])
            self.assertEqual(tables["widths"]["n"].tolist(), [100, 200, 300])
            self.assertEqual(tables["widths"]["width"].dtype, np.float64)
            self.assertEqual(r["summary"]["widths"].attrs["title"], "Fixture table")
            claims = privbench.claims(path)  # a path works too
            self.assertIs(claims["narrowest"]["holds"], True)
            self.assertIs(claims["widest"]["holds"], False)
            self.assertEqual(claims["widest"]["evidence"], "0.5 / 0.125 = 4")
            self.assertEqual(r["raw"]["eps_lo"].shape, (2, 3))
            self.assertEqual(float(r["raw"]["total"]), 21.0)
            self.assertTrue(module_error(privbench.read_results, os.path.join(d, "none.h5"))
                            .startswith("result file '"))
            open(os.path.join(d, "bad.h5"), "w").write("not hdf5")
            self.assertIn("not a readable HDF5 file",
                          module_error(privbench.read_results, os.path.join(d, "bad.h5")))

    def test_audit_matches_the_cli_and_reads_well(self):
        rng = np.random.default_rng(5)
        members, non = rng.normal(1.0, 1.0, 200), rng.normal(0.0, 1.0, 200)
        a = privbench.audit(members, non, alpha=0.05, delta=1e-5, seed=3,
                            methods=["clopper_pearson"])
        (want,) = cli([{"op": "audit_scores", "member_scores": members.tolist(),
                        "nonmember_scores": non.tolist(), "alpha": 0.05, "delta": 1e-5,
                        "seed": 3, "methods": ["clopper_pearson"]}])
        self.assertEqual(a["auc"], want["auc"])
        self.assertEqual([r["lower"] for r in a["intervals"]],
                         [number(r["lower"]) for r in want["intervals"]])
        self.assertEqual([r["selection"] for r in a["intervals"]],
                         ["split", "bonferroni", "max_over_thresholds"])
        self.assertFalse(a.intervals_for("max_over_thresholds")[0]["valid_confidence_statement"])
        self.assertIn("NOT a valid confidence statement", repr(a))
        self.assertIn("AUC", repr(a))
        # "bonferroni_all" on request, the same numbers as the CLI's; every
        # score a threshold (K = 401), the Clopper-Pearson methods only.
        kw = dict(alpha=0.05, delta=1e-5, selections=["bonferroni_all"],
                  methods=["clopper_pearson", "jeffreys"])
        b = privbench.audit(members, non, **kw)
        (want_b,) = cli([{"op": "audit_scores", "member_scores": members.tolist(),
                          "nonmember_scores": non.tolist(), **kw}])
        self.assertEqual([(r["method"], r["selection"]) for r in b["intervals"]],
                         [("clopper_pearson", "bonferroni_all")])
        self.assertEqual(b["intervals"][0]["lower"], number(want_b["intervals"][0]["lower"]))
        self.assertEqual(b["gaussian_dp"][0]["mu_lower"],
                         number(want_b["gaussian_dp"][0]["mu_lower"]))
        self.assertEqual(b["intervals"][0]["level_alpha"], 0.05 / 401)
        self.assertTrue(b["intervals"][0]["valid_confidence_statement"])
        self.assertIn("bonferroni_all only", dict(b["skipped_methods"])["jeffreys"])
        self.assertIn("bonferroni_all", module_error(privbench.audit, members, non,
                                                     selections=["bonferroni_al"]))
        # Bad input names the argument.
        self.assertIn("member_scores", module_error(privbench.audit, [], non))
        self.assertIn("nonmember_scores[1] must be finite",
                      module_error(privbench.audit, members, [0.0, float("nan")]))
        self.assertIn("selections must name", module_error(privbench.audit, members, non,
                                                           selections=["best"]))

    def test_audit_arrays_frame_and_roc_plot(self):
        rng = np.random.default_rng(6)
        members, non = rng.normal(1.5, 1.0, 120), rng.normal(0.0, 1.0, 80)
        a = privbench.audit(members, non, seed=1, methods=["clopper_pearson", "jeffreys"])
        arr = a.to_arrays()
        # ROC columns agree with the rows and recount from the scores.
        self.assertEqual(len(arr["roc_threshold"]), len(a["roc"]))
        for t, tp, fp in zip(arr["roc_threshold"], arr["roc_tp"], arr["roc_fp"]):
            self.assertEqual(tp, int(np.sum(members >= t)))
            self.assertEqual(fp, int(np.sum(non >= t)))
        # The ROC is one NumPy structured array (threshold, tp, fn, fp, tn);
        # to_dict() gives it as a list of tuples of the same values.
        self.assertEqual(a["roc"].dtype.names, ("threshold", "tp", "fn", "fp", "tn"))
        self.assertEqual(len(a["roc"]), 201)  # 200 distinct scores + the one flagging nobody
        rows = a.to_dict()["roc"]
        self.assertEqual(rows[0], (a["roc"]["threshold"][0], 0, 120, 0, 80))
        self.assertEqual([r[1] + r[2] for r in rows], [120] * 201)
        self.assertEqual([r[3] for r in rows], arr["roc_fp"].tolist())
        self.assertIsInstance(rows[5][1], int)
        np.testing.assert_allclose(arr["roc_tpr"], arr["roc_tp"] / 120.0)
        np.testing.assert_allclose(arr["roc_fpr"], arr["roc_fp"] / 80.0)
        # Trapezoid area under the ROC (ties as diagonal steps) is the AUC.
        order = np.argsort(arr["roc_fpr"], kind="stable")
        fpr, tpr = arr["roc_fpr"][order], arr["roc_tpr"][order]
        self.assertAlmostEqual(float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2)), a["auc"],
                               places=12)
        self.assertEqual(list(arr["interval_lower"]), [r["lower"] for r in a["intervals"]])
        self.assertEqual(list(arr["interval_valid"]),
                         [r["valid_confidence_statement"] for r in a["intervals"]])
        self.assertTrue(np.isnan(arr["gdp_eps_lower"]).all())  # delta = 0: not reported
        try:
            import pandas  # noqa: F401
        except ImportError:
            with self.assertRaisesRegex(ImportError, "pandas"):
                a.to_frame()
        import matplotlib
        matplotlib.use("Agg")
        ax = a.plot_roc()
        self.assertEqual(ax.get_xscale(), "log")
        self.assertEqual(len(ax.lines), 2)  # the ROC and the chance line

    def test_audit_scores_from_files(self):
        rng = np.random.default_rng(8)
        members, non = rng.normal(1.0, 1.0, 50), rng.normal(0.0, 1.0, 60)
        base = {"op": "audit_scores", "alpha": 0.1, "delta": 0.0, "methods": ["jeffreys"]}
        (inline,) = cli([dict(base, member_scores=members.tolist(),
                              nonmember_scores=non.tolist())])
        with tempfile.TemporaryDirectory() as d:
            m_npy, n_csv = os.path.join(d, "m.npy"), os.path.join(d, "n.csv")
            np.save(m_npy, members)
            np.savetxt(n_csv, non, fmt="%.17g")
            n32 = os.path.join(d, "n32.npy")
            np.save(n32, non.astype(np.float32))
            bad = {"text.npy": b"0.5\n0.7\n", "two_d.npy": None, "header.csv": b"score\n0.5\n",
                   "nan.csv": b"0.5\nnan\n", "scores.json": b"[0.5]"}
            for name, data in bad.items():
                path = os.path.join(d, name)
                if data is None:
                    np.save(path, np.zeros((2, 2)))
                else:
                    with open(path, "wb") as f:
                        f.write(data)
            (from_files,) = cli([dict(base, member_scores_path=m_npy, nonmember_scores_path=n_csv)])
            self.assertEqual(from_files["auc"], inline["auc"])
            self.assertEqual(from_files["intervals"], inline["intervals"])
            (f32,) = cli([dict(base, member_scores_path=m_npy, nonmember_scores_path=n32)])
            self.assertNotIn("error", f32)
            want = {"text.npy": "is not a .npy file", "two_d.npy": "must be a 1-D array",
                    "header.csv": "'score' is not a number", "nan.csv": "line 2: 'nan' is not finite",
                    "scores.json": "must end in .npy, .csv or .txt"}
            for name, message in want.items():
                (r,) = cli([dict(base, member_scores_path=os.path.join(d, name),
                                 nonmember_scores=non.tolist())])
                self.assertIn("member_scores_path", r.get("error", ""), name)
                self.assertIn(message, r.get("error", ""), name)
            (both,) = cli([dict(base, member_scores=[1.0], member_scores_path=m_npy,
                                nonmember_scores=[0.0])])
            self.assertEqual(both["error"],
                             "give exactly one of member_scores and member_scores_path")

    def test_argument_errors_name_the_argument(self):
        from fractions import Fraction
        # An int beyond the double range, a non-integral Fraction, a masked
        # array with masked elements: ValueError naming the argument.
        self.assertIn("sigma must be representable as a double",
                      module_error(privbench.accountant, "rdp", 10**400, 0.01, 10, 1e-5))
        self.assertIn("steps must be an integer",
                      module_error(privbench.accountant, "rdp", 1.0, 0.01, Fraction(7, 2), 1e-5))
        self.assertEqual(privbench.accountant("rdp", 1.0, 0.01, Fraction(10, 1), 1e-5),
                         privbench.accountant("rdp", 1.0, 0.01, 10, 1e-5))
        masked = np.ma.masked_array([0.1, 0.2, 9.0], mask=[False, False, True])
        self.assertIn("train_losses is a masked array with masked elements",
                      module_error(privbench.epsilon_star, masked, [0.3, 0.4], "empirical"))
        unmasked = np.ma.masked_array([0.1, 0.2], mask=[False, False])
        self.assertEqual(privbench.epsilon_star(unmasked, [0.3, 0.4], "empirical"),
                         privbench.epsilon_star([0.1, 0.2], [0.3, 0.4], "empirical"))
        self.assertIn("tp is a masked array",
                      module_error(privbench.interval, "jeffreys",
                                   np.ma.masked_array([5, 6], mask=[True, False]), 5, 5, 5,
                                   0.0, 0.05))

    def test_results_reader_applies_the_cpp_readers_rules(self):
        import h5py
        from privbench.results import Group
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "fixture.h5")
            subprocess.run([FIXTURE, path], check=True)
            # An edit without a matching checksum is refused, naming the file.
            with h5py.File(path, "r+") as f:
                f["claims/widest"].attrs["holds"] = 1
            self.assertIn(path + ": checksum mismatch", module_error(privbench.read_results, path))
            # Objects linked twice (a DAG that doubles per level) are refused
            # before any traversal.
            subprocess.run([FIXTURE, path], check=True)
            with h5py.File(path, "r+") as f:
                prev = f.create_group("dag0")
                for i in range(1, 31):
                    g = f.create_group("dag%d" % i)
                    prev["a"], prev["b"] = g, g
                    prev = g
            self.assertIn("hard links; every object of a result file has exactly one",
                          module_error(privbench.read_results, path))
            # A FIFO named *.h5 is refused instead of blocking.
            fifo = os.path.join(d, "trap.h5")
            os.mkfifo(fifo)
            self.assertIn("is not a regular file", module_error(privbench.read_results, fifo))
            # holds must be the integer 0 or 1: "0", 2 and 1.0 are errors, not True.
            for bad in ("0", 2, 1.0):
                r = Group({"claims": Group({"c": Group({}, {"holds": bad})}, {})}, {}, path)
                self.assertIn("claim '/claims/c': holds must be the integer 0 or 1",
                              module_error(privbench.claims, r))

    def test_results_group_reads_like_h5py(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "fixture.h5")
            subprocess.run([FIXTURE, path], check=True)
            with privbench.read_results(path) as f:
                self.assertEqual(f.filename, path)
                self.assertEqual(f.name, "/")
                self.assertIn("claims/widest", f)
                self.assertNotIn("claims/nope", f)
                self.assertNotIn("claims/widest/deeper", f)
                self.assertIs(f["claims/widest"], f["claims"]["widest"])
                self.assertIs(f["/claims/widest"], f["claims"]["widest"])
                self.assertEqual(f["claims/widest"].name, "/claims/widest")
                self.assertIsNone(f.get("summary/none"))
                with self.assertRaises(KeyError):
                    f["summary/none"]
                seen = []
                f.visititems(lambda name, obj: seen.append(name))
                self.assertIn("claims/widest", seen)
                self.assertEqual(f.visititems(lambda name, obj: name if "/" in name else None),
                                 next(n for n in seen if "/" in n))

    def test_bonferroni_grid_work_bound(self):
        import time
        rng = np.random.default_rng(3)
        members, non = rng.normal(1.0, 1.0, 200), rng.normal(0.0, 1.0, 200)
        start = time.monotonic()
        e = module_error(privbench.audit, members, non, bonferroni_grid=list(range(100000)))
        self.assertLess(time.monotonic() - start, 5.0)  # refused before any method runs
        self.assertIn("bonferroni_grid must have at most 1000 thresholds", e)
        self.assertIn("bonferroni_quantiles must be in [1, 1000]",
                      module_error(privbench.audit, members, non, bonferroni_quantiles=1001))
        base = {"op": "audit_scores", "alpha": 0.05, "delta": 0.0,
                "member_scores": members.tolist(), "nonmember_scores": non.tolist()}
        (r1, r2) = cli([dict(base, bonferroni_grid=list(range(1001))),
                        dict(base, bonferroni_quantiles=1001)])
        self.assertEqual(r1["error"], module_error(privbench.audit, members, non,
                                                   bonferroni_grid=list(range(1001))))
        self.assertIn("bonferroni_quantiles must be in [1, 1000]", r2["error"])
        # The bound itself is accepted.
        a = privbench.audit(members, non, selections=["bonferroni"], methods=["clopper_pearson"],
                            bonferroni_grid=np.linspace(-3, 3, 1000))
        self.assertEqual(len(a["bonferroni_grid"]), 1000)

    def test_audit_scores_from_hdf5(self):
        import h5py
        rng = np.random.default_rng(9)
        members, non = rng.normal(1.0, 1.0, 50), rng.normal(0.0, 1.0, 60)
        base = {"op": "audit_scores", "alpha": 0.1, "delta": 0.0, "methods": ["jeffreys"]}
        with tempfile.TemporaryDirectory() as d:
            path, other = os.path.join(d, "scores.h5"), os.path.join(d, "other.h5")
            with h5py.File(other, "w") as f:  # a plain h5py file, no privbench /meta
                f["member"] = members
            with h5py.File(path, "w") as f:
                f["attack/member"] = members
                f["attack/nonmember"] = non.astype(np.float32)
                f["two_d"] = np.zeros((2, 2))
                f["names"] = np.array([b"a", b"b"])
                f["outside"] = h5py.ExternalLink(other, "/member")
            inline = privbench.audit(members, non.astype(np.float32), alpha=0.1,
                                     methods=["jeffreys"])
            from_h5 = privbench.audit(path + ":/attack/member", path + ":/attack/nonmember",
                                      alpha=0.1, methods=["jeffreys"])
            self.assertEqual(from_h5["auc"], inline["auc"])
            self.assertEqual(from_h5["intervals"], inline["intervals"])
            (cli_h5,) = cli([dict(base, member_scores_path=path + ":/attack/member",
                                  nonmember_scores_path=path + ":/attack/nonmember")])
            self.assertEqual(cli_h5["auc"], inline["auc"])
            want = {":/attack/missing": "no dataset '/attack/missing'", "": "names no dataset",
                    ":/two_d": "must be a 1-D dataset", ":/names": "not a floating-point",
                    ":/outside": "is an external link"}
            for suffix, message in want.items():
                (r,) = cli([dict(base, member_scores_path=path + suffix,
                                 nonmember_scores=non.tolist())])
                self.assertIn("member_scores_path", r.get("error", ""), suffix)
                self.assertIn(message, r.get("error", ""), suffix)
                e = module_error(privbench.audit, path + suffix, non)
                self.assertEqual(e, r["error"])

    def test_audit_arguments_read_as_the_cli_reads_them(self):
        """One name is one name, not its letters; an
        int is an error naming the argument; methods=[] is refused like
        selections=[]; bonferroni_grid is 1-D; seeds take the uint64 range;
        any bytes path reaches the reader, which refuses a NUL byte."""
        rng = np.random.default_rng(13)
        members, non = rng.normal(1.0, 1.0, 30), rng.normal(0.0, 1.0, 30)
        a = privbench.audit(members, non, selections="split", methods="clopper_pearson")
        self.assertEqual([(r["method"], r["selection"]) for r in a["intervals"]],
                         [("clopper_pearson", "split")])
        for bad in (5, 1.5, b"split"):
            self.assertIn("selections must be a name or a list of names",
                          module_error(privbench.audit, members, non, selections=bad))
        self.assertIn("methods must be non-empty",
                      module_error(privbench.audit, members, non, methods=[]))
        self.assertIn("selections must be non-empty",
                      module_error(privbench.audit, members, non, selections=[]))
        for grid in (0.5, [[0.0, 1.0]]):
            self.assertIn("bonferroni_grid must be a 1-D array",
                          module_error(privbench.audit, members, non, bonferroni_grid=grid))
        seed = 2**64 - 1
        mine = privbench.audit(members, non, seed=seed, methods=["clopper_pearson"])
        (theirs,) = cli([{"op": "audit_scores", "member_scores": members.tolist(),
                          "nonmember_scores": non.tolist(), "alpha": 0.05, "delta": 0.0,
                          "seed": seed, "methods": ["clopper_pearson"]}])
        self.assertEqual([r["lower"] for r in mine["intervals"]],
                         [number(r["lower"]) for r in theirs["intervals"]])
        for bad in (2**64, -1, 1.5):
            self.assertIn("seed must be an integer in [0, 2^64)",
                          module_error(privbench.audit, members, non, seed=bad))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(os.fsencode(d), b"s\xff.csv")
            with open(path, "wb") as f:
                f.write(b"0.5\n1.5\n")
            a = privbench.audit(path, non, methods=["clopper_pearson"])
            self.assertEqual(a["auc"], privbench.audit([0.5, 1.5], non,
                                                       methods=["clopper_pearson"])["auc"])
            e = module_error(privbench.audit, os.path.join(os.fsencode(d), b"n\xff.txt"), non)
            self.assertIn("member_scores_path '%s/n\\xff.txt': cannot read it" % d, e)
            with open(os.path.join(d, "secret.dat"), "w") as f:
                f.write("1\n2\n")
            e = module_error(privbench.audit, os.path.join(d, "secret.dat\x00.csv"), non)
            self.assertIn("member_scores_path must not contain a NUL byte", e)


def cli_rows(rows):
    """A CLI answer's verdict rows with "inf" e-values as floats."""
    return [dict(r, e_value=number(r["e_value"])) for r in rows]


class SequentialAudit(unittest.TestCase):
    """privbench.sequential_audit against epsilon_cli's sequential_audit op."""

    def rounds(self, n=400, seed=9):
        rng = np.random.default_rng(seed)
        truths = rng.integers(0, 2, n)
        guesses = np.where(rng.random(n) < 0.8, truths, 1 - truths)
        scores = truths + rng.normal(0.0, 0.7, n)
        return truths, guesses, scores

    def same(self, mine, theirs):
        self.assertNotIn("error", theirs)
        theirs = dict(theirs)
        theirs.pop("id", None)
        theirs["epsilons"] = cli_rows(theirs["epsilons"])
        theirs["mus"] = cli_rows(theirs["mus"])
        self.assertEqual(mine, theirs)

    def test_matches_the_cli_for_every_kind_of_round(self):
        truths, guesses, scores = self.rounds()
        grid = [0.0, 0.25, 0.5, 1.0]
        mine = privbench.sequential_audit(guesses=guesses, truths=truths, epsilons=grid,
                                          mus=[0.5, 1.0], delta=1e-3, alpha=0.1)
        (theirs,) = cli([{"op": "sequential_audit", "guesses": guesses.tolist(),
                          "truths": truths.tolist(), "epsilons": grid, "mus": [0.5, 1.0],
                          "delta": 1e-3, "alpha": 0.1}])
        self.same(mine, theirs)
        self.assertEqual(mine["rounds"], 400)
        self.assertIsNotNone(mine["largest_rejected_epsilon"])
        mine = privbench.sequential_audit(scores=scores, truths=truths, threshold=0.5)
        (theirs,) = cli([{"op": "sequential_audit", "scores": scores.tolist(),
                          "truths": truths.tolist(), "threshold": 0.5}])
        self.same(mine, theirs)
        self.assertEqual(len(mine["epsilons"]), 101)  # the default grid
        members, nonmembers = scores[truths == 1][:100], scores[truths == 0][:100]
        mine = privbench.sequential_audit(member_scores=members, nonmember_scores=nonmembers,
                                          threshold=0.5, mus=[1.0])
        (theirs,) = cli([{"op": "sequential_audit", "member_scores": members.tolist(),
                          "nonmember_scores": nonmembers.tolist(), "threshold": 0.5,
                          "mus": [1.0]}])
        self.same(mine, theirs)
        self.assertEqual(mine["pair_rounds"], 100)

    def test_state_continues_the_audit_in_both(self):
        truths, guesses, _ = self.rounds()
        whole = privbench.sequential_audit(guesses=guesses, truths=truths, alpha=0.01)
        first = privbench.sequential_audit(guesses=guesses[:150], truths=truths[:150],
                                           alpha=0.01)
        second = privbench.sequential_audit(guesses=guesses[150:], truths=truths[150:],
                                            state=first["state"])
        self.assertEqual(second, whole)
        (theirs,) = cli([{"op": "sequential_audit", "state": first["state"],
                          "guesses": guesses[150:].tolist(), "truths": truths[150:].tolist()}])
        self.same(second, theirs)
        # bool arrays are guesses too
        self.assertEqual(privbench.sequential_audit(guesses=guesses.astype(bool),
                                                    truths=truths.astype(bool), alpha=0.01),
                         whole)

    def test_errors_are_the_clis(self):
        cases = [
            (dict(guesses=[1, 0], truths=[1, 2]), {"guesses": [1, 0], "truths": [1, 2]}),
            (dict(mus=[0.0]), {"mus": [0.0]}),
            (dict(epsilons=[1.0, 0.5]), {"epsilons": [1.0, 0.5]}),
            (dict(epsilons=[]), {"epsilons": []}),
            (dict(alpha=1.0), {"alpha": 1.0}),
            (dict(delta=-0.5), {"delta": -0.5}),
            (dict(scores=[0.5], truths=[1]), {"scores": [0.5], "truths": [1]}),
            (dict(guesses=[1], scores=[0.5], truths=[1]),
             {"guesses": [1], "scores": [0.5], "truths": [1]}),
            (dict(state="nope"), {"state": "nope"}),
        ]
        for kwargs, fields in cases:
            (want,) = cli([dict(fields, op="sequential_audit")])
            self.assertIn("error", want, fields)
            self.assertEqual(module_error(privbench.sequential_audit, **kwargs), want["error"])
        # What JSON cannot carry: NaN scores, non-integers, shapes.
        self.assertEqual(module_error(privbench.sequential_audit, scores=[0.1, float("nan")],
                                      truths=[1, 0], threshold=0.0),
                         "scores[1] must not be NaN")
        self.assertIn("truths must be an integer",
                      module_error(privbench.sequential_audit, guesses=[1], truths=[0.5]))
        self.assertIn("guesses must be a 1-D array",
                      module_error(privbench.sequential_audit, guesses=[[1]], truths=[1]))
        self.assertIn("state must be a string",
                      module_error(privbench.sequential_audit, state=3))


def _roc_counts(m, n):
    """(tp, fp) at every distinct threshold, thresholds decreasing, from
    (0, 0) (threshold +inf) to (P, N): NumPy, written for the tests."""
    t = np.concatenate(([np.inf], np.unique(np.concatenate((m, n)))[::-1]))
    tp = np.array([(m >= x).sum() for x in t])
    fp = np.array([(n >= x).sum() for x in t])
    return t, tp, fp


def _hull(tp, fp):
    """Indices of the ROC's upper convex hull in (fp, tp) (collinear points
    dropped): jax-privacy's iterative rule, written again."""
    idx = np.arange(len(tp))
    while len(idx) > 2:
        x, y = fp[idx].astype(float), tp[idx].astype(float)
        dx, dy = np.diff(x), np.diff(y)
        cross = dx[:-1] * dy[1:] - dy[:-1] * dx[1:]  # >= 0: the middle point is not above
        drop = cross >= 0
        if not drop.any():
            break
        idx = idx[np.r_[True, ~drop, True]]
    return idx


def _scipy():
    import scipy.stats
    import scipy.optimize
    return scipy


class ScoreMetrics(unittest.TestCase):
    """auc, tpr_at_fpr, max_accuracy, raw_count_epsilon, one_run_epsilon,
    multi_split and bootstrap_ci against NumPy/SciPy computations written
    here from their definitions (score_metrics.h, one_run_scores.h,
    resampling.h)."""

    def data(self, seed=0, n=300, grid=0.0):
        rng = np.random.default_rng(seed)
        m, nm = rng.normal(1.0, 1.0, n), rng.normal(0.0, 1.0, n + 17)
        if grid:
            m, nm = np.round(m / grid) * grid, np.round(nm / grid) * grid
        return m, nm

    def test_auc_both_conventions(self):
        for seed, grid in ((0, 0.0), (1, 0.25)):
            m, n = self.data(seed, grid=grid)
            mw = ((m[:, None] > n[None, :]).sum() + 0.5 * (m[:, None] == n[None, :]).sum())
            mw /= m.size * n.size
            self.assertAlmostEqual(privbench.auc(m, n), mw, places=14)
            self.assertEqual(privbench.auc(m, n), privbench.audit(m, n, methods="clopper_pearson",
                                                                  selections="bonferroni")["auc"])
            _, tp, fp = _roc_counts(m, n)
            h = _hull(tp, fp)
            area = np.sum(np.diff(fp[h]) * (tp[h][1:] + tp[h][:-1]) / 2) / (m.size * n.size)
            self.assertAlmostEqual(privbench.auc(m, n, convention="hull"), area, places=14)
            self.assertGreaterEqual(privbench.auc(m, n, "hull"), privbench.auc(m, n))
        # jax-privacy's documented example: AUROC 0.595.
        self.assertAlmostEqual(privbench.auc(np.arange(100) + 9.5, np.arange(100), "hull"), 0.595,
                               places=14)
        self.assertIn("convention must be", module_error(privbench.auc, [1], [2], "roc"))

    def test_tpr_at_fpr_interpolates_the_hull(self):
        m, n = self.data(2, grid=0.1)
        _, tp, fp = _roc_counts(m, n)
        h = _hull(tp, fp)
        fprs = np.array([0.0, 0.001, 0.01, 0.1, 0.5, 1.0])
        want = np.interp(fprs * n.size, fp[h], tp[h]) / m.size
        got = privbench.tpr_at_fpr(m, n, fprs)
        self.assertEqual(got.shape, (6,))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-14)
        self.assertIsInstance(privbench.tpr_at_fpr(m, n, 0.1), float)
        self.assertEqual(privbench.tpr_at_fpr(m, n, [[0.1, 0.2]]).shape, (1, 2))
        self.assertEqual(module_error(privbench.tpr_at_fpr, m, n, [0.1, 1.5]),
                         "fpr must be in [0, 1], got 1.5 (at index 1)")

    def test_max_accuracy_and_its_upper_bound(self):
        sp = _scipy()
        m, n = self.data(3, n=200, grid=0.2)
        _, tp, fp = _roc_counts(m, n)
        P, N = m.size, n.size
        for prevalence in (None, 0.3):
            pi = P / (P + N) if prevalence is None else prevalence
            tn = N - fp
            acc = np.max(pi * tp / P + (1 - pi) * tn / N)

            def cp(k, total):
                return np.where(k < total, sp.stats.beta.ppf(1 - 0.025, k + 1, total - k), 1.0)

            upper = np.max(pi * cp(tp, P) + (1 - pi) * cp(tn, N))
            got = privbench.max_accuracy(m, n, prevalence=prevalence, alpha=0.05)
            self.assertAlmostEqual(got["accuracy"], acc, places=14)
            self.assertAlmostEqual(got["upper"], upper, places=9)
            self.assertEqual(got["prevalence"], pi)
            self.assertIsNone(privbench.max_accuracy(m, n, prevalence)["upper"])
        self.assertIn("prevalence", module_error(privbench.max_accuracy, m, n, prevalence=2))
        self.assertIn("alpha", module_error(privbench.max_accuracy, m, n, alpha=0))

    def test_raw_count_epsilon_is_the_definition(self):
        m, n = self.data(4, n=400, grid=0.05)
        _, tp, fp = _roc_counts(m, n)
        P, N = m.size, n.size
        for min_count in (1, 10, 50):
            for delta in (0.0, 1e-3):
                # Every ROC point with >= min_count false positives, and the
                # hull's point at exactly min_count.
                h = _hull(tp, fp)
                t_min = np.interp(min_count, fp[h], tp[h]) / P
                cands = [(t_min, min_count / N)]
                cands += [(a / P, b / N) for a, b in zip(tp, fp) if b >= min_count]
                want = max([0.0] + [np.log(t - delta) - np.log(f) for t, f in cands if t > delta])
                got = privbench.raw_count_epsilon(m, n, min_count=min_count, delta=delta)
                self.assertAlmostEqual(got, want, places=12, msg=(min_count, delta))
        self.assertIn("min_count", module_error(privbench.raw_count_epsilon, m, n, min_count=0))
        self.assertIn("one_sided must be True or False",
                      module_error(privbench.raw_count_epsilon, m, n, one_sided="no"))

    def test_one_run_at_a_fixed_threshold_is_steinke_et_al(self):
        sp = _scipy()
        m, n = self.data(5, n=150)
        m = m + 1.5
        t = 1.8
        r, v = int((m >= t).sum() + (n >= t).sum()), int((m >= t).sum())
        total = m.size + n.size

        def p_value(eps, delta):  # Steinke, Nasr & Jagielski 2023, Thm 3.1
            q = sp.special.expit(eps)
            f = sp.stats.binom.sf(v - 1, r, q)
            i = np.arange(1, v + 1)
            term = np.max((sp.stats.binom.sf(v - i - 1, r, q) - f) / i)
            return min(f + 2 * total * delta * term, 1.0)

        for delta in (0.0, 1e-6):
            want = sp.optimize.brentq(lambda e: 0.05 - p_value(e, delta), 0.0, 20.0, xtol=1e-12)
            got = privbench.one_run_epsilon(m, n, alpha=0.05, delta=delta, threshold=t)
            self.assertEqual((got["m"], got["r"], got["v"]), (total, r, v))
            self.assertAlmostEqual(got["eps_lower"], want, places=7)
            self.assertEqual(got["bonferroni_k"], 1)
        best = privbench.one_run_epsilon(m, n, alpha=0.05)
        self.assertEqual(best["bonferroni_k"], total)
        self.assertEqual(best["level_alpha"], 0.05 / total)
        self.assertTrue(best["valid_confidence_statement"])
        self.assertGreater(best["eps_lower"], 0.5)
        g = privbench.one_run_epsilon(m, n, method="one_run_gaussian_dp")
        self.assertIsNone(g["eps_lower"])
        self.assertGreater(g["mu_lower"], 0.5)
        self.assertGreater(privbench.one_run_epsilon(m, n, delta=1e-5,
                                                     method="one_run_gaussian_dp")["eps_lower"], 0)
        self.assertIn("method must be", module_error(privbench.one_run_epsilon, m, n,
                                                     method="steinke"))
        self.assertEqual(module_error(privbench.one_run_epsilon, [1.0, float("nan")], n),
                         "member_scores[1] must be finite, got nan")

    def test_multi_split(self):
        m, n = self.data(6, n=200)
        m = m + 1.0
        a = privbench.multi_split(m, n, "one_run", alpha=0.1, num_splits=11, seed=3)
        self.assertEqual(a, privbench.multi_split(m, n, "one_run", alpha=0.1, num_splits=11,
                                                  seed=3))
        self.assertEqual(a["level_alpha"], 0.05)
        self.assertEqual(a["bound"], float(np.median(a["split_bounds"])))
        self.assertEqual(a["quantity"], "eps")
        self.assertGreater(a["bound"], 0)
        g = privbench.multi_split(m, n, "gaussian_dp", delta=1e-5, num_splits=4)
        self.assertEqual(g["quantity"], "mu")
        self.assertEqual(g["bound"], float(np.median(g["split_bounds"])))
        self.assertGreater(g["eps_lower"], 0)
        c = privbench.multi_split(m, n, "clopper_pearson", num_splits=3)
        self.assertEqual(len(c["split_bounds"]), 3)
        self.assertIn("bound", module_error(privbench.multi_split, m, n, "nope"))
        self.assertIn("num_splits", module_error(privbench.multi_split, m, n, num_splits=0))

    def test_bootstrap_ci(self):
        sp = _scipy()
        m, n = self.data(7, n=60)
        kw = dict(num_samples=300, seed=11)
        one = privbench.bootstrap_ci("auc_hull", m, n, **kw)
        three = privbench.bootstrap_ci("auc_hull", m, n, threads=3, **kw)
        self.assertEqual(one["replicates"].tobytes(), three["replicates"].tobytes())
        self.assertEqual((one["lower"], one["upper"]), (three["lower"], three["upper"]))
        self.assertEqual(one["estimate"], privbench.auc(m, n, "hull"))
        reps = one["replicates"]
        # BC levels (jax-privacy's formula) and the linear quantiles at them.
        z0 = sp.stats.norm.ppf((np.sum(reps < one["estimate"]) + 1) / (300 + 2))
        levels = sp.stats.norm.cdf(z0 + (z0 + sp.stats.norm.ppf([0.025, 0.975])))
        np.testing.assert_allclose(one["levels"], levels, atol=1e-12)
        np.testing.assert_allclose([one["lower"], one["upper"]],
                                   np.quantile(reps, levels), atol=1e-12)
        pct = privbench.bootstrap_ci("tpr_at_fpr", m, n, bias_correction=False, fpr=0.1,
                                     quantiles=[0.1, 0.5, 0.9], **kw)
        np.testing.assert_allclose(pct["values"], np.quantile(pct["replicates"], [0.1, 0.5, 0.9]),
                                   atol=1e-12)
        bca = privbench.bootstrap_ci("raw_count_epsilon", m, n, acceleration=True, min_count=5,
                                     **kw)
        self.assertNotEqual(bca["acceleration"], 0.0)
        self.assertLessEqual(bca["lower"], bca["upper"])
        self.assertIn("unknown parameter 'fpr_level'",
                      module_error(privbench.bootstrap_ci, "auc_hull", m, n, fpr_level=0.1))
        self.assertIn("metric must be one of",
                      module_error(privbench.bootstrap_ci, "auc", m, n))
        self.assertIn("confidence", module_error(privbench.bootstrap_ci, "auc_hull", m, n,
                                                 confidence=1.0))
        self.assertEqual(privbench.score_metrics(), ["auc_mann_whitney", "auc_hull", "tpr_at_fpr",
                                                     "max_accuracy", "raw_count_epsilon"])

    def test_score_files_are_read_like_audits(self):
        m, n = self.data(8, n=50)
        with tempfile.TemporaryDirectory() as d:
            np.save(os.path.join(d, "m.npy"), m)
            np.save(os.path.join(d, "n.npy"), n)
            self.assertEqual(privbench.auc(os.path.join(d, "m.npy"), os.path.join(d, "n.npy")),
                             privbench.auc(m, n))


class ScoreFeaturesAgreeWithCli(unittest.TestCase):
    """auc, tpr_at_fpr, max_accuracy, raw_count_epsilon, one_run_epsilon,
    multi_split, bootstrap_ci and audit(selections="multi_split") against
    epsilon_cli's score_metrics, one_run_scores, multi_split, bootstrap and
    audit_scores ops on the same inputs: equal to the last bit, the same
    error messages."""

    def data(self, seed, n=150, shift=1.5, grid=0.0):
        rng = np.random.default_rng(seed)
        m, nm = rng.normal(shift, 1.0, n), rng.normal(0.0, 1.0, n + 11)
        if grid:
            m, nm = np.round(m / grid) * grid, np.round(nm / grid) * grid
        return m, nm

    def request(self, op, m, n, **fields):
        (answer,) = cli([dict(op=op, member_scores=m.tolist(), nonmember_scores=n.tolist(),
                              **fields)])
        del answer["id"]
        return answer

    def test_score_metrics(self):
        for seed, grid in ((20, 0.0), (21, 0.25)):
            m, n = self.data(seed, grid=grid)
            fprs = [0.0, 0.001, 0.01, 0.1, 0.5, 1.0]
            for alpha, prevalence, min_count, delta, one_sided in (
                    (None, None, 50, 0.0, True), (0.05, 0.3, 5, 1e-3, False)):
                fields = dict(fprs=fprs, min_count=min_count, delta=delta, one_sided=one_sided)
                if alpha is not None:
                    fields["alpha"] = alpha
                if prevalence is not None:
                    fields["prevalence"] = prevalence
                want = self.request("score_metrics", m, n, **fields)
                self.assertEqual(privbench.auc(m, n), want["auc_mann_whitney"])
                self.assertEqual(privbench.auc(m, n, "hull"), want["auc_hull"])
                self.assertEqual(privbench.tpr_at_fpr(m, n, fprs).tolist(),
                                 [r["tpr"] for r in want["tpr_at_fpr"]])
                got = privbench.max_accuracy(m, n, prevalence=prevalence, alpha=alpha)
                theirs = want["max_accuracy"]
                for key in ("point", "upper_point"):
                    if theirs[key] is not None:
                        theirs[key]["threshold"] = number(theirs[key]["threshold"])
                self.assertEqual(got, theirs)
                self.assertEqual(privbench.raw_count_epsilon(m, n, min_count=min_count,
                                                             delta=delta, one_sided=one_sided),
                                 want["raw_count_epsilon"])

    def test_one_run_epsilon(self):
        m, n = self.data(22, n=120, shift=2.0)
        for method in ("one_run", "one_run_fdp", "one_run_gaussian_dp"):
            for delta in (0.0, 1e-5):
                for threshold in (None, 1.5):
                    kw = dict(alpha=0.05, delta=delta, method=method)
                    if threshold is not None:
                        kw["threshold"] = threshold
                    got = privbench.one_run_epsilon(m, n, **kw)
                    want = self.request("one_run_scores", m, n, **kw)
                    want["threshold"] = number(want["threshold"])
                    self.assertEqual(got, want, (method, delta, threshold))

    def test_multi_split(self):
        m, n = self.data(23, n=100, shift=2.0)
        for bound, delta in (("one_run", 0.0), ("gaussian_dp", 1e-5), ("clopper_pearson", 1e-5),
                             ("one_run_gaussian_dp", 0.0)):
            kw = dict(bound=bound, alpha=0.1, delta=delta, num_splits=5, seed=7)
            self.assertEqual(privbench.multi_split(m, n, **kw),
                             self.request("multi_split", m, n, **kw), bound)

    def test_bootstrap_ci(self):
        m, n = self.data(24, n=40)
        for metric, kw in (("auc_mann_whitney", {}), ("auc_hull", dict(acceleration=True)),
                           ("tpr_at_fpr", dict(fpr=0.1, bias_correction=False,
                                               quantiles=[0.1, 0.5, 0.9])),
                           ("max_accuracy", dict(prevalence=0.4, confidence=0.9)),
                           ("raw_count_epsilon", dict(min_count=3, delta=1e-3,
                                                      one_sided=False))):
            kw = dict(kw, num_samples=150, seed=5)
            got = privbench.bootstrap_ci(metric, m, n, **kw)
            want = self.request("bootstrap", m, n, metric=metric, **kw)
            del got["replicates"]  # the CLI does not return them
            self.assertEqual(got, want, metric)

    def test_audit_multi_split(self):
        m, n = self.data(25, n=60)
        kw = dict(alpha=0.1, delta=1e-5, seed=3, methods=["clopper_pearson", "jeffreys"],
                  selections=["split", "multi_split"], multi_split_count=9)
        a = privbench.audit(m, n, **kw)
        want = self.request("audit_scores", m, n, **kw)
        self.assertEqual([r["selection"] for r in a["intervals"]],
                         ["split", "split", "multi_split", "multi_split"])
        for r, w in zip(a["intervals"] + a["gaussian_dp"],
                        want["intervals"] + want["gaussian_dp"]):
            for key in ("lower", "upper", "mu_lower", "eps_lower", "threshold", "level_alpha",
                        "thresholds_considered", "note"):
                if key in w:
                    self.assertEqual(r[key], number(w[key]) if w[key] is not None else None, key)
            self.assertEqual([r[k] for k in ("tp", "fn", "fp", "tn")],
                             [w["counts"][k] for k in ("tp", "fn", "fp", "tn")])
        row = a.intervals_for("multi_split")[0]
        self.assertEqual(row["level_alpha"], 0.05)
        self.assertTrue(row["valid_confidence_statement"])
        # The median of the per-split bounds multi_split() reports.
        same = privbench.multi_split(m, n, "clopper_pearson", alpha=0.1, delta=1e-5,
                                     num_splits=9, seed=3)
        self.assertEqual(row["lower"], same["bound"])
        self.assertEqual(row["lower"], float(np.median(same["split_bounds"])))
        self.assertIn("median of the splits' bounds", repr(a))
        self.assertNotIn("multi_split", [r["selection"] for r in privbench.audit(
            m, n, methods="clopper_pearson")["intervals"]])
        for bad in (0, 100001):
            self.assertEqual(module_error(privbench.audit, m, n, selections="multi_split",
                                          multi_split_count=bad),
                             self.request("audit_scores", m, n, alpha=0.05, delta=0.0,
                                          selections=["multi_split"],
                                          multi_split_count=bad)["error"])
        self.assertIn("multi_split_count must be an integer",
                      module_error(privbench.audit, m, n, multi_split_count=1.5))

    def test_same_errors(self):
        m, n = self.data(26, n=30)
        cases = [
            (privbench.one_run_epsilon, dict(method="steinke"), "one_run_scores",
             dict(alpha=0.05, delta=0.0, method="steinke")),
            (privbench.multi_split, dict(bound="nope"), "multi_split",
             dict(bound="nope", alpha=0.05, delta=0.0)),
            (privbench.multi_split, dict(num_splits=0), "multi_split",
             dict(bound="one_run", alpha=0.05, delta=0.0, num_splits=0)),
            (privbench.max_accuracy, dict(prevalence=2.0), "score_metrics",
             dict(prevalence=2.0)),
            (privbench.raw_count_epsilon, dict(min_count=0), "score_metrics",
             dict(min_count=0)),
        ]
        for f, kw, op, fields in cases:
            self.assertEqual(module_error(f, m, n, **kw), self.request(op, m, n, **fields)["error"],
                             (op, fields))
        for metric, kw in (("auc", {}), ("auc_hull", dict(num_samples=0)),
                           ("auc_hull", dict(bias_correction=False, acceleration=True)),
                           ("tpr_at_fpr", dict(fpr=2.0))):
            self.assertEqual(module_error(privbench.bootstrap_ci, metric, m, n, **kw),
                             self.request("bootstrap", m, n, metric=metric, **kw)["error"],
                             (metric, kw))


if __name__ == "__main__":
    CLI, FIXTURE = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0]], verbosity=2)
