// Study one_run_audit: one-run auditing of DP-SGD (Steinke, Nasr &
// Jagielski, NeurIPS 2023, Sec. 5-6, Figs. 1-2; experiments/one_run_audit/README.md).
//
// WHAT: for each target eps (noise calibrated with the RDP accountant),
// ONE DP-SGD training run of logistic regression on Adult with two sets of
// m canaries, each canary included independently with probability 1/2:
//  - input-space canaries (black-box): population rows with their label
//    flipped; score = -loss of the canary under its flipped label;
//  - white-box "Dirac" canaries: each canary is the zero vector on Adult's
//    features plus `dirac_value` on a feature of its own (m extra features,
//    0 in every other row), label 1. Its per-example gradient is confined
//    to its own weight column (and the shared bias), the closest the engine
//    (mechanisms/dpsgd.h, which takes (x, y), not raw gradients) comes to
//    the paper's Dirac gradient canaries. The auditor reads the model:
//    score = the change of (w[1, j] - w[0, j]) from the initial weights.
// Each (k+, k-) pair guesses "in" for the k+ highest scores and "out" for
// the k- lowest; v correct of r = k+ + k-; the eps lower bound comes from
// the registry's guess-count estimator one_run at delta and beta / K (K
// pairs; Bonferroni, so the best over the pairs is valid at level beta).
// The accountants' eps (rdp and pld, through the registry) at the run's q,
// steps and noise are the upper bounds compared with.
#ifndef PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "data_scripts/dataset.h"
#include "experiments/one_run_audit/config.h"

namespace privbench {
namespace one_run_audit {

inline constexpr int kCanaryTypes = 2;
inline constexpr const char* kCanaryTypeNames[kCanaryTypes] = {"input_space", "white_box"};

// One canary type in one run.
struct Audit {
  std::vector<int64_t> included;  // [m] 0/1
  std::vector<double> scores;     // [m]
  std::vector<int64_t> v;         // [K] correct guesses per (k+, k-) pair
  std::vector<double> lower;      // [K] eps lower bound per pair at beta / K
  double best_lower = 0.0;        // max over the pairs
};

struct RunResult {
  double target_epsilon = 0.0;  // +inf: non-private
  double noise_multiplier = 0.0;
  double q = 0.0;
  int64_t steps = 0;
  int64_t n_train = 0;
  double eps_rdp = 0.0, eps_pld = 0.0;  // +inf when non-private
  // The last-iterate HEURISTIC (Steinke et al., ICLR 2025; accountant
  // last_iterate_heuristic): eps of the final model alone if every loss were
  // linear and the steps plain SGD. Not an upper bound: our runs use
  // momentum 0.9 and the logistic loss. +inf when non-private.
  double eps_last_iterate = 0.0;
  double train_accuracy = 0.0, population_accuracy = 0.0;
  Audit audits[kCanaryTypes];
  // C1's (region_of_privacy's) attack bound on the same model: Yeom et al.'s
  // loss-threshold attack on the n_base training rows vs as many population
  // rows, best-threshold advantage, Erlingsson et al. Prop. 3
  // eps >= ln((1 - delta) / (1 - advantage)). A point estimate (the
  // threshold is chosen with the labels), not a confidence bound.
  double attack_advantage = 0.0, attack_eps_lower = 0.0;
};

// v for guesses "in" on the k_plus highest scores and "out" on the k_minus
// lowest (ties broken by index, stable); k_plus + k_minus <= m.
int64_t CorrectGuesses(const std::vector<double>& scores, const std::vector<int64_t>& included,
                       int64_t k_plus, int64_t k_minus);

// Fills v, lower and best_lower of `audit` from its scores and inclusions.
Status BoundAudit(const Config& c, Audit& audit);

// Trains run `run_index` (target_epsilon = +inf: non-private) and audits
// it. The base rows and input canaries come from `study_seed` (the same in
// every run); inclusions, noise and initial weights from the run's seed.
Result<RunResult> RunOne(const Config& c, const Dataset& adult, double target_epsilon,
                         uint64_t study_seed, uint64_t run_index, int threads);

}  // namespace one_run_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_COMPUTE_H_
