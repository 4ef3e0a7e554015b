#include "estimators/interval_estimator.h"

#include <cmath>
#include <exception>
#include <limits>
#include <string>

#include "core/validate.h"

namespace privbench {

Status IntervalEstimator::ValidateArguments(const ConfusionCounts& counts, double delta,
                                            double alpha) const {
  PB_RETURN_IF_ERROR(counts.Validate());
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  if (requires_zero_delta() && delta != 0.0) {
    return Error(std::string(name()) +
                 " is defined for delta = 0 only, got delta=" + FormatDouble(delta));
  }
  return ValidateMethodArguments(counts, delta, alpha);
}

Result<EpsInterval> IntervalEstimator::Estimate(const ConfusionCounts& counts, double delta,
                                                double alpha) const {
  PB_RETURN_IF_ERROR(ValidateArguments(counts, delta, alpha));
  Result<EpsInterval> result = Error("");
  try {
    result = EstimateImpl(counts, delta, alpha);
  } catch (const std::exception& e) {
    // Boost.Math reports evaluation failures by exception; none may escape.
    return Error("internal error in " + std::string(name()) + " at " + counts.ToString() +
                 " delta=" + FormatDouble(delta) + " alpha=" + FormatDouble(alpha) + ": " +
                 e.what());
  }
  PB_ASSIGN_OR_RETURN(EpsInterval r, std::move(result));
  const std::string where = std::string(name()) + " at " + counts.ToString() +
                            " delta=" + FormatDouble(delta) + " alpha=" + FormatDouble(alpha);
  if (std::isnan(r.lower) || r.lower < 0.0) {
    return Error("internal error in " + where + ": lower bound " + FormatDouble(r.lower));
  }
  if (one_sided() != !r.upper.has_value()) {
    return Error("internal error in " + where + ": upper bound presence mismatch");
  }
  if (r.upper && (std::isnan(*r.upper) || *r.upper < r.lower)) {
    return Error("internal error in " + where + ": upper bound " + FormatDouble(*r.upper) +
                 " below lower bound " + FormatDouble(r.lower));
  }
  return r;
}

Result<EpsIntervalBound> IntervalEstimator::BoundOverCounts(const ConfusionCounts& fewest_errors,
                                                            const ConfusionCounts& most_errors,
                                                            double delta, double alpha) const {
  if (!bounds_over_counts()) {
    return Error(std::string(name()) + " has no bound over counts (bounds_over_counts is false)");
  }
  for (const ConfusionCounts* c : {&fewest_errors, &most_errors}) {
    PB_RETURN_IF_ERROR(c->Validate());
  }
  if (fewest_errors.positives() != most_errors.positives() ||
      fewest_errors.negatives() != most_errors.negatives() || fewest_errors.fn > most_errors.fn ||
      fewest_errors.fp > most_errors.fp) {
    return Error(
        "fewest_errors and most_errors must have the same trials and fewest_errors.fn <= "
        "most_errors.fn, fewest_errors.fp <= most_errors.fp, got " +
        fewest_errors.ToString() + " and " + most_errors.ToString());
  }
  for (const ConfusionCounts* c : {&fewest_errors, &most_errors}) {
    PB_RETURN_IF_ERROR(ValidateArguments(*c, delta, alpha));
  }
  try {
    return BoundOverCountsImpl(fewest_errors, most_errors, delta, alpha);
  } catch (const std::exception& e) {
    return Error("internal error in " + std::string(name()) + " bounding over " +
                 fewest_errors.ToString() + " to " + most_errors.ToString() + ": " + e.what());
  }
}

EpsIntervalBound IntervalEstimator::BoundOverCountsImpl(const ConfusionCounts&,
                                                        const ConfusionCounts&, double,
                                                        double) const {
  return EpsIntervalBound{std::numeric_limits<double>::infinity(), 0.0};  // no bound: never prunes
}

}  // namespace privbench
