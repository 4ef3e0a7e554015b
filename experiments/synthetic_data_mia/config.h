// Parameters of study synthetic_data_mia (F1; README.md in this folder):
// membership inference against synthetic tabular data and privacy audits of
// DP synthesizers on UCI Adult.
#ifndef PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/lib/framework/sweep.h"

namespace privbench {
namespace synthetic_data_mia {

// Worst-case releases per side at quick and paper scale (main.cc Defaults);
// the planted bugs' power is computed at both whatever the run's scale.
inline constexpr int64_t kQuickWorstCaseTrials = 1000;
inline constexpr int64_t kPaperWorstCaseTrials = 5000;

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
  // Whether the main grid's games keep each test release's score
  // (/games/test_scores [G, A, R]; no claim reads them). Off at paper scale,
  // where they would be 51 MB of the shelf file: the dataset is then [G, A, 0].
  bool keep_test_scores = true;
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
  int64_t worst_case_trials = kQuickWorstCaseTrials;
  double bug_epsilon = 1;
  // Selection halves drawn per planted bug and size for its detection
  // probability (compute.h PlantedBugPower). No flag: set per scale.
  int64_t bug_power_replicates = 100;
  // The outlier sweep of outliers_leak_more (compute.h RunOutlierSweep):
  // its targets, cases (2-way synthesizers: chow_liu, and mst / privbayes at
  // each eps of sweep_epsilons that the grid has), adversaries, releases
  // per game and attacks (the black-box ones --attacks selected). No flags:
  // set per scale (main.cc Defaults). Quick: 20 + 20 targets on chow_liu and
  // the 2-way DP synthesizers at eps 10, the fixed adversary, 100 / 100
  // releases and one attack per family of the cheap ones (distance, Stadler
  // et al.'s histogram features, TAPAS queries), to stay within the quick
  // budget; paper: 50 + 50 targets, every eps, all seven black-box attacks.
  int64_t sweep_outliers = 20;
  int64_t sweep_randoms = 20;
  std::vector<double> sweep_epsilons = {10};
  std::vector<std::string> sweep_adversaries = {"fixed"};
  int64_t sweep_train_datasets = 100;
  int64_t sweep_test_datasets = 100;
  std::vector<std::string> sweep_attacks = {"dcr_hamming", "dcr_l2", "histogram_logistic",
                                            "queries_logistic"};
  // Cost measurement: private dataset sizes timed per synthesizer.
  std::vector<int64_t> cost_sizes = {1000, 4000, 16000};
  int64_t cost_repeats = 10;
  std::string data_dir;  // Adult directory ("" = the vendored copy)
  // The sharded, resumable sweep's flags (--shard, --parts_dir, --merge_only,
  // --units, --accept_parts_from; parts.h: the units).
  SweepFlags sweep;
};

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CONFIG_H_
