// The parameters of study B2 epsilon_star_identical (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B.1,
// Fig. 4; README.md). Defaults and constraints: main.cc and
// experiments/lib/epsilon_star_sim/estimation_config.h.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_CONFIG_H_

#include "experiments/lib/epsilon_star_sim/estimation_config.h"
#include "simulations/loss_models.h"

namespace privbench::epsilon_star_identical {

struct Config {
  double shape = 1.0;  // lost in the paper; our default Gamma(1, 1)
  double scale = 1.0;
  EstimationConfig est;
};

// The one distribution of both samples.
inline GammaLoss IdenticalDistribution(const Config& c) { return {c.shape, c.scale, 0.0}; }

}  // namespace privbench::epsilon_star_identical

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_CONFIG_H_
