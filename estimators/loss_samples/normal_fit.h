// Maximum-likelihood Normal fit (mean and standard deviation with divisor
// n, as scipy.stats.norm.fit), used by the parametric Epsilon* variant
// (Negoescu et al., PPAI-24, Sec. 3.1 and App. B: "fitting Normal
// distributions to a transformation of the losses") and by the
// goodness-of-fit study (App. B.2, experiments/epsilon_star_gof/README.md).
//
// Moments are accumulated with Welford's update (one pass, no catastrophic
// cancellation), so a fit can be computed while streaming transformed
// values without storing them.
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_NORMAL_FIT_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_NORMAL_FIT_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace privbench {

struct NormalFit {
  double mean = 0.0;
  double sd = 0.0;  // MLE: sqrt(sum (x - mean)^2 / n); 0 for constant data
};

// Streaming first two moments (Welford).
class RunningMoments {
 public:
  void Add(double x) {
    ++count_;
    const double d = x - mean_;
    mean_ += d / static_cast<double>(count_);
    m2_ += d * (x - mean_);
  }
  int64_t count() const { return count_; }
  // Precondition: count() >= 1. sd may be inf if the data overflow.
  NormalFit Fit() const;

 private:
  int64_t count_ = 0;
  double mean_ = 0.0;
  double m2_ = 0.0;
};

// Validates that `xs` is non-empty and finite (the message names `name`)
// and that the fitted sd is finite; sd = 0 (constant data) is returned as is.
Result<NormalFit> FitNormal(std::string_view name, const std::vector<double>& xs);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_NORMAL_FIT_H_
