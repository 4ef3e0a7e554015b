"""privbench's score auditor side by side with jax_privacy's CanaryScoreAuditor
(anchors/jax_privacy/README.md).

Same arrays for both: member scores N(mu, 1), non-member scores N(0, 1), one
seeded draw (numpy default_rng(seed)) per size, n scores a side. For every
quantity that both libraries compute (README, "What matches what") it times
privbench.audit (one selection, one method per call) and the jax_privacy
call(s) giving the same number, checks |difference| <= 1e-9, and prints

  quantity, n, privbench s, jax_privacy s, pb/jax (privbench s / jax_privacy s), agree

Times: median of --repeats runs after one warm-up call, CPU time of the
process (time.process_time; both sides single-threaded: the thread
variables below are set before NumPy is imported), wall time alongside.
jax_privacy.auditing is NumPy/SciPy code and calls no JAX function, so there
is no JIT compile to separate; the script reports the import time and the
first (cold) call instead, and checks that no jitted computation ran
(jax's compile counter stays 0).

Run (anchors/jax_privacy/setup.sh first):
  nice -n 10 .venv-anchors/jax_privacy/bin/python anchors/jax_privacy/side_by_side.py
  ... --sizes=10000 --repeats=1      # smoke run (a few seconds)
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("XLA_FLAGS",
                      "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import argparse  # noqa: E402
import gc  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.stats  # noqa: E402

_t0 = time.perf_counter()
import jax  # noqa: E402
_t_jax_import = time.perf_counter() - _t0
_t0 = time.perf_counter()
from jax_privacy import auditing  # noqa: E402
_t_jp_import = time.perf_counter() - _t0
import jax_privacy  # noqa: E402
import jaxlib  # noqa: E402
import privbench  # noqa: E402

TOL = 1e-9


def _version(dist):
    try:
        import importlib.metadata
        return importlib.metadata.version(dist)
    except Exception:  # not installed as a distribution (e.g. PYTHONPATH)
        return "?"


def timed(fn, repeats):
    """(value, cold wall s, median CPU s, median wall s): one warm-up call, then repeats."""
    t = time.perf_counter()
    value = fn()
    cold = time.perf_counter() - t
    cpu, wall = [], []
    for _ in range(repeats):
        v = None  # the previous result is freed outside the timed region
        c, w = time.process_time(), time.perf_counter()
        v = fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        if isinstance(v, float) and not (v == value or (math.isnan(v) and math.isnan(value))):
            raise RuntimeError("non-deterministic result: %r vs %r" % (v, value))
    return value, cold, statistics.median(cpu), statistics.median(wall)


def pb_audit(member, nonmember, args, selection, **kw):
    return privbench.audit(member, nonmember, alpha=args.alpha, delta=args.delta, seed=args.seed,
                           selections=selection, methods="clopper_pearson_one_sided", **kw)


def pb_cp(audit, selection):
    (row,) = [r for r in audit["intervals"] if r["selection"] == selection]
    return row


def pb_gdp(audit, selection):
    (row,) = [g for g in audit["gaussian_dp"] if g["selection"] == selection]
    return row


def exhaustive_cp_max(member, nonmember, level, delta):
    """Reference: the largest clopper_pearson_one_sided lower end at `level` over EVERY
    distinct threshold (both directions of the test, as privbench's EpsFromRates below the
    band and jax_privacy's one_sided=False), NumPy/SciPy, vectorised."""
    ms, ns = np.sort(member), np.sort(nonmember)
    thr = np.concatenate((np.union1d(ms, ns), [np.inf]))
    fn = np.searchsorted(ms, thr, side="left")
    tn = np.searchsorted(ns, thr, side="left")
    p, n = len(ms), len(ns)
    fp = n - tn
    up = lambda k, m: np.where(k < m, scipy.stats.beta.ppf(1 - level / 2, k + 1, m - k), 1.0)
    fnr_u, fpr_u = up(fn, p), up(fp, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        e1 = np.log(1 - delta - fnr_u) - np.log(fpr_u)
        e2 = np.log(1 - delta - fpr_u) - np.log(fnr_u)
    e = np.nanmax(np.maximum(np.nan_to_num(e1, nan=-np.inf), np.nan_to_num(e2, nan=-np.inf)))
    return max(0.0, float(e)), len(thr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000,1000000", help="scores per side")
    ap.add_argument("--mu", type=float, default=1.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--delta", type=float, default=1e-5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--privbench_cpp", default="",
                    help="path of a built //estimators/score_audit:score_audit_benchmark, run "
                         "for the C++ time alone (same sizes, alpha, delta and mu as its defaults)")
    ap.add_argument("--no_reference", action="store_true",
                    help="skip the exhaustive NumPy reference maximum")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    print("privbench vs jax_privacy score auditing (anchors/jax_privacy/README.md)")
    print("date %s  commit %s  host %s  nproc %d" % (
        time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), commit or "?", platform.node(),
        os.cpu_count()))
    print("uptime (start):", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print("python %s; numpy %s, scipy %s, jax %s, jaxlib %s, jax-privacy %s, privbench %s (%s)" % (
        platform.python_version(), np.__version__, scipy.__version__, jax.__version__,
        jaxlib.__version__, _version("jax-privacy"), _version("privbench"), os.path.dirname(privbench.__file__)))
    print("jax devices %s; import jax %.2f s, import jax_privacy.auditing %.2f s (after jax)" % (
        jax.devices(), _t_jax_import, _t_jp_import))
    print("N(%g, 1) vs N(0, 1), alpha %g, delta %g, seed %d; times: median of %d after a warm-up "
          "call, process CPU s (wall s in the detail lines); one thread each" % (
              args.mu, args.alpha, args.delta, args.seed, args.repeats))
    print()

    rows, details, others, breakdown = [], [], [], []
    for n in sizes:
        rng = np.random.default_rng([args.seed, n])
        member = rng.normal(args.mu, 1.0, n)
        nonmember = rng.normal(0.0, 1.0, n)
        K = 2 * n + 1  # privbench's bonferroni_all K (P + N + 1)

        def jp_aud():
            return auditing.CanaryScoreAuditor(member, nonmember)

        H = len(jp_aud()._fn_counts)  # jax_privacy's Bonferroni count (ROC hull vertices)

        # 1. Clopper-Pearson at one threshold fixed in advance (t = mu / 2), level alpha.
        t = args.mu / 2
        (pa, pc, pt, pw) = timed(lambda: pb_audit(member, nonmember, args, "bonferroni",
                                                  bonferroni_grid=[t]), args.repeats)
        (jv, jc, jt, jw) = timed(lambda: jp_aud().epsilon_clopper_pearson(
            args.alpha, args.delta, one_sided=False,
            threshold_strategy=auditing.Explicit(t)), args.repeats)
        rows.append(("cp@t=mu/2 (fixed)", n, pt, jt, pb_cp(pa, "bonferroni")["lower"], float(jv)))
        details.append((rows[-1][0], n, pc, pw, jc, jw))

        # 2. Clopper-Pearson, max over thresholds at level alpha (NOT valid; jax_privacy's
        #    private _epsilon_clopper_pearson_all_thresholds, its ROC-hull vertices).
        (pa, pc, pt, pw) = timed(lambda: pb_audit(member, nonmember, args, "max_over_thresholds"),
                                 args.repeats)
        (jv, jc, jt, jw) = timed(lambda: jp_aud()._epsilon_clopper_pearson_all_thresholds(
            args.alpha, args.delta, False, None)[0], args.repeats)
        r = pb_cp(pa, "max_over_thresholds")
        rows.append(("cp max_over_thresholds", n, pt, jt, r["lower"], float(jv)))
        details.append((rows[-1][0], n, pc, pw, jc, jw, "privbench considered %d thresholds%s" % (
            r["thresholds_considered"], "; " + r["note"] if r["note"] else "")))
        pb_max = pa

        # 3. Clopper-Pearson, Bonferroni over every threshold: level alpha / K, K = 2n + 1
        #    (privbench bonferroni_all; jax_privacy Bonferroni() divides by H, so it is given
        #    significance alpha * H / K).
        (pa, pc, pt, pw) = timed(lambda: pb_audit(member, nonmember, args, "bonferroni_all"),
                                 args.repeats)
        (jv, jc, jt, jw) = timed(lambda: jp_aud().epsilon_clopper_pearson(
            args.alpha * H / K, args.delta, one_sided=False,
            threshold_strategy=auditing.Bonferroni()), args.repeats)
        r = pb_cp(pa, "bonferroni_all")
        rows.append(("cp bonferroni_all (a/K)", n, pt, jt, r["lower"], float(jv)))
        details.append((rows[-1][0], n, pc, pw, jc, jw, "privbench considered %d, level %.3g%s" % (
            r["thresholds_considered"], r["level_alpha"], "; " + r["note"] if r["note"] else "")))
        # Where privbench's Python call spends its time: the same call with Python's cyclic
        # GC off (the result holds the whole ROC as 2n + 1 Python tuples).
        gc.disable()
        try:
            (_, _, pt_nogc, _) = timed(lambda: pb_audit(member, nonmember, args, "bonferroni_all"),
                                       args.repeats)
        finally:
            gc.enable()
        breakdown.append((n, pt, pt_nogc, len(pa["roc"])))

        # 4. Gaussian-DP eps(delta), Bonferroni over every threshold (privbench's gaussian_dp
        #    row of the same bonferroni_all call; jax_privacy epsilon_from_gdp, which divides by
        #    2H, given alpha * H / K; eps_tol 1e-12 instead of its default 1e-6).
        g = pb_gdp(pa, "bonferroni_all")
        (jv, jc, jt2, jw2) = timed(lambda: jp_aud().epsilon_from_gdp(
            args.alpha * H / K, args.delta, eps_tol=1e-12), args.repeats)
        rows.append(("gdp eps bonferroni_all", n, pt, jt2, g["eps_lower"], float(jv)))
        details.append((rows[-1][0], n, pc, pw, jc, jw2,
                        "privbench time = the bonferroni_all call above (it returns both); "
                        "mu_lower %.12g" % g["mu_lower"]))

        # Computed by both but defined differently (no agreement expected): the split, and
        # each library's own valid Bonferroni.
        (pa, pc, pt, pw) = timed(lambda: pb_audit(member, nonmember, args, "split"), args.repeats)
        (jv, jc, jt, jw) = timed(lambda: jp_aud().epsilon_clopper_pearson(
            args.alpha, args.delta, one_sided=False,
            threshold_strategy=auditing.Split(0.5, args.seed)), args.repeats)
        rows.append(("cp split (own halves)", n, pt, jt, pb_cp(pa, "split")["lower"], float(jv),
                     "n/a"))
        details.append((rows[-1][0], n, pc, pw, jc, jw))
        (jv, jc, jt, jw) = timed(lambda: jp_aud().epsilon_clopper_pearson(
            args.alpha, args.delta, one_sided=False), args.repeats)
        (jg, _, _, _) = timed(lambda: jp_aud().epsilon_from_gdp(args.alpha, args.delta),
                              1)
        others.append((n, H, K, float(jv), jt, float(jg), pb_cp(pa, "split")["lower"],
                       pb_gdp(pa, "split")["eps_lower"], pb_gdp(pb_max, "max_over_thresholds")))
        if not args.no_reference:
            ref_a, nthr = exhaustive_cp_max(member, nonmember, args.alpha, args.delta)
            ref_k, _ = exhaustive_cp_max(member, nonmember, args.alpha / K, args.delta)
            details.append(("reference", n, "exhaustive NumPy max over all %d thresholds: "
                            "level alpha %.15g, level alpha/K %.15g" % (nthr, ref_a, ref_k)))
        sys.stdout.flush()

    print("%-26s %8s %12s %14s %9s  %s" % ("quantity", "n/side", "privbench s", "jax_privacy s",
                                         "pb/jax", "agree (privbench | jax_privacy | diff)"))
    for row in rows:
        name, n, pt, jt, pv, jv = row[:6]
        diff = abs(pv - jv) if pv is not None else float("nan")
        if len(row) > 6:
            agree = "n/a (different random halves)"
        else:
            agree = "yes" if diff <= TOL else "NO"
        print("%-26s %8d %12.4f %14.4f %9.2f  %s (%.12g | %.12g | %.2e)" % (
            name, n, pt, jt, pt / jt if jt > 0 else float("inf"), agree, pv, jv, diff))
    print()
    print("detail: cold (first) call wall s and median wall s")
    for d in details:
        if d[0] == "reference":
            print("  %-26s %8d  %s" % d)
            continue
        print("  %-26s %8d  privbench cold %.4f, median wall %.4f; jax_privacy cold %.4f, "
              "median wall %.4f%s" % (d[0], d[1], d[2], d[3], d[4], d[5],
                                      ("; " + d[6]) if len(d) > 6 else ""))
    print()
    print("each library's own choice (not the same quantity; for reading only):")
    for (n, H, K, jv, jt, jg, psplit, pgsplit, pgmax) in others:
        print("  n %d: jax_privacy Bonferroni() over its %d hull thresholds (level alpha/%d): "
              "cp %.6g, gdp eps %.6g (%.4f s cp); privbench K = %d; split: privbench cp %.6g, "
              "gdp %.6g; privbench gdp max_over_thresholds eps %.6g (mu %.6g)" % (
                  n, H, H, jv, jg, jt, K, psplit, pgsplit if pgsplit is not None else float("nan"),
                  pgmax["eps_lower"], pgmax["mu_lower"]))
    print()
    print("privbench's Python call, bonferroni_all: CPU s as timed / with gc disabled / ROC rows "
          "returned as Python tuples")
    for (n, pt, pt_nogc, nroc) in breakdown:
        print("  n %d: %.4f / %.4f / %d" % (n, pt, pt_nogc, nroc))
    if args.privbench_cpp:
        cmd = [args.privbench_cpp, "--n=" + args.sizes, "--repeats=%d" % args.repeats,
               "--tightness=false"]
        print()
        print("privbench's C++ AuditScores alone (%s; methods clopper_pearson + gaussian_dp, "
              "thread CPU s, median of %d):" % (" ".join(cmd), args.repeats))
        out = subprocess.run(cmd, capture_output=True, text=True)
        print("  " + (out.stdout + out.stderr).strip().replace("\n", "\n  "))
    print()
    print("uptime (end):", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print("jax compilations during the run: %d" % _jit_count())


def _jit_count():
    """How many XLA compilations jax has done in this process (0: no JAX computation ran)."""
    return _COMPILES[0] if _COMPILES[1] else -1


_COMPILES = [0, False]  # count, listener registered
try:
    from jax._src import monitoring as _mon

    def _on_event(event, duration_secs=None, **kw):
        if event.endswith("backend_compile_duration"):
            _COMPILES[0] += 1

    _mon.register_event_duration_secs_listener(
        lambda event, duration_secs, **kw: _on_event(event, duration_secs))
    _COMPILES[1] = True
except Exception:  # pragma: no cover
    pass


if __name__ == "__main__":
    main()
