// One-run audits from membership scores (one_run_scores.h).
#include "estimators/score_audit/one_run_scores.h"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/seeding.h"
#include "core/validate.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/guess_counts/guess_count_registry.h"
#include "estimators/guess_counts/one_run.h"
#include "estimators/guess_counts/one_run_fdp.h"
#include "estimators/roc/roc.h"

namespace privbench {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// "one_run" evaluates this many candidates in proxy order first.
constexpr int64_t kFirstByProxy = 32;

// One method's test of a claim x (eps, or mu for the Gaussian curve) at
// guess counts, at one level; Bound is the library's sup of rejected claims.
class ClaimTest {
 public:
  ClaimTest(OneRunMethod method, double delta, double level)
      : method_(method), delta_(delta), level_(level) {}

  Status Init() {
    if (method_ == OneRunMethod::kOneRunGaussianDp) return Status::Ok();
    PB_ASSIGN_OR_RETURN(estimator_, MakeGuessCountEstimator(OneRunMethodName(method_)));
    return Status::Ok();
  }

  bool Rejects(const GuessCounts& c, double x) const {
    switch (method_) {
      case OneRunMethod::kOneRun: {
        // Cheap lower bounds on p(x) first: the delta term's i = v member
        // 2 m delta P[0 <= W <= v - 1] / v = 2 m delta (1 - f(v)) / v, with
        // f(v) < level (else p >= f(v) >= level already); then f(v) = p at
        // delta = 0, and f(v) plus that member; then p itself.
        const double two_m_delta_v =
            2.0 * static_cast<double>(c.m) * delta_ / static_cast<double>(c.v);
        if (two_m_delta_v * (1.0 - level_) >= level_) return false;
        const double f = OneRunPValue(c, x, 0.0);
        if (f >= level_) return false;
        if (delta_ == 0.0) return true;
        if (f + two_m_delta_v * (1.0 - f) >= level_) return false;
        return OneRunPValue(c, x, delta_) < level_;
      }
      case OneRunMethod::kOneRunFdp:
        return OneRunRejectsApproximateDp(c, x, delta_, level_);
      case OneRunMethod::kOneRunGaussianDp:
        return OneRunRejectsGaussianDp(c, x, level_);
    }
    return false;
  }

  Result<double> Bound(const GuessCounts& c) const {
    if (method_ == OneRunMethod::kOneRunGaussianDp) return OneRunGaussianDpMuLowerBound(c, level_);
    return estimator_->LowerBound(c, delta_, level_);
  }

  // An exact shortcut ("one_run" only, level < 1/2): precision v / r at most
  // q(best) cannot reject eps = best (one_run_scores.h).
  bool CannotBeat(const GuessCounts& c, double best) const {
    if (method_ != OneRunMethod::kOneRun) return false;
    const double q = 1.0 / (1.0 + std::exp(-best));
    return static_cast<double>(c.v) <= static_cast<double>(c.r) * q;
  }

  bool is_fdp() const { return method_ != OneRunMethod::kOneRun; }
  double level() const { return level_; }

 private:
  OneRunMethod method_;
  double delta_, level_;
  std::unique_ptr<GuessCountEstimator> estimator_;
};

// The Wilson score lower limit of v / r at one-sided level `level`.
double WilsonLower(const GuessCounts& c, double z) {
  const double r = static_cast<double>(c.r), p = static_cast<double>(c.v) / r;
  const double z2 = z * z;
  return (p + z2 / (2 * r) - z * std::sqrt(p * (1 - p) / r + z2 / (4 * r * r))) / (1 + z2 / r);
}

struct Candidate {
  size_t index;  // into the ROC's points
  double proxy;  // Wilson lower limit of the precision
};

// The ROC points ending a run of member scores, with tp >= 1.
std::vector<Candidate> Candidates(const std::vector<OperatingPoint>& pts, int64_t m, double z) {
  std::vector<Candidate> out;
  for (size_t i = 1; i < pts.size(); ++i) {
    const ConfusionCounts& c = pts[i].counts;
    if (c.tp < 1) continue;
    if (i + 1 < pts.size() && pts[i + 1].counts.fp == c.fp) continue;  // inside a member run
    out.push_back({i, WilsonLower({m, c.tp + c.fp, c.tp}, z)});
  }
  return out;
}

bool ByProxy(const Candidate& a, const Candidate& b) {
  return a.proxy > b.proxy || (a.proxy == b.proxy && a.index < b.index);
}

// The order in which the candidates are evaluated (one_run_scores.h): the
// first `first` by proxy, then (when `keep_rest`) the others in ROC order.
std::vector<size_t> EvaluationOrder(std::vector<Candidate> cands, size_t first, bool keep_rest) {
  first = std::min(first, cands.size());
  std::nth_element(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(first), cands.end(),
                   ByProxy);
  std::sort(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(first), ByProxy);
  std::vector<size_t> order;
  for (size_t k = 0; k < first; ++k) order.push_back(cands[k].index);
  if (keep_rest) {
    std::vector<size_t> rest;
    for (size_t k = first; k < cands.size(); ++k) rest.push_back(cands[k].index);
    std::sort(rest.begin(), rest.end());
    order.insert(order.end(), rest.begin(), rest.end());
  }
  return order;
}

struct SearchResult {
  double best = 0.0;  // the claim bound (eps, or mu)
  std::optional<size_t> index;
  int64_t candidates = 0;
  bool reduced = false;  // the f-DP cap applied
};

// The best bound over the candidates of a ROC of m canaries (one_run_scores.h).
Result<SearchResult> Search(const std::vector<OperatingPoint>& pts, int64_t m,
                            const ClaimTest& test) {
  const double z = std::sqrt(2.0) * boost::math::erfc_inv(2.0 * test.level());
  std::vector<Candidate> cands = Candidates(pts, m, z);
  SearchResult s;
  s.candidates = static_cast<int64_t>(cands.size());
  std::vector<size_t> order;
  if (!test.is_fdp()) {
    order = EvaluationOrder(std::move(cands), kFirstByProxy, true);
  } else {
    s.reduced = static_cast<int64_t>(cands.size()) > kMaxOneRunFdpCandidates;
    if (s.reduced) s.candidates = kMaxOneRunFdpCandidates;
    order = EvaluationOrder(std::move(cands), static_cast<size_t>(kMaxOneRunFdpCandidates), false);
  }
  for (size_t i : order) {
    const ConfusionCounts& k = pts[i].counts;
    const GuessCounts c{m, k.tp + k.fp, k.tp};
    if (test.CannotBeat(c, s.best) || !test.Rejects(c, s.best)) continue;
    PB_ASSIGN_OR_RETURN(double b, test.Bound(c));
    if (b > s.best || (b == s.best && s.index && i < *s.index)) {
      s.best = b;
      s.index = i;
    }
  }
  return s;
}

// Descending copies of the scores and their ROC (validated scores; either
// side may be empty).
std::vector<OperatingPoint> RocPoints(const std::vector<double>& member,
                                      const std::vector<double>& nonmember) {
  std::vector<double> m, n;
  SortDescending(member, &m, nullptr);
  SortDescending(nonmember, &n, nullptr);
  return RocOfDescending(m, n).points;
}

GuessCounts CountsAt(const std::vector<double>& member, const std::vector<double>& nonmember,
                     double threshold) {
  int64_t tp = 0, fp = 0;
  for (double s : member) tp += s >= threshold ? 1 : 0;
  for (double s : nonmember) fp += s >= threshold ? 1 : 0;
  return {static_cast<int64_t>(member.size() + nonmember.size()), tp + fp, tp};
}

Status CheckOptions(const OneRunScoreOptions& o) {
  PB_RETURN_IF_ERROR(CheckAlpha(o.alpha));
  PB_RETURN_IF_ERROR(CheckDelta(o.delta));
  if (o.threshold && std::isnan(*o.threshold)) return Error("threshold must not be NaN");
  return Status::Ok();
}

// Fills eps_lower (and mu_lower) from the method's bound `x`.
Status SetBound(OneRunMethod method, double x, double delta, OneRunScoreBound* out) {
  if (method != OneRunMethod::kOneRunGaussianDp) {
    out->eps_lower = x;
    return Status::Ok();
  }
  out->mu_lower = x;
  if (delta > 0.0) {
    if (x == 0.0) {
      out->eps_lower = 0.0;
    } else {
      PB_ASSIGN_OR_RETURN(out->eps_lower, GaussianDpEpsilon(x, delta));
    }
  }
  return Status::Ok();
}

Result<OneRunScoreBound> AtFixedThreshold(const std::vector<double>& member,
                                          const std::vector<double>& nonmember,
                                          const OneRunScoreOptions& o) {
  ClaimTest test(o.method, o.delta, o.alpha);
  PB_RETURN_IF_ERROR(test.Init());
  OneRunScoreBound out;
  out.method = o.method;
  out.threshold = *o.threshold;
  out.counts = CountsAt(member, nonmember, *o.threshold);
  out.level_alpha = o.alpha;
  out.bonferroni_k = 1;
  out.candidates = 1;
  out.note = "threshold fixed in advance";
  PB_ASSIGN_OR_RETURN(double x, test.Bound(out.counts));
  PB_RETURN_IF_ERROR(SetBound(o.method, x, o.delta, &out));
  return out;
}

}  // namespace

std::string_view OneRunMethodName(OneRunMethod method) {
  switch (method) {
    case OneRunMethod::kOneRun:
      return "one_run";
    case OneRunMethod::kOneRunFdp:
      return "one_run_fdp";
    case OneRunMethod::kOneRunGaussianDp:
      return "one_run_gaussian_dp";
  }
  return "?";
}

Result<OneRunMethod> ParseOneRunMethod(const std::string& name) {
  for (OneRunMethod m :
       {OneRunMethod::kOneRun, OneRunMethod::kOneRunFdp, OneRunMethod::kOneRunGaussianDp}) {
    if (name == OneRunMethodName(m)) return m;
  }
  return Error("method must be one_run, one_run_fdp or one_run_gaussian_dp, got '" + name + "'");
}

Result<OneRunScoreBound> OneRunFromScores(const std::vector<double>& member_scores,
                                          const std::vector<double>& nonmember_scores,
                                          const OneRunScoreOptions& options) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  PB_RETURN_IF_ERROR(CheckOptions(options));
  if (options.threshold) return AtFixedThreshold(member_scores, nonmember_scores, options);
  const int64_t m = static_cast<int64_t>(member_scores.size() + nonmember_scores.size());
  const double level = options.alpha / static_cast<double>(m);
  if (!(level >= kMinAlpha)) {
    return Error("alpha / K (K = " + std::to_string(m) + " canaries) must be >= " +
                 FormatDouble(kMinAlpha) + ", got alpha = " + FormatDouble(options.alpha));
  }
  ClaimTest test(options.method, options.delta, level);
  PB_RETURN_IF_ERROR(test.Init());
  const std::vector<OperatingPoint> pts = RocPoints(member_scores, nonmember_scores);
  PB_ASSIGN_OR_RETURN(SearchResult s, Search(pts, m, test));
  OneRunScoreBound out;
  out.method = options.method;
  out.level_alpha = level;
  out.bonferroni_k = m;
  out.candidates = s.candidates;
  out.threshold = s.index ? pts[*s.index].threshold : kInf;
  out.counts = {m, 0, 0};
  if (s.index) {
    const ConfusionCounts& k = pts[*s.index].counts;
    out.counts = {m, k.tp + k.fp, k.tp};
  }
  out.note = "Bonferroni over the m numbers of guesses (K = m)";
  if (s.reduced) {
    out.note += "; candidates reduced to the " + std::to_string(kMaxOneRunFdpCandidates) +
                " with the largest Wilson lower limit of the precision (the maximum may be missed)";
  }
  PB_RETURN_IF_ERROR(SetBound(options.method, s.best, options.delta, &out));
  return out;
}

Result<double> OneRunSplitBound(const std::vector<double>& member_scores,
                                const std::vector<double>& nonmember_scores,
                                const OneRunScoreOptions& options, uint64_t seed, double level) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  PB_RETURN_IF_ERROR(CheckDelta(options.delta));
  PB_RETURN_IF_ERROR(CheckAlpha(level));
  const size_t P = member_scores.size(), n = P + nonmember_scores.size();
  std::vector<size_t> perm(n);
  std::iota(perm.begin(), perm.end(), size_t{0});
  Rng rng(DeriveSeed(seed, {2}));
  for (size_t i = n - 1; i > 0; --i) {
    std::swap(perm[i], perm[boost::random::uniform_int_distribution<size_t>(0, i)(rng)]);
  }
  std::vector<double> sel_m, sel_n, aud_m, aud_n;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = perm[k];
    const bool select = k < n / 2;
    if (i < P) {
      (select ? sel_m : aud_m).push_back(member_scores[i]);
    } else {
      (select ? sel_n : aud_n).push_back(nonmember_scores[i - P]);
    }
  }
  ClaimTest test(options.method, options.delta, level);
  PB_RETURN_IF_ERROR(test.Init());
  const std::vector<OperatingPoint> pts = RocPoints(sel_m, sel_n);
  PB_ASSIGN_OR_RETURN(SearchResult s,
                      Search(pts, static_cast<int64_t>(sel_m.size() + sel_n.size()), test));
  if (!s.index) return 0.0;
  return test.Bound(CountsAt(aud_m, aud_n, pts[*s.index].threshold));
}

}  // namespace privbench
