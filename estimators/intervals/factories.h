// The factories of the interval estimators, one line per registered name.
// Each is defined in estimators/intervals/<method>.cc (which includes this
// header) and listed, with its registry name, in the table of
// estimators/interval_registry.cc. Studies and tools do not call these:
// they go through MakeIntervalEstimator(name) (interval_registry.h).
#ifndef PRIVBENCH_ESTIMATORS_INTERVALS_FACTORIES_H_
#define PRIVBENCH_ESTIMATORS_INTERVALS_FACTORIES_H_

#include <memory>

#include "estimators/interval_estimator.h"

namespace privbench {

std::unique_ptr<IntervalEstimator> MakeClopperPearson();          // clopper_pearson.cc
std::unique_ptr<IntervalEstimator> MakeClopperPearsonOneSided();  // clopper_pearson.cc
std::unique_ptr<IntervalEstimator> MakeJeffreys();                // jeffreys.cc
std::unique_ptr<IntervalEstimator> MakeJeffreysOneSided();        // jeffreys.cc
std::unique_ptr<IntervalEstimator> MakeBayesian();                // bayesian.cc
std::unique_ptr<IntervalEstimator> MakeBayesianOneSided();        // bayesian.cc
std::unique_ptr<IntervalEstimator> MakeKatzLog();                 // katz_log.cc

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_INTERVALS_FACTORIES_H_
