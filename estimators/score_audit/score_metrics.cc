// Metrics of membership scores read off the ROC and its convex hull
// (score_metrics.h).
#include "estimators/score_audit/score_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/validate.h"
#include "estimators/rate_intervals.h"

namespace privbench {

namespace {

// (a - o) x (b - o) in (fp, tp) counts, exactly (differences up to 2^63).
__int128 Cross(const ConfusionCounts& o, const ConfusionCounts& a, const ConfusionCounts& b) {
  const __int128 ax = a.fp - o.fp, ay = a.tp - o.tp, bx = b.fp - o.fp, by = b.tp - o.tp;
  return ax * by - ay * bx;
}

// A curve of a test's counts in increasing order: "tp" rises from 0 to pos,
// "fp" from 0 to neg. The hull forward (tp, fp), or backward (the reverse
// test: tn as its "tp", fn as its "fp").
struct CountCurve {
  std::vector<int64_t> tp, fp;
  int64_t pos = 0, neg = 0;
};

CountCurve ForwardCurve(const std::vector<OperatingPoint>& hull) {
  CountCurve c;
  for (const OperatingPoint& p : hull) {
    c.tp.push_back(p.counts.tp);
    c.fp.push_back(p.counts.fp);
  }
  c.pos = hull.back().counts.positives();
  c.neg = hull.back().counts.negatives();
  return c;
}

CountCurve ReverseCurve(const std::vector<OperatingPoint>& hull) {
  CountCurve c;
  for (auto it = hull.rbegin(); it != hull.rend(); ++it) {
    c.tp.push_back(it->counts.tn);
    c.fp.push_back(it->counts.fn);
  }
  c.pos = hull.back().counts.negatives();
  c.neg = hull.back().counts.positives();
  return c;
}

// The curve's TPR at FPR = fpr, interpolated (score_metrics.h; the
// arithmetic of jax-privacy's _tpr_at_given_fpr).
double CurveTprAtFpr(const CountCurve& c, double fpr) {
  const double target = static_cast<double>(c.neg) * fpr;
  // The first index with fp > target, at most the last.
  const size_t last = c.fp.size() - 1;
  size_t j = static_cast<size_t>(
      std::upper_bound(c.fp.begin(), c.fp.end(), target,
                       [](double t, int64_t fp) { return t < static_cast<double>(fp); }) -
      c.fp.begin());
  j = std::min(j, last);
  const double fp_left = static_cast<double>(c.fp[j - 1]), fp_right = static_cast<double>(c.fp[j]);
  const double q = (target - fp_left) / (fp_right - fp_left);
  const double tp_left = static_cast<double>(c.tp[j - 1]), tp_right = static_cast<double>(c.tp[j]);
  return (tp_left + q * (tp_right - tp_left)) / static_cast<double>(c.pos);
}

// The raw-count estimate of one direction (score_metrics.h; jax-privacy's
// _epsilon_raw_counts_helper, before the max with 0).
double CurveRawCountEpsilon(const CountCurve& c, int64_t min_count, double delta) {
  if (min_count >= c.neg) return 0.0;
  const double min_fpr = static_cast<double>(min_count) / static_cast<double>(c.neg);
  const double tpr_at_min = CurveTprAtFpr(c, min_fpr);
  if (delta == 0.0) {
    if (tpr_at_min <= 0.0) return 0.0;
    return std::log(tpr_at_min / min_fpr);
  }
  double eps =
      tpr_at_min > delta ? std::max(0.0, std::log(tpr_at_min - delta) - std::log(min_fpr)) : 0.0;
  for (size_t i = 0; i < c.tp.size(); ++i) {
    const double tpr = static_cast<double>(c.tp[i]) / static_cast<double>(c.pos);
    const double fpr = static_cast<double>(c.fp[i]) / static_cast<double>(c.neg);
    if (c.fp[i] >= min_count && tpr > delta) {
      eps = std::max(eps, std::log(tpr - delta) - std::log(fpr));
    }
  }
  return eps;
}

Result<RocCurve> ValidatedRoc(const std::vector<double>& member_scores,
                              const std::vector<double>& nonmember_scores) {
  return ComputeRoc(member_scores, nonmember_scores);  // validates both, naming them
}

// One-sided Clopper-Pearson upper limit of k of n at level s (1 at k = n).
double ClopperPearsonUpper(int64_t k, int64_t n, double s) {
  if (k >= n) return 1.0;
  return BetaUpperQuantile(static_cast<double>(k) + 1.0, static_cast<double>(n - k), s);
}

double Accuracy(const ConfusionCounts& c, double pi) {
  return pi * (static_cast<double>(c.tp) / static_cast<double>(c.positives())) +
         (1.0 - pi) * (static_cast<double>(c.tn) / static_cast<double>(c.negatives()));
}

// Whether ROC point i can attain the maximum of an objective that rises with
// tp and with tn: not inside a run of member scores alone (the run's next
// point is at least as good) nor inside a run of non-member scores alone
// (the run's previous point is).
bool AccuracyCandidate(const std::vector<OperatingPoint>& pts, size_t i) {
  if (i + 1 < pts.size() && pts[i + 1].counts.fp == pts[i].counts.fp) return false;
  if (i > 0 && pts[i - 1].counts.tp == pts[i].counts.tp) return false;
  return true;
}

// One side's Clopper-Pearson upper limits U(k) of k of n at level s, and two
// cheaper upper bounds on them for pruning: Hoeffding's, P[Bin(n, p) <= k]
// <= exp(-2n (p - k/n)^2), which is s at p = k/n + h, so U(k) < k/n + h;
// and, U being non-decreasing in k, U at the next point of a grid of step
// ~n / 2^16 (computed once, when first needed).
class UpperLimits {
 public:
  UpperLimits(int64_t n, double s)
      : n_(n),
        s_(s),
        h_(std::sqrt(std::log(1.0 / s) / (2.0 * static_cast<double>(n)))),
        step_(std::max<int64_t>(1, n >> 16)),
        grid_(static_cast<size_t>(n / step_ + 2), -1.0) {}

  double Exact(int64_t k) const { return ClopperPearsonUpper(k, n_, s_); }
  double Hoeffding(int64_t k) const {
    return std::min(1.0, static_cast<double>(k) / static_cast<double>(n_) + h_);
  }
  double Grid(int64_t k) {
    const size_t g = static_cast<size_t>((k + step_ - 1) / step_);
    if (grid_[g] < 0.0) grid_[g] = Exact(std::min(n_, static_cast<int64_t>(g) * step_));
    return grid_[g];
  }

 private:
  int64_t n_;
  double s_, h_;
  int64_t step_;
  std::vector<double> grid_;
};

// The upper bound of MaxAccuracyOfScores (score_metrics.h): the exact
// maximum over the candidates, each pruned when an upper bound on its value
// (Hoeffding's, then the grid's) cannot beat the best so far. `start` is
// the empirical maximum's index (a high first value prunes the most); ties
// go to the smaller index.
void MaxAccuracyUpper(const RocCurve& roc, double pi, double alpha, size_t start,
                      MaxAccuracy* out) {
  const std::vector<OperatingPoint>& pts = roc.points;
  UpperLimits tpr(pts.front().counts.positives(), alpha / 2.0);
  UpperLimits tnr(pts.front().counts.negatives(), alpha / 2.0);
  double best = -1.0;
  size_t best_index = pts.size();
  const auto try_point = [&](size_t i) {
    const ConfusionCounts& c = pts[i].counts;
    const double tpr_u = tpr.Exact(c.tp), tnr_u = tnr.Exact(c.tn);
    const double value = pi * tpr_u + (1.0 - pi) * tnr_u;
    if (value > best || (value == best && i < best_index)) {
      best = value;
      best_index = i;
      out->upper_point = pts[i];
      out->tpr_upper = tpr_u;
      out->tnr_upper = tnr_u;
    }
  };
  try_point(start);
  for (size_t i = 0; i < pts.size(); ++i) {
    if (i == start || !AccuracyCandidate(pts, i)) continue;
    const ConfusionCounts& c = pts[i].counts;
    if (pi * tpr.Hoeffding(c.tp) + (1.0 - pi) * tnr.Hoeffding(c.tn) < best) continue;
    if (pi * tpr.Grid(c.tp) + (1.0 - pi) * tnr.Grid(c.tn) < best) continue;
    try_point(i);
  }
  out->upper = best;
}

}  // namespace

std::vector<OperatingPoint> RocHull(const RocCurve& roc) {
  std::vector<OperatingPoint> hull;
  for (const OperatingPoint& p : roc.points) {
    // Pop while the last two and p do not turn right (collinear included).
    while (hull.size() >= 2 &&
           Cross(hull[hull.size() - 2].counts, hull.back().counts, p.counts) >= 0) {
      hull.pop_back();
    }
    hull.push_back(p);
  }
  return hull;
}

double HullAuc(const std::vector<OperatingPoint>& hull) {
  if (hull.size() < 2) return 0.0;
  double sum = 0.0;  // sum of (fp step) * (tp before + tp after), in counts
  for (size_t i = 1; i < hull.size(); ++i) {
    sum += static_cast<double>(hull[i].counts.fp - hull[i - 1].counts.fp) *
           static_cast<double>(hull[i].counts.tp + hull[i - 1].counts.tp);
  }
  const ConfusionCounts& c = hull.front().counts;
  return sum / 2.0 / (static_cast<double>(c.positives()) * static_cast<double>(c.negatives()));
}

std::string_view AucConventionName(AucConvention convention) {
  return convention == AucConvention::kHull ? "hull" : "mann_whitney";
}

Result<AucConvention> ParseAucConvention(const std::string& name) {
  if (name == "mann_whitney") return AucConvention::kMannWhitney;
  if (name == "hull") return AucConvention::kHull;
  return Error("convention must be mann_whitney or hull, got '" + name + "'");
}

Result<double> ScoreAuc(const std::vector<double>& member_scores,
                        const std::vector<double>& nonmember_scores, AucConvention convention) {
  PB_ASSIGN_OR_RETURN(RocCurve roc, ValidatedRoc(member_scores, nonmember_scores));
  if (convention == AucConvention::kMannWhitney) return roc.auc;
  return HullAuc(RocHull(roc));
}

Result<double> HullTprAtFpr(const std::vector<OperatingPoint>& hull, double fpr) {
  PB_RETURN_IF_ERROR(CheckProbability("fpr", fpr));
  if (hull.size() < 2) return Error("hull must have at least two points");
  return CurveTprAtFpr(ForwardCurve(hull), fpr);
}

Result<double> RandomisedTprAtFpr(const std::vector<double>& member_scores,
                                  const std::vector<double>& nonmember_scores, double fpr) {
  PB_RETURN_IF_ERROR(CheckProbability("fpr", fpr));
  PB_ASSIGN_OR_RETURN(RocCurve roc, ValidatedRoc(member_scores, nonmember_scores));
  return HullTprAtFpr(RocHull(roc), fpr);
}

Result<MaxAccuracy> MaxAccuracyOfScores(const std::vector<double>& member_scores,
                                        const std::vector<double>& nonmember_scores,
                                        const MaxAccuracyOptions& options) {
  if (options.prevalence) PB_RETURN_IF_ERROR(CheckProbability("prevalence", *options.prevalence));
  if (options.alpha) PB_RETURN_IF_ERROR(CheckAlpha(*options.alpha));
  PB_ASSIGN_OR_RETURN(RocCurve roc, ValidatedRoc(member_scores, nonmember_scores));
  const ConfusionCounts& all = roc.points.front().counts;
  MaxAccuracy out;
  out.prevalence = options.prevalence.value_or(
      static_cast<double>(all.positives()) /
      (static_cast<double>(all.positives()) + static_cast<double>(all.negatives())));
  out.accuracy = -1.0;
  size_t argmax = 0;
  for (size_t i = 0; i < roc.points.size(); ++i) {
    const double a = Accuracy(roc.points[i].counts, out.prevalence);
    if (a > out.accuracy) {
      out.accuracy = a;
      argmax = i;
    }
  }
  out.point = roc.points[argmax];
  if (options.alpha) MaxAccuracyUpper(roc, out.prevalence, *options.alpha, argmax, &out);
  return out;
}

Result<double> RawCountEpsilon(const std::vector<double>& member_scores,
                               const std::vector<double>& nonmember_scores,
                               const RawCountOptions& options) {
  if (options.min_count < 1) {
    return Error("min_count must be >= 1, got " + std::to_string(options.min_count));
  }
  PB_RETURN_IF_ERROR(CheckDelta(options.delta));
  PB_ASSIGN_OR_RETURN(RocCurve roc, ValidatedRoc(member_scores, nonmember_scores));
  const std::vector<OperatingPoint> hull = RocHull(roc);
  double eps = CurveRawCountEpsilon(ForwardCurve(hull), options.min_count, options.delta);
  if (!options.one_sided) {
    eps = std::max(eps, CurveRawCountEpsilon(ReverseCurve(hull), options.min_count, options.delta));
  }
  return std::max(eps, 0.0);
}

std::vector<std::string> ScoreMetricNames() {
  return {"auc_mann_whitney", "auc_hull", "tpr_at_fpr", "max_accuracy", "raw_count_epsilon"};
}

Result<ScoreMetric> MakeScoreMetric(const std::string& name, const ScoreMetricParams& params) {
  using V = std::vector<double>;
  if (name == "auc_mann_whitney" || name == "auc_hull") {
    const AucConvention c = name == "auc_hull" ? AucConvention::kHull : AucConvention::kMannWhitney;
    return ScoreMetric([c](const V& m, const V& n) { return ScoreAuc(m, n, c); });
  }
  if (name == "tpr_at_fpr") {
    PB_RETURN_IF_ERROR(CheckProbability("fpr", params.fpr));
    const double fpr = params.fpr;
    return ScoreMetric([fpr](const V& m, const V& n) { return RandomisedTprAtFpr(m, n, fpr); });
  }
  if (name == "max_accuracy") {
    if (params.prevalence) PB_RETURN_IF_ERROR(CheckProbability("prevalence", *params.prevalence));
    const MaxAccuracyOptions o{params.prevalence, std::nullopt};
    return ScoreMetric([o](const V& m, const V& n) -> Result<double> {
      PB_ASSIGN_OR_RETURN(MaxAccuracy a, MaxAccuracyOfScores(m, n, o));
      return a.accuracy;
    });
  }
  if (name == "raw_count_epsilon") {
    if (params.raw_count.min_count < 1) {
      return Error("min_count must be >= 1, got " + std::to_string(params.raw_count.min_count));
    }
    PB_RETURN_IF_ERROR(CheckDelta(params.raw_count.delta));
    const RawCountOptions o = params.raw_count;
    return ScoreMetric([o](const V& m, const V& n) { return RawCountEpsilon(m, n, o); });
  }
  std::string names;
  for (const std::string& n : ScoreMetricNames()) names += (names.empty() ? "" : ", ") + n;
  return Error("metric must be one of " + names + ", got '" + name + "'");
}

}  // namespace privbench
