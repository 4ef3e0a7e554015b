#include "estimators/intervals/katz_log.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "core/validate.h"
#include "estimators/interval_estimator.h"
#include "estimators/intervals/factories.h"

namespace privbench {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Upper s/2 quantile of N(0, 1).
double ZUpper(double s_half) {
  return boost::math::quantile(boost::math::complement(boost::math::normal(), s_half));
}
}  // namespace

namespace {

// The Katz-log interval with the Haldane-Anscombe correction where a count
// is 0 (ends at an infinite point estimate are left to the caller).
LogRatioInterval RawKatzLog(int64_t n1, int64_t N1, int64_t n0, int64_t N0, double z) {
  double x1 = static_cast<double>(n1), t1 = static_cast<double>(N1);
  double x0 = static_cast<double>(n0), t0 = static_cast<double>(N0);
  if (n1 == 0 || n0 == 0) {  // Haldane-Anscombe: +0.5 to every cell
    x1 += 0.5;
    t1 += 1.0;
    x0 += 0.5;
    t0 += 1.0;
  }
  const double center = std::log((x1 / t1) / (x0 / t0));
  const double se = std::sqrt(std::max(0.0, 1.0 / x1 - 1.0 / t1 + 1.0 / x0 - 1.0 / t0));
  return {center - z * se, center + z * se};
}

}  // namespace

LogRatioInterval KatzLogInterval(int64_t n1, int64_t N1, int64_t n0, int64_t N0, double z) {
  LogRatioInterval r = RawKatzLog(n1, N1, n0, N0, z);
  // Zero counts, monotone: observing 0 is at least as strong evidence as
  // observing 1, so the lower end at n0 = 0 is at least the one at n0 = 1
  // (Haldane alone gave 7.13 at 10000/0 against 7.25 at 10000/1, N =
  // 10,000), and the upper end at n1 = 0 at most the one at n1 = 1.
  if (n0 == 0 && n1 > 0 && N0 >= 1) r.lo = std::max(r.lo, RawKatzLog(n1, N1, 1, N0, z).lo);
  if (n1 == 0 && n0 > 0 && N1 >= 1) r.hi = std::min(r.hi, RawKatzLog(1, N1, n0, N0, z).hi);
  if (n1 == 0) r.lo = -kInf;
  if (n0 == 0) r.hi = kInf;
  return r;
}

Result<double> KatzLogEpsLowerBound(int64_t n1, int64_t n0, int64_t n, double alpha) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("n1", n1));
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("n0", n0));
  if (n1 > n)
    return Error("n1 must be <= n, got n1=" + std::to_string(n1) + " n=" + std::to_string(n));
  if (n0 > n)
    return Error("n0 must be <= n, got n0=" + std::to_string(n0) + " n=" + std::to_string(n));
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  return std::max(0.0, KatzLogInterval(n1, n, n0, n, ZUpper(alpha / 2)).lo);
}

Result<double> KatzLogCeiling(int64_t n, double alpha) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  const double N = static_cast<double>(n);
  return std::log(N) - ZUpper(alpha / 2) * std::sqrt(1.0 - 1.0 / N);
}

Result<double> KatzLogLargestLowerBound(int64_t n, double alpha) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  const double z = ZUpper(alpha / 2);
  double largest = 0.0;
  for (int64_t n0 = 0; n0 <= n; ++n0) {
    largest = std::max(largest, KatzLogInterval(n, n, n0, n, z).lo);
  }
  return largest;
}

namespace {

// Two-sided eps interval at confidence 1 - alpha, delta = 0. The eps of a
// pair of rates is max{0, |log(TPR/FPR)|, |log(TNR/FNR)|} (A1 at delta = 0:
// the two worse-than-chance terms are the negated logs), so a Katz interval
// for each of the two log ratios at significance alpha/2 (union bound) gives
//   lower = max{0, lo1, lo2, -hi1, -hi2},  upper = max |endpoint|.
class KatzLog final : public IntervalEstimator {
 public:
  std::string_view name() const override { return "katz_log"; }
  bool one_sided() const override { return false; }
  std::string_view description() const override {
    return "Katz-log intervals for TPR/FPR and TNR/FNR, union bound; delta = 0 "
           "(ML-Audit Sec. 4.2, Lemma A.3)";
  }

 protected:
  // A ratio of proportions bounds eps only at delta = 0 (ML-Audit Sec. 4.2).
  bool requires_zero_delta() const override { return true; }

  Result<EpsInterval> EstimateImpl(const ConfusionCounts& c, double, double alpha) const override {
    const double z = ZUpper(alpha / 4);  // each of two intervals at significance alpha/2
    const LogRatioInterval r1 = KatzLogInterval(c.tp, c.positives(), c.fp, c.negatives(), z);
    const LogRatioInterval r2 = KatzLogInterval(c.tn, c.negatives(), c.fn, c.positives(), z);
    EpsInterval out;
    out.lower = std::max({0.0, r1.lo, r2.lo, -r1.hi, -r2.hi});
    out.upper = std::max({0.0, std::abs(r1.lo), std::abs(r1.hi), std::abs(r2.lo), std::abs(r2.hi)});
    return out;
  }
};

}  // namespace

std::unique_ptr<IntervalEstimator> MakeKatzLog() { return std::make_unique<KatzLog>(); }

}  // namespace privbench
