#include "estimators/guess_counts/guess_count_registry.h"

#include "estimators/guess_counts/factories.h"
#include "estimators/registry.h"

namespace privbench {
namespace {

// THE REGISTRY: one row per estimator, {registry name, factory}.
constexpr RegistryRow<GuessCountEstimator> kRows[] = {
    {"one_run", &MakeOneRunEstimator},
    {"one_run_fdp", &MakeOneRunFdpEstimator},
};

constexpr Registry<GuessCountEstimator> kRegistry("guess-count estimator", kRows);

}  // namespace

std::vector<std::string> AllGuessCountEstimatorNames() { return kRegistry.AllNames(); }

Result<std::unique_ptr<GuessCountEstimator>> MakeGuessCountEstimator(std::string_view name,
                                                                     std::string_view field) {
  return kRegistry.Make(name, field);
}

}  // namespace privbench
