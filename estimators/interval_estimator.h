// Interval estimators: confusion counts -> an interval for eps.
//
// Confidence convention (docs/studies.md A2; reproduces the Bayesian paper's
// numbers and privacy-estimates'): Estimate(counts, delta, alpha) returns
//  - for a two-sided method, an interval [lower, upper] at confidence
//    1 - alpha. Rate-box methods use a two-sided interval at significance
//    alpha/2 for EACH rate (union bound); the Bayesian method returns the
//    equal-tailed credible interval (posterior quantiles alpha/2, 1-alpha/2);
//  - for a one-sided method, a lower bound at confidence 1 - alpha
//    (upper = nullopt): the lower end of the two-sided interval at 2*alpha
//    (Bayesian: the alpha quantile of the posterior).
//
// Public Estimate() validates every argument (messages name it), then calls
// the method's EstimateImpl(), then checks the answer (no NaN, 0 <= lower
// <= upper) so that nothing silently wrong leaves the library.
//
// To add a method: write estimators/intervals/<name>.cc defining a subclass
// and a factory `std::unique_ptr<IntervalEstimator> Make<Name>()`, declare
// the factory in estimators/intervals/factories.h, and add its row
// {"<name>", &Make<Name>} to the table in interval_registry.cc (the BUILD
// file picks up the new file by itself). The conformance suite
// (tests/interval_conformance_test.cc) and every study that compares "all
// registered estimators" pick it up.
#ifndef PRIVBENCH_ESTIMATORS_INTERVAL_ESTIMATOR_H_
#define PRIVBENCH_ESTIMATORS_INTERVAL_ESTIMATOR_H_

#include <optional>
#include <string_view>

#include "core/result.h"
#include "estimators/confusion_counts.h"

namespace privbench {

struct EpsInterval {
  double lower = 0.0;
  std::optional<double> upper;  // nullopt for one-sided methods; may be +inf
};

// A bound of a method's interval over a box of counts (BoundOverCounts).
struct EpsIntervalBound {
  double lower_max = 0.0;  // >= the lower end at every counts in the box
  double upper_min = 0.0;  // <= the upper end (+inf for a one-sided method)
};

class IntervalEstimator {
 public:
  virtual ~IntervalEstimator() = default;

  // Registry name, e.g. "clopper_pearson".
  virtual std::string_view name() const = 0;
  // True if Estimate() returns only a lower bound.
  virtual bool one_sided() const = 0;
  // One line: what it estimates, the assumptions, the paper equation.
  virtual std::string_view description() const = 0;
  // True if the method is defined only at delta = 0 (e.g. katz_log bounds a
  // ratio of proportions). Studies run such methods at delta = 0 or report
  // them as not applicable; Estimate() refuses delta > 0 for them.
  virtual bool requires_zero_delta() const { return false; }

  // Validates counts, delta in [0, 1) and alpha in (0, 1), then estimates.
  Result<EpsInterval> Estimate(const ConfusionCounts& counts, double delta, double alpha) const;

  // True if BoundOverCounts answers: the method's interval is monotone in
  // the error counts in the sense below (the rate-box methods,
  // rate_box_method.h).
  virtual bool bounds_over_counts() const { return false; }
  // For every counts c with the trials of fewest_errors and most_errors
  // (same tp + fn, same fp + tn), fewest_errors.fn <= c.fn <= most_errors.fn
  // and fewest_errors.fp <= c.fp <= most_errors.fp: Estimate(c).lower <=
  // lower_max and Estimate(c).upper >= upper_min. Validated as Estimate
  // (both counts), plus the box's order; an error for a method without
  // bounds_over_counts. The score auditor's exact search over a ROC's
  // thresholds prunes with it (estimators/score_audit/score_audit.h).
  Result<EpsIntervalBound> BoundOverCounts(const ConfusionCounts& fewest_errors,
                                           const ConfusionCounts& most_errors, double delta,
                                           double alpha) const;

 protected:
  // What Estimate and BoundOverCounts validate at one counts: the counts,
  // delta in [0, 1), alpha in (0, 1), delta = 0 where required, and the
  // method's own preconditions.
  Status ValidateArguments(const ConfusionCounts& counts, double delta, double alpha) const;
  // Extra preconditions of the method (e.g. katz_log needs delta = 0).
  virtual Status ValidateMethodArguments(const ConfusionCounts& counts, double delta,
                                         double alpha) const {
    return Status::Ok();
  }
  // Called with validated arguments.
  virtual Result<EpsInterval> EstimateImpl(const ConfusionCounts& counts, double delta,
                                           double alpha) const = 0;
  // Called with validated arguments when bounds_over_counts().
  virtual EpsIntervalBound BoundOverCountsImpl(const ConfusionCounts& fewest_errors,
                                               const ConfusionCounts& most_errors, double delta,
                                               double alpha) const;
};

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_INTERVAL_ESTIMATOR_H_
