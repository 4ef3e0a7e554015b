#include "estimators/guess_counts/guess_count_estimator.h"

#include <cmath>
#include <exception>
#include <utility>

#include "core/validate.h"

namespace privbench {

std::string GuessCounts::ToString() const {
  return "m=" + std::to_string(m) + " r=" + std::to_string(r) + " v=" + std::to_string(v);
}

Status ValidateGuessCounts(const GuessCounts& c, double delta, double beta) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("m", c.m));
  if (c.m > kMaxCanaries) {
    return Error("m must be <= 2^53 = " + std::to_string(kMaxCanaries) +
                 " (the work bound: the binomial tails take counts as exact doubles, and "
                 "beyond it one bound took minutes), got m=" +
                 std::to_string(c.m));
  }
  if (c.r < 0 || c.r > c.m) {
    return Error("r must be in [0, m] (guesses among m canaries), got r=" + std::to_string(c.r) +
                 " with m=" + std::to_string(c.m));
  }
  if (c.v < 0 || c.v > c.r) {
    return Error("v must be in [0, r] (correct guesses among r), got v=" + std::to_string(c.v) +
                 " with r=" + std::to_string(c.r));
  }
  if (!(delta >= 0.0 && delta < 1.0)) {
    return Error("delta must be in [0, 1), got " + FormatDouble(delta));
  }
  if (!(beta > 0.0 && beta < 1.0)) {
    return Error("beta must be in (0, 1), got " + FormatDouble(beta));
  }
  return Status::Ok();
}

Result<double> GuessCountEstimator::LowerBound(const GuessCounts& counts, double delta,
                                               double beta) const {
  PB_RETURN_IF_ERROR(ValidateGuessCounts(counts, delta, beta));
  Result<double> result = Error("");
  try {
    result = LowerBoundImpl(counts, delta, beta);
  } catch (const std::exception& e) {
    return Error("internal error in " + std::string(name()) + " at " + counts.ToString() + ": " +
                 e.what());
  }
  PB_ASSIGN_OR_RETURN(double eps, std::move(result));
  if (std::isnan(eps) || eps < 0.0) {
    return Error("internal error in " + std::string(name()) + " at " + counts.ToString() +
                 ": epsilon " + FormatDouble(eps));
  }
  return eps;
}

}  // namespace privbench
