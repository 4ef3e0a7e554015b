// The sweep both Epsilon* privacy-utility studies run (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, §4,
// Figs. 1-2; STUDIES.md C2 `epsilon_star_sweep_adult`, C3
// `epsilon_star_sweep_purchase`): train every configuration of the grid
// (epsilon_star_sweep_grid.h) `repetitions` times, measure each model's
// privacy by Epsilon* and its utility, and assemble the privacy-utility
// landscape.
//
// One work unit = one (configuration, repetition) = one model, run through
// experiments/sweep.h (sharded with --shard=i/n, resumable: one atomic part
// per unit under <parts_dir>/<study>.<hash>/, the hash of everything a unit
// depends on besides its id (data, model, optimiser, delta, DP epochs,
// calibration rule, Epsilon* variants, seed) but not of the grid lists or
// the repetition count, so a paper-scale run reuses the units a quick run
// already trained; --merge_only assembles; a shard that leaves the sweep
// incomplete ends with ctx.SkipOutput and no study file).
// A unit is deterministic in (seed, configuration, repetition): the model is
// initialised from DeriveSeed(seed, {StableHash(config id), rep, 0}) and
// trained with DpSgdConfig::seed = DeriveSeed(seed, {StableHash(config id),
// rep, 1}) on one LibTorch thread (units run in parallel instead).
//
// Per model (unit):
//  - training: mechanisms/dpsgd.h TrainDpSgd, momentum SGD (lr, momentum
//    from the config), Poisson sampling by default; baselines non-private;
//  - privacy: Epsilon* of every registered loss-sample estimator
//    (loss_sample_registry.h: "empirical", "parametric") on the per-example
//    cross-entropy losses of the training set vs the population set, library
//    default options except quantiles_per_distribution (recorded as
//    EpsilonStarOptionsText); a secondary value "parametric_common_window":
//    the parametric variant on the empirical one's window [0.001, 0.999]
//    (its own default [1e-6, 1-1e-6] is our choice for a value the paper
//    lost, and the parametric supremum usually sits on the window's edge);
//    the parametric variant's Normal fits of the transformed losses; the
//    loss-threshold membership AUC (informative);
//  - losses and accuracies from one forward pass per split (the values of
//    mechanisms/dp_model.h PerExampleLosses and Accuracy);
//  - utility: Adult: AUROC of the predicted positive-class probability
//    against the income label on the population set (ranked by the logit
//    difference, a monotone function of that probability, so ties from
//    saturated float probabilities cannot occur); Purchase-100: accuracy on
//    the population ("test") set; both also record train/population accuracy;
//  - accounting (DP): q = B/N, steps = TrainingRecord::steps; the run's eps
//    by the RDP accountant (estimators/accountants "rdp", DefaultRdpOrders(),
//    classic conversion, Poisson sampling) at delta, twice: with the sound
//    accounting noise multiplier (sigma/2 for microbatches of size > 1;
//    TrainingRecord::accounting_noise_multiplier) and with TF Privacy 0.5.1's
//    (sigma). Never reported when TrainingRecord::eps_reportable is false
//    (shuffled batches): then NaN with eps_reportable = 0.
// Calibration (per DP configuration, before training): CalibrateSigma (rdp
// accountant, DefaultRdpOrders) on the configuration's q, steps and delta;
// calibration_rule "tf_privacy_0_5_1" trains with that sigma (the paper's
// noise: its library accounted microbatched runs like per-example ones),
// "sound" trains with NoiseMultiplierForAccounting(that sigma).
// A run whose loss or noisy gradient becomes non-finite is recorded as
// diverged (its metrics NaN, excluded from every aggregate, counted).
//
// Output written into the study file (besides what the study adds):
//   /models/...           one entry per model, in (configuration, repetition)
//                         order: config_index, repetition, unit_id,
//                         epsilon_star/<variant>, utility, accuracies,
//                         membership_auc, losses, fits, noise, eps, diverged,
//                         loss_quantiles/{train,population} (models x 101)
//   /configs/...          one entry per configuration: id, label, kind,
//                         epochs, batch_size, target_eps, clip_norm,
//                         num_microbatches, q, steps, noise_multiplier,
//                         accounting_noise_multiplier, eps_sound,
//                         eps_tf_privacy_0_5_1, and mean/min/max of every
//                         Epsilon* variant and of the utility, pareto,
//                         pareto_convex (NaN = not applicable: baselines
//                         have no eps)
//   /summary/configurations, /summary/baselines
//   /meta: dataset_provenance, dataset_source, dataset_checksums,
//          epsilon_star_options, calibration_rule, accounting, delta,
//          training_record_baseline / training_record_dp, sweep_config, timing.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SWEEP_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SWEEP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "data_scripts/dataset.h"
#include "experiments/epsilon_star_sweep_grid.h"
#include "experiments/framework/study.h"

namespace privbench {

// The secondary Epsilon* variant: "parametric" on the window [0.001, 0.999].
inline constexpr char kCommonWindowVariant[] = "parametric_common_window";

enum class SweepModel { kAdultMlp, kPurchaseMlp };
enum class SweepUtility { kAuroc, kAccuracy };

struct SweepStudy {
  std::string name;  // study name (parts go to <parts_dir>/<name>.<hash>/)
  SweepModel model = SweepModel::kAdultMlp;
  SweepUtility utility = SweepUtility::kAuroc;
  std::string utility_label;  // e.g. "AUROC on the population set"
  std::string dataset_label;  // shown in every table caption, e.g. "uci-adult"
};

// The per-configuration accounting (DP configurations; zeros for baselines).
struct PointAccounting {
  double q = 0.0;
  int64_t steps = 0;
  double delta = 0.0;
  double noise_multiplier = 0.0;             // sigma trained with
  double accounting_noise_multiplier = 0.0;  // sound rule
  double eps_sound = 0.0;                    // rdp at the sound multiplier
  double eps_tf_privacy_0_5_1 = 0.0;         // rdp at sigma
};

// Everything the studies need for their claims, per configuration.
struct SweepOutcome {
  std::vector<SweepPoint> points;
  std::vector<PointAccounting> accounting;
  // Epsilon* variants: every registered loss-sample estimator under the
  // library defaults ("empirical", "parametric"), then kCommonWindowVariant.
  std::vector<std::string> estimators;
  // [point][estimator][repetition]; NaN for diverged models.
  std::vector<std::vector<std::vector<double>>> epsilon_star;
  // [point][repetition]; NaN for diverged models.
  std::vector<std::vector<double>> utility;
  std::vector<std::vector<double>> population_accuracy;
  std::vector<std::vector<double>> train_accuracy;
  std::vector<bool> pareto, pareto_convex;
  int64_t diverged_models = 0;
  double delta = 0.0;
  std::string part_versions;  // DescribePartVersions of the merged parts
  // Index of the named estimator in `estimators` (-1 if absent).
  int EstimatorIndex(const std::string& name) const;
};

// Runs this shard's units of the sweep over `dataset` (training rows vs
// population rows) and, when every unit's part exists, assembles the study
// file: writes the output listed above into ctx.out() and returns the
// outcome. Returns nullopt after ctx.SkipOutput() when the sweep is still
// incomplete (other shards pending) or with --plan_only. --merge_only never
// trains (error listing the missing units if some are missing).
Result<std::optional<SweepOutcome>> RunEpsilonStarSweep(const SweepStudy& study,
                                                        const EpsilonStarSweepConfig& config,
                                                        const Dataset& dataset, StudyContext& ctx);

// Shared paragraphs of the studies' lost_parameters metadata and verify
// entries: the parameters both studies chose (delta, DP epochs, baseline
// batch, calibration, orders, sampling, microbatching, Epsilon* window).
std::string SharedLostParameters(const EpsilonStarSweepConfig& config, int64_t n_train);

// "Epsilon* 0.123 (empirical 0.2)" style number formatting for evidence.
std::string Num(double x, int digits = 3);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SWEEP_H_
