// The parameters of study B3 epsilon_star_distance (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B.1,
// Fig. 5; README.md). Defaults and constraints: main.cc and
// experiments/lib/epsilon_star_sim/estimation_config.h.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_CONFIG_H_

#include <string>
#include <vector>

#include "core/format.h"
#include "experiments/lib/epsilon_star_sim/estimation_config.h"
#include "simulations/loss_models.h"

namespace privbench::epsilon_star_distance {

struct Config {
  double train_shape = 1.0;  // lost in the paper; ours
  double train_scale = 1.0;
  double population_shape = 1.0;  // population shape at d = 0 (shift = shape)
  double population_scale = 1.0;
  std::vector<double> distances = {0, 1, 2, 3, 4, 5};  // paper: d = 0, ..., 5
  std::string shift = "shape";                         // "shape" or "location"
  EstimationConfig est;
};

inline GammaLoss DistanceTrain(const Config& c) { return {c.train_shape, c.train_scale, 0.0}; }

// The population at distance d:
//   shift = shape:    Gamma(population_shape + d, population_scale)
//   shift = location: Gamma(population_shape, population_scale) + d
inline GammaLoss DistancePopulation(const Config& c, double d) {
  if (c.shift == "location") return {c.population_shape, c.population_scale, d};
  return {c.population_shape + d, c.population_scale, 0.0};
}

// "Gamma(shape 1 + d, scale 1)" or "Gamma(shape 1, scale 1) + d".
inline std::string DistancePopulationText(const Config& c) {
  if (c.shift == "location") {
    return GammaLossText({c.population_shape, c.population_scale, 0.0}) + " + d";
  }
  return "Gamma(shape " + FormatDouble(c.population_shape) + " + d, scale " +
         FormatDouble(c.population_scale) + ")";
}

}  // namespace privbench::epsilon_star_distance

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_CONFIG_H_
