// The factories of the guess-count estimators, one line per registered
// name. Each is defined in estimators/guess_counts/<name>.cc and listed
// in the table of guess_count_registry.cc. Studies and tools go through
// MakeGuessCountEstimator(name) (guess_count_registry.h).
#ifndef PRIVBENCH_ESTIMATORS_GUESS_COUNTS_FACTORIES_H_
#define PRIVBENCH_ESTIMATORS_GUESS_COUNTS_FACTORIES_H_

#include <memory>

#include "estimators/guess_counts/guess_count_estimator.h"

namespace privbench {

std::unique_ptr<GuessCountEstimator> MakeOneRunEstimator();     // one_run.cc
std::unique_ptr<GuessCountEstimator> MakeOneRunFdpEstimator();  // one_run_fdp.cc

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_GUESS_COUNTS_FACTORIES_H_
