// The registry of interval estimators (estimators/registry.h: one explicit
// table, no self-registering globals). Studies and the conformance suite
// iterate over AllIntervalEstimatorNames(); the CLI resolves names here.
#ifndef PRIVBENCH_ESTIMATORS_INTERVAL_REGISTRY_H_
#define PRIVBENCH_ESTIMATORS_INTERVAL_REGISTRY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/interval_estimator.h"

namespace privbench {

// Registered names, in registry order.
std::vector<std::string> AllIntervalEstimatorNames();

// A new instance of the named estimator, or an error naming `field` (the
// argument the caller read `name` from; the CLI field is "method") and
// listing the valid names.
Result<std::unique_ptr<IntervalEstimator>> MakeIntervalEstimator(std::string_view name,
                                                                 std::string_view field = "method");

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_INTERVAL_REGISTRY_H_
