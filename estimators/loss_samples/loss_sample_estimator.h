// Loss-sample estimators: a model's losses on its training records and on
// population (non-training) records -> Epsilon* (Negoescu et al., PPAI-24,
// Definition 2 / Eq. 7; see epsilon_star_options.h for the formula, the
// threshold grid and the rate windows).
//
// Public Estimate() validates the samples (non-empty, every value finite;
// messages name "train_losses" / "population_losses") and every option
// (messages name the field), calls the variant's EstimateImpl(), catches any
// third-party exception, and checks the answer (finite, >= 0) so that
// nothing silently wrong leaves the library.
//
// To add a variant: write estimators/loss_samples/<name>.cc defining a
// subclass and a factory `std::unique_ptr<LossSampleEstimator> Make<Name>()`,
// declare the factory in estimators/loss_samples/factories.h, add its row
// {"<name>", &Make<Name>} to the table in loss_sample_registry.cc, and one
// line "<name>": [its deps] to LOSS_SAMPLE_ESTIMATORS in the BUILD file. The
// conformance test (loss_sample_conformance_test.cc) and every study that
// compares "all registered loss-sample estimators" pick it up.
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_SAMPLE_ESTIMATOR_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_SAMPLE_ESTIMATOR_H_

#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/loss_samples/epsilon_star_options.h"

namespace privbench {

class LossSampleEstimator {
 public:
  virtual ~LossSampleEstimator() = default;

  // Registry name, e.g. "empirical".
  virtual std::string_view name() const = 0;
  // One line: what it estimates, the assumptions, the paper section.
  virtual std::string_view description() const = 0;

  // Epsilon* of the two loss samples (>= 0, finite).
  Result<double> Estimate(const std::vector<double>& train_losses,
                          const std::vector<double>& population_losses,
                          const EpsilonStarOptions& options) const;
  // The same, for a caller that hands its samples over: a variant that needs
  // a working copy (the empirical one sorts) works in these vectors, so the
  // caller's copy is the only one (the Python module copies NumPy arrays
  // once, here).
  Result<double> Estimate(std::vector<double>&& train_losses,
                          std::vector<double>&& population_losses,
                          const EpsilonStarOptions& options) const;

 protected:
  // Called with validated arguments.
  virtual Result<double> EstimateImpl(const std::vector<double>& train_losses,
                                      const std::vector<double>& population_losses,
                                      const EpsilonStarOptions& options) const = 0;
  // Called with validated arguments the variant may modify; by default
  // EstimateImpl.
  virtual Result<double> EstimateOwnedImpl(std::vector<double>& train_losses,
                                           std::vector<double>& population_losses,
                                           const EpsilonStarOptions& options) const {
    return EstimateImpl(train_losses, population_losses, options);
  }

 private:
  template <class Compute>
  Result<double> Checked(const std::vector<double>& train_losses,
                         const std::vector<double>& population_losses,
                         const EpsilonStarOptions& options, const Compute& compute) const;
};

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_SAMPLE_ESTIMATOR_H_
