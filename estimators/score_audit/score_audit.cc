#include "estimators/score_audit/score_audit.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <queue>
#include <utility>

#include "core/quote.h"
#include "core/recent_values.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "core/validate.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/eps_from_rates.h"
#include "estimators/interval_registry.h"
#include "estimators/rate_intervals.h"
#include "estimators/score_audit/multi_split.h"

namespace privbench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Interval {
  double lower = 0.0, upper = kInf;
};

// The lower and upper end a selection ranks, at one threshold's counts and a
// level (`at`); and, for a method with one, the bound of both over a box of
// counts (`over`: the largest lower end and the smallest upper end at any
// counts between fewest_errors and most_errors, IntervalEstimator::
// BoundOverCounts), which the exact search prunes with. `over` is empty for
// a method without.
struct Scorer {
  std::function<Result<Interval>(const ConfusionCounts&, double level_alpha)> at;
  std::function<Result<Interval>(const ConfusionCounts& fewest_errors,
                                 const ConfusionCounts& most_errors, double level_alpha)>
      over;
};

// What a selection chose: the threshold, the counts and interval of the data
// the interval is computed on, its level, how many thresholds it weighed and,
// when those were not every ROC point, which ones.
struct Chosen {
  double threshold = 0.0;
  ConfusionCounts counts;
  Interval interval;
  double level_alpha = 0.0;
  int64_t considered = 0;
  std::string candidates_note;
};

constexpr char kSplitNote[] =
    "threshold chosen on a seeded random half of the scores, interval on the other half at "
    "level alpha: a valid confidence statement";
constexpr char kGridNote[] =
    "thresholds fixed before the audited scores were seen, each interval at level alpha / G, the "
    "best reported; by the union bound all G hold at once: a valid confidence statement";
constexpr char kAllNote[] =
    "thresholds: every score of all the scores (K = P + N + 1, the ROC's points when no two "
    "scores tie), each interval at level alpha / K, the best reported; by the union bound all K "
    "hold at once (Clopper-Pearson limits stay valid at thresholds taken from the data): a valid "
    "confidence statement";
constexpr char kMultiNote[] =
    "the median over seeded splits of the split interval, each at level alpha / 2 (Meinshausen, "
    "Meier & Buhlmann 2009, Thm 3.1): if the truth lies outside, at least half of the splits' "
    "intervals miss, which has probability <= alpha: a valid confidence statement";
constexpr char kMaxNote[] =
    "NOT a valid confidence statement: the threshold maximises the lower end over every ROC "
    "threshold of the same scores the interval is computed on, so the reported lower end exceeds "
    "the truth more often than alpha";

const char* SelectionNote(ThresholdSelection s) {
  switch (s) {
    case ThresholdSelection::kSplit:
      return kSplitNote;
    case ThresholdSelection::kBonferroni:
      return kGridNote;
    case ThresholdSelection::kMaxOverThresholds:
      return kMaxNote;
    case ThresholdSelection::kBonferroniAll:
      return kAllNote;
    case ThresholdSelection::kMultiSplit:
      return kMultiNote;
  }
  return "";
}

// The best of n candidates (tie rule: BetterInterval, first on ties).
Result<std::pair<size_t, Interval>> BestOf(
    size_t n, const std::function<Result<ConfusionCounts>(size_t)>& counts_at, const Scorer& score,
    double level_alpha) {
  size_t best = 0;
  Interval best_iv{-1.0, kInf};
  for (size_t i = 0; i < n; ++i) {
    PB_ASSIGN_OR_RETURN(ConfusionCounts c, counts_at(i));
    PB_ASSIGN_OR_RETURN(Interval iv, score.at(c, level_alpha));
    if (BetterInterval(iv.lower, iv.upper, best_iv.lower, best_iv.upper)) {
      best = i;
      best_iv = iv;
    }
  }
  return std::make_pair(best, best_iv);
}

// ---- The candidate thresholds of a ROC (the work bound; score_audit.h) ----

// The Wilson score interval of k/n at normal quantile z (O(1): the ranking
// proxy's rate bounds).
RateInterval WilsonRate(int64_t k, int64_t n, double z) {
  const double nd = static_cast<double>(n), p = static_cast<double>(k) / nd, z2 = z * z;
  const double center = (p + z2 / (2 * nd)) / (1 + z2 / nd);
  const double half = z / (1 + z2 / nd) * std::sqrt(p * (1 - p) / nd + z2 / (4 * nd * nd));
  return RateInterval{std::max(0.0, center - half), std::min(1.0, center + half)};
}

// An O(1) stand-in for a method's lower end: the rate box of Wilson
// intervals at per-rate tail alpha / 2.
double ProxyLowerEnd(const ConfusionCounts& c, double z, double delta) {
  const RateInterval fnr = WilsonRate(c.fn, c.positives(), z);
  const RateInterval fpr = WilsonRate(c.fp, c.negatives(), z);
  return MinEpsOverBox(RateBox{fnr.lo, fnr.hi, fpr.lo, fpr.hi}, delta);
}

// Phi^-1(p) for p in (0, 1) to ~1e-9 relative (Acklam's rational
// approximation): the ranking proxy's probits, ~50x cheaper than Boost's.
double ApproxProbit(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  if (p <= 0.0) return -kInf;
  if (p >= 1.0) return kInf;
  if (p < 0.02425 || p > 1 - 0.02425) {
    const double q = std::sqrt(-2 * std::log(p < 0.5 ? p : 1 - p));
    const double x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                     ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    return p < 0.5 ? x : -x;
  }
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

// An O(1) stand-in for mu_lower (the Gaussian-DP bound of "bonferroni_all"):
// the one-sided Wilson upper limits at normal quantile z in place of the
// Clopper-Pearson ones.
double ProxyMuLower(const ConfusionCounts& c, double z) {
  const double fpr_u = WilsonRate(c.fp, c.negatives(), z).hi;
  const double fnr_u = WilsonRate(c.fn, c.positives(), z).hi;
  return std::max(0.0, -ApproxProbit(fpr_u) - ApproxProbit(fnr_u));
}

struct Candidates {
  std::vector<size_t> points;  // ascending (ROC order)
  std::string note;            // empty when every point is a candidate
};

// What ranks the corners when there are too many: the rate box of Wilson
// intervals (every method under "split"; under "max_over_thresholds" the
// methods without a bound over counts), or ProxyMuLower (the Gaussian-DP
// bound under "split").
enum class Proxy { kEpsBox, kMuLower };

// The kMaxCandidateThresholds corners with the largest proxy lower end
// (ties: the earlier point), always with point 0; ascending.
std::vector<size_t> TopByProxy(const RocCurve& roc, const std::vector<size_t>& corners,
                               double alpha, double delta, Proxy proxy) {
  std::vector<std::pair<double, size_t>> ranked;
  ranked.reserve(corners.size());
  if (proxy == Proxy::kEpsBox) {
    const double z =
        boost::math::quantile(boost::math::complement(boost::math::normal(), alpha / 2));
    for (size_t i : corners) {
      if (i != 0) ranked.emplace_back(-ProxyLowerEnd(roc.points[i].counts, z, delta), i);
    }
  } else {
    // Each one-sided upper limit at tail alpha / 2, as MuLower's.
    const double z =
        boost::math::quantile(boost::math::complement(boost::math::normal(), alpha / 2));
    for (size_t i : corners) {
      if (i != 0) ranked.emplace_back(-ProxyMuLower(roc.points[i].counts, z), i);
    }
  }
  const size_t keep = static_cast<size_t>(kMaxCandidateThresholds) - 1;
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep),
                    ranked.end());
  std::vector<size_t> out = {0};
  for (size_t j = 0; j < keep; ++j) out.push_back(ranked[j].second);
  std::sort(out.begin(), out.end());
  return out;
}

// The corners of a ROC, ascending: the points not strictly inside a run of
// ROC steps that change only fn (member scores alone) or only fp
// (non-member scores alone); the first and last points always.
std::vector<size_t> RocCorners(const RocCurve& roc) {
  const std::vector<OperatingPoint>& p = roc.points;
  std::vector<size_t> corners;
  corners.reserve(p.size());
  if (p.empty()) return corners;
  corners.push_back(0);
  // One pass, each step i -> i + 1 compared once: point i is inside a run
  // iff the steps on both sides keep fp, or both keep fn.
  bool fp_kept_before = false, fn_kept_before = false;
  for (size_t i = 0; i + 1 < p.size(); ++i) {
    const bool fp_kept = p[i].counts.fp == p[i + 1].counts.fp;
    const bool fn_kept = p[i].counts.fn == p[i + 1].counts.fn;
    if (i > 0 && !((fp_kept_before && fp_kept) || (fn_kept_before && fn_kept))) {
      corners.push_back(i);
    }
    fp_kept_before = fp_kept;
    fn_kept_before = fn_kept;
  }
  if (p.size() > 1) corners.push_back(p.size() - 1);
  return corners;
}

// The candidates of a ROC of more than kMaxCandidateThresholds points, from
// its corners: all of them, or the ranked ones when there are too many.
Candidates CandidatesOfCorners(const RocCurve& roc, std::vector<size_t> corners, double alpha,
                               double delta, Proxy proxy) {
  const size_t cap = static_cast<size_t>(kMaxCandidateThresholds);
  const std::string of = " of the ROC's " + std::to_string(roc.points.size()) + " thresholds";
  Candidates out;
  if (corners.size() <= cap) {
    out.points = std::move(corners);
    out.note = "candidates: the " + std::to_string(out.points.size()) + " corners" + of;
    return out;
  }
  out.points = TopByProxy(roc, corners, alpha, delta, proxy);
  out.note = "candidates: " + std::to_string(cap) + " of the " + std::to_string(corners.size()) +
             " corners" + of + ", those with the largest approximate lower end (work bound)";
  return out;
}

Candidates CandidatePoints(const RocCurve& roc, double alpha, double delta,
                           Proxy proxy = Proxy::kEpsBox) {
  const size_t k = roc.points.size();
  if (k > static_cast<size_t>(kMaxCandidateThresholds)) {
    return CandidatesOfCorners(roc, RocCorners(roc), alpha, delta, proxy);
  }
  Candidates out;
  out.points.resize(k);
  std::iota(out.points.begin(), out.points.end(), size_t{0});
  return out;
}

// Runs of this many candidates or fewer are evaluated point by point (a
// bound costs about two evaluations).
constexpr size_t kPointByPointRun = 3;

// A run of consecutive candidates (positions a..b) and its bound.
struct Run {
  size_t a = 0, b = 0;
  Interval bound;
};

// The best of the candidates so far under BestOf's rule: BetterInterval,
// then the earlier candidate.
struct Incumbent {
  bool found = false;
  size_t position = 0;
  Interval interval;
  bool Beaten(const Interval& iv, size_t pos) const {
    if (!found || BetterInterval(iv.lower, iv.upper, interval.lower, interval.upper)) return true;
    return iv.lower == interval.lower && iv.upper == interval.upper && pos < position;
  }
  // Whether some candidate of `run` may beat it: its bound (the largest
  // lower end, the smallest upper end) and its first position beat it.
  bool MayBeBeatenBy(const Run& run) const { return Beaten(run.bound, run.a); }
};

// What the branch and bound found: the best candidate (its position in the
// candidate list) and its interval, and how many intervals and run bounds
// it evaluated.
struct BranchAndBoundBest {
  size_t position = 0;
  Interval interval;
  int64_t evaluated = 0, bounded = 0;
};

// The best of the ROC points `points` (ascending, at least one) under
// BestOf's rule, the same candidate as BestOf over all of them, by
// best-first branch and bound: a run of consecutive candidates is bounded
// by score.over at its box of counts (fn from the run's last point's to its
// first's, fp from the first's to the last's: along a ROC fn falls and fp
// rises as the threshold falls, so the box holds every ROC point between
// the two, candidate or not), dropped when the bound cannot beat the best
// candidate so far, halved otherwise, and evaluated point by point when
// short.
Result<BranchAndBoundBest> BestByBranchAndBound(const RocCurve& roc,
                                                const std::vector<size_t>& points,
                                                const Scorer& score, double level) {
  auto counts = [&](size_t pos) -> const ConfusionCounts& {
    return roc.points[points[pos]].counts;
  };
  BranchAndBoundBest out;
  auto bound = [&](size_t a, size_t b) -> Result<Run> {
    ConfusionCounts fewest = counts(b), most = counts(a);
    fewest.fp = counts(a).fp;
    fewest.tn = counts(a).tn;
    most.fp = counts(b).fp;
    most.tn = counts(b).tn;
    PB_ASSIGN_OR_RETURN(Interval iv, score.over(fewest, most, level));
    ++out.bounded;
    return Run{a, b, iv};
  };
  // Best-first: the largest bound on the lower end, then the smallest on
  // the upper end, then the earlier run.
  auto after = [](const Run& x, const Run& y) {
    if (x.bound.lower != y.bound.lower) return x.bound.lower < y.bound.lower;
    if (x.bound.upper != y.bound.upper) return x.bound.upper > y.bound.upper;
    return x.a > y.a;
  };
  std::priority_queue<Run, std::vector<Run>, decltype(after)> open(after);
  PB_ASSIGN_OR_RETURN(Run all, bound(0, points.size() - 1));
  open.push(all);
  Incumbent best;
  while (!open.empty()) {
    const Run run = open.top();
    open.pop();
    if (!best.MayBeBeatenBy(run)) continue;
    if (run.b - run.a < kPointByPointRun) {
      for (size_t pos = run.a; pos <= run.b; ++pos) {
        PB_ASSIGN_OR_RETURN(Interval iv, score.at(counts(pos), level));
        ++out.evaluated;
        if (best.Beaten(iv, pos)) best = Incumbent{true, pos, iv};
      }
      continue;
    }
    const size_t mid = run.a + (run.b - run.a) / 2;
    for (const auto& [a, b] : {std::pair{run.a, mid}, std::pair{mid + 1, run.b}}) {
      PB_ASSIGN_OR_RETURN(Run half, bound(a, b));
      if (best.MayBeBeatenBy(half)) open.push(half);
    }
  }
  out.position = best.position;
  out.interval = best.interval;
  return out;
}

// The Chosen of a branch-and-bound search over `points` at `level`.
Chosen ChosenByBranchAndBound(const RocCurve& roc, const std::vector<size_t>& points,
                              const BranchAndBoundBest& best, double level, std::string note) {
  const OperatingPoint& p = roc.points[points[best.position]];
  return Chosen{p.threshold,    p.counts, best.interval, level, static_cast<int64_t>(points.size()),
                std::move(note)};
}

// The best of a ROC's candidates (computed once per ROC and level, shared
// by every method of a selection) at level `level`: by branch and bound for
// a method with a bound over counts (the same candidate as evaluating every
// one, with fewer evaluations), else one by one.
Result<Chosen> ChooseAmong(const RocCurve& roc, const Candidates& c, const Scorer& score,
                           double level) {
  if (score.over && !c.points.empty()) {  // the same candidate, fewer evaluations
    PB_ASSIGN_OR_RETURN(BranchAndBoundBest best, BestByBranchAndBound(roc, c.points, score, level));
    return ChosenByBranchAndBound(roc, c.points, best, level, c.note);
  }
  PB_ASSIGN_OR_RETURN(auto best, BestOf(
                                     c.points.size(),
                                     [&](size_t i) -> Result<ConfusionCounts> {
                                       return roc.points[c.points[i]].counts;
                                     },
                                     score, level));
  const OperatingPoint& p = roc.points[c.points[best.first]];
  return Chosen{p.threshold, p.counts, best.second, level, static_cast<int64_t>(c.points.size()),
                c.note};
}

// The candidates of the Gaussian-DP bound: ranked by its own proxy.
Candidates GaussianDpCandidates(const RocCurve& roc, double level, double delta) {
  return CandidatePoints(roc, level, delta, Proxy::kMuLower);
}

// ---- The exact search of "max_over_thresholds" and "bonferroni_all"
// (score_audit.h, CANDIDATE THRESHOLDS) ----

// The corners of a ROC of more than kMaxCandidateThresholds points (empty
// for a smaller one, which is searched point by point), found once for
// every method of a selection.
struct ExactSearch {
  const RocCurve* roc = nullptr;
  std::vector<size_t> corners;  // ascending
  double delta = 0.0;
};

ExactSearch PrepareExactSearch(const RocCurve& roc, double delta) {
  ExactSearch x;
  x.roc = &roc;
  x.delta = delta;
  if (roc.points.size() > static_cast<size_t>(kMaxCandidateThresholds)) {
    x.corners = RocCorners(roc);
  }
  return x;
}

// The best threshold of the ROC at `level`: every point of a small ROC;
// beyond, the corners searched exactly for a method with a bound, the
// ranked candidates for one without.
Result<Chosen> ChooseExactly(const ExactSearch& x, const Scorer& score, double level) {
  const RocCurve& roc = *x.roc;
  if (x.corners.empty())
    return ChooseAmong(roc, CandidatePoints(roc, level, x.delta), score, level);
  if (!score.over) {
    return ChooseAmong(roc, CandidatesOfCorners(roc, x.corners, level, x.delta, Proxy::kEpsBox),
                       score, level);
  }
  PB_ASSIGN_OR_RETURN(BranchAndBoundBest best, BestByBranchAndBound(roc, x.corners, score, level));
  return ChosenByBranchAndBound(roc, x.corners, best, level,
                                "candidates: the " + std::to_string(x.corners.size()) +
                                    " corners of the ROC's " + std::to_string(roc.points.size()) +
                                    " thresholds, searched exactly by branch and bound (" +
                                    std::to_string(best.evaluated) + " intervals and " +
                                    std::to_string(best.bounded) +
                                    " bounds over runs of corners evaluated)");
}

Result<Chosen> ChooseOverRoc(const RocCurve& roc, const Scorer& score, double alpha, double delta) {
  if (roc.points.empty()) return Error("roc must have at least one point");
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  return ChooseExactly(PrepareExactSearch(roc, delta), score, alpha);
}

// The counts at threshold t (flag iff score >= t) of scores sorted in
// decreasing order: O(log n).
ConfusionCounts CountsAt(const std::vector<double>& member_desc,
                         const std::vector<double>& nonmember_desc, double t) {
  auto flagged = [t](const std::vector<double>& x) {
    return static_cast<int64_t>(
        std::partition_point(x.begin(), x.end(), [t](double v) { return v >= t; }) - x.begin());
  };
  ConfusionCounts c;
  c.tp = flagged(member_desc);
  c.fn = static_cast<int64_t>(member_desc.size()) - c.tp;
  c.fp = flagged(nonmember_desc);
  c.tn = static_cast<int64_t>(nonmember_desc.size()) - c.fp;
  return c;
}

// A split prepared once for every method: the selection half's ROC and its
// candidates at the family level, the audit half sorted.
struct PreparedSplit {
  RocCurve select_roc;
  Candidates candidates;  // shared by every method
  // The Gaussian-DP bound's choice: its own candidates on the selection
  // half, ranked and compared at alpha / K_select (score_audit.h, "split").
  Candidates gdp_candidates;
  double gdp_select_level = 0;
  std::vector<double> audit_member, audit_nonmember;  // decreasing
};

// The threshold chosen on the selection half (among `candidates`, at
// `select_level`), the interval at alpha on the audit half.
Result<Chosen> ChooseSplitAmong(const PreparedSplit& s, const Candidates& candidates,
                                double select_level, const Scorer& score, double alpha) {
  PB_ASSIGN_OR_RETURN(Chosen on_select, ChooseAmong(s.select_roc, candidates, score, select_level));
  const ConfusionCounts at_audit = CountsAt(s.audit_member, s.audit_nonmember, on_select.threshold);
  PB_ASSIGN_OR_RETURN(Interval iv, score.at(at_audit, alpha));
  return Chosen{on_select.threshold,      at_audit, iv, alpha, on_select.considered,
                on_select.candidates_note};
}

Result<Chosen> ChooseSplitPrepared(const PreparedSplit& s, const Scorer& score, double alpha) {
  return ChooseSplitAmong(s, s.candidates, alpha, score, alpha);
}

Scorer GaussianDpScorer();  // below, with MuLower

Result<Chosen> ChooseSplitGaussianDp(const PreparedSplit& s, double alpha) {
  return ChooseSplitAmong(s, s.gdp_candidates, s.gdp_select_level, GaussianDpScorer(), alpha);
}

// K = P + N + 1 of a non-empty ROC: every score a threshold, plus the one
// that flags nobody (the count "bonferroni_all" divides alpha by).
int64_t DataThresholdCount(const RocCurve& roc) {
  const ConfusionCounts& c = roc.points.front().counts;
  return c.positives() + c.negatives() + 1;
}

// The Gaussian-DP bound's selection level, alpha / K_select (held at
// 1e-300 from below: any level keeps the split valid, since the choice
// reads the selection half only), and its candidates on the selection
// half's ROC.
Status PrepareGaussianDpSplit(double alpha, double delta, PreparedSplit* s) {
  if (s->select_roc.points.empty()) return Error("the selection half's roc is empty");
  const double k = static_cast<double>(DataThresholdCount(s->select_roc));
  s->gdp_select_level = std::max(alpha / k, kMinAlpha);
  s->gdp_candidates = GaussianDpCandidates(s->select_roc, s->gdp_select_level, delta);
  return Status::Ok();
}

Status CheckHalves(const ScoreHalves& h) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("halves.select_member", h.select_member));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("halves.select_nonmember", h.select_nonmember));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("halves.audit_member", h.audit_member));
  return CheckFiniteSamples("halves.audit_nonmember", h.audit_nonmember);
}

std::vector<double> Descending(const std::vector<double>& x) {
  std::vector<double> out;
  SortDescending(x, &out, nullptr);
  return out;
}

Result<PreparedSplit> PrepareSplit(const ScoreHalves& h, double alpha) {
  PB_RETURN_IF_ERROR(CheckHalves(h));
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  PreparedSplit s;
  s.select_roc = RocOfDescending(Descending(h.select_member), Descending(h.select_nonmember));
  s.audit_member = Descending(h.audit_member);
  s.audit_nonmember = Descending(h.audit_nonmember);
  return s;
}

Result<Chosen> ChooseSplit(const ScoreHalves& h, const Scorer& score, double alpha, double delta) {
  PB_ASSIGN_OR_RETURN(PreparedSplit s, PrepareSplit(h, alpha));
  s.candidates = CandidatePoints(s.select_roc, alpha, delta);
  return ChooseSplitPrepared(s, score, alpha);
}

Status CheckGrid(const std::vector<double>& grid) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("bonferroni_grid", grid));
  for (size_t i = 1; i < grid.size(); ++i) {
    if (grid[i] < grid[i - 1]) {
      return Error("bonferroni_grid must be ascending, got bonferroni_grid[" + std::to_string(i) +
                   "]=" + FormatDouble(grid[i]) + " after " + FormatDouble(grid[i - 1]));
    }
  }
  return Status::Ok();
}

// The counts at each grid threshold (flag iff score >= t) of scores sorted
// in decreasing order: O(G log n).
std::vector<ConfusionCounts> GridCounts(const std::vector<double>& member_desc,
                                        const std::vector<double>& nonmember_desc,
                                        const std::vector<double>& grid) {
  std::vector<ConfusionCounts> out;
  out.reserve(grid.size());
  for (double t : grid) out.push_back(CountsAt(member_desc, nonmember_desc, t));
  return out;
}

// The best grid threshold, each at level alpha / G, from the grid's counts.
Result<Chosen> ChooseOnGridCounts(const std::vector<double>& grid,
                                  const std::vector<ConfusionCounts>& counts, const Scorer& score,
                                  double alpha) {
  const double level = alpha / static_cast<double>(grid.size());
  PB_ASSIGN_OR_RETURN(
      auto best, BestOf(
                     grid.size(), [&](size_t i) -> Result<ConfusionCounts> { return counts[i]; },
                     score, level));
  return Chosen{grid[best.first],
                counts[best.first],
                best.second,
                level,
                static_cast<int64_t>(grid.size()),
                ""};
}

Result<Chosen> ChooseOnGrid(const std::vector<double>& member, const std::vector<double>& non,
                            const std::vector<double>& grid, const Scorer& score, double alpha) {
  PB_RETURN_IF_ERROR(CheckGrid(grid));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", non));
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  return ChooseOnGridCounts(grid, GridCounts(Descending(member), Descending(non), grid), score,
                            alpha);
}

Scorer MethodScorer(const IntervalEstimator& method, double delta) {
  Scorer s;
  s.at = [&method, delta](const ConfusionCounts& c, double level) -> Result<Interval> {
    PB_ASSIGN_OR_RETURN(EpsInterval e, method.Estimate(c, delta, level));
    return Interval{e.lower, e.upper.has_value() ? *e.upper : kInf};
  };
  if (method.bounds_over_counts()) {
    s.over = [&method, delta](const ConfusionCounts& fewest, const ConfusionCounts& most,
                              double level) -> Result<Interval> {
      PB_ASSIGN_OR_RETURN(EpsIntervalBound b, method.BoundOverCounts(fewest, most, delta, level));
      return Interval{b.lower_max, b.upper_min};
    };
  }
  return s;
}

AuditInterval MakeAuditInterval(const IntervalEstimator& method, ThresholdSelection s,
                                const Chosen& c) {
  AuditInterval r;
  r.method = std::string(method.name());
  r.selection = s;
  r.threshold = c.threshold;
  r.counts = c.counts;
  r.lower = c.interval.lower;
  r.upper = c.interval.upper;
  r.level_alpha = c.level_alpha;
  r.thresholds_considered = c.considered;
  r.valid_confidence_statement = s != ThresholdSelection::kMaxOverThresholds;
  r.note = SelectionNote(s);
  if (!c.candidates_note.empty()) r.note += " (" + c.candidates_note + ")";
  return r;
}

// Phi^-1(U) for the one-sided Clopper-Pearson upper limit U of k/n at level
// a, U = B(1 - a; k + 1, n - k) (1 at k = n): the two-sided limit of
// rate_intervals.h at significance 2a. Formed from the smaller of U and
// 1 - U = B(a; n - k, k + 1), so that neither tail loses digits. `upper`
// receives U; when it is null and k > n / 2, U is not computed: then
// U > k / n > 1/2 (a < 1/2: Binomial(n, k / n) puts at least half its mass
// at or below k, more than a), so the probit comes from 1 - U as it would
// with U at hand, one Beta quantile instead of two.
double ProbitOfUpperLimit(int64_t k, int64_t n, double a, double* upper) {
  if (k >= n) {
    if (upper != nullptr) *upper = 1.0;
    return kInf;
  }
  const double kd = static_cast<double>(k), nd = static_cast<double>(n);
  const boost::math::normal standard;
  // BetaUpperQuantile / BetaLowerQuantile are Boost's inverses where they
  // converge and a bisection where they do not (alpha = 1e-100 and below).
  if (upper != nullptr || 2 * k <= n) {
    const double u = BetaUpperQuantile(kd + 1.0, nd - kd, a);
    if (upper != nullptr) *upper = u;
    if (u <= 0.0) return -kInf;
    if (u <= 0.5) return boost::math::quantile(standard, u);
  }
  const double complement = BetaLowerQuantile(nd - kd, kd + 1.0, a);
  if (complement <= 0.0) return kInf;
  return -boost::math::quantile(standard, complement);
}

// ProbitOfUpperLimit(k, n, a, nullptr) from this thread's memo of recent
// ones: the exact search bounds a run by mu_lower at its fewest errors, and
// a half of the run keeps one of those two counts (core/recent_values.h).
double RecentProbitOfUpperLimit(int64_t k, int64_t n, double a) {
  thread_local RecentValues<3, double> recent;
  return recent.Get({static_cast<uint64_t>(k), static_cast<uint64_t>(n), KeyBits(a)},
                    [&] { return ProbitOfUpperLimit(k, n, a, nullptr); });
}

// mu_lower at counts and level (each rate at level_alpha / 2), and the
// two upper limits when asked for (non-null; the search asks for mu_lower
// alone, from the memo).
Result<double> MuLower(const ConfusionCounts& c, double level_alpha, double* fpr_upper = nullptr,
                       double* fnr_upper = nullptr) {
  PB_RETURN_IF_ERROR(c.Validate());
  PB_RETURN_IF_ERROR(CheckAlpha(level_alpha));
  const double a = level_alpha / 2;
  try {
    const bool with_limits = fpr_upper != nullptr && fnr_upper != nullptr;
    const double z_fpr = with_limits ? ProbitOfUpperLimit(c.fp, c.negatives(), a, fpr_upper)
                                     : RecentProbitOfUpperLimit(c.fp, c.negatives(), a);
    const double z_fnr = with_limits ? ProbitOfUpperLimit(c.fn, c.positives(), a, fnr_upper)
                                     : RecentProbitOfUpperLimit(c.fn, c.positives(), a);
    // Phi^-1(1 - FPR_u) = -Phi^-1(FPR_u).
    const double mu = -z_fpr - z_fnr;
    return std::isnan(mu) ? 0.0 : std::max(0.0, mu);
  } catch (const std::exception& e) {
    return Error("gaussian_dp failed at " + c.ToString() + ": " + e.what());
  }
}

// mu_lower is non-increasing in fp and in fn (its one-sided
// Clopper-Pearson upper limits are non-decreasing in their count), so its
// largest value over a box of counts is at the fewest errors; it has no
// upper end (+inf everywhere).
Scorer GaussianDpScorer() {
  Scorer s;
  s.at = [](const ConfusionCounts& c, double level) -> Result<Interval> {
    PB_ASSIGN_OR_RETURN(double mu, MuLower(c, level));
    return Interval{mu, kInf};
  };
  s.over = [at = s.at](const ConfusionCounts& fewest, const ConfusionCounts&,
                       double level) -> Result<Interval> { return at(fewest, level); };
  return s;
}

Result<GaussianDpBound> MakeGaussianDpBound(ThresholdSelection s, const Chosen& c, double delta) {
  PB_ASSIGN_OR_RETURN(GaussianDpBound b, GaussianDpAtCounts(c.counts, delta, c.level_alpha));
  b.selection = s;
  b.threshold = c.threshold;
  b.thresholds_considered = c.considered;
  b.valid_confidence_statement = s != ThresholdSelection::kMaxOverThresholds;
  b.note = std::string("threshold maximises mu_lower; ") + SelectionNote(s) + "; " + b.note;
  if (!c.candidates_note.empty()) b.note += " (" + c.candidates_note + ")";
  return b;
}

// The type 7 quantile of sorted `x` (core/stats.h's Quantile, the same
// arithmetic), interpolated as a weighted mean where the difference of the
// two neighbours overflows (scores of +-1e308), so that it stays finite.
double QuantileOfSorted(const std::vector<double>& x, double p) {
  const double h = p * static_cast<double>(x.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, x.size() - 1);
  const double f = h - static_cast<double>(lo);
  const double q = x[lo] + f * (x[hi] - x[lo]);
  return std::isfinite(q) ? q : (1.0 - f) * x[lo] + f * x[hi];
}

// Seeded Fisher-Yates permutation of 0..n-1 (our own index draws, so the
// order is the same with every standard library; as in E1).
// (Index: uint32_t where n fits, halving the permutation's memory; the
// draws, and so the permutation, are the same.)
template <typename Index>
std::vector<Index> Permutation(size_t n, uint64_t seed) {
  std::vector<Index> v(n);
  std::iota(v.begin(), v.end(), Index{0});
  Rng rng(seed);
  for (size_t i = n; i-- > 1;) {
    const size_t j = static_cast<size_t>(rng() % static_cast<uint64_t>(i + 1));
    std::swap(v[i], v[j]);
  }
  return v;
}

template <typename Index>
std::vector<uint8_t> FirstHalfOfPermutation(size_t n, uint64_t seed) {
  std::vector<uint8_t> in_select(n, 0);
  const std::vector<Index> p = Permutation<Index>(n, seed);
  for (size_t i = 0; i < n / 2; ++i) in_select[p[i]] = 1;
  return in_select;
}

// 1 for the input positions of the selection half: the first floor(n/2) of
// a seeded permutation.
std::vector<uint8_t> SelectionMask(size_t n, uint64_t seed) {
  return n <= std::numeric_limits<uint32_t>::max() ? FirstHalfOfPermutation<uint32_t>(n, seed)
                                                   : FirstHalfOfPermutation<size_t>(n, seed);
}

Status CheckSplitSizes(size_t members, size_t nonmembers) {
  if (members < 2) {
    return Error("split: each half needs a member score, but member_scores has 1 (needs >= 2)");
  }
  if (nonmembers < 2) {
    return Error(
        "split: each half needs a non-member score, but nonmember_scores has 1 (needs >= 2)");
  }
  return Status::Ok();
}

// The first floor(n/2) of a seeded permutation go to *select, the rest to
// *audit; both keep the input order.
void SplitSide(const std::vector<double>& x, uint64_t seed, std::vector<double>* select,
               std::vector<double>* audit) {
  const std::vector<uint8_t> in_select = SelectionMask(x.size(), seed);
  select->reserve(x.size() / 2);
  audit->reserve(x.size() - x.size() / 2);
  for (size_t i = 0; i < x.size(); ++i) (in_select[i] ? select : audit)->push_back(x[i]);
}

// One side's scores in decreasing order, and, when a split is drawn, its
// halves (those of SplitSide), each in decreasing order (SortHalvesDescending).
struct SortedSide {
  std::vector<double> all, select, audit;
};

// The halves of scores sorted in decreasing order (`origin`: each rank's
// input position; SortDescending), both decreasing.
void SplitSorted(const std::vector<double>& all, const std::vector<uint64_t>& origin,
                 const std::vector<uint8_t>& in_select, std::vector<double>* select,
                 std::vector<double>* audit) {
  select->clear();
  audit->clear();
  select->reserve(all.size() / 2);
  audit->reserve(all.size() - all.size() / 2);
  for (size_t r = 0; r < all.size(); ++r) {
    (in_select[origin[r]] != 0 ? select : audit)->push_back(all[r]);
  }
}

SortedSide SortSide(const std::vector<double>& x, const std::vector<uint8_t>* in_select) {
  SortedSide s;
  if (in_select == nullptr) {
    SortDescending(x, &s.all, nullptr);
  } else {
    SortHalvesDescending(x, *in_select, &s.select, &s.audit, &s.all);
  }
  return s;
}

// The ascending pool of two decreasing samples (CalibrationQuantileGrid's
// sorted pool, without sorting again).
std::vector<double> AscendingPool(const std::vector<double>& a_desc,
                                  const std::vector<double>& b_desc) {
  std::vector<double> pooled(a_desc.size() + b_desc.size());
  std::merge(a_desc.rbegin(), a_desc.rend(), b_desc.rbegin(), b_desc.rend(), pooled.begin());
  return pooled;
}

std::vector<double> QuantileGridOfSorted(const std::vector<double>& pooled, int64_t g) {
  std::vector<double> grid;
  grid.reserve(static_cast<size_t>(g));
  for (int64_t j = 0; j < g; ++j) {
    grid.push_back(
        QuantileOfSorted(pooled, (static_cast<double>(j) + 0.5) / static_cast<double>(g)));
  }
  return grid;
}

}  // namespace

std::string_view ThresholdSelectionName(ThresholdSelection selection) {
  switch (selection) {
    case ThresholdSelection::kSplit:
      return "split";
    case ThresholdSelection::kBonferroni:
      return "bonferroni";
    case ThresholdSelection::kMaxOverThresholds:
      return "max_over_thresholds";
    case ThresholdSelection::kBonferroniAll:
      return "bonferroni_all";
    case ThresholdSelection::kMultiSplit:
      return "multi_split";
  }
  return "unknown";
}

Result<ThresholdSelection> ParseThresholdSelection(const std::string& name) {
  for (ThresholdSelection s :
       {ThresholdSelection::kSplit, ThresholdSelection::kBonferroni,
        ThresholdSelection::kMaxOverThresholds, ThresholdSelection::kBonferroniAll,
        ThresholdSelection::kMultiSplit}) {
    if (name == ThresholdSelectionName(s)) return s;
  }
  return Error(
      "selections must name split, bonferroni, bonferroni_all, max_over_thresholds or "
      "multi_split, got " +
      QuoteText(name));
}

bool HoldsAtDataThresholds(std::string_view method) {
  return method == "clopper_pearson" || method == "clopper_pearson_one_sided";
}

Result<double> BonferroniAllLevel(const RocCurve& roc, double alpha) {
  if (roc.points.empty()) return Error("roc must have at least one point");
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  const int64_t k = DataThresholdCount(roc);
  const double level = alpha / static_cast<double>(k);
  if (level < kMinAlpha) {
    return Error("alpha / K must be >= 1e-300 for bonferroni_all, got alpha=" +
                 FormatDouble(alpha) + " over K=" + std::to_string(k) +
                 " thresholds: raise alpha or leave bonferroni_all out of selections");
  }
  return level;
}

bool BetterInterval(double lower_a, double upper_a, double lower_b, double upper_b) {
  return lower_a > lower_b || (lower_a == lower_b && upper_a < upper_b);
}

Result<ScoreHalves> SplitScoreHalves(const std::vector<double>& member_scores,
                                     const std::vector<double>& nonmember_scores, uint64_t seed) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  PB_RETURN_IF_ERROR(CheckSplitSizes(member_scores.size(), nonmember_scores.size()));
  ScoreHalves h;
  SplitSide(member_scores, DeriveSeed(seed, {1, 0}), &h.select_member, &h.audit_member);
  SplitSide(nonmember_scores, DeriveSeed(seed, {1, 1}), &h.select_nonmember, &h.audit_nonmember);
  return h;
}

Result<std::vector<double>> CalibrationQuantileGrid(const ScoreHalves& halves, int64_t g) {
  if (g < 1) return Error("bonferroni_quantiles must be >= 1, got " + std::to_string(g));
  PB_RETURN_IF_ERROR(CheckHalves(halves));
  std::vector<double> pooled = halves.select_member;
  pooled.insert(pooled.end(), halves.select_nonmember.begin(), halves.select_nonmember.end());
  std::sort(pooled.begin(), pooled.end());
  return QuantileGridOfSorted(pooled, g);
}

Result<AuditInterval> SelectSplit(const IntervalEstimator& method, const ScoreHalves& halves,
                                  double delta, double alpha) {
  PB_ASSIGN_OR_RETURN(Chosen c, ChooseSplit(halves, MethodScorer(method, delta), alpha, delta));
  return MakeAuditInterval(method, ThresholdSelection::kSplit, c);
}

Result<AuditInterval> SelectOnGrid(const IntervalEstimator& method,
                                   const std::vector<double>& member_scores,
                                   const std::vector<double>& nonmember_scores,
                                   const std::vector<double>& grid, double delta, double alpha) {
  PB_ASSIGN_OR_RETURN(Chosen c, ChooseOnGrid(member_scores, nonmember_scores, grid,
                                             MethodScorer(method, delta), alpha));
  return MakeAuditInterval(method, ThresholdSelection::kBonferroni, c);
}

Result<AuditInterval> SelectMaxOverThresholds(const IntervalEstimator& method, const RocCurve& roc,
                                              double delta, double alpha) {
  PB_ASSIGN_OR_RETURN(Chosen c, ChooseOverRoc(roc, MethodScorer(method, delta), alpha, delta));
  return MakeAuditInterval(method, ThresholdSelection::kMaxOverThresholds, c);
}

Result<AuditInterval> SelectBonferroniAll(const IntervalEstimator& method, const RocCurve& roc,
                                          double delta, double alpha) {
  if (!HoldsAtDataThresholds(method.name())) {
    return Error(
        "method: bonferroni_all holds for clopper_pearson and clopper_pearson_one_sided "
        "only (score_audit.h), got " +
        std::string(method.name()));
  }
  PB_ASSIGN_OR_RETURN(const double level, BonferroniAllLevel(roc, alpha));
  PB_ASSIGN_OR_RETURN(
      Chosen c, ChooseExactly(PrepareExactSearch(roc, delta), MethodScorer(method, delta), level));
  return MakeAuditInterval(method, ThresholdSelection::kBonferroniAll, c);
}

namespace {

// eps_lower of b.mu_lower at delta, and the note saying what it assumes.
Status SetGaussianDpEps(double delta, GaussianDpBound* bound) {
  GaussianDpBound& b = *bound;
  if (delta == 0.0) {
    b.note =
        "eps_lower not reported at delta = 0: every mu-GDP profile with mu > 0 has eps(0) = +inf, "
        "a property of the assumed Gaussian trade-off, not of the data";
  } else if (b.mu_lower == 0.0) {
    b.eps_lower = 0.0;
    b.note = "mu_lower = 0, so eps_lower = 0";
  } else {
    PB_ASSIGN_OR_RETURN(b.eps_lower, GaussianDpEpsilon(b.mu_lower, delta));
    b.note = "eps_lower assumes the mechanism's trade-off curve is Gaussian (Nasr et al. 2023)";
  }
  return Status::Ok();
}

}  // namespace

Result<GaussianDpBound> GaussianDpAtCounts(const ConfusionCounts& counts, double delta,
                                           double level_alpha) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  GaussianDpBound b;
  b.counts = counts;
  b.level_alpha = level_alpha;
  PB_ASSIGN_OR_RETURN(b.mu_lower, MuLower(counts, level_alpha, &b.fpr_upper, &b.fnr_upper));
  PB_RETURN_IF_ERROR(SetGaussianDpEps(delta, &b));
  return b;
}

Result<GaussianDpBound> GaussianDpSplit(const ScoreHalves& halves, double delta, double alpha) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  PB_ASSIGN_OR_RETURN(PreparedSplit s, PrepareSplit(halves, alpha));
  PB_RETURN_IF_ERROR(PrepareGaussianDpSplit(alpha, delta, &s));
  PB_ASSIGN_OR_RETURN(Chosen c, ChooseSplitGaussianDp(s, alpha));
  return MakeGaussianDpBound(ThresholdSelection::kSplit, c, delta);
}

Result<GaussianDpBound> GaussianDpOnGrid(const std::vector<double>& member_scores,
                                         const std::vector<double>& nonmember_scores,
                                         const std::vector<double>& grid, double delta,
                                         double alpha) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  PB_ASSIGN_OR_RETURN(
      Chosen c, ChooseOnGrid(member_scores, nonmember_scores, grid, GaussianDpScorer(), alpha));
  return MakeGaussianDpBound(ThresholdSelection::kBonferroni, c, delta);
}

Result<GaussianDpBound> GaussianDpMaxOverThresholds(const RocCurve& roc, double delta,
                                                    double alpha) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  PB_ASSIGN_OR_RETURN(Chosen c, ChooseOverRoc(roc, GaussianDpScorer(), alpha, delta));
  return MakeGaussianDpBound(ThresholdSelection::kMaxOverThresholds, c, delta);
}

Result<GaussianDpBound> GaussianDpBonferroniAll(const RocCurve& roc, double delta, double alpha) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  PB_ASSIGN_OR_RETURN(const double level, BonferroniAllLevel(roc, alpha));
  PB_ASSIGN_OR_RETURN(Chosen c,
                      ChooseExactly(PrepareExactSearch(roc, delta), GaussianDpScorer(), level));
  return MakeGaussianDpBound(ThresholdSelection::kBonferroniAll, c, delta);
}

namespace {

bool Wants(const ScoreAuditOptions& o, ThresholdSelection s) {
  return std::find(o.selections.begin(), o.selections.end(), s) != o.selections.end();
}

Status CheckOptions(const ScoreAuditOptions& o) {
  PB_RETURN_IF_ERROR(CheckAlpha(o.alpha));
  PB_RETURN_IF_ERROR(CheckDelta(o.delta));
  if (o.selections.empty()) return Error("selections must be non-empty");
  for (size_t i = 0; i < o.selections.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (o.selections[i] == o.selections[j]) {
        return Error("selections must not repeat, got " +
                     std::string(ThresholdSelectionName(o.selections[i])) + " twice");
      }
    }
  }
  const std::string bound = std::to_string(kMaxBonferroniThresholds);
  const int64_t g = o.bonferroni_grid.has_value() ? static_cast<int64_t>(o.bonferroni_grid->size())
                                                  : o.bonferroni_quantiles;
  if (Wants(o, ThresholdSelection::kBonferroni) && g >= 1 &&
      o.alpha / static_cast<double>(g) < kMinAlpha) {
    return Error("alpha / G must be >= 1e-300 for bonferroni, got alpha=" + FormatDouble(o.alpha) +
                 " over G=" + std::to_string(g) +
                 " thresholds: raise alpha, lower bonferroni_quantiles (or shorten "
                 "bonferroni_grid), or leave bonferroni out of selections");
  }
  if (o.bonferroni_grid.has_value()) {
    if (static_cast<int64_t>(o.bonferroni_grid->size()) > kMaxBonferroniThresholds) {
      return Error("bonferroni_grid must have at most " + bound +
                   " thresholds (the work bound: every method runs at each), got " +
                   std::to_string(o.bonferroni_grid->size()));
    }
    PB_RETURN_IF_ERROR(CheckGrid(*o.bonferroni_grid));
  } else if (o.bonferroni_quantiles < 1 || o.bonferroni_quantiles > kMaxBonferroniThresholds) {
    return Error("bonferroni_quantiles must be in [1, " + bound +
                 "] (the work bound: every method runs at each threshold), got " +
                 std::to_string(o.bonferroni_quantiles));
  }
  if (o.multi_split_count < 1 || o.multi_split_count > kMaxMultiSplits) {
    return Error("multi_split_count must be in [1, " + std::to_string(kMaxMultiSplits) +
                 "] (the work bound: each split runs every method), got " +
                 std::to_string(o.multi_split_count));
  }
  if (Wants(o, ThresholdSelection::kMultiSplit) && o.alpha / 2 < kMinAlpha) {
    return Error("alpha / 2 must be >= 1e-300 for multi_split, got alpha=" + FormatDouble(o.alpha) +
                 ": raise alpha or leave multi_split out of selections");
  }
  return Status::Ok();
}

// The estimators to run. Default: every registered one; those defined for
// delta = 0 only are skipped at delta > 0, and so is one that refuses the
// full data's counts (probed at the all-flagged point). Named: each must
// exist, apply and accept the data.
Result<std::vector<std::unique_ptr<IntervalEstimator>>> ResolveMethods(
    const ScoreAuditOptions& o, const ConfusionCounts& all_flagged, ScoreAudit* out) {
  const bool named = !o.methods.empty();
  const std::vector<std::string> names = named ? o.methods : AllIntervalEstimatorNames();
  std::vector<std::unique_ptr<IntervalEstimator>> methods;
  for (size_t i = 0; i < names.size(); ++i) {
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]) !=
        names.begin() + static_cast<std::ptrdiff_t>(i)) {
      return Error("methods must not repeat, got " + names[i] + " twice");
    }
    PB_ASSIGN_OR_RETURN(auto m, MakeIntervalEstimator(names[i], "methods"));
    if (o.delta > 0.0 && m->requires_zero_delta()) {
      const std::string reason = "defined for delta = 0 only, got delta=" + FormatDouble(o.delta);
      if (named) return Error("methods: " + names[i] + " is " + reason);
      out->skipped_methods.push_back({names[i], reason});
      continue;
    }
    const Result<EpsInterval> probe = m->Estimate(all_flagged, o.delta, o.alpha);
    if (!probe.ok()) {
      if (named) return Error("methods: " + names[i] + " refuses the scores: " + probe.message());
      out->skipped_methods.push_back({names[i], probe.message()});
      continue;
    }
    out->methods.push_back(names[i]);
    methods.push_back(std::move(m));
  }
  return methods;
}

Result<std::vector<TprAtFpr>> TprAtLowFpr(const RocCurve& roc, double alpha) {
  std::vector<TprAtFpr> out;
  for (double level : kAuditFprLevels) {
    TprAtFpr t;
    t.max_fpr = level;
    PB_ASSIGN_OR_RETURN(t.point, BestTprAtFpr(roc, level));
    t.tpr = t.point.tpr();
    try {
      const RateInterval ci =
          ClopperPearsonRate(t.point.counts.tp, t.point.counts.positives(), alpha);
      t.tpr_lower = ci.lo;
      t.tpr_upper = ci.hi;
    } catch (const std::exception& e) {
      return Error("Clopper-Pearson TPR interval failed at " + t.point.counts.ToString() + ": " +
                   e.what());
    }
    out.push_back(t);
  }
  return out;
}

// The data each selection evaluates on, prepared once for every method.
struct AuditData {
  PreparedSplit split;  // "split"
  // "bonferroni": the grid's counts, the sizes of the scores they count and
  // where the grid came from, which scores the intervals use.
  std::vector<ConfusionCounts> grid_counts;
  int64_t grid_positives = 0, grid_negatives = 0;
  std::string grid_note;
};

// A method that cannot run at a selection's level (the Bayesian methods
// refuse alpha below 1e-6) is left out of that selection alone, and
// skipped_methods says so; it keeps its other rows.
// `family` names the level ("alpha / G"), `count` the thresholds ("G = 16
// thresholds").
bool SkipAtLevel(const IntervalEstimator& m, std::string_view selection, int64_t positives,
                 int64_t negatives, double level, const std::string& family,
                 const std::string& count, double delta, ScoreAudit* out) {
  ConfusionCounts all_flagged;
  all_flagged.tp = positives;
  all_flagged.fp = negatives;
  const Result<EpsInterval> probe = m.Estimate(all_flagged, delta, level);
  if (probe.ok()) return false;
  out->skipped_methods.push_back({std::string(m.name()), std::string(selection) +
                                                             " only: its level " + family + " = " +
                                                             FormatDouble(level) + " (" + count +
                                                             ") is refused: " + probe.message()});
  return true;
}

bool SkipAtGridLevel(const IntervalEstimator& m, const AuditData& d, size_t grid_size, double delta,
                     double alpha, ScoreAudit* out) {
  return SkipAtLevel(m, "bonferroni", d.grid_positives, d.grid_negatives,
                     alpha / static_cast<double>(grid_size), "alpha / G",
                     "G = " + std::to_string(grid_size) + " thresholds", delta, out);
}

// "bonferroni_all" runs the methods whose limits hold at thresholds taken
// from the data (HoldsAtDataThresholds); the others are skipped for it.
bool SkipForBonferroniAll(const IntervalEstimator& m, double level, double delta, ScoreAudit* out) {
  if (!HoldsAtDataThresholds(m.name())) {
    out->skipped_methods.push_back(
        {std::string(m.name()),
         "bonferroni_all only: its intervals are not shown to hold at thresholds taken from the "
         "data (only the Clopper-Pearson methods' are; score_audit.h)"});
    return true;
  }
  const ConfusionCounts& c = out->roc.points.front().counts;
  return SkipAtLevel(m, "bonferroni_all", c.positives(), c.negatives(), level, "alpha / K",
                     "K = " + std::to_string(DataThresholdCount(out->roc)) + " thresholds", delta,
                     out);
}

// One selection's rows: every method, then the Gaussian-DP bound. The
// candidates of a ROC are computed once per selection.
Status AuditSelection(ThresholdSelection s,
                      const std::vector<std::unique_ptr<IntervalEstimator>>& ms, const AuditData& d,
                      double delta, double alpha, ScoreAudit* out) {
  using TS = ThresholdSelection;
  const RocCurve& roc = out->roc;
  ExactSearch exact;
  double level = alpha;
  if (s == TS::kMaxOverThresholds || s == TS::kBonferroniAll)
    exact = PrepareExactSearch(roc, delta);
  if (s == TS::kBonferroniAll) {
    PB_ASSIGN_OR_RETURN(level, BonferroniAllLevel(roc, alpha));
  }
  auto choose = [&](const Scorer& score) -> Result<Chosen> {
    if (s == TS::kSplit) return ChooseSplitPrepared(d.split, score, alpha);
    if (s == TS::kBonferroni)
      return ChooseOnGridCounts(out->bonferroni_grid, d.grid_counts, score, alpha);
    return ChooseExactly(exact, score, level);
  };
  for (const auto& m : ms) {
    if (s == TS::kBonferroni &&
        SkipAtGridLevel(*m, d, out->bonferroni_grid.size(), delta, alpha, out)) {
      continue;
    }
    if (s == TS::kBonferroniAll && SkipForBonferroniAll(*m, level, delta, out)) continue;
    PB_ASSIGN_OR_RETURN(Chosen c, choose(MethodScorer(*m, delta)));
    AuditInterval row = MakeAuditInterval(*m, s, c);
    if (s == TS::kBonferroni) row.note += " (" + d.grid_note + ")";
    out->intervals.push_back(std::move(row));
  }
  PB_ASSIGN_OR_RETURN(Chosen c, s == TS::kSplit ? ChooseSplitGaussianDp(d.split, alpha)
                                                : choose(GaussianDpScorer()));
  PB_ASSIGN_OR_RETURN(GaussianDpBound gdp, MakeGaussianDpBound(s, c, delta));
  if (s == TS::kBonferroni) gdp.note += "; bonferroni grid: " + d.grid_note;
  out->gaussian_dp.push_back(std::move(gdp));
  return Status::Ok();
}

// The grid of "bonferroni" and the counts at it: the user's grid on all the
// scores, or the quantiles of the selection half on the audit half.
void PrepareGrid(const ScoreAuditOptions& o, const SortedSide& m, const SortedSide& n,
                 ScoreAudit* out, AuditData* d) {
  const std::vector<double>*member = &m.all, *nonmember = &n.all;
  if (o.bonferroni_grid.has_value()) {
    out->bonferroni_grid = *o.bonferroni_grid;
    out->bonferroni_grid_source = "user grid";
    d->grid_note = "user grid, intervals on all the scores";
  } else {
    out->bonferroni_grid =
        QuantileGridOfSorted(AscendingPool(m.select, n.select), o.bonferroni_quantiles);
    out->bonferroni_grid_source = "quantiles of the selection half";
    d->grid_note = "quantiles of the selection half, intervals on the audit half";
    member = &m.audit;
    nonmember = &n.audit;
  }
  d->grid_counts = GridCounts(*member, *nonmember, out->bonferroni_grid);
  d->grid_positives = static_cast<int64_t>(member->size());
  d->grid_negatives = static_cast<int64_t>(nonmember->size());
}

// ---- "multi_split" (score_audit.h): S splits, each prepared once for
// every method and the Gaussian-DP bound. ----

// One side sorted once (decreasing) with each rank's input position.
struct OriginSorted {
  std::vector<double> all;
  std::vector<uint64_t> origin;
};

OriginSorted SortWithOrigin(const std::vector<double>& x) {
  OriginSorted s;
  SortDescending(x, &s.all, &s.origin);
  return s;
}

// Split `seed` as SelectSplit and GaussianDpSplit prepare
// SplitScoreHalves(members, non-members, seed) at `level` (the same halves,
// read off the sides sorted once: the same sorted values).
Result<PreparedSplit> PrepareSplitOfSorted(const OriginSorted& m, const OriginSorted& n,
                                           uint64_t seed, double level, double delta) {
  PreparedSplit s;
  std::vector<double> select_m, select_n;
  SplitSorted(m.all, m.origin, SelectionMask(m.all.size(), DeriveSeed(seed, {1, 0})), &select_m,
              &s.audit_member);
  SplitSorted(n.all, n.origin, SelectionMask(n.all.size(), DeriveSeed(seed, {1, 1})), &select_n,
              &s.audit_nonmember);
  s.select_roc = RocOfDescending(select_m, select_n);
  s.candidates = CandidatePoints(s.select_roc, level, delta);
  PB_RETURN_IF_ERROR(PrepareGaussianDpSplit(level, delta, &s));
  return s;
}

// The representative split (score_audit.h): ordered by bound, ties by index,
// the one at position floor((S - 1) / 2).
size_t RepresentativeSplit(const std::vector<double>& bounds) {
  std::vector<size_t> order(bounds.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return bounds[a] < bounds[b]; });
  return order[(order.size() - 1) / 2];
}

// What a row's note adds: the representative split and its bound (`what`:
// "lower end" or "mu_lower").
std::string RepresentativeNote(const MultiSplitResult& r, size_t j, const std::string& what) {
  const size_t splits = r.split_bounds.size();
  return "S = " + std::to_string(splits) +
         " splits; threshold and counts are those of the representative split " +
         std::to_string(j) + " (seed DeriveSeed(seed, {3, " + std::to_string(j) + "})), whose " +
         what + " " + FormatDouble(r.split_bounds[j]) + " is " +
         (splits % 2 == 1 ? "the median" : "the lower of the two middle ones");
}

// Every split's choice for each method (then the Gaussian-DP bound), and
// the S bounds of each through MultiSplitEach.
struct MultiSplitRun {
  std::vector<std::vector<Chosen>> chosen;  // [bound][split]
  std::vector<MultiSplitResult> results;    // [bound]
};

Result<MultiSplitRun> RunMultiSplit(const std::vector<const IntervalEstimator*>& ms,
                                    const std::vector<double>& member_scores,
                                    const std::vector<double>& nonmember_scores,
                                    const ScoreAuditOptions& o) {
  const OriginSorted m = SortWithOrigin(member_scores), n = SortWithOrigin(nonmember_scores);
  MultiSplitRun run;
  run.chosen.resize(ms.size() + 1);
  const double delta = o.delta;
  const SplitBounds bounds = [&](uint64_t seed, double level) -> Result<std::vector<double>> {
    PB_ASSIGN_OR_RETURN(PreparedSplit s, PrepareSplitOfSorted(m, n, seed, level, delta));
    std::vector<double> lower;
    for (size_t k = 0; k <= ms.size(); ++k) {
      PB_ASSIGN_OR_RETURN(Chosen c, k < ms.size()
                                        ? ChooseSplitPrepared(s, MethodScorer(*ms[k], delta), level)
                                        : ChooseSplitGaussianDp(s, level));
      lower.push_back(c.interval.lower);
      run.chosen[k].push_back(std::move(c));
    }
    return lower;
  };
  MultiSplitOptions options;
  options.alpha = o.alpha;
  options.num_splits = o.multi_split_count;
  options.seed = o.seed;
  Result<std::vector<MultiSplitResult>> results = MultiSplitEach(bounds, ms.size() + 1, options);
  if (!results.ok()) return Error("multi_split: " + results.message());
  run.results = std::move(results).value();
  return run;
}

AuditInterval MultiSplitRow(const IntervalEstimator& method, const std::vector<Chosen>& chosen,
                            const MultiSplitResult& r) {
  const size_t j = RepresentativeSplit(r.split_bounds);
  AuditInterval row = MakeAuditInterval(method, ThresholdSelection::kMultiSplit, chosen[j]);
  std::vector<double> upper;
  for (const Chosen& c : chosen) upper.push_back(c.interval.upper);
  row.lower = r.bound;
  row.upper = Median(upper);
  row.note += "; " + RepresentativeNote(r, j, "lower end");
  return row;
}

Result<GaussianDpBound> MultiSplitGaussianDp(const std::vector<Chosen>& chosen,
                                             const MultiSplitResult& r, double delta) {
  const size_t j = RepresentativeSplit(r.split_bounds);
  PB_ASSIGN_OR_RETURN(GaussianDpBound b,
                      MakeGaussianDpBound(ThresholdSelection::kMultiSplit, chosen[j], delta));
  b.mu_lower = r.bound;
  PB_RETURN_IF_ERROR(SetGaussianDpEps(delta, &b));
  b.note = std::string(
               "each split's threshold maximises its mu_lower; mu_lower is the median "
               "of the splits' and eps_lower its eps; fpr_upper and fnr_upper are the "
               "representative split's; ") +
           kMultiNote + "; " + b.note + "; " + RepresentativeNote(r, j, "mu_lower");
  if (!chosen[j].candidates_note.empty()) b.note += " (" + chosen[j].candidates_note + ")";
  return b;
}

// The "multi_split" rows: every method that accepts the level alpha / 2
// (the others are skipped for it alone), then the Gaussian-DP bound.
Status AuditMultiSplit(const std::vector<std::unique_ptr<IntervalEstimator>>& methods,
                       const std::vector<double>& member_scores,
                       const std::vector<double>& nonmember_scores, const ScoreAuditOptions& o,
                       ScoreAudit* out) {
  PB_RETURN_IF_ERROR(CheckSplitSizes(member_scores.size(), nonmember_scores.size()));
  const int64_t audit_p = static_cast<int64_t>(member_scores.size() - member_scores.size() / 2);
  const int64_t audit_n =
      static_cast<int64_t>(nonmember_scores.size() - nonmember_scores.size() / 2);
  std::vector<const IntervalEstimator*> ms;
  for (const auto& m : methods) {
    if (!SkipAtLevel(*m, "multi_split", audit_p, audit_n, o.alpha / 2, "alpha / 2",
                     "each of S = " + std::to_string(o.multi_split_count) + " splits", o.delta,
                     out)) {
      ms.push_back(m.get());
    }
  }
  PB_ASSIGN_OR_RETURN(MultiSplitRun run, RunMultiSplit(ms, member_scores, nonmember_scores, o));
  for (size_t k = 0; k < ms.size(); ++k) {
    out->intervals.push_back(MultiSplitRow(*ms[k], run.chosen[k], run.results[k]));
  }
  PB_ASSIGN_OR_RETURN(GaussianDpBound gdp,
                      MultiSplitGaussianDp(run.chosen.back(), run.results.back(), o.delta));
  out->gaussian_dp.push_back(std::move(gdp));
  return Status::Ok();
}

}  // namespace

Result<ScoreAudit> AuditScores(const std::vector<double>& member_scores,
                               const std::vector<double>& nonmember_scores,
                               const ScoreAuditOptions& options) {
  const ScoreAuditOptions& o = options;
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  PB_RETURN_IF_ERROR(CheckOptions(o));
  const bool split = Wants(o, ThresholdSelection::kSplit);
  const bool bonferroni = Wants(o, ThresholdSelection::kBonferroni);
  const bool need_halves = split || (bonferroni && !o.bonferroni_grid.has_value());
  // Each side is sorted once; the halves are read off that order.
  const Status halves_ok =
      need_halves ? CheckSplitSizes(member_scores.size(), nonmember_scores.size()) : Status::Ok();
  const bool draw = need_halves && halves_ok.ok();
  std::vector<uint8_t> in_select_m, in_select_n;
  if (draw) {
    in_select_m = SelectionMask(member_scores.size(), DeriveSeed(o.seed, {1, 0}));
    in_select_n = SelectionMask(nonmember_scores.size(), DeriveSeed(o.seed, {1, 1}));
  }
  SortedSide m = SortSide(member_scores, draw ? &in_select_m : nullptr);
  SortedSide n = SortSide(nonmember_scores, draw ? &in_select_n : nullptr);
  ScoreAudit out;
  out.roc = RocOfDescending(m.all, n.all);
  PB_ASSIGN_OR_RETURN(out.tpr_at_fpr, TprAtLowFpr(out.roc, o.alpha));
  PB_ASSIGN_OR_RETURN(auto methods, ResolveMethods(o, out.roc.points.back().counts, &out));
  PB_RETURN_IF_ERROR(halves_ok);
  if (Wants(o, ThresholdSelection::kBonferroniAll)) {
    PB_RETURN_IF_ERROR(BonferroniAllLevel(out.roc, o.alpha).status());
  }

  AuditData d;
  if (split) {
    d.split.select_roc = RocOfDescending(m.select, n.select);
    d.split.candidates = CandidatePoints(d.split.select_roc, o.alpha, o.delta);
    PB_RETURN_IF_ERROR(PrepareGaussianDpSplit(o.alpha, o.delta, &d.split));
  }
  if (bonferroni) PrepareGrid(o, m, n, &out, &d);
  if (split) {
    d.split.audit_member = std::move(m.audit);
    d.split.audit_nonmember = std::move(n.audit);
  }
  for (ThresholdSelection s : o.selections) {
    if (s == ThresholdSelection::kMultiSplit) {
      PB_RETURN_IF_ERROR(AuditMultiSplit(methods, member_scores, nonmember_scores, o, &out));
    } else {
      PB_RETURN_IF_ERROR(AuditSelection(s, methods, d, o.delta, o.alpha, &out));
    }
  }
  return out;
}

}  // namespace privbench
