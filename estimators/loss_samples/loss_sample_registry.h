// The registry of loss-sample (Epsilon*) estimators (estimators/registry.h:
// one explicit table, no self-registering globals). Studies (B2, B3,
// C-studies) and the conformance test iterate over
// AllLossSampleEstimatorNames(); the CLI resolves names here. Registered:
// "empirical" (empirical.h), "parametric" (parametric.h). The exact variant
// needs known distributions, not samples, and is a free function (exact.h).
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_SAMPLE_REGISTRY_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_SAMPLE_REGISTRY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/loss_samples/loss_sample_estimator.h"

namespace privbench {

// Registered names, in registry order.
std::vector<std::string> AllLossSampleEstimatorNames();

// A new instance of the named estimator, or an error naming `field` (the
// argument the caller read `name` from; the CLI field is "variant") and
// listing the valid names.
Result<std::unique_ptr<LossSampleEstimator>> MakeLossSampleEstimator(
    std::string_view name, std::string_view field = "variant");

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_SAMPLE_REGISTRY_H_
