// The registry of guess-count estimators (estimators/registry.h: one
// explicit table). Registered: "one_run" (one_run.h), "one_run_fdp"
// (one_run_fdp.h). Studies
// (one_run_audit), the CLI's one_run op and the conformance test resolve
// names here.
#ifndef PRIVBENCH_ESTIMATORS_GUESS_COUNTS_GUESS_COUNT_REGISTRY_H_
#define PRIVBENCH_ESTIMATORS_GUESS_COUNTS_GUESS_COUNT_REGISTRY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/guess_counts/guess_count_estimator.h"

namespace privbench {

// Registered names, in registry order.
std::vector<std::string> AllGuessCountEstimatorNames();

// A new instance of the named estimator, or an error naming `field` and
// listing the valid names.
Result<std::unique_ptr<GuessCountEstimator>> MakeGuessCountEstimator(
    std::string_view name, std::string_view field = "method");

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_GUESS_COUNTS_GUESS_COUNT_REGISTRY_H_
