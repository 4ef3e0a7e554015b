#include "estimators/interval_registry.h"

#include "estimators/intervals/factories.h"
#include "estimators/registry.h"

namespace privbench {
namespace {

// THE REGISTRY: one row per estimator, {registry name, factory}. The factory
// is declared in estimators/intervals/factories.h and defined in
// estimators/intervals/<method>.cc; the instance's name() must equal the
// row's name. Row order is the order studies report the estimators in.
constexpr RegistryRow<IntervalEstimator> kRows[] = {
    {"clopper_pearson", &MakeClopperPearson},
    {"clopper_pearson_one_sided", &MakeClopperPearsonOneSided},
    {"jeffreys", &MakeJeffreys},
    {"jeffreys_one_sided", &MakeJeffreysOneSided},
    {"bayesian", &MakeBayesian},
    {"bayesian_one_sided", &MakeBayesianOneSided},
    {"katz_log", &MakeKatzLog},
};

constexpr Registry<IntervalEstimator> kRegistry("interval estimator", kRows);

}  // namespace

std::vector<std::string> AllIntervalEstimatorNames() { return kRegistry.AllNames(); }

Result<std::unique_ptr<IntervalEstimator>> MakeIntervalEstimator(std::string_view name,
                                                                 std::string_view field) {
  return kRegistry.Make(name, field);
}

}  // namespace privbench
