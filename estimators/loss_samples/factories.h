// The factories of the loss-sample (Epsilon*) estimators, one line per
// registered name. Each is defined in estimators/loss_samples/<name>.cc
// (which includes this header) and listed, with its registry name, in the
// table of estimators/loss_samples/loss_sample_registry.cc. Studies and
// tools do not call these: they go through MakeLossSampleEstimator(name)
// (loss_sample_registry.h).
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_FACTORIES_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_FACTORIES_H_

#include <memory>

#include "estimators/loss_samples/loss_sample_estimator.h"

namespace privbench {

std::unique_ptr<LossSampleEstimator> MakeEmpiricalEpsilonStar();   // empirical.cc
std::unique_ptr<LossSampleEstimator> MakeParametricEpsilonStar();  // parametric.cc

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_FACTORIES_H_
