#include "estimators/loss_samples/loss_sample_registry.h"

#include "estimators/loss_samples/factories.h"
#include "estimators/registry.h"

namespace privbench {
namespace {

// THE REGISTRY: one row per estimator, {registry name, factory}. The factory
// is declared in estimators/loss_samples/factories.h and defined in
// estimators/loss_samples/<name>.cc; the instance's name() must equal the
// row's name. Row order is the order studies report the estimators in.
constexpr RegistryRow<LossSampleEstimator> kRows[] = {
    {"empirical", &MakeEmpiricalEpsilonStar},
    {"parametric", &MakeParametricEpsilonStar},
};

constexpr Registry<LossSampleEstimator> kRegistry("loss-sample estimator", kRows);

}  // namespace

std::vector<std::string> AllLossSampleEstimatorNames() { return kRegistry.AllNames(); }

Result<std::unique_ptr<LossSampleEstimator>> MakeLossSampleEstimator(std::string_view name,
                                                                     std::string_view field) {
  return kRegistry.Make(name, field);
}

}  // namespace privbench
