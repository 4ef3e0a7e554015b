"""privbench's estimators from Python, on NumPy arrays.

Install into a virtual environment (README, "From Python"):

    /usr/bin/python3 -m venv --system-site-packages venv
    venv/bin/pip install ./python
    venv/bin/python -c "import privbench; print(privbench.interval_methods())"

or, without installing, from the Bazel build:

    bazel build //python:privbench
    export PYTHONPATH=$PWD/bazel-bin/python

Every function calls the C++ library through the extension module
_privbench (python/module.cc), with the same validating entry
points as epsilon_cli: the methods, their assumptions and the papers'
equations are documented with the library (estimators/interval_estimator.h,
estimators/eps_from_rates.h, estimators/intervals/katz_log.h,
estimators/loss_samples/epsilon_star_options.h,
estimators/accountants/accountant.h, estimators/sequential/sequential_audit.h).
Bad input raises ValueError whose
message names the argument (the library's own message where the library
checks it); no function returns NaN. The GIL is released while the library
computes.

Vectorised functions (interval, eps_from_rates, katz) broadcast their
numeric arguments against each other like NumPy does: all scalars give
Python floats, otherwise arrays of the broadcast shape. An error in one
element raises ValueError with that element's index.

Score metrics beyond audit() (estimators/score_audit/score_metrics.h,
one_run_scores.h, resampling.h): auc (Mann-Whitney or the ROC hull's),
tpr_at_fpr (randomised thresholds), max_accuracy (with an upper confidence
bound), raw_count_epsilon (an estimate, NOT a bound), one_run_epsilon (the
one-run audits), multi_split (the median of many splits' bounds) and
bootstrap_ci (BC/BCa bootstrap interval of a metric; score_metrics() names
them).

Results files: privbench.results (read_results, summary_tables, claims, meta).
"""
import math
import numbers
import os

import numpy as np

from . import _privbench as _ext
from . import results
from .results import claims, meta, read_results, summary_tables

__all__ = [
    "Audit",
    "accountant",
    "audit",
    "accountant_methods",
    "auc",
    "bootstrap_ci",
    "calibrate",
    "claims",
    "eps_from_rates",
    "epsilon_star",
    "epsilon_star_variants",
    "interval",
    "interval_method_info",
    "interval_methods",
    "katz",
    "loss_transforms",
    "max_accuracy",
    "meta",
    "multi_split",
    "one_run_epsilon",
    "raw_count_epsilon",
    "read_results",
    "results",
    "score_metrics",
    "sequential_audit",
    "summary_tables",
    "tpr_at_fpr",
]

_INT64_MAX = np.iinfo(np.int64).max
_EXACT_INT_LIMIT = 9e15  # integral floats accepted as integers, as epsilon_cli does


def interval_methods():
    """Registered interval estimators, in registry order."""
    return _ext.interval_methods()


def accountant_methods():
    """Registered DP-SGD accountants, in registry order."""
    return _ext.accountant_methods()


def epsilon_star_variants():
    """Registered loss-sample (Epsilon*) estimators, in registry order."""
    return _ext.epsilon_star_variants()


def loss_transforms():
    """Transforms the parametric Epsilon* accepts (option `transform`)."""
    return _ext.loss_transforms()


def interval_method_info(method):
    """{'one_sided', 'requires_zero_delta', 'description'} of a method."""
    return _ext.interval_method_info(_string("method", method))


def interval(method, tp, fn, fp, tn, delta, alpha, threads=1):
    """An eps interval at confidence 1 - alpha from confusion counts.

    Members: tp, fn; non-members: fp, tn. Returns (lower, upper); upper is
    None for one-sided methods (interval_method_info(method)['one_sided']),
    and may be inf. Counts, delta and alpha broadcast against each other.
    threads > 1 splits the elements over that many threads (the values do
    not change; worth it for the Bayesian methods, about 1 ms per interval).
    """
    method = _string("method", method)
    names = ("tp", "fn", "fp", "tn", "delta", "alpha")
    values = [_ints(n, v) for n, v in zip(names[:4], (tp, fn, fp, tn))]
    values += [_floats("delta", delta), _floats("alpha", alpha)]
    shape, flat = _broadcast(names, values)
    threads = _int("threads", threads)
    if not 1 <= threads <= 1024:
        raise ValueError("threads must be in [1, 1024], got %d" % threads)
    lower, upper, index, message = _ext.interval_batch(method, *flat, threads=threads)
    _raise_at(index, message, shape)
    return _shaped(lower, shape), (None if upper is None else _shaped(upper, shape))


def eps_from_rates(fnr, fpr, delta):
    """The smallest eps with (fnr, fpr) in the privacy region R(eps, delta)."""
    names = ("fnr", "fpr", "delta")
    shape, flat = _broadcast(names, [_floats(n, v) for n, v in zip(names, (fnr, fpr, delta))])
    eps, index, message = _ext.eps_from_rates_batch(*flat)
    _raise_at(index, message, shape)
    return _shaped(eps, shape)


def katz(n1, n0, n, alpha):
    """ML-Audit's Katz-log eps lower bound (delta = 0), n samples per side."""
    names = ("n1", "n0", "n")
    values = [_ints(nm, v) for nm, v in zip(names, (n1, n0, n))] + [_floats("alpha", alpha)]
    shape, flat = _broadcast(names + ("alpha",), values)
    lower, index, message = _ext.katz_batch(*flat)
    _raise_at(index, message, shape)
    return _shaped(lower, shape)


_EPSILON_STAR_OPTIONS = {
    "quantiles_per_distribution": lambda name, v: _int(name, v),
    "rate_floor": lambda name, v: _float(name, v),
    "rate_ceiling": lambda name, v: _float(name, v),
    "clip_lo": lambda name, v: _float(name, v),
    "clip_hi": lambda name, v: _float(name, v),
    "transform": lambda name, v: _string(name, v),
}


def epsilon_star(train_losses, population_losses, variant="parametric", delta=0.0, **options):
    """Epsilon* (Negoescu et al. 2024) from two 1-D arrays of losses.

    variant: any of epsilon_star_variants(). options (library defaults when
    omitted): quantiles_per_distribution, rate_floor, rate_ceiling (empirical),
    clip_lo, clip_hi, transform (parametric; any of loss_transforms()).
    float64 C-contiguous arrays are read in place.
    """
    kwargs = {}
    for key, value in options.items():
        if key not in _EPSILON_STAR_OPTIONS:
            raise ValueError("unknown option '%s' for epsilon_star (options: %s)"
                             % (key, ", ".join(_EPSILON_STAR_OPTIONS)))
        kwargs[key] = _EPSILON_STAR_OPTIONS[key](key, value)
    return _ext.epsilon_star(_sample("train_losses", train_losses),
                             _sample("population_losses", population_losses),
                             _string("variant", variant), _float("delta", delta), **kwargs)


def accountant(method, sigma, q, steps, delta, orders=None, with_order=False):
    """Upper bound on eps after `steps` steps of Poisson-sampled DP-SGD.

    orders: RDP orders (None: the library's default list). with_order=True
    returns (eps, order), order being the minimising RDP order (None for the
    non-RDP methods).
    """
    eps, order = _ext.accountant(_string("method", method), _float("sigma", sigma),
                                 _float("q", q), _int("steps", steps), _float("delta", delta),
                                 _orders(orders))
    return (eps, order) if with_order else eps


def calibrate(method, target_epsilon, q, steps, delta, orders=None):
    """The noise multiplier sigma at which accountant `method` gives target_epsilon."""
    return _ext.calibrate(_string("method", method), _float("target_epsilon", target_epsilon),
                          _float("q", q), _int("steps", steps), _float("delta", delta),
                          _orders(orders))


class Audit(dict):
    """The result of audit(): a dict (auc, roc, tpr_at_fpr, intervals,
    gaussian_dp, skipped_methods, bonferroni_grid, bonferroni_grid_source)
    with a readable repr. roc is a NumPy structured array, one row per
    threshold (fields threshold, tp, fn, fp, tn; thresholds descending). Rows of intervals and gaussian_dp carry their
    selection and valid_confidence_statement; max_over_thresholds rows are
    NOT valid confidence statements (the threshold is chosen on the same data).
    """

    def to_dict(self):
        """A plain dict of the same content (lists of row dicts; the ROC as a
        list of (threshold, tp, fn, fp, tn) tuples)."""
        out = dict(self)
        out["roc"] = self["roc"].tolist()
        return out

    def to_arrays(self):
        """The audit as a dict of NumPy arrays, one entry per column:
        roc_threshold, roc_tp, roc_fn, roc_fp, roc_tn, roc_tpr, roc_fpr (one
        row per ROC point, thresholds descending as in roc); interval_method,
        interval_selection, interval_lower, interval_upper, interval_threshold,
        interval_level_alpha, interval_valid (one row per interval); and
        gdp_selection, gdp_mu_lower, gdp_eps_lower (NaN where not reported:
        at delta = 0), gdp_valid."""
        roc = self["roc"]
        out = {"roc_" + k: np.ascontiguousarray(roc[k])
               for k in ("threshold", "tp", "fn", "fp", "tn")}
        positives = int(roc["tp"][0] + roc["fn"][0]) if len(roc) else 0
        negatives = int(roc["fp"][0] + roc["tn"][0]) if len(roc) else 0
        out["roc_tpr"] = out["roc_tp"] / positives if positives else out["roc_tp"] * 1.0
        out["roc_fpr"] = out["roc_fp"] / negatives if negatives else out["roc_fp"] * 1.0
        rows = self["intervals"]
        out["interval_method"] = np.array([r["method"] for r in rows], dtype=str)
        out["interval_selection"] = np.array([r["selection"] for r in rows], dtype=str)
        for key in ("lower", "upper", "threshold", "level_alpha"):
            out["interval_" + key] = np.array([r[key] for r in rows], dtype=float)
        out["interval_valid"] = np.array([r["valid_confidence_statement"] for r in rows],
                                         dtype=bool)
        gdp = self["gaussian_dp"]
        out["gdp_selection"] = np.array([g["selection"] for g in gdp], dtype=str)
        out["gdp_mu_lower"] = np.array([g["mu_lower"] for g in gdp], dtype=float)
        out["gdp_eps_lower"] = np.array(
            [np.nan if g["eps_lower"] is None else g["eps_lower"] for g in gdp], dtype=float)
        out["gdp_valid"] = np.array([g["valid_confidence_statement"] for g in gdp], dtype=bool)
        return out

    def to_frame(self):
        """The interval rows as a pandas DataFrame (pandas is not a
        dependency: ImportError naming it when it is missing)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("Audit.to_frame needs pandas; to_arrays() and to_dict() "
                              "do not") from e
        return pandas.DataFrame(self["intervals"])

    def plot_roc(self, ax=None, log_scale=True):
        """Draws the ROC (TPR against FPR; log-log by default, where the
        low-FPR region that bounds eps is visible) with the chance line on a
        matplotlib Axes (a new figure when ax is None) and returns the Axes."""
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:
            raise ImportError("Audit.plot_roc needs matplotlib") from e
        if ax is None:
            _, ax = plt.subplots(figsize=(4, 4))
        arrays = self.to_arrays()
        fpr, tpr = arrays["roc_fpr"], arrays["roc_tpr"]
        if log_scale:
            keep = (fpr > 0) & (tpr > 0)
            fpr, tpr = fpr[keep], tpr[keep]
            ax.set_xscale("log")
            ax.set_yscale("log")
        ax.step(fpr, tpr, where="post", label="AUC %.3f" % self["auc"])
        low = max(min(fpr.min(), tpr.min()) if len(fpr) else 1e-3, 1e-6) if log_scale else 0.0
        ax.plot([low, 1], [low, 1], color="grey", lw=0.8, ls=":", label="chance")
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
        ax.legend(loc="lower right", fontsize=8)
        return ax

    def intervals_for(self, selection):
        """The interval rows of one selection ("split", "bonferroni", "max_over_thresholds",
        "bonferroni_all", "multi_split")."""
        return [r for r in self["intervals"] if r["selection"] == selection]

    def __repr__(self):
        lines = ["privbench.Audit: AUC %.4f" % self["auc"]]
        for t in self["tpr_at_fpr"]:
            lines.append("  TPR at FPR <= %g: %.4f (%.4f, %.4f)"
                         % (t["max_fpr"], t["tpr"], t["tpr_lower"], t["tpr_upper"]))
        lines.append("  eps lower bounds (method, selection: lower, upper%s):"
                     % ("" if not self["skipped_methods"] else "; skipped: "
                        + ", ".join(m for m, _ in self["skipped_methods"])))
        for r in self["intervals"]:
            lines.append("    %-26s %-20s %.4f, %s%s" % (
                r["method"], r["selection"], r["lower"], "%.4f" % r["upper"], _row_label(r)))
        for g in self["gaussian_dp"]:
            eps = "n/a at delta = 0" if g["eps_lower"] is None else "%.4f" % g["eps_lower"]
            lines.append("    %-26s %-20s mu >= %.4f, eps >= %s%s" % (
                "gaussian_dp", g["selection"], g["mu_lower"], eps, _row_label(g)))
        return "\n".join(lines)


def _row_label(row):
    """What the repr adds to a row: that it is not a valid statement, or
    that it is the median of the multi_split splits (each at alpha / 2)."""
    if not row["valid_confidence_statement"]:
        return "  (NOT a valid confidence statement)"
    if row["selection"] == "multi_split":
        return "  (median of the splits' bounds at alpha/2 each)"
    return ""


def audit(member_scores, nonmember_scores, alpha=0.05, delta=0.0, seed=0, selections=None,
          bonferroni_grid=None, bonferroni_quantiles=16, methods=None, multi_split_count=100):
    """Audit your own model from its attack scores (higher = more likely a member).

    member_scores: one score per trial whose point was in the training set;
    nonmember_scores: one per trial whose point was not. Returns an Audit: the
    ROC and AUC, TPR at FPR 0.001, 0.01, 0.1 with Clopper-Pearson intervals,
    and for every applicable interval method (methods=None) and the
    Gaussian-DP bound the eps interval at confidence 1 - alpha under each
    selection: "split" (a seeded half chooses the threshold, the other half
    gives the interval), "bonferroni" (G thresholds fixed in advance: your
    bonferroni_grid, else bonferroni_quantiles quantiles of the selection
    half, each at alpha / G) and "max_over_thresholds" (NOT a valid
    confidence statement; kept for comparison); on request also
    "bonferroni_all" (every score a threshold, each interval at alpha / K
    with K = the number of scores + 1, on all the scores; Clopper-Pearson
    methods and the Gaussian-DP bound only, the others are listed in
    skipped_methods) and "multi_split" (MultiSplit, Meinshausen, Meier &
    Buhlmann 2009: the median over multi_split_count seeded splits of the
    "split" interval at alpha / 2 each, valid at alpha; the row's threshold
    and counts are those of the split whose lower end is the median, or the
    lower middle one for an even count, and its level_alpha is alpha / 2;
    multi_split_count times the work of "split"). See
    estimators/score_audit/score_audit.h for the assumptions.

    Either side may also be a path (str, bytes or os.PathLike) to a score
    file, read as epsilon_cli reads its *_path fields: .npy (1-D
    float64/float32), .csv/.txt (one number per line), one named column of a
    CSV with a header ("scores.csv:score"), or a 1-D float dataset of an HDF5
    file written "scores.h5:/group/name" (any h5py file; no external links,
    external storage or virtual datasets). Only the named file is read: a
    path with a NUL byte is refused; the path is resolved and must still end
    in the format's extension (a link to another kind of file is refused);
    it must be a regular file (estimators/score_audit/score_files.h).

    selections and methods: a name or a list of names (None: the defaults;
    an empty list is refused). seed: an integer in [0, 2^64); the split is by
    position, so the same scores in another order give another split.
    bonferroni_grid: a 1-D array.

    Work bound: at most 1000 Bonferroni thresholds (len(bonferroni_grid),
    bonferroni_quantiles); every method runs at each (~4 ms per threshold
    with every method); split evaluates each method at most at 1025
    candidate thresholds, and so does max_over_thresholds for a method
    without a bound over counts; max_over_thresholds and bonferroni_all
    search every corner of the ROC exactly for the others (score_audit.h).
    """
    sel = _names("selections", selections)
    grid = None if bonferroni_grid is None else [float(v) for v in
                                                  _sample("bonferroni_grid", bonferroni_grid)]
    meth = _names("methods", methods)
    if meth == []:
        raise ValueError("methods must be non-empty (leave it out, or None, for every "
                         "applicable method)")
    return Audit(_ext.audit_scores(_scores("member_scores", member_scores),
                                   _scores("nonmember_scores", nonmember_scores),
                                   _float("alpha", alpha), _float("delta", delta),
                                   _seed(seed), sel, grid,
                                   _int("bonferroni_quantiles", bonferroni_quantiles), meth,
                                   _int("multi_split_count", multi_split_count)))


def sequential_audit(guesses=None, truths=None, scores=None, member_scores=None,
                     nonmember_scores=None, threshold=None, alpha=None, delta=None,
                     epsilons=None, mus=None, state=None):
    """Anytime-valid audit of a privacy claim, round by round (González,
    Dulce-Rubio, Ramdas & Ribero, "Sequentially Auditing Differential
    Privacy", NeurIPS 2025; estimators/sequential/sequential_audit.h).

    One betting e-process per null hypothesis: "(eps, delta)-DP" for each eps
    of `epsilons` (None: 0, 0.1, ..., 10) and "mu-GDP" for each mu of `mus`
    (None: none). A null is rejected at the first round its e-value reaches
    1/alpha and stays rejected; the type-I error is at most alpha however
    long the audit runs and whenever it stops. largest_rejected_epsilon is
    the largest grid eps rejected together with every smaller grid eps: a
    lower bound on eps valid at level alpha at every round (None when eps =
    0 is not rejected); likewise largest_rejected_mu.

    Rounds, one kind per call:
      guesses, truths: 0/1 arrays (or bool). The auditor flips a fair coin
        (truth; 1 = the neighbour with the target), runs the mechanism
        afresh on it, and the attack guesses the coin from the output alone.
      scores, truths: the guess is score > threshold.
      member_scores, nonmember_scores: one fresh output of each neighbour
        per round, scored; each counts above threshold.
    threshold (the pre-registered rule) is fixed when the audit starts.

    Returns a dict with the same keys as epsilon_cli's sequential_audit
    answer: rounds, game_rounds, correct_guesses, pair_rounds,
    pair_difference_sum, largest_rejected_epsilon, largest_rejected_mu,
    epsilons and mus (rows: the parameter, tau and p0 (the null's bounds on a
    pair round's mean difference and a game round's accuracy), e_value,
    rejected_at (None if not)), alpha, delta, threshold, and state.

    To continue an audit pass state=previous["state"]: alpha, delta,
    epsilons, mus and threshold may then be left out (they must equal the
    state's when given), and the answer is the one a single call with every
    round would give. Otherwise alpha defaults to 0.05 and delta to 0.

    Work bound: rounds times grid values at most 1e9 per call; grids at
    most 10000 values.
    """
    return _ext.sequential_audit(
        None if guesses is None else _bits("guesses", guesses),
        None if truths is None else _bits("truths", truths),
        None if scores is None else _sample("scores", scores),
        None if member_scores is None else _sample("member_scores", member_scores),
        None if nonmember_scores is None else _sample("nonmember_scores", nonmember_scores),
        None if threshold is None else _float("threshold", threshold),
        None if alpha is None else _float("alpha", alpha),
        None if delta is None else _float("delta", delta),
        _float_list("epsilons", epsilons), _float_list("mus", mus),
        None if state is None else _string("state", state))


# --- score metrics, one-run bounds, MultiSplit, bootstrap --------------------
# member_scores / nonmember_scores: 1-D arrays (higher = more likely a
# member) or score-file paths, as audit() takes them.


def score_metrics():
    """Metrics bootstrap_ci takes by name: auc_mann_whitney, auc_hull,
    tpr_at_fpr, max_accuracy, raw_count_epsilon."""
    return _ext.score_metrics()


def auc(member_scores, nonmember_scores, convention="mann_whitney"):
    """The attack's AUC.

    convention="mann_whitney": P[S_member > S_non] + P[S_member = S_non] / 2
    (audit()'s "auc"); "hull": the area under the ROC's convex hull, the
    ROC of the best tests randomising between two thresholds (jax-privacy's
    attack_auroc). hull >= mann_whitney, and hull >= 0.5.
    """
    return _ext.score_auc(_scores("member_scores", member_scores),
                          _scores("nonmember_scores", nonmember_scores),
                          _string("convention", convention))


def tpr_at_fpr(member_scores, nonmember_scores, fpr):
    """The largest TPR of a test that randomises between two thresholds and
    has FPR exactly fpr: the ROC's convex hull at fpr (jax-privacy's
    tpr_at_given_fpr). fpr: a number or an array of numbers in [0, 1]; a
    float or an array of its shape. An empirical ROC quantity (audit()'s
    tpr_at_fpr rows are the best single threshold with a Clopper-Pearson
    interval).
    """
    f = _floats("fpr", fpr)
    tpr, index, message = _ext.tpr_at_fpr(_scores("member_scores", member_scores),
                                          _scores("nonmember_scores", nonmember_scores),
                                          np.ascontiguousarray(f.reshape(-1)))
    _raise_at(index, message, f.shape)
    return _shaped(tpr, f.shape)


def max_accuracy(member_scores, nonmember_scores, prevalence=None, alpha=None):
    """The largest accuracy prevalence * TPR + (1 - prevalence) * TNR of a
    threshold test (prevalence None: P / (P + N)), and with alpha an upper
    confidence bound at 1 - alpha on the population's: the largest over every
    ROC point of the same with Clopper-Pearson upper limits at alpha/2 per
    rate (valid without a union over thresholds; jax-privacy's
    max_accuracy(significance) takes it over the hull's vertices only, at
    most this).

    Returns a dict: accuracy, prevalence, point (threshold, tp, fn, fp, tn),
    upper, upper_point, tpr_upper, tnr_upper (None without alpha).
    """
    return _ext.max_accuracy(_scores("member_scores", member_scores),
                             _scores("nonmember_scores", nonmember_scores),
                             None if prevalence is None else _float("prevalence", prevalence),
                             None if alpha is None else _float("alpha", alpha))


def raw_count_epsilon(member_scores, nonmember_scores, min_count=50, delta=0.0, one_sided=True):
    """An eps ESTIMATE, NOT a confidence statement (jax-privacy's
    epsilon_raw_counts): the largest log((TPR - delta) / FPR) of a
    randomised threshold test with at least min_count false positives
    (one_sided=False: also log((TNR - delta) / FNR) of the reverse test, at
    least min_count false negatives), at least 0. The rates are the
    empirical ones: the estimate can exceed the mechanism's eps by chance.
    """
    return _ext.raw_count_epsilon(_scores("member_scores", member_scores),
                                  _scores("nonmember_scores", nonmember_scores),
                                  _int("min_count", min_count), _float("delta", delta),
                                  _bool("one_sided", one_sided))


def one_run_epsilon(member_scores, nonmember_scores, alpha=0.05, delta=0.0, method="one_run",
                    threshold=None):
    """A one-run audit's lower bound from scores (Steinke, Nasr & Jagielski,
    NeurIPS 2023; f-DP: Mahloujifar, Melis & Chaudhuri, ICML 2025).

    ASSUMES each of the m = P + N canaries was included in training
    independently with probability 1/2 (the members are the included ones).
    The attack guesses "in" for the r highest scores (r = tp + fp at a
    threshold), v = tp of them correct. method: "one_run" (Thm 3.1),
    "one_run_fdp" (the f-DP recursion for the (eps, delta) curve; valid for
    every (eps, delta)-DP algorithm) or "one_run_gaussian_dp" (mu_lower, and
    at delta > 0 the eps(delta) of mu_lower, valid only if the trade-off is
    Gaussian: jax-privacy's epsilon_one_run_fdp). threshold None: the best
    threshold under a Bonferroni correction over the m possible numbers of
    guesses (each test at alpha / m; valid); a number: that threshold, fixed
    in advance, at alpha.

    Returns a dict: method, eps_lower (None for one_run_gaussian_dp at
    delta = 0), mu_lower (one_run_gaussian_dp only), threshold, m, r, v,
    level_alpha, bonferroni_k, candidates, valid_confidence_statement, note.
    See estimators/score_audit/one_run_scores.h.
    """
    return _ext.one_run(_scores("member_scores", member_scores),
                        _scores("nonmember_scores", nonmember_scores), _float("alpha", alpha),
                        _float("delta", delta), _string("method", method),
                        None if threshold is None else _float("threshold", threshold))


def multi_split(member_scores, nonmember_scores, bound="one_run", alpha=0.05, delta=0.0,
                num_splits=100, seed=0):
    """MultiSplit (Meinshausen, Meier & Buhlmann, JASA 2009): the median of
    num_splits random splits' bounds, each at level alpha / 2, a lower bound
    at confidence 1 - alpha (jax-privacy's MultiSplit).

    bound: "one_run", "one_run_fdp", "one_run_gaussian_dp" (one-run bounds,
    the canaries split without regard to membership), "gaussian_dp" (audit()'s
    Gaussian-DP mu_lower, its stratified split) or an interval method of
    interval_methods() (its eps lower end under audit()'s "split").

    Returns a dict: bound (the median: eps, or mu for the two Gaussian-DP
    bounds), quantity ("eps" or "mu"), eps_lower (for mu: eps(delta) of the
    median mu, under the Gaussian assumption; None at delta = 0),
    level_alpha, split_bounds. The splits are seeded (seed in [0, 2^64)).
    """
    return _ext.multi_split(_scores("member_scores", member_scores),
                            _scores("nonmember_scores", nonmember_scores),
                            _string("bound", bound), _float("alpha", alpha),
                            _float("delta", delta), _int("num_splits", num_splits), _seed(seed))


_BOOTSTRAP_PARAMS = {
    "fpr": 0.01, "prevalence": None, "min_count": 50, "delta": 0.0, "one_sided": True,
}


def bootstrap_ci(metric, member_scores, nonmember_scores, confidence=0.95, num_samples=1000,
                 seed=0, bias_correction=True, acceleration=False, quantiles=None, threads=1,
                 **params):
    """A bootstrap confidence interval of a metric of the scores (Efron,
    "Better Bootstrap Confidence Intervals", JASA 1987; jax-privacy's
    BootstrapParams.confidence_interval and _bootstrap).

    metric: a name of score_metrics(); params: its parameters (fpr for
    tpr_at_fpr; prevalence for max_accuracy; min_count, delta, one_sided for
    raw_count_epsilon). Each of num_samples replicates resamples both sides
    with replacement (seeded: the same seed gives the same bytes at any
    threads). bias_correction (BC, jax-privacy's default) and acceleration
    (BCa: a jackknife over every score, at most 20,000 scores) correct the
    levels. quantiles: levels to read instead of the two-sided interval at
    confidence.

    An interval for the metric's value on the score distributions,
    asymptotically; for raw_count_epsilon an interval for the ESTIMATE, not
    for the mechanism's eps.

    Returns a dict: estimate, lower, upper (the first and last values),
    values (at each level), quantiles, levels (corrected), z0,
    acceleration, replicates.
    """
    for key in params:
        if key not in _BOOTSTRAP_PARAMS:
            raise ValueError("unknown parameter '%s' for bootstrap_ci (parameters: %s)"
                             % (key, ", ".join(_BOOTSTRAP_PARAMS)))
    p = dict(_BOOTSTRAP_PARAMS, **params)
    if quantiles is None:
        c = _float("confidence", confidence)
        if not 0 < c < 1:
            raise ValueError("confidence must be in (0, 1), got %r" % c)
        q = [(1 - c) / 2, 1 - (1 - c) / 2]
    else:
        q = _float_list("quantiles", quantiles)
    out = _ext.bootstrap(_string("metric", metric), _scores("member_scores", member_scores),
                         _scores("nonmember_scores", nonmember_scores), q,
                         _int("num_samples", num_samples), _seed(seed),
                         _bool("bias_correction", bias_correction),
                         _bool("acceleration", acceleration), _threads(threads),
                         _float("fpr", p["fpr"]),
                         None if p["prevalence"] is None else _float("prevalence", p["prevalence"]),
                         _int("min_count", p["min_count"]), _float("delta", p["delta"]),
                         _bool("one_sided", p["one_sided"]))
    out["lower"], out["upper"] = out["values"][0], out["values"][-1]
    return out


# --- argument conversion: every error names the argument -------------------


def _short(x):
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_bool(x):
    return isinstance(x, (bool, np.bool_))


def _string(name, x):
    if not isinstance(x, str):
        raise ValueError("%s must be a string, got %s" % (name, _short(x)))
    return x


def _bool(name, x):
    if not _is_bool(x):
        raise ValueError("%s must be True or False, got %s" % (name, _short(x)))
    return bool(x)


def _threads(x):
    t = _int("threads", x)
    if not 1 <= t <= 1024:
        raise ValueError("threads must be in [1, 1024], got %d" % t)
    return t


def _names(name, x):
    """None, one name (a str), or an iterable of names: a list of str."""
    if x is None:
        return None
    if isinstance(x, str):
        return [x]
    if isinstance(x, (bytes, numbers.Number)) or not hasattr(x, "__iter__"):
        raise ValueError("%s must be a name or a list of names, got %s" % (name, _short(x)))
    return [_string(name, v) for v in x]


def _seed(x):
    """An integer in [0, 2^64) (the C++ option is uint64)."""
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x[()]
    if _is_bool(x) or not isinstance(x, numbers.Integral):
        raise ValueError("seed must be an integer in [0, 2^64), got %s" % _short(x))
    if not 0 <= int(x) < 2**64:
        raise ValueError("seed must be an integer in [0, 2^64), got %d" % int(x))
    return int(x)


def _to_double(name, x):
    """float(x), or ValueError naming the argument where x overflows a double (10**400)."""
    try:
        return float(x)
    except OverflowError:
        raise ValueError("%s must be representable as a double, got %s"
                         % (name, _short(x))) from None


def _float(name, x):
    if _is_bool(x) or not isinstance(x, numbers.Real):
        if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "fiu":
            return float(x)
        raise ValueError("%s must be a number, got %s" % (name, _short(x)))
    return _to_double(name, x)


def _int(name, x):
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x[()]
    if not _is_bool(x) and isinstance(x, numbers.Integral):
        if not -_INT64_MAX - 1 <= int(x) <= _INT64_MAX:
            raise ValueError("%s must fit in a 64-bit integer, got %d" % (name, int(x)))
        return int(x)
    if not _is_bool(x) and isinstance(x, numbers.Real):
        # Integral values of other real types (3.0, Fraction(3, 1)) are
        # accepted exactly; everything else names the argument.
        f = _to_double(name, x)
        if math.isfinite(f) and f == math.floor(f) and abs(f) < _EXACT_INT_LIMIT and x == f:
            return int(f)
    raise ValueError("%s must be an integer, got %s" % (name, _short(x)))


def _array(name, x, what):
    if isinstance(x, np.ma.MaskedArray):
        # np.asarray would drop the mask and use the hidden values.
        if np.ma.getmaskarray(x).any():
            raise ValueError("%s is a masked array with masked elements; pass only the "
                             "values to use (e.g. x.compressed())" % name)
        x = np.ma.getdata(x)
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as e:
        raise ValueError("%s must be %s, got %s (%s)" % (name, what, _short(x), e)) from None
    if a.dtype.kind not in "fiu":
        raise ValueError("%s must be %s, got %s of dtype %s" % (name, what, _short(x), a.dtype))
    return a


def _floats(name, x):
    return _array(name, x, "a number or an array of numbers").astype(np.float64, copy=False)


def _ints(name, x):
    a = _array(name, x, "an integer or an array of integers")
    if a.dtype.kind == "u" and a.size and a.max() > _INT64_MAX:
        raise ValueError("%s must fit in a 64-bit integer, got %d" % (name, a.max()))
    if a.dtype.kind == "f":
        bad = ~(np.isfinite(a) & (np.floor(a) == a) & (np.abs(a) < _EXACT_INT_LIMIT))
        if bad.any():
            raise ValueError("%s must be an integer, got %r" % (name, float(a[bad].flat[0])))
    return a.astype(np.int64, copy=False)


def _sample(name, x):
    a = _array(name, x, "a 1-D array of numbers")
    if a.ndim != 1:
        raise ValueError("%s must be a 1-D array, got shape %s" % (name, a.shape))
    return np.ascontiguousarray(a, dtype=np.float64)  # no copy for float64 C-contiguous input


def _scores(name, x):
    """A sample, or the scores in the file at path x (named name + "_path" in errors)."""
    if isinstance(x, (str, bytes)) or hasattr(x, "__fspath__"):
        # Bytes, so that any path the OS accepts (not UTF-8 too) reaches the
        # reader, which refuses a NUL byte and quotes paths escaped.
        path = os.fsencode(os.fspath(x))
        return np.asarray(_ext.read_score_file(path, name + "_path"), dtype=np.float64)
    return _sample(name, x)


def _bits(name, x):
    """A 1-D int64 array from integers or bools (the library checks 0/1)."""
    if not isinstance(x, np.ma.MaskedArray):
        try:
            b = np.asarray(x)
        except (ValueError, TypeError):
            b = None  # _ints names the argument
        if b is not None and b.dtype.kind == "b":
            x = b.astype(np.int64)
    a = _ints(name, x)
    if a.ndim != 1:
        raise ValueError("%s must be a 1-D array, got shape %s" % (name, a.shape))
    return np.ascontiguousarray(a)


def _float_list(name, x):
    """None, or a list of floats from a 1-D array of numbers."""
    if x is None:
        return None
    a = _array(name, x, "a 1-D array of numbers")
    if a.ndim != 1:
        raise ValueError("%s must be a 1-D array, got shape %s" % (name, a.shape))
    return [float(v) for v in a]


def _orders(orders):
    if orders is None:
        return None
    a = _array("orders", orders, "a 1-D array of numbers")
    if a.ndim != 1:
        raise ValueError("orders must be a 1-D array, got shape %s" % (a.shape,))
    return [float(v) for v in a]


def _broadcast(names, arrays):
    """(shape, [1-D C-contiguous arrays]) of the broadcast arguments."""
    try:
        b = np.broadcast_arrays(*arrays)
    except ValueError:
        shapes = ", ".join("%s %s" % (n, a.shape) for n, a in zip(names, arrays))
        raise ValueError("%s cannot be broadcast to one shape: %s"
                         % (", ".join(names), shapes)) from None
    shape = b[0].shape
    return shape, [np.ascontiguousarray(a).reshape(-1) for a in b]


def _raise_at(index, message, shape):
    if index < 0:
        return
    if shape == ():
        raise ValueError(message)
    position = tuple(int(i) for i in np.unravel_index(index, shape))
    raise ValueError("%s (at index %s)" % (message, position[0] if len(position) == 1 else position))


def _shaped(a, shape):
    return float(a[0]) if shape == () else a.reshape(shape)
