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

constexpr RateBoxKind kClopperPearson = {
    "clopper_pearson",
    "clopper_pearson_one_sided",
    "Clopper-Pearson rate box, union bound; min/max of Eq. 1 over the box (Bayesian paper "
    "Sec. 2.5-2.6)",
    "Clopper-Pearson rate upper limits, union bound; lower bound (Bayesian paper footnote 2)",
    &ClopperPearsonRate,
    RateLimitFns{&ClopperPearsonLower, &ClopperPearsonUpper}};

}  // namespace

std::unique_ptr<IntervalEstimator> MakeClopperPearson() {
  return MakeRateBoxEstimator(kClopperPearson, false);
}
std::unique_ptr<IntervalEstimator> MakeClopperPearsonOneSided() {
  return MakeRateBoxEstimator(kClopperPearson, true);
}

}  // namespace privbench
