#include "estimators/loss_samples/loss_sample_estimator.h"

#include <cmath>
#include <exception>
#include <string>

#include "core/validate.h"

namespace privbench {

template <class Compute>
Result<double> LossSampleEstimator::Checked(const std::vector<double>& train_losses,
                                            const std::vector<double>& population_losses,
                                            const EpsilonStarOptions& options,
                                            const Compute& compute) const {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("train_losses", train_losses));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("population_losses", population_losses));
  PB_RETURN_IF_ERROR(ValidateEpsilonStarOptions(options));
  const std::string where = std::string(name()) + " with " + std::to_string(train_losses.size()) +
                            " train and " + std::to_string(population_losses.size()) +
                            " population losses, " + EpsilonStarOptionsText(options);
  Result<double> result = Error("");
  try {
    result = compute();
  } catch (const std::exception& e) {
    // Boost.Math reports evaluation failures by exception; none may escape.
    return Error("internal error in " + where + ": " + e.what());
  }
  PB_ASSIGN_OR_RETURN(double eps, std::move(result));
  if (!std::isfinite(eps) || eps < 0.0) {
    return Error("internal error in " + where + ": Epsilon* = " + FormatDouble(eps));
  }
  return eps;
}

Result<double> LossSampleEstimator::Estimate(const std::vector<double>& train_losses,
                                             const std::vector<double>& population_losses,
                                             const EpsilonStarOptions& options) const {
  return Checked(train_losses, population_losses, options,
                 [&] { return EstimateImpl(train_losses, population_losses, options); });
}

Result<double> LossSampleEstimator::Estimate(std::vector<double>&& train_losses,
                                             std::vector<double>&& population_losses,
                                             const EpsilonStarOptions& options) const {
  return Checked(train_losses, population_losses, options,
                 [&] { return EstimateOwnedImpl(train_losses, population_losses, options); });
}

}  // namespace privbench
