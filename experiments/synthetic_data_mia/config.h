// Parameters of study synthetic_data_mia (F1; README.md in this folder):
// membership inference against synthetic tabular data and privacy audits of
// DP synthesizers on UCI Adult.
#ifndef PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

namespace privbench {
namespace synthetic_data_mia {

struct Config {
  // Synthesizers (mechanisms/synthetic registry names); the non-private ones
  // run once (eps = inf), the DP ones at every entry of `epsilons`.
  std::vector<std::string> synthesizers = {
      "independent", "chow_liu", "independent_laplace", "independent_gaussian", "privbayes", "mst"};
  std::vector<double> epsilons = {1, 10};
  double delta = 1e-5;         // of the zCDP synthesizers (optimal conversion) and their audits
  int64_t n_records = 1000;    // private dataset size (D+ = D- plus the target)
  int64_t n_synthetic = 1000;  // synthetic rows per release
  int64_t train_datasets =
      200;  // shadow releases per case to train the attack, half with the target
  int64_t test_datasets = 200;  // fresh releases per case to evaluate it, half with the target
  int64_t outlier_targets = 2;  // most isolated records (mean Hamming distance to k nearest)
  int64_t random_targets = 2;   // uniformly drawn records
  bool canary_target = true;    // a crafted record of the rarest values
  int64_t knn_k = 5;            // k of the outlier score
  int64_t outlier_pool = 2000;  // records scored for outlyingness (and drawn from at random)
  int64_t queries = 200;        // TAPAS-style targeted counting queries of order 1-3
  // Adversaries: "fixed" (TAPAS: D- known and fixed), "random" (Stadler et
  // al.: a fresh D- from the population for every release).
  std::vector<std::string> adversaries = {"fixed", "random"};
  // Attacks the membership games run (compute.h AttackNames(), whose order
  // the output follows whatever the order here): all of them by default.
  // Claims needing an attack left out are written undecidable (report.h
  // UndecidableReason); the worst-case audits always run white_box and
  // dcr_hamming.
  std::vector<std::string> attacks = {
      "dcr_hamming",         "dcr_l2",           "naive_logistic", "histogram_logistic",
      "correlations_forest", "queries_logistic", "queries_forest", "white_box"};
  double alpha = 0.05;  // confidence of every interval (1 - alpha)
  // Worst-case white-box audit (Annamalai et al.): releases per side on the
  // crafted neighbouring pair, and the eps of the planted-bug audits.
  int64_t worst_case_trials = 1000;
  double bug_epsilon = 1;
  // Cost measurement: private dataset sizes timed per synthesizer.
  std::vector<int64_t> cost_sizes = {1000, 4000, 16000};
  int64_t cost_repeats = 10;
  std::string data_dir;  // Adult directory ("" = the vendored copy)
};

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CONFIG_H_
