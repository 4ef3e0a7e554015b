// The plan of the Epsilon* privacy-utility sweeps (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, §4.1
// "Privacy strategies", Figs. 1-2; experiments/epsilon_star_sweep_adult/README.md
// `epsilon_star_sweep_adult` and C3 `epsilon_star_sweep_purchase`): the
// parameters both studies share, the configuration grid, the work units and
// their order, the Epsilon* variants every model gets, the text that keys
// the sweep's parts, and the --plan_only printout. Free of LibTorch.
//
// A "configuration" (the paper's "experiment", a privacy strategy with its
// hyperparameters) is either
//   - a BASELINE: non-private momentum SGD for e epochs (paper: e in
//     {1, 5, 10, 20} for Adult, {10, 50, 100} for Purchase-100), or
//   - a DP run: DP-SGD calibrated to a target eps (paper: {1, 3, 10, 100})
//     with clip norm C in {1, 10, 30}, batch size B in {64, 512} (Adult) or
//     {256, 1024} (Purchase-100), and m in {1, 32} microbatches (TensorFlow
//     Privacy's num_microbatches: m = 1 clips the mean gradient of the whole
//     batch), for dp_epochs epochs (lost in the paper; a parameter).
// The paper's grids: 4 + 4*3*2*2 = 52 configurations for Adult, 3 + 48 = 51
// for Purchase-100, each repeated five times on fixed data ("we fixed the
// training and non-training data sets ... repeated the experiments for each
// strategy five times"). Order: baselines by epochs, then DP by (eps, C, B, m)
// in the order the lists are given.
//
// One work unit = one (configuration, repetition) = one model. A unit's
// seed depends on its configuration's id through StableHash (core/seeding.h),
// not on its position in the grid, so a configuration trains the same models
// in any grid that contains it.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_PLAN_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_PLAN_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/result.h"
#include "data_scripts/dataset.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"

namespace privbench {

// Every parameter the two studies share; each is a command-line parameter
// of the same name (RegisterEpsilonStarSweepFlags). The sweep mechanics
// (--shard, --parts_dir, --merge_only) are the framework's SweepFlags.
struct EpsilonStarSweepConfig {
  // The grid.
  std::vector<int64_t> baseline_epochs;
  int64_t baseline_batch_size = 64;  // lost in the paper
  std::vector<double> target_eps;
  std::vector<double> clip_norms;
  std::vector<int64_t> batch_sizes;
  std::vector<int64_t> microbatches;  // TF Privacy num_microbatches (>= 1)
  int64_t dp_epochs = 10;             // lost in the paper
  int64_t repetitions = 5;
  // Training.
  double learning_rate = 0.01;
  double momentum = 0.9;
  std::string sampling = "poisson";  // every run: "poisson" or "shuffle"
  std::string device = "cpu";        // where DP-SGD trains: cpu | cuda (mechanisms/device.h)
  // Accounting. delta = 0 means delta = 1/n_train (the paper's "delta = 1/n"
  // reading; the exact expression was lost in extraction).
  double delta = 0.0;
  // Which rule turns the target eps into the trained noise multiplier:
  //   "tf_privacy_0_5_1": the paper's library: a microbatched run is
  //     accounted like a per-example one with noise multiplier sigma;
  //   "sound": accounting noise multiplier sigma/2 for microbatches of
  //     (expected) size > 1 (mechanisms/dpsgd.h), so the run really is
  //     (target eps, delta)-DP.
  std::string calibration_rule = "tf_privacy_0_5_1";
  // Epsilon*: thresholds per distribution (library default 1e6, the paper's).
  int64_t epsilon_star_quantiles = 1000000;
  // The delta of Epsilon* (Definition 2): "dp" (default) = the DP
  // accountant's delta above, the paper's choice ("the delta in Definition 2
  // should be chosen as the same delta in Definition 1", the paragraph after
  // Definition 2, recommending delta < 1/n as in the DP literature); or a
  // number in [0, 1). Every model also gets the "_delta0" variants at
  // delta = 0 (a sensitivity analysis; the library default).
  std::string epsilon_star_delta = "dp";
  // Print the plan (units, calibrated noise, projected time); train nothing.
  bool plan_only = false;
};

// Registers every field above with its constraints (ranges, allowed values).
void RegisterEpsilonStarSweepFlags(FlagSet& flags, EpsilonStarSweepConfig* c);
// The rules across fields (and those FlagRules cannot state: distinct list
// values, the --shard=i/n format); messages name the parameter.
Status ValidateEpsilonStarSweep(const EpsilonStarSweepConfig& c, const SweepFlags& sweep);

// What a study sweeps: its model, utility and labels.
enum class SweepModel { kAdultMlp, kPurchaseMlp };
enum class SweepUtility { kAuroc, kAccuracy };
struct SweepStudy {
  std::string name;  // the study's name (parts: <parts_dir>/<name>.<config key>/)
  SweepModel model = SweepModel::kAdultMlp;
  SweepUtility utility = SweepUtility::kAuroc;
  std::string utility_label;  // e.g. "AUROC on the population set"
  std::string dataset_label;  // shown in every table caption, e.g. "uci-adult"
};

// One configuration of the grid.
struct SweepPoint {
  bool private_training = false;
  int64_t epochs = 0;
  int64_t batch_size = 0;
  double target_eps = 0.0;       // DP only (0 for baselines)
  double clip_norm = 0.0;        // DP only
  int64_t num_microbatches = 0;  // DP only
  std::string id;     // file-name safe: "baseline_epochs=5", "dp_eps=1_clip=10_batch=64_mb=32"
  std::string label;  // "baseline, 5 epochs", "DP eps=1, C=10, B=64, m=32"
  std::string kind() const { return private_training ? "dp" : "baseline"; }
};

// Baselines (by the order of baseline_epochs), then DP (eps, C, B, m nested).
std::vector<SweepPoint> BuildSweepGrid(const EpsilonStarSweepConfig& c);

// "target_eps {1,10} of {1,3,10,100}; clip_norms ...; batch_sizes ...;
// microbatches ...; baseline_epochs ...; repetitions 2 of 5; dp_epochs 10":
// how a reduced grid `c` differs from the paper's.
std::string GridReductions(const EpsilonStarSweepConfig& c, const EpsilonStarSweepConfig& paper);

// delta, or 1/n_train when delta = 0.
double EffectiveDelta(const EpsilonStarSweepConfig& c, int64_t n_train);
// The delta of Epsilon*: EffectiveDelta for "dp", else the number; an
// error naming epsilon_star_delta unless "dp" or a number in [0, 1).
Result<double> EpsilonStarDelta(const EpsilonStarSweepConfig& c, int64_t n_train);
// Steps of a run as TrainDpSgd counts them (mechanisms/dpsgd.h).
int64_t StepsOf(const SweepPoint& p, const EpsilonStarSweepConfig& c, int64_t n_train);

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

// The secondary Epsilon* variant: "parametric" on the window [0.001, 0.999].
inline constexpr char kCommonWindowVariant[] = "parametric_common_window";
// The suffix of the sensitivity variants at Epsilon* delta = 0.
inline constexpr char kDeltaZeroSuffix[] = "_delta0";

// One Epsilon* value per model: a registered estimator under some options.
struct EpsilonStarVariant {
  std::string name;       // "parametric", "empirical", "parametric_common_window"
  std::string estimator;  // loss-sample registry name
  EpsilonStarOptions options;
};

// Every registered estimator with `defaults` (the library defaults except
// the quantile count and delta, the study's Epsilon* delta), then
// kCommonWindowVariant: the parametric estimator on the empirical one's rate
// window [rate_floor, rate_ceiling] = [0.001, 0.999] (the lost clip window
// is the parametric value's most influential choice); then each of these
// again at delta = 0, named with kDeltaZeroSuffix (the sensitivity to the
// Epsilon* delta: with delta = 1/n the terms (1 - delta - rate)/rate of the
// parametric fits stop growing where 1 - rate < delta).
std::vector<EpsilonStarVariant> MakeVariants(const EpsilonStarOptions& defaults);

// One model to train.
struct ModelUnit {
  int64_t point = 0;  // index into the grid
  int64_t rep = 0;
  SweepUnit unit;     // id "<configuration id>_rep=<rep>"
  double cost = 0.0;  // relative, for ordering
};

// Units in (configuration, repetition) order; cost = examples processed
// (DP steps count 1.5x) plus two passes of evaluation.
std::vector<ModelUnit> MakeUnits(const std::vector<SweepPoint>& points, int64_t repetitions,
                                 int64_t n_train);
// The run (= shard assignment) order: most expensive first, which balances
// threads and shards; ties keep (configuration, repetition) order.
std::vector<ModelUnit> RunOrder(const std::vector<ModelUnit>& units);
// The sweep: run_order = RunOrder(units), merge_order = units.
SweepPlan MakeSweepPlan(std::string config_text, const std::vector<ModelUnit>& units);

// The format of a unit's part: scalars /unit/<field> (plus
// /unit/epsilon_star_<variant>), nearest-rank loss quantiles at 0%, ..., 100%.
inline constexpr int kLossQuantiles = 101;
const std::vector<std::string>& UnitScalarFields();

// Everything a unit's result depends on besides its id. The unit id names
// the configuration's own values (baseline epochs; DP target eps, clip norm,
// batch size, microbatches) and the repetition; this text holds the rest
// (data, model, optimiser, sampling, delta, DP epochs, baseline batch size,
// calibration rule, Epsilon* variants, seed; the device unless cpu), and the
// noise multiplier is a function of the two. Grid lists and the repetition
// count are NOT part of it, so runs of different grids (quick, paper, a
// re-run with more repetitions) share every unit they have in common: the
// framework keys the parts directory by this text
// (experiments/lib/framework/sweep.h).
std::string UnitConfigText(const std::string& study, const EpsilonStarSweepConfig& c,
                           const Dataset& d, const std::vector<EpsilonStarVariant>& variants,
                           const std::string& model_description, uint64_t seed);

// Seconds per step of each kind of run (by KindKey) and per model
// evaluation, measured on a few steps: the projection of --plan_only.
struct Probe {
  std::map<std::string, double> step_seconds;
  double eval_seconds = 0.0;
};
// "dp_b64_m32", "baseline_b64_m0": runs of one kind cost the same per step.
std::string KindKey(const SweepPoint& p);
// "45 s", "12.5 min", "3.2 h".
std::string Hours(double seconds);

// The --plan_only printout: configurations with steps, q, noise and eps,
// the projected time (when `probe` is given) and the Slurm recipe.
struct PlanPrintout {
  std::string study;
  const EpsilonStarSweepConfig* config = nullptr;
  const std::vector<SweepPoint>* points = nullptr;
  const std::vector<PointAccounting>* accounting = nullptr;
  size_t units = 0;
  const Probe* probe = nullptr;  // may be null
  int threads = 1;
  Scale scale = Scale::kQuick;
};
std::string PlanText(const PlanPrintout& plan);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_PLAN_H_
