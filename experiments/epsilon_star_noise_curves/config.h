// The parameters of study B1 epsilon_star_noise_curves (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B,
// Fig. 3; README.md). Defaults and constraints: main.cc.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_CONFIG_H_

#include <cstdint>

#include "estimators/loss_samples/curves.h"
#include "simulations/loss_models.h"

namespace privbench::epsilon_star_noise_curves {

struct Config {
  NormalLoss train{0.0, 1.0};                  // the paper's N(0, 1)
  NormalLoss population{3.0, 1.0};             // the paper's N(3, 1)
  int64_t n = 10000;                           // simulated losses per distribution (lost)
  int64_t quantiles_per_distribution = 10000;  // m (2m thresholds)
  double rate_floor = 1e-6;                    // lost in the paper; ours
  double delta = 0.0;                          // not stated for the simulations
};

// The curve options of the config (delta, m, rate_floor).
inline EpsilonStarCurveOptions CurveOptions(const Config& c) {
  EpsilonStarCurveOptions o;
  o.delta = c.delta;
  o.quantiles_per_distribution = c.quantiles_per_distribution;
  o.rate_floor = c.rate_floor;
  return o;
}

}  // namespace privbench::epsilon_star_noise_curves

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_CONFIG_H_
