// _privbench: the estimator library as a CPython extension module (pybind11).
// Users import the package `privbench` (python/src/privbench/__init__.py),
// which converts and broadcasts the arguments, names them in its errors and
// calls the functions below; they can also be called directly.
//
// What is estimated, under which assumptions and from which paper section
// is documented with each library function (estimators/interval_estimator.h,
// eps_from_rates.h, intervals/katz_log.h, loss_samples/epsilon_star_options.h,
// accountants/accountant.h, sequential/sequential_audit.h). This file adds no
// mathematics:
//  - every result comes from the library's validating entry point (the same
//    calls as epsilon_cli), so bad input gets the library's message naming
//    the argument (raised as ValueError, or returned with the failing
//    element's index by the vectorised functions) and never a NaN;
//  - the GIL is released while the library computes;
//  - the vectorised functions take 1-D C-contiguous arrays of equal length
//    and make the estimator once per call; interval_batch can split the
//    elements over threads (same values whatever the count);
//  - epsilon_star reads float64 C-contiguous NumPy arrays in place (pybind11
//    converts other dtypes or layouts once) and copies each into the
//    std::vector the LossSampleEstimator interface takes: one copy per
//    sample, 4-7% of an estimate at n = 10^6 (privbench_benchmark); the
//    empirical variant then sorts its own copies, as in C++. A span-based
//    interface would remove it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/threads.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/confusion_counts.h"
#include "estimators/eps_from_rates.h"
#include "estimators/interval_estimator.h"
#include "estimators/interval_registry.h"
#include "estimators/intervals/katz_log.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "estimators/loss_samples/loss_sample_estimator.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "estimators/loss_samples/loss_transform.h"
#include "estimators/score_audit/one_run_scores.h"
#include "estimators/score_audit/resampling.h"
#include "estimators/score_audit/score_audit.h"
#include "estimators/score_audit/score_files.h"
#include "estimators/score_audit/score_metrics.h"
#include "estimators/sequential/sequential_audit.h"
#include "results/h5_file.h"

namespace privbench {
namespace {

namespace py = pybind11;

using Ints = py::array_t<int64_t, py::array::c_style>;
using Doubles = py::array_t<double, py::array::c_style>;

// The value of a library Result, or ValueError with its message.
template <typename T>
T ValueOrRaise(Result<T> result) {
  if (!result.ok()) throw py::value_error(result.message());
  return std::move(result).value();
}

// The vectorised functions return (outputs..., error_index, error_message):
// error_index is -1 when every element succeeded, else the first failing
// element, whose message the package raises with the element's position.
struct Failure {
  py::ssize_t index = -1;
  std::string message;
};

// Every argument array is 1-D with `n` elements.
void CheckLengths(py::ssize_t n, std::initializer_list<std::pair<const char*, py::array>> arrays) {
  for (const auto& [name, a] : arrays) {
    if (a.ndim() != 1 || a.size() != n) {
      throw py::value_error(std::string(name) + " must be a 1-D array of " + std::to_string(n) +
                            " elements, got " + std::to_string(a.size()) + " in " +
                            std::to_string(a.ndim()) + " dimensions");
    }
  }
}

// The interval arguments of one vectorised call (1-D, equal lengths) and
// its outputs (`upper` is null for a one-sided method).
struct IntervalArgs {
  const int64_t *tp, *fn, *fp, *tn;
  const double *delta, *alpha;
  double *lower, *upper;
};

// Elements [begin, end); the first failure, if any. Called without the GIL.
Failure EstimateRange(const IntervalEstimator& est, const IntervalArgs& a, py::ssize_t begin,
                      py::ssize_t end) {
  for (py::ssize_t i = begin; i < end; ++i) {
    Result<EpsInterval> r = Error("");
    try {
      r = est.Estimate({a.tp[i], a.fn[i], a.fp[i], a.tn[i]}, a.delta[i], a.alpha[i]);
    } catch (const std::exception& e) {
      r = Error(std::string("internal error: ") + e.what());
    }
    if (r.ok() && (a.upper != nullptr) != r->upper.has_value()) {
      r = Error("internal error: " + std::string(est.name()) +
                " returned an interval of the wrong kind");
    }
    if (!r.ok()) return {i, r.message()};
    a.lower[i] = r->lower;
    if (a.upper != nullptr) a.upper[i] = *r->upper;
  }
  return {};
}

// Splits [0, n) into `threads` contiguous chunks that the threads take from
// a shared counter (elements are independent: the values do not depend on
// the thread count, nor on how many threads the system lets us create:
// RunOnThreads never aborts); the failure of the lowest index wins.
Failure EstimateAll(const IntervalEstimator& est, const IntervalArgs& a, py::ssize_t n,
                    int threads) {
  threads = static_cast<int>(std::max<py::ssize_t>(1, std::min<py::ssize_t>(threads, n)));
  if (threads == 1) return EstimateRange(est, a, 0, n);
  const py::ssize_t chunk = (n + threads - 1) / threads;
  std::vector<Failure> failures(static_cast<size_t>(threads));
  std::atomic<int> next{0};
  RunOnThreads(threads - 1, [&] {
    for (int t = next.fetch_add(1); t < threads; t = next.fetch_add(1)) {
      const py::ssize_t begin = t * chunk, end = std::min(n, begin + chunk);
      if (begin < end) failures[t] = EstimateRange(est, a, begin, end);
    }
  });
  for (const Failure& f : failures) {
    if (f.index >= 0) return f;
  }
  return {};
}

py::tuple IntervalBatch(const std::string& method, const Ints& tp, const Ints& fn, const Ints& fp,
                        const Ints& tn, const Doubles& delta, const Doubles& alpha, int threads) {
  const std::unique_ptr<IntervalEstimator> est =
      ValueOrRaise(MakeIntervalEstimator(method, "method"));
  if (threads < 1) throw py::value_error("threads must be >= 1, got " + std::to_string(threads));
  const py::ssize_t n = tp.size();
  CheckLengths(
      n, {{"tp", tp}, {"fn", fn}, {"fp", fp}, {"tn", tn}, {"delta", delta}, {"alpha", alpha}});
  Doubles lower(n);
  std::optional<Doubles> upper;
  if (!est->one_sided()) upper.emplace(n);
  const IntervalArgs args{tp.data(),
                          fn.data(),
                          fp.data(),
                          tn.data(),
                          delta.data(),
                          alpha.data(),
                          lower.mutable_data(),
                          upper ? upper->mutable_data() : nullptr};
  Failure failure;
  {
    py::gil_scoped_release release;
    failure = EstimateAll(*est, args, n, threads);
  }
  py::object upper_out = upper ? py::object(*upper) : py::object(py::none());
  return py::make_tuple(lower, upper_out, failure.index, failure.message);
}

py::tuple EpsFromRatesBatch(const Doubles& fnr, const Doubles& fpr, const Doubles& delta) {
  const py::ssize_t n = fnr.size();
  CheckLengths(n, {{"fnr", fnr}, {"fpr", fpr}, {"delta", delta}});
  Doubles eps(n);
  double* out = eps.mutable_data();
  const double *fnr_p = fnr.data(), *fpr_p = fpr.data(), *delta_p = delta.data();
  Failure failure;
  {
    py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < n; ++i) {
      const Result<double> r = EpsFromRates(fnr_p[i], fpr_p[i], delta_p[i]);
      if (!r.ok()) {
        failure = {i, r.message()};
        break;
      }
      out[i] = *r;
    }
  }
  return py::make_tuple(eps, failure.index, failure.message);
}

py::tuple KatzBatch(const Ints& n1, const Ints& n0, const Ints& n, const Doubles& alpha) {
  const py::ssize_t size = n1.size();
  CheckLengths(size, {{"n1", n1}, {"n0", n0}, {"n", n}, {"alpha", alpha}});
  Doubles lower(size);
  double* out = lower.mutable_data();
  const int64_t *n1_p = n1.data(), *n0_p = n0.data(), *n_p = n.data();
  const double* alpha_p = alpha.data();
  Failure failure;
  {
    py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < size; ++i) {
      const Result<double> r = KatzLogEpsLowerBound(n1_p[i], n0_p[i], n_p[i], alpha_p[i]);
      if (!r.ok()) {
        failure = {i, r.message()};
        break;
      }
      out[i] = *r;
    }
  }
  return py::make_tuple(lower, failure.index, failure.message);
}

// A 1-D sample as the std::vector the estimator interface takes.
std::vector<double> Sample(const char* name, const Doubles& a) {
  if (a.ndim() != 1) {
    throw py::value_error(std::string(name) + " must be a 1-D array, got " +
                          std::to_string(a.ndim()) + " dimensions");
  }
  const double* p = a.data();
  py::gil_scoped_release release;
  return std::vector<double>(p, p + a.size());
}

double EpsilonStar(const Doubles& train_losses, const Doubles& population_losses,
                   const std::string& variant, double delta,
                   std::optional<int64_t> quantiles_per_distribution,
                   std::optional<double> rate_floor, std::optional<double> rate_ceiling,
                   std::optional<double> clip_lo, std::optional<double> clip_hi,
                   std::optional<std::string> transform) {
  const std::unique_ptr<LossSampleEstimator> est =
      ValueOrRaise(MakeLossSampleEstimator(variant, "variant"));
  EpsilonStarOptions options;  // the library's defaults for what is not given
  options.delta = delta;
  if (quantiles_per_distribution) options.quantiles_per_distribution = *quantiles_per_distribution;
  if (rate_floor) options.rate_floor = *rate_floor;
  if (rate_ceiling) options.rate_ceiling = *rate_ceiling;
  if (clip_lo) options.clip_lo = *clip_lo;
  if (clip_hi) options.clip_hi = *clip_hi;
  if (transform) options.transform = ValueOrRaise(ParseLossTransform(*transform));
  // One copy of each array, handed over: the estimator works in it (the
  // empirical variant sorts it in place).
  std::vector<double> train = Sample("train_losses", train_losses);
  std::vector<double> population = Sample("population_losses", population_losses);
  Result<double> eps = Error("");
  {
    py::gil_scoped_release release;
    eps = est->Estimate(std::move(train), std::move(population), options);
  }
  return ValueOrRaise(std::move(eps));
}

DpSgdAccounting Setting(const Accountant& acc, double q, int64_t steps, double delta,
                        std::optional<std::vector<double>> orders) {
  DpSgdAccounting s;
  s.q = q;
  s.steps = steps;
  s.delta = delta;
  if (orders) {
    const Status checked = CheckRequestedOrders(acc, *orders);
    if (!checked.ok()) throw py::value_error(checked.message());
    s.orders = std::move(*orders);
  }
  return s;
}

// (epsilon, order): the RDP methods report the minimising order, the others None.
py::tuple AccountantEpsilon(const std::string& method, double sigma, double q, int64_t steps,
                            double delta, std::optional<std::vector<double>> orders) {
  const std::unique_ptr<Accountant> acc = ValueOrRaise(MakeAccountant(method, "method"));
  DpSgdAccounting s = Setting(*acc, q, steps, delta, std::move(orders));
  s.sigma = sigma;
  Result<AccountantResult> r = Error("");
  {
    py::gil_scoped_release release;
    r = acc->Epsilon(s);
  }
  const AccountantResult res = ValueOrRaise(std::move(r));
  return py::make_tuple(res.epsilon, res.order ? py::object(py::float_(*res.order)) : py::none());
}

double Calibrate(const std::string& method, double target_epsilon, double q, int64_t steps,
                 double delta, std::optional<std::vector<double>> orders) {
  const std::unique_ptr<Accountant> acc = ValueOrRaise(MakeAccountant(method, "method"));
  const DpSgdAccounting s = Setting(*acc, q, steps, delta, std::move(orders));
  Result<double> sigma = Error("");
  {
    py::gil_scoped_release release;
    sigma = CalibrateSigma(*acc, target_epsilon, s);
  }
  return ValueOrRaise(std::move(sigma));
}

py::dict IntervalMethodInfo(const std::string& method) {
  const std::unique_ptr<IntervalEstimator> est =
      ValueOrRaise(MakeIntervalEstimator(method, "method"));
  py::dict info;
  info["one_sided"] = est->one_sided();
  info["requires_zero_delta"] = est->requires_zero_delta();
  info["description"] = std::string(est->description());
  return info;
}

std::vector<std::string> LossTransformNames() {
  std::vector<std::string> names;
  for (LossTransform t : kAllLossTransforms) names.emplace_back(LossTransformName(t));
  return names;
}

py::dict SelectionRow(ThresholdSelection selection, double threshold, const ConfusionCounts& c,
                      double level_alpha, int64_t considered, bool valid, const std::string& note) {
  py::dict row;
  row["selection"] = std::string(ThresholdSelectionName(selection));
  row["threshold"] = threshold;
  row["tp"] = c.tp;
  row["fn"] = c.fn;
  row["fp"] = c.fp;
  row["tn"] = c.tn;
  row["level_alpha"] = level_alpha;
  row["thresholds_considered"] = considered;
  row["valid_confidence_statement"] = valid;
  row["note"] = note;
  return row;
}

// One ROC point as a row of a NumPy structured array (fields threshold, tp,
// fn, fp, tn): the ROC of 10^6 scores a side, 2 * 10^6 + 1 points, is
// returned in one copy instead of as that many Python tuples.
struct RocRow {
  double threshold;
  int64_t tp, fn, fp, tn;
};

py::array_t<RocRow> RocArray(const RocCurve& roc) {
  py::array_t<RocRow> out(static_cast<py::ssize_t>(roc.points.size()));
  RocRow* row = out.mutable_data();
  for (const OperatingPoint& p : roc.points) {
    *row++ = {p.threshold, p.counts.tp, p.counts.fn, p.counts.fp, p.counts.tn};
  }
  return out;
}

py::dict AuditDict(const ScoreAudit& a) {
  py::dict out;
  out["auc"] = a.roc.auc;
  py::list tpr, intervals, gdp, skipped;
  py::array_t<RocRow> roc = RocArray(a.roc);
  for (const TprAtFpr& t : a.tpr_at_fpr) {
    py::dict d;
    d["max_fpr"] = t.max_fpr;
    d["threshold"] = t.point.threshold;
    d["tpr"] = t.tpr;
    d["tpr_lower"] = t.tpr_lower;
    d["tpr_upper"] = t.tpr_upper;
    tpr.append(d);
  }
  for (const AuditInterval& i : a.intervals) {
    py::dict row = SelectionRow(i.selection, i.threshold, i.counts, i.level_alpha,
                                i.thresholds_considered, i.valid_confidence_statement, i.note);
    row["method"] = i.method;
    row["lower"] = i.lower;
    row["upper"] = i.upper;
    intervals.append(row);
  }
  for (const GaussianDpBound& g : a.gaussian_dp) {
    py::dict row = SelectionRow(g.selection, g.threshold, g.counts, g.level_alpha,
                                g.thresholds_considered, g.valid_confidence_statement, g.note);
    row["mu_lower"] = g.mu_lower;
    row["eps_lower"] = g.eps_lower.has_value() ? py::object(py::float_(*g.eps_lower)) : py::none();
    gdp.append(row);
  }
  for (const SkippedMethod& m : a.skipped_methods)
    skipped.append(py::make_tuple(m.method, m.reason));
  out["roc"] = roc;
  out["tpr_at_fpr"] = tpr;
  out["intervals"] = intervals;
  out["gaussian_dp"] = gdp;
  out["skipped_methods"] = skipped;
  out["bonferroni_grid"] = a.bonferroni_grid;
  out["bonferroni_grid_source"] = a.bonferroni_grid_source;
  return out;
}

py::dict AuditScoresPy(const Doubles& member_scores, const Doubles& nonmember_scores, double alpha,
                       double delta, uint64_t seed,
                       std::optional<std::vector<std::string>> selections,
                       std::optional<std::vector<double>> bonferroni_grid,
                       int64_t bonferroni_quantiles,
                       std::optional<std::vector<std::string>> methods, int64_t multi_split_count) {
  ScoreAuditOptions o;
  o.alpha = alpha;
  o.delta = delta;
  o.seed = seed;
  if (selections) {
    o.selections.clear();
    for (const std::string& name : *selections) {
      o.selections.push_back(ValueOrRaise(ParseThresholdSelection(name)));
    }
  }
  o.bonferroni_grid = std::move(bonferroni_grid);
  o.bonferroni_quantiles = bonferroni_quantiles;
  o.multi_split_count = multi_split_count;
  if (methods) o.methods = std::move(*methods);
  const std::vector<double> members = Sample("member_scores", member_scores);
  const std::vector<double> nonmembers = Sample("nonmember_scores", nonmember_scores);
  Result<ScoreAudit> audit = Error("");
  {
    py::gil_scoped_release release;
    audit = AuditScores(members, nonmembers, o);
  }
  return AuditDict(ValueOrRaise(std::move(audit)));
}

// A 1-D integer array as the std::vector the library takes.
std::vector<int64_t> IntSample(const char* name, const Ints& a) {
  if (a.ndim() != 1) {
    throw py::value_error(std::string(name) + " must be a 1-D array, got " +
                          std::to_string(a.ndim()) + " dimensions");
  }
  return std::vector<int64_t>(a.data(), a.data() + a.size());
}

py::list VerdictRows(const char* parameter, const std::vector<NullVerdict>& verdicts) {
  py::list rows;
  for (const NullVerdict& v : verdicts) {
    py::dict row;
    row[parameter] = v.parameter;
    row["tau"] = v.bounds.tau;
    row["p0"] = v.bounds.p0;
    row["e_value"] = v.e_value;
    row["rejected_at"] = v.rejected_at > 0 ? py::object(py::int_(v.rejected_at)) : py::none();
    rows.append(row);
  }
  return rows;
}

py::object OptionalFloat(const std::optional<double>& x) {
  return x ? py::object(py::float_(*x)) : py::none();
}

// ---- Score metrics (score_metrics.h), one-run bounds (one_run_scores.h),
// MultiSplit and the bootstrap (resampling.h). ----

// A library call on the two score samples without the GIL; ValueError on error.
template <typename F>
auto OnScores(const Doubles& member_scores, const Doubles& nonmember_scores, F f) {
  const std::vector<double> members = Sample("member_scores", member_scores);
  const std::vector<double> nonmembers = Sample("nonmember_scores", nonmember_scores);
  decltype(f(members, nonmembers)) r = Error("");
  {
    py::gil_scoped_release release;
    r = f(members, nonmembers);
  }
  return ValueOrRaise(std::move(r));
}

double ScoreAucPy(const Doubles& member_scores, const Doubles& nonmember_scores,
                  const std::string& convention) {
  const AucConvention c = ValueOrRaise(ParseAucConvention(convention));
  return OnScores(member_scores, nonmember_scores,
                  [c](const std::vector<double>& m, const std::vector<double>& n) {
                    return ScoreAuc(m, n, c);
                  });
}

// (tpr, error_index, error_message) at each fpr (one hull for all).
py::tuple TprAtFprPy(const Doubles& member_scores, const Doubles& nonmember_scores,
                     const Doubles& fpr) {
  CheckLengths(fpr.size(), {{"fpr", fpr}});
  const std::vector<OperatingPoint> hull =
      OnScores(member_scores, nonmember_scores,
               [](const std::vector<double>& m,
                  const std::vector<double>& n) -> Result<std::vector<OperatingPoint>> {
                 PB_ASSIGN_OR_RETURN(RocCurve roc, ComputeRoc(m, n));
                 return RocHull(roc);
               });
  Doubles tpr(fpr.size());
  double* out = tpr.mutable_data();
  const double* f = fpr.data();
  Failure failure;
  for (py::ssize_t i = 0; i < fpr.size(); ++i) {
    const Result<double> r = HullTprAtFpr(hull, f[i]);
    if (!r.ok()) {
      failure = {i, r.message()};
      break;
    }
    out[i] = *r;
  }
  return py::make_tuple(tpr, failure.index, failure.message);
}

py::dict PointDict(const OperatingPoint& p) {
  py::dict d;
  d["threshold"] = p.threshold;
  d["tp"] = p.counts.tp;
  d["fn"] = p.counts.fn;
  d["fp"] = p.counts.fp;
  d["tn"] = p.counts.tn;
  return d;
}

py::dict MaxAccuracyPy(const Doubles& member_scores, const Doubles& nonmember_scores,
                       std::optional<double> prevalence, std::optional<double> alpha) {
  const MaxAccuracyOptions o{prevalence, alpha};
  const MaxAccuracy a = OnScores(member_scores, nonmember_scores,
                                 [&o](const std::vector<double>& m, const std::vector<double>& n) {
                                   return MaxAccuracyOfScores(m, n, o);
                                 });
  py::dict out;
  out["accuracy"] = a.accuracy;
  out["prevalence"] = a.prevalence;
  out["point"] = PointDict(a.point);
  out["upper"] = OptionalFloat(a.upper);
  out["upper_point"] = a.upper_point ? py::object(PointDict(*a.upper_point)) : py::none();
  out["tpr_upper"] = a.upper ? py::object(py::float_(a.tpr_upper)) : py::none();
  out["tnr_upper"] = a.upper ? py::object(py::float_(a.tnr_upper)) : py::none();
  return out;
}

double RawCountEpsilonPy(const Doubles& member_scores, const Doubles& nonmember_scores,
                         int64_t min_count, double delta, bool one_sided) {
  const RawCountOptions o{min_count, delta, one_sided};
  return OnScores(member_scores, nonmember_scores,
                  [&o](const std::vector<double>& m, const std::vector<double>& n) {
                    return RawCountEpsilon(m, n, o);
                  });
}

py::dict OneRunPy(const Doubles& member_scores, const Doubles& nonmember_scores, double alpha,
                  double delta, const std::string& method, std::optional<double> threshold) {
  OneRunScoreOptions o;
  o.alpha = alpha;
  o.delta = delta;
  o.method = ValueOrRaise(ParseOneRunMethod(method));
  o.threshold = threshold;
  const OneRunScoreBound b =
      OnScores(member_scores, nonmember_scores,
               [&o](const std::vector<double>& m, const std::vector<double>& n) {
                 return OneRunFromScores(m, n, o);
               });
  py::dict out;
  out["method"] = std::string(OneRunMethodName(b.method));
  out["eps_lower"] = OptionalFloat(b.eps_lower);
  out["mu_lower"] = OptionalFloat(b.mu_lower);
  out["threshold"] = b.threshold;
  out["m"] = b.counts.m;
  out["r"] = b.counts.r;
  out["v"] = b.counts.v;
  out["level_alpha"] = b.level_alpha;
  out["bonferroni_k"] = b.bonferroni_k;
  out["candidates"] = b.candidates;
  out["valid_confidence_statement"] = b.valid_confidence_statement;
  out["note"] = b.note;
  return out;
}

// MultiSplitByName's answer: the median (of eps, or of mu for the
// Gaussian-DP bounds) and eps_lower.
py::dict MultiSplitPy(const Doubles& member_scores, const Doubles& nonmember_scores,
                      const std::string& bound, double alpha, double delta, int64_t num_splits,
                      uint64_t seed) {
  MultiSplitOptions o;
  o.alpha = alpha;
  o.num_splits = num_splits;
  o.seed = seed;
  const NamedMultiSplit r =
      OnScores(member_scores, nonmember_scores,
               [&](const std::vector<double>& m, const std::vector<double>& n) {
                 return MultiSplitByName(bound, m, n, delta, o);
               });
  py::dict out;
  out["bound"] = r.result.bound;
  out["quantity"] = r.bounds_mu ? "mu" : "eps";
  out["eps_lower"] = OptionalFloat(r.eps_lower);
  out["level_alpha"] = r.result.level_alpha;
  out["split_bounds"] = r.result.split_bounds;
  return out;
}

py::dict BootstrapPy(const std::string& metric, const Doubles& member_scores,
                     const Doubles& nonmember_scores, std::vector<double> quantiles,
                     int64_t num_samples, uint64_t seed, bool bias_correction, bool acceleration,
                     int threads, double fpr, std::optional<double> prevalence, int64_t min_count,
                     double delta, bool one_sided) {
  ScoreMetricParams params;
  params.fpr = fpr;
  params.prevalence = prevalence;
  params.raw_count = {min_count, delta, one_sided};
  const ScoreMetric f = ValueOrRaise(MakeScoreMetric(metric, params));
  BootstrapOptions o;
  o.num_samples = num_samples;
  o.quantiles = std::move(quantiles);
  o.bias_correction = bias_correction;
  o.acceleration = acceleration;
  o.seed = seed;
  o.threads = threads;
  const BootstrapResult r =
      OnScores(member_scores, nonmember_scores,
               [&](const std::vector<double>& m, const std::vector<double>& n) {
                 return Bootstrap(m, n, f, o);
               });
  py::dict out;
  out["estimate"] = r.estimate;
  out["quantiles"] = r.quantiles;
  out["levels"] = r.levels;
  out["values"] = r.values;
  out["z0"] = r.z0;
  out["acceleration"] = r.acceleration;
  out["replicates"] = Doubles(static_cast<py::ssize_t>(r.replicates.size()), r.replicates.data());
  return out;
}

// The same keys as epsilon_cli's sequential_audit answer.
py::dict SequentialAuditDict(const SequentialAuditResponse& a) {
  const SequentialAuditReport& r = a.report;
  py::dict out;
  out["alpha"] = a.options.alpha;
  out["delta"] = a.options.delta;
  out["threshold"] = OptionalFloat(a.options.threshold);
  out["rounds"] = r.rounds;
  out["game_rounds"] = r.game_rounds;
  out["correct_guesses"] = r.correct_guesses;
  out["pair_rounds"] = r.pair_rounds;
  out["pair_difference_sum"] = r.pair_difference_sum;
  out["largest_rejected_epsilon"] = OptionalFloat(r.largest_rejected_epsilon);
  out["largest_rejected_mu"] = OptionalFloat(r.largest_rejected_mu);
  out["epsilons"] = VerdictRows("epsilon", r.dp);
  out["mus"] = VerdictRows("mu", r.gdp);
  out["state"] = a.state;
  return out;
}

py::dict SequentialAuditPy(const std::optional<Ints>& guesses, const std::optional<Ints>& truths,
                           const std::optional<Doubles>& scores,
                           const std::optional<Doubles>& member_scores,
                           const std::optional<Doubles>& nonmember_scores,
                           std::optional<double> threshold, std::optional<double> alpha,
                           std::optional<double> delta, std::optional<std::vector<double>> epsilons,
                           std::optional<std::vector<double>> mus,
                           std::optional<std::string> state) {
  SequentialAuditRequest q;
  if (guesses) q.guesses = IntSample("guesses", *guesses);
  if (truths) q.truths = IntSample("truths", *truths);
  if (scores) q.scores = Sample("scores", *scores);
  if (member_scores) q.member_scores = Sample("member_scores", *member_scores);
  if (nonmember_scores) q.nonmember_scores = Sample("nonmember_scores", *nonmember_scores);
  q.threshold = threshold;
  q.alpha = alpha;
  q.delta = delta;
  q.epsilons = std::move(epsilons);
  q.mus = std::move(mus);
  q.state = std::move(state);
  Result<SequentialAuditResponse> a = Error("");
  {
    py::gil_scoped_release release;
    a = RunSequentialAudit(q);
  }
  return SequentialAuditDict(ValueOrRaise(std::move(a)));
}

// privbench.results reads a file only after the C++ reader accepted it:
// one set of rules (regular file, format version, checksum, one hard link
// per object, no external or virtual data, allocation bounded by the file's
// size). Raises ValueError with the reader's message (it names the file).
void CheckResultFile(const std::string& path) {
  Result<std::unique_ptr<ResultReader>> reader = Error("");
  {
    py::gil_scoped_release release;
    reader = ResultReader::Open(path);
  }
  if (!reader.ok()) throw py::value_error(reader.message());
}

// privbench.audit given a path: the score files epsilon_cli reads (.npy,
// .csv, .txt, "file.h5:/dataset"), by the same reader and with the same
// messages (they name `argument`).
std::vector<double> ReadScores(const std::string& path, const std::string& argument) {
  Result<std::vector<double>> scores = Error("");
  {
    py::gil_scoped_release release;
    scores = ReadScoreFile(path, argument);
  }
  return ValueOrRaise(std::move(scores));
}

// pybind11 before 2.12 reads NumPy 2's dtype struct with NumPy 1's layout:
// the arrays it makes get a wrong item size, so a vectorised result would be
// silently wrong (interval(tp=[90, 80, 70], ...) repeated its first element).
// Such a build (Debian bookworm's pybind11 2.10: the Bazel build, `pip
// install ./python`) refuses NumPy 2 at import; the wheels of
// tools/build_wheels.sh use pybind11 2.13, which supports both.
void RefuseNumpyThisPybind11Misreads() {
#if PYBIND11_VERSION_HEX < 0x020C0000
  const auto version = py::module_::import("numpy").attr("__version__").cast<std::string>();
  if (version.rfind("1.", 0) != 0) {
    throw py::import_error(
        "privbench: this build of its extension module uses pybind11 " +
        std::to_string(PYBIND11_VERSION_MAJOR) + "." + std::to_string(PYBIND11_VERSION_MINOR) +
        ", which does not support NumPy " + version +
        " (its arrays would be read wrongly); use NumPy 1.x (e.g. a venv made with "
        "--system-site-packages for Debian's python3-numpy) or a wheel from "
        "tools/build_wheels.sh (README, From Python)");
  }
#endif
}

void Define(py::module_& m) {
  using py::arg;
  RefuseNumpyThisPybind11Misreads();
  PYBIND11_NUMPY_DTYPE(RocRow, threshold, tp, fn, fp, tn);
  m.doc() = "privbench's estimator library (the package privbench wraps this module)";
  m.def("interval_methods", &AllIntervalEstimatorNames, "Registered interval estimators.");
  m.def("accountant_methods", &AllAccountantNames, "Registered DP-SGD accountants.");
  m.def("epsilon_star_variants", &AllLossSampleEstimatorNames,
        "Registered loss-sample (Epsilon*) estimators.");
  m.def("loss_transforms", &LossTransformNames, "Loss transforms of the parametric Epsilon*.");
  m.def("interval_method_info", &IntervalMethodInfo, arg("method"));
  m.def("interval_batch", &IntervalBatch, arg("method"), arg("tp"), arg("fn"), arg("fp"), arg("tn"),
        arg("delta"), arg("alpha"), arg("threads") = 1);
  m.def("eps_from_rates_batch", &EpsFromRatesBatch, arg("fnr"), arg("fpr"), arg("delta"));
  m.def("katz_batch", &KatzBatch, arg("n1"), arg("n0"), arg("n"), arg("alpha"));
  m.def("epsilon_star", &EpsilonStar, arg("train_losses"), arg("population_losses"), arg("variant"),
        arg("delta"), arg("quantiles_per_distribution") = py::none(),
        arg("rate_floor") = py::none(), arg("rate_ceiling") = py::none(),
        arg("clip_lo") = py::none(), arg("clip_hi") = py::none(), arg("transform") = py::none());
  m.def("accountant", &AccountantEpsilon, arg("method"), arg("sigma"), arg("q"), arg("steps"),
        arg("delta"), arg("orders") = py::none());
  m.def("check_result_file", &CheckResultFile, arg("path"));
  m.def("read_score_file", &ReadScores, arg("path"), arg("argument"));
  m.def("audit_scores", &AuditScoresPy, arg("member_scores"), arg("nonmember_scores"), arg("alpha"),
        arg("delta"), arg("seed"), arg("selections"), arg("bonferroni_grid"),
        arg("bonferroni_quantiles"), arg("methods"), arg("multi_split_count") = 100);
  m.def("calibrate", &Calibrate, arg("method"), arg("target_epsilon"), arg("q"), arg("steps"),
        arg("delta"), arg("orders") = py::none());
  m.def("score_metrics", &ScoreMetricNames, "Metrics the bootstrap takes by name.");
  m.def("score_auc", &ScoreAucPy, arg("member_scores"), arg("nonmember_scores"), arg("convention"));
  m.def("tpr_at_fpr", &TprAtFprPy, arg("member_scores"), arg("nonmember_scores"), arg("fpr"));
  m.def("max_accuracy", &MaxAccuracyPy, arg("member_scores"), arg("nonmember_scores"),
        arg("prevalence"), arg("alpha"));
  m.def("raw_count_epsilon", &RawCountEpsilonPy, arg("member_scores"), arg("nonmember_scores"),
        arg("min_count"), arg("delta"), arg("one_sided"));
  m.def("one_run", &OneRunPy, arg("member_scores"), arg("nonmember_scores"), arg("alpha"),
        arg("delta"), arg("method"), arg("threshold"));
  m.def("multi_split", &MultiSplitPy, arg("member_scores"), arg("nonmember_scores"), arg("bound"),
        arg("alpha"), arg("delta"), arg("num_splits"), arg("seed"));
  m.def("bootstrap", &BootstrapPy, arg("metric"), arg("member_scores"), arg("nonmember_scores"),
        arg("quantiles"), arg("num_samples"), arg("seed"), arg("bias_correction"),
        arg("acceleration"), arg("threads"), arg("fpr"), arg("prevalence"), arg("min_count"),
        arg("delta"), arg("one_sided"));
  m.def("sequential_audit", &SequentialAuditPy, arg("guesses"), arg("truths"), arg("scores"),
        arg("member_scores"), arg("nonmember_scores"), arg("threshold"), arg("alpha"), arg("delta"),
        arg("epsilons"), arg("mus"), arg("state"));
}

}  // namespace
}  // namespace privbench

PYBIND11_MODULE(_privbench, m) { privbench::Define(m); }
