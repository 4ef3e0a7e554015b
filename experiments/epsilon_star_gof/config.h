// The configuration of study C4 epsilon_star_gof (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B.2,
// Fig. 6; README.md): every field is a command-line parameter
// (main.cc registers them with their constraints).
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/lib/framework/sweep.h"

namespace privbench::epsilon_star_gof {

// The model types (index m: 0 = no DP, 1 = DP-SGD) and the loss sets
// (index s: 0 = training losses, the paper's Fig. 6; 1 = population, extra).
inline const std::vector<std::string> kGofModels = {"no_dp", "dp"};
inline const std::vector<std::string> kGofModelLabels = {"no DP", "DP-SGD"};
inline const std::vector<std::string> kGofLossSets = {"train", "population"};

struct Config {
  // Data.
  std::string data_dir;
  int64_t n_train = -1;       // -1: all 32,561 rows, else the first n_train
  int64_t n_population = -1;  // -1: all 16,281 rows, else the first n_population
  // Models.
  int64_t repetitions = 5;
  int64_t baseline_epochs = 10;
  int64_t dp_epochs = 10;
  double dp_epsilon = 10.0;
  double delta = 0.0;  // 0: 1/n_train
  double clip_norm = 1.0;
  int64_t num_microbatches = 0;
  std::string calibration_rule = "tf_privacy_0_5_1";
  int64_t batch_size = 64;
  double learning_rate = 0.01;
  double momentum = 0.9;
  int64_t hidden = 128;
  std::string device = "cpu";  // where DP-SGD trains: cpu | cuda (mechanisms/device.h)
  // Goodness of fit.
  std::vector<int64_t> n_eval;
  int64_t max_components = 20;
  int64_t max_iterations = 100;
  double tolerance = 1e-3;
  // EM variance floors: the first is the primary analysis (scikit-learn's
  // reg_covar 1e-6); the others are sensitivity analyses.
  std::vector<double> variance_floors = {1e-6, 1e-12};
  std::string init = "quantile";
  std::string ks_method = "exact";
  double significance = 0.05;
  bool population_losses = true;
  // Extra analysis: Carlini et al.'s logit of the confidence, without the
  // App. B normalisation, at the primary variance floor.
  bool carlini_analysis = true;
  // Sweep mechanics (--shard, --parts_dir, --merge_only; not part of the
  // unit configuration).
  SweepFlags sweep;

  // Loss sets tested: 2 with population_losses, else 1 (training only).
  int64_t loss_sets() const { return population_losses ? 2 : 1; }
};

}  // namespace privbench::epsilon_star_gof

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_CONFIG_H_
