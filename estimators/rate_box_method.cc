#include "estimators/rate_box_method.h"

#include <algorithm>
#include <string>

namespace privbench {

Status ValidateRateBoxCounts(const ConfusionCounts& c) {
  for (const auto& [sum, trials] : {std::pair{"tp + fn (positive trials)", c.positives()},
                                    std::pair{"fp + tn (negative trials)", c.negatives()}}) {
    if (trials > kRateBoxMaxTrials) {
      return Error(std::string(sum) +
                   " must be <= 1e14 for the rate-box methods (beyond it a rate "
                   "near 1 is not resolved in double precision), got " +
                   std::to_string(trials) + " at " + c.ToString());
    }
  }
  return Status::Ok();
}

RateBox MakeRateBox(const ConfusionCounts& c, double s, RateIntervalFn fn) {
  const RateInterval fnr = fn(c.fn, c.positives(), s);
  const RateInterval fpr = fn(c.fp, c.negatives(), s);
  return RateBox{fnr.lo, fnr.hi, fpr.lo, fpr.hi};
}

EpsInterval RateBoxEpsInterval(const ConfusionCounts& c, double delta, double alpha, bool one_sided,
                               RateIntervalFn fn) {
  if (one_sided) {
    // Lower end of the two-sided interval at confidence 1 - 2*alpha, whose
    // per-rate significance is (2*alpha)/2 = alpha. For alpha >= 0.5 the
    // two-sided interval at 2*alpha does not exist; the per-rate
    // significance is capped just below 1 (a trivial but valid bound).
    const double per_rate = std::min(alpha, 1.0 - 1e-12);
    return EpsInterval{MinEpsOverBox(MakeRateBox(c, per_rate, fn), delta), std::nullopt};
  }
  const RateBox box = MakeRateBox(c, alpha / 2, fn);
  return EpsInterval{MinEpsOverBox(box, delta), MaxEpsOverBox(box, delta)};
}

}  // namespace privbench
