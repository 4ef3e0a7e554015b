// The parameters of study bayes_width_grid (Zanella-Béguelin et al.,
// "Bayesian Estimation of Differential Privacy", ICML 2023, Sec. 3.4,
// Fig. 5; README.md). Defaults and constraints: main.cc.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_GRID_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_GRID_CONFIG_H_

#include <cstdint>
#include <vector>

namespace privbench::bayes_width_grid {

// Tolerance of the grid comparisons (FPR + FNR < 1, box edges, corners).
constexpr double kGridTolerance = 1e-9;

struct Config {
  int64_t n = 1000;  // total samples per grid point (even; n/2 per class)
  double alpha = 0.1;
  double delta = 1e-5;
  double fpr_min = 0.01;
  double fpr_max = 0.99;
  int64_t fpr_points = 50;
  double fnr_min = 0.01;
  double fnr_max = 0.99;
  int64_t fnr_points = 50;
  bool below_chance_only = true;
  // Sub-grids reported besides the whole grid: groups of four numbers
  // fpr_lo, fpr_hi, fnr_lo, fnr_hi (inclusive boxes).
  std::vector<double> subgrids = {
      0.0, 0.5, 0.0, 0.5,  // both rates <= 0.5
      0.0, 0.1, 0.5, 1.0,  // the low-FPR / high-FNR corner the paper names
      0.1, 0.4, 0.1, 0.4,  // interior, away from every edge
      0.0, 0.1, 0.0, 0.5,  // low FPR, FNR <= 0.5: where 20-32% vs Jeffreys reproduces
  };
};

}  // namespace privbench::bayes_width_grid

#endif  // PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_GRID_CONFIG_H_
