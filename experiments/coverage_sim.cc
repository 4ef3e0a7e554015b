#include "experiments/coverage_sim.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/binomial_distribution.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/seeding.h"
#include "core/validate.h"
#include "estimators/interval_registry.h"
#include "estimators/intervals/katz_log.h"
#include "estimators/rate_intervals.h"

namespace privbench {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double Median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double hi = v[mid];
  const double lo = *std::max_element(v.begin(), v.begin() + mid);
  return 0.5 * (lo + hi);
}

// Upper p quantile of N(0, 1).
double ZUpper(double p) {
  return boost::math::quantile(boost::math::complement(boost::math::normal(), p));
}

int64_t Binomial(Rng& rng, int64_t trials, double p) {
  boost::random::binomial_distribution<int, double> dist(static_cast<int>(trials), p);
  return dist(rng);
}
}  // namespace

double NominalSe(double nominal, int64_t trials) {
  return std::sqrt(nominal * (1.0 - nominal) / static_cast<double>(trials));
}

double ObservedSe(double coverage, int64_t trials) {
  return std::sqrt(coverage * (1.0 - coverage) / static_cast<double>(trials));
}

CoverageClass ClassifyCoverage(double coverage, double nominal, int64_t trials,
                               double threshold_se) {
  const double band = threshold_se * NominalSe(nominal, trials);
  if (coverage < nominal - band) return CoverageClass::kUnder;
  if (coverage > nominal + band) return CoverageClass::kOver;
  return CoverageClass::kNear;
}

const char* CoverageClassName(CoverageClass c) {
  switch (c) {
    case CoverageClass::kUnder:
      return "under";
    case CoverageClass::kNear:
      return "near";
    case CoverageClass::kOver:
      return "over";
  }
  return "?";
}

// ---------------------------------------------------------------------------
// B6

std::vector<RatePair> DefaultCoverageRatePairs() {
  return {
      {0.001, 0.5},  // low-FPR corner (the target area of LiRA-style attacks)
      {0.01, 0.3},   // low-FPR corner, moderate FNR
      {0.4, 0.4},    // mid-range: balanced accuracy 60% (the pair of B4 / Fig. 4)
      {0.05, 0.05},  // strong attack on the diagonal FPR = FNR, eps about 2.94
      {0.02, 0.2},   // strong attack off the diagonal, eps about 3.69
      {0.5, 0.5},    // chance: true eps = 0
  };
}

std::vector<int64_t> DefaultCoverageTrialCounts() { return {200, 1000, 5000}; }

ConfusionCounts DrawConfusionCounts(double fnr, double fpr, int64_t positives, int64_t negatives,
                                    uint64_t seed) {
  Rng rng(seed);
  ConfusionCounts c;
  c.fn = Binomial(rng, positives, fnr);
  c.tp = positives - c.fn;
  c.fp = Binomial(rng, negatives, fpr);
  c.tn = negatives - c.fp;
  return c;
}

Result<std::vector<CoverageMethod>> MakeCoverageMethods(double delta) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  std::vector<CoverageMethod> methods;
  for (const std::string& name : AllIntervalEstimatorNames()) {
    PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(name));
    CoverageMethod m;
    m.name = name;
    m.one_sided = est->one_sided();
    const bool zero = est->requires_zero_delta();
    m.delta = zero ? 0.0 : delta;
    m.label = zero && delta != 0.0 ? name + " (delta=0)" : name;
    m.estimator = std::move(est);
    methods.push_back(std::move(m));
  }
  return methods;
}

bool IntervalCovers(double lower, const double* upper, double truth) {
  if (!(lower <= truth)) return false;
  return upper == nullptr || truth <= *upper;
}

IntervalCoverageStats SummarizeIntervals(const std::vector<double>& lower,
                                         const std::vector<double>& upper, double truth) {
  IntervalCoverageStats s;
  const size_t t = lower.size();
  const bool two_sided = !upper.empty();
  s.trials = static_cast<int64_t>(t);
  int64_t covered = 0, low = 0, high = 0, finite = 0;
  double sum_lower = 0.0, sum_width = 0.0;
  for (size_t i = 0; i < t; ++i) {
    const double* up = two_sided ? &upper[i] : nullptr;
    if (IntervalCovers(lower[i], up, truth)) ++covered;
    if (truth < lower[i]) ++low;
    if (two_sided && truth > upper[i]) ++high;
    sum_lower += lower[i];
    if (two_sided) {
      if (std::isinf(upper[i])) {
        ++s.infinite;
      } else {
        ++finite;
        sum_width += upper[i] - lower[i];
      }
    }
  }
  const double n = static_cast<double>(t);
  s.coverage = covered / n;
  s.se = ObservedSe(s.coverage, s.trials);
  s.miss_low = low / n;
  s.miss_high = high / n;
  s.mean_lower = sum_lower / n;
  s.median_lower = Median(lower);
  s.frac_infinite = s.infinite / n;
  s.mean_width = two_sided && finite > 0 ? sum_width / finite : kNaN;
  return s;
}

PairedWidths ComparePairedWidths(const std::vector<double>& lower_a,
                                 const std::vector<double>& upper_a,
                                 const std::vector<double>& lower_b,
                                 const std::vector<double>& upper_b) {
  PairedWidths p;
  double sa = 0.0, sb = 0.0;
  int64_t inf_a = 0, inf_b = 0;
  const size_t t = lower_a.size();
  for (size_t i = 0; i < t; ++i) {
    const bool fa = std::isfinite(upper_a[i]), fb = std::isfinite(upper_b[i]);
    inf_a += !fa;
    inf_b += !fb;
    if (fa && fb) {
      ++p.both_finite;
      sa += upper_a[i] - lower_a[i];
      sb += upper_b[i] - lower_b[i];
    }
  }
  p.mean_a = p.both_finite > 0 ? sa / p.both_finite : kNaN;
  p.mean_b = p.both_finite > 0 ? sb / p.both_finite : kNaN;
  p.frac_infinite_a = t > 0 ? static_cast<double>(inf_a) / t : 0.0;
  p.frac_infinite_b = t > 0 ? static_cast<double>(inf_b) / t : 0.0;
  return p;
}

// ---------------------------------------------------------------------------
// B7

Result<std::vector<RatioMethod>> MakeRatioMethods(double alpha) {
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  return std::vector<RatioMethod>{
      {"katz_log", "Katz-log two-sided interval at significance alpha, lower end (ML-Audit Eps_LB)",
       1.0 - alpha / 2, false},
      {"katz_log_one_sided", "Katz-log lower bound with z_alpha (one-sided level 1 - alpha)",
       1.0 - alpha, false},
      {"clopper_pearson_ratio",
       "log(p1_lo / p0_hi), each Clopper-Pearson limit one-sided at alpha/2 (union bound)",
       1.0 - alpha, true},
      {"clopper_pearson_ratio_strict",
       "log(p1_lo / p0_hi), each Clopper-Pearson limit one-sided at alpha/4 (union bound)",
       1.0 - alpha / 2, true},
  };
}

Result<RatioBoundConstants> MakeRatioBoundConstants(double alpha) {
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  return RatioBoundConstants{alpha, ZUpper(alpha / 2), ZUpper(alpha)};
}

namespace {
// log(p1_lo / p0_hi) with each Clopper-Pearson limit one-sided at
// `one_sided` significance: ClopperPearsonRate(k, n, s) is two-sided at s,
// i.e. one-sided at s/2 per end.
double CpRatio(int64_t n1, int64_t n0, int64_t n, double one_sided) {
  const double p1_lo = ClopperPearsonRate(n1, n, 2.0 * one_sided).lo;
  const double p0_hi = ClopperPearsonRate(n0, n, 2.0 * one_sided).hi;
  if (p1_lo <= 0.0) return -kInf;
  return std::log(p1_lo) - std::log(p0_hi);
}
}  // namespace

std::vector<double> RatioLowerBoundsUnchecked(int64_t n1, int64_t n0, int64_t n,
                                              const RatioBoundConstants& k) {
  return {KatzLogInterval(n1, n, n0, n, k.z_half_alpha).lo,
          KatzLogInterval(n1, n, n0, n, k.z_alpha).lo, CpRatio(n1, n0, n, k.alpha / 2),
          CpRatio(n1, n0, n, k.alpha / 4)};
}

Result<std::vector<double>> RatioLowerBounds(int64_t n1, int64_t n0, int64_t n, double alpha) {
  PB_ASSIGN_OR_RETURN(RatioBoundConstants k, MakeRatioBoundConstants(alpha));
  // KatzLogEpsLowerBound validates the counts.
  PB_ASSIGN_OR_RETURN(double eps_lb, KatzLogEpsLowerBound(n1, n0, n, alpha));
  std::vector<double> b;
  try {
    b = RatioLowerBoundsUnchecked(n1, n0, n, k);
  } catch (const std::exception& e) {  // Boost.Math evaluation errors
    return Error("ratio bounds failed at n1=" + std::to_string(n1) + " n0=" + std::to_string(n0) +
                 " n=" + std::to_string(n) + ": " + e.what());
  }
  const double clipped = std::max(0.0, b[0]);
  if (!(std::abs(clipped - eps_lb) <= 1e-12 * std::max(1.0, eps_lb))) {
    return Error("internal error: katz_log bound " + FormatDouble(clipped) +
                 " disagrees with KatzLogEpsLowerBound " + FormatDouble(eps_lb));
  }
  for (double x : b) {
    if (std::isnan(x)) return Error("internal error: NaN ratio bound");
  }
  return b;
}

void DrawRatioCounts(double p1, double p0, int64_t n, uint64_t seed, int64_t* n1, int64_t* n0) {
  Rng rng(seed);
  *n1 = Binomial(rng, n, p1);
  *n0 = Binomial(rng, n, p0);
}

RatioCoverageStats SummarizeRatioBounds(const std::vector<double>& bounds, double target) {
  RatioCoverageStats s;
  const size_t t = bounds.size();
  s.trials = static_cast<int64_t>(t);
  int64_t covered = 0, vacuous = 0;
  double sum = 0.0, sum_cov = 0.0;
  std::vector<double> eps(t);
  for (size_t i = 0; i < t; ++i) {
    const double b = bounds[i];
    eps[i] = std::max(0.0, b);
    sum += eps[i];
    if (b <= target) {
      ++covered;
      sum_cov += eps[i];
    }
    if (b <= 0.0) ++vacuous;
  }
  const double n = static_cast<double>(t);
  s.coverage = covered / n;
  s.se = ObservedSe(s.coverage, s.trials);
  s.mean_eps_bound = sum / n;
  s.median_eps_bound = Median(eps);
  s.frac_vacuous = vacuous / n;
  s.mean_eps_bound_covering = covered > 0 ? sum_cov / covered : kNaN;
  return s;
}

}  // namespace privbench
