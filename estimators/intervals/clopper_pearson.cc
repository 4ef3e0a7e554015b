// Clopper-Pearson rate boxes -> eps interval (Bayesian paper §2.5-2.6 and
// §3.3 method 1; Nasr et al. 2021, Carlini et al. 2021 style).
//
// Estimates: eps such that the observed (FNR, FPR) is consistent with
// (eps, delta)-DP, from exact binomial (Clopper-Pearson) intervals for each
// rate combined by the union bound; frequentist coverage >= 1 - alpha
// (usually well above it). Assumes the trials are independent Bernoulli
// draws with fixed FNR and FPR.
//   clopper_pearson           two-sided interval at confidence 1 - alpha
//   clopper_pearson_one_sided lower bound at confidence 1 - alpha (upper
//                             limits of the rates at significance alpha/2
//                             each; the paper's footnote 2)
#include <memory>

#include "estimators/interval_estimator.h"
#include "estimators/intervals/factories.h"
#include "estimators/rate_box_method.h"

namespace privbench {
namespace {

class ClopperPearson final : public IntervalEstimator {
 public:
  explicit ClopperPearson(bool one_sided) : one_sided_(one_sided) {}
  std::string_view name() const override {
    return one_sided_ ? "clopper_pearson_one_sided" : "clopper_pearson";
  }
  bool one_sided() const override { return one_sided_; }
  bool bounds_over_counts() const override { return true; }
  std::string_view description() const override {
    return one_sided_ ? "Clopper-Pearson rate upper limits, union bound; lower bound "
                        "(Bayesian paper footnote 2)"
                      : "Clopper-Pearson rate box, union bound; min/max of Eq. 1 over "
                        "the box (Bayesian paper Sec. 2.5-2.6)";
  }

 protected:
  Status ValidateMethodArguments(const ConfusionCounts& c, double delta,
                                 double alpha) const override {
    return ValidateRateBoxCounts(c);
  }
  Result<EpsInterval> EstimateImpl(const ConfusionCounts& c, double delta,
                                   double alpha) const override {
    return RateBoxEpsInterval(c, delta, alpha, one_sided_, &ClopperPearsonRate);
  }
  EpsIntervalBound BoundOverCountsImpl(const ConfusionCounts& fewest_errors,
                                       const ConfusionCounts& most_errors, double delta,
                                       double alpha) const override {
    return RateBoxBoundOverCounts(fewest_errors, most_errors, delta, alpha, one_sided_,
                                  RateLimitFns{&ClopperPearsonLower, &ClopperPearsonUpper});
  }

 private:
  bool one_sided_;
};

}  // namespace

std::unique_ptr<IntervalEstimator> MakeClopperPearson() {
  return std::make_unique<ClopperPearson>(false);
}
std::unique_ptr<IntervalEstimator> MakeClopperPearsonOneSided() {
  return std::make_unique<ClopperPearson>(true);
}

}  // namespace privbench
