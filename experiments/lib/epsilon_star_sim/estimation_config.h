// The estimation parameters shared by the Epsilon* simulation studies B2
// `epsilon_star_identical` and B3 `epsilon_star_distance` (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B.1,
// Figs. 4-5; experiments/epsilon_star_{identical,distance}/README.md): sample sizes, repetitions,
// the Epsilon* options of the two analyses (primary: each estimator on its own window;
// common_window: every estimator on one window), their command-line parameters with their
// constraints, and the defaults at each scale.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_ESTIMATION_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_ESTIMATION_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/result.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "experiments/lib/epsilon_star_sim/replicates.h"
#include "experiments/lib/framework/study.h"

namespace privbench {

// Each field is a command-line parameter of the same name
// (RegisterEstimationFlags).
struct EstimationConfig {
  std::vector<int64_t> n;    // sample sizes, strictly increasing, each in [2, 1e9]
  int64_t repetitions = 10;  // [2, 1e6] (a standard deviation needs two)
  double delta = 0.0;        // [0, 1)
  int64_t quantiles_per_distribution = 1000000;  // m (paper: 10^6)
  double rate_floor = 0.001;                     // empirical/exact window (paper: (0.001, 0.999))
  double rate_ceiling = 0.999;
  double clip_lo = 1e-6;  // parametric window (lost; library default)
  double clip_hi = 1.0 - 1e-6;
  std::string transform = "epsilon_star_logit";  // parametric transform
  // Secondary analysis: every estimator on one common window
  // [common_lo, common_hi] (both the rate and the clip window set to it).
  double common_lo = 0.001;
  double common_hi = 0.999;
};

// The defaults of B2 and B3 at each scale (one place, also used by the
// benchmark's paper-scale projection):
//   quick: n = {1e3, 1e4}, 10 repetitions, m = 1e5 (see below);
//   paper: n = {1e3, 1e4, 1e5, 1e6}, 10 repetitions, m = 1e6 (App. B.1);
//   test:  n = {200, 3000}, 3 repetitions, m = 2000.
// Quick uses m = 10^5 instead of the paper's 10^6: with n <= m every sample
// value is an empirical threshold, and the exact and parametric variants
// evaluate the window ends explicitly, so the values do not change
// (measured: bitwise-equal estimates for m = 10^5 and 10^6 at quick scale,
// exact values equal to 1e-14) at a tenth of the cost.
EstimationConfig DefaultEstimationConfig(Scale scale);

// The distances d of B3 (paper: 0, 1, ..., 5; test: 0, 1, 5).
std::vector<double> DefaultDistances(Scale scale);

// Registers every field with its constraints (the ranges above; the windows
// of epsilon_star_options.h: rate_floor in [0, 0.5), rate_ceiling in
// (0.5, 1], clip_lo and common_lo in (0, 0.5), clip_hi and common_hi in
// (0.5, 1); transform one of the loss transforms).
void RegisterEstimationFlags(FlagSet& flags, EstimationConfig& c);

// The rule across fields: n strictly increasing (message names n).
Status ValidateEstimationConfig(const EstimationConfig& c);

// The part of /meta lost_parameters that B2 and B3 share: delta, the
// sample sizes and repetitions at `scale` against the paper's, and m.
std::string EstimationSizesText(const EstimationConfig& c, Scale scale);

// Primary analysis: each estimator on its own window.
EpsilonStarOptions PrimaryOptions(const EstimationConfig& c);
// Secondary analysis: rate and clip windows both [common_lo, common_hi].
EpsilonStarOptions CommonWindowOptions(const EstimationConfig& c);
// The two analyses in this order: {"primary", PrimaryOptions(c)},
// {"common_window", CommonWindowOptions(c)} (index 1 is the common window
// throughout windows.h).
std::vector<SimAnalysis> PrimaryAndCommonAnalyses(const EstimationConfig& c);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_ESTIMATION_CONFIG_H_
