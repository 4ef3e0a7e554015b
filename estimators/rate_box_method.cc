#include "estimators/rate_box_method.h"

#include <algorithm>
#include <limits>
#include <string>

#include "core/recent_values.h"

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

namespace {

// limit(k, n, s) from this thread's memo of recent limits.
double RecentLimit(RateLimitFn limit, int64_t k, int64_t n, double s) {
  thread_local RecentValues<4, double> recent;
  return recent.Get({reinterpret_cast<uint64_t>(limit), static_cast<uint64_t>(k),
                     static_cast<uint64_t>(n), KeyBits(s)},
                    [&] { return limit(k, n, s); });
}

}  // namespace

EpsIntervalBound RateBoxBoundOverCounts(const ConfusionCounts& fewest_errors,
                                        const ConfusionCounts& most_errors, double delta,
                                        double alpha, bool one_sided, RateLimitFns limits) {
  const double s = PerRateSignificance(alpha, one_sided);
  const double fnr_hi = RecentLimit(limits.upper, fewest_errors.fn, fewest_errors.positives(), s);
  const double fpr_hi = RecentLimit(limits.upper, fewest_errors.fp, fewest_errors.negatives(), s);
  const double fnr_lo = RecentLimit(limits.lower, most_errors.fn, most_errors.positives(), s);
  const double fpr_lo = RecentLimit(limits.lower, most_errors.fp, most_errors.negatives(), s);
  EpsIntervalBound b;
  b.lower_max = std::max(EpsBelowBand(fnr_hi, fpr_hi, delta), EpsAboveBand(fnr_lo, fpr_lo, delta));
  b.upper_min = one_sided ? std::numeric_limits<double>::infinity()
                          : std::max(EpsBetterThanChance(fnr_lo, fpr_lo, delta),
                                     EpsWorseThanChance(fnr_hi, fpr_hi, delta));
  return b;
}

namespace {

class RateBoxEstimator final : public IntervalEstimator {
 public:
  RateBoxEstimator(const RateBoxKind& kind, bool one_sided) : kind_(kind), one_sided_(one_sided) {}
  std::string_view name() const override { return one_sided_ ? kind_.one_sided_name : kind_.name; }
  bool one_sided() const override { return one_sided_; }
  bool bounds_over_counts() const override { return true; }
  std::string_view description() const override {
    return one_sided_ ? kind_.one_sided_description : kind_.description;
  }

 protected:
  Status ValidateMethodArguments(const ConfusionCounts& c, double, double) const override {
    return ValidateRateBoxCounts(c);
  }
  Result<EpsInterval> EstimateImpl(const ConfusionCounts& c, double delta,
                                   double alpha) const override {
    return RateBoxEpsInterval(c, delta, alpha, one_sided_, kind_.interval);
  }
  EpsIntervalBound BoundOverCountsImpl(const ConfusionCounts& fewest_errors,
                                       const ConfusionCounts& most_errors, double delta,
                                       double alpha) const override {
    return RateBoxBoundOverCounts(fewest_errors, most_errors, delta, alpha, one_sided_,
                                  kind_.limits);
  }

 private:
  RateBoxKind kind_;
  bool one_sided_;
};

}  // namespace

std::unique_ptr<IntervalEstimator> MakeRateBoxEstimator(const RateBoxKind& kind, bool one_sided) {
  return std::make_unique<RateBoxEstimator>(kind, one_sided);
}

}  // namespace privbench
