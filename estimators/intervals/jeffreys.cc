// Jeffreys rate boxes -> eps interval (Bayesian paper §3.1, Eq. 2).
//
// Estimates: as clopper_pearson, but each rate's interval is the
// equal-tailed Jeffreys interval (posterior quantiles under a Beta(1/2,
// 1/2) prior), with lower = 0 when k = 0 and upper = 1 when k = n. Not
// guaranteed to reach nominal coverage for every rate, but close and
// recommended for one-sided use (Cai 2005).
//   jeffreys            two-sided interval at confidence 1 - alpha
//   jeffreys_one_sided  lower bound at confidence 1 - alpha
#include <memory>

#include "estimators/interval_estimator.h"
#include "estimators/intervals/factories.h"
#include "estimators/rate_box_method.h"

namespace privbench {
namespace {

class Jeffreys final : public IntervalEstimator {
 public:
  explicit Jeffreys(bool one_sided) : one_sided_(one_sided) {}
  std::string_view name() const override { return one_sided_ ? "jeffreys_one_sided" : "jeffreys"; }
  bool one_sided() const override { return one_sided_; }
  bool bounds_over_counts() const override { return true; }
  std::string_view description() const override {
    return one_sided_ ? "Jeffreys rate upper limits, union bound; lower bound "
                        "(Bayesian paper Sec. 3.1)"
                      : "Jeffreys rate box, union bound; min/max of Eq. 1 over the box "
                        "(Bayesian paper Sec. 3.1)";
  }

 protected:
  Status ValidateMethodArguments(const ConfusionCounts& c, double delta,
                                 double alpha) const override {
    return ValidateRateBoxCounts(c);
  }
  Result<EpsInterval> EstimateImpl(const ConfusionCounts& c, double delta,
                                   double alpha) const override {
    return RateBoxEpsInterval(c, delta, alpha, one_sided_, &JeffreysRate);
  }
  EpsIntervalBound BoundOverCountsImpl(const ConfusionCounts& fewest_errors,
                                       const ConfusionCounts& most_errors, double delta,
                                       double alpha) const override {
    return RateBoxBoundOverCounts(fewest_errors, most_errors, delta, alpha, one_sided_,
                                  RateLimitFns{&JeffreysLower, &JeffreysUpper});
  }

 private:
  bool one_sided_;
};

}  // namespace

std::unique_ptr<IntervalEstimator> MakeJeffreys() { return std::make_unique<Jeffreys>(false); }
std::unique_ptr<IntervalEstimator> MakeJeffreysOneSided() {
  return std::make_unique<Jeffreys>(true);
}

}  // namespace privbench
