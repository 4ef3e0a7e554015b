#include "estimators/rate_box_method.h"

#include <algorithm>
#include <limits>
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

namespace {

// Each rate's two-sided significance. One-sided: the lower end of the
// two-sided interval at confidence 1 - 2*alpha, whose per-rate significance
// is (2*alpha)/2 = alpha. For alpha >= 0.5 the two-sided interval at
// 2*alpha does not exist; the per-rate significance is capped just below 1
// (a trivial but valid bound).
double PerRateSignificance(double alpha, bool one_sided) {
  return one_sided ? std::min(alpha, 1.0 - 1e-12) : alpha / 2;
}

}  // namespace

EpsInterval RateBoxEpsInterval(const ConfusionCounts& c, double delta, double alpha, bool one_sided,
                               RateIntervalFn fn) {
  const RateBox box = MakeRateBox(c, PerRateSignificance(alpha, one_sided), fn);
  if (one_sided) return EpsInterval{MinEpsOverBox(box, delta), std::nullopt};
  return EpsInterval{MinEpsOverBox(box, delta), MaxEpsOverBox(box, delta)};
}

EpsIntervalBound RateBoxBoundOverCounts(const ConfusionCounts& fewest_errors,
                                        const ConfusionCounts& most_errors, double delta,
                                        double alpha, bool one_sided, RateIntervalFn fn) {
  const double s = PerRateSignificance(alpha, one_sided);
  const RateBox fewest = MakeRateBox(fewest_errors, s, fn), most = MakeRateBox(most_errors, s, fn);
  EpsIntervalBound b;
  b.lower_max = std::max(MinEpsOverBox(fewest, delta), MinEpsOverBox(most, delta));
  b.upper_min = one_sided ? std::numeric_limits<double>::infinity()
                          : std::max(EpsBetterThanChance(most.fnr_lo, most.fpr_lo, delta),
                                     EpsWorseThanChance(fewest.fnr_hi, fewest.fpr_hi, delta));
  return b;
}

}  // namespace privbench
