// The claims of the Epsilon* paper's §4.2 (Negoescu et al., "Epsilon*:
// Privacy Metric for Machine Learning Models", PPAI-24) that the two sweeps
// check, as pure functions of a SweepOutcome (report.h): each claim's
// verdict and evidence (the statement and source come from the study's
// claims.json), and the published numbers they record under /numbers.
// WriteReport (report.h) writes them. experiments/epsilon_star_sweep_{adult,purchase}/README.md.
//
// Adult (Fig. 2; C2 epsilon_star_sweep_adult), all on the parametric
// Epsilon* the paper used, each twice: with the library's default clip
// window [1e-6, 1-1e-6] (ids as below) and on the window [0.001, 0.999]
// (ids + "_common_window"), because the paper lost its window and the value
// depends on it:
//   all_below_0_3: "all our model instances resulted in Epsilon* values
//     below 0.3": the maximum over every model (baselines and DP) < 0.3;
//   baselines_rise_with_epochs: "an increase in Epsilon* as the number of
//     epochs is increased for the baseline experiments": the baselines'
//     mean Epsilon* strictly increases with epochs;
//   dp_below_baselines_5plus: "model instances trained with DP having lower
//     values of Epsilon* than baseline (non-DP) model instances trained for
//     5 or more epochs": the largest mean Epsilon* of any DP configuration <
//     the smallest mean of the baselines with >= 5 epochs (the points of
//     Fig. 2); the model-level comparison is in the evidence.
//
// Purchase-100 (Fig. 1; C3 epsilon_star_sweep_purchase). Published numbers:
// baseline Epsilon* 2.48 / 7.06 / 7.79 and test accuracy 86% / 90.4% /
// 90.6% at 10 / 50 / 100 epochs (/numbers/purchase_baseline_epochs_<e>_
// {epsilon_star_parametric_mean, test_accuracy_percent}). Claims
// (parametric Epsilon*):
//   dp_below_1: "all experiments where we train with DP had an Epsilon*
//     value below 1": every DP model < 1 (also "_common_window");
//   baselines_rise_with_epochs: "increasing the number of training epochs
//     increases the test accuracy ... but also increases Epsilon*": both
//     means strictly increase with epochs.
//
// Every claim on an Epsilon* variant is also judged at Epsilon* delta 0
// (ids + kDeltaZeroSuffix "_delta0"): entries of kind "sensitivity" in the
// studies' claims.json, written like the others, with no verdict in verify.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_CLAIMS_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_CLAIMS_H_

#include <string>
#include <utility>
#include <vector>

#include "experiments/lib/epsilon_star_sweep/report.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_sweep {

// Claims and the scalars behind them (/numbers/... paths), in write order.
struct ClaimSet {
  std::vector<std::pair<std::string, double>> numbers;
  std::vector<Claim> claims;
};

// The three Adult claims on one Epsilon* variant (index `variant` of
// o.estimators; none if negative); ids and /numbers/adult<suffix>_ names
// end in `suffix` ("", "_common_window", and either + kDeltaZeroSuffix);
// `data` ends every evidence text.
ClaimSet AdultClaims(const SweepOutcome& o, int variant, const std::string& suffix,
                     const std::string& data);

// The Purchase-100 numbers and claims (parametric and common-window
// variants, each also at Epsilon* delta 0).
ClaimSet PurchaseClaims(const SweepOutcome& o, const std::string& data);

}  // namespace privbench::epsilon_star_sweep

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_CLAIMS_H_
