// The numbers of the Epsilon* privacy-utility sweeps (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, §4,
// Figs. 1-2; experiments/epsilon_star_sweep_{adult,purchase}/README.md): the noise calibration of
// every DP configuration and one work unit = one trained model with its Epsilon*, utility and
// accounting, written into the unit's sweep part.
//
// A unit is deterministic in (seed, configuration, repetition): the model is
// initialised from DeriveSeed(seed, {StableHash(config id), rep, 0}) and
// trained with DpSgdConfig::seed = DeriveSeed(seed, {StableHash(config id),
// rep, 1}) on one LibTorch thread (units run in parallel instead).
//
// Per model (unit):
//  - training: mechanisms/dpsgd.h TrainDpSgd, momentum SGD (lr, momentum
//    from the config), Poisson sampling by default; baselines non-private;
//    on the config's device (--device, mechanisms/device.h);
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
// diverged (its metrics NaN, /unit/divergence says why).
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_COMPUTE_H_

#include <torch/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "data_scripts/dataset.h"
#include "experiments/lib/epsilon_star_sweep/plan.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"
#include "results/h5_file.h"

namespace privbench {

// The dataset as tensors (views of the Dataset's memory, which must outlive
// them and is never written).
struct SweepTensors {
  torch::Tensor train_x, train_y, population_x, population_y;
};
Result<SweepTensors> MakeTensors(const Dataset& d);

// Adult: AdultMlpSpec; Purchase-100: PurchaseMlpSpec (mechanisms/dp_model.h).
ModelSpec SpecFor(SweepModel model, const Dataset& d);

// The training run of configuration `p` (baselines: non-private).
DpSgdConfig TrainingConfig(const SweepPoint& p, const EpsilonStarSweepConfig& c,
                           double noise_multiplier, uint64_t seed);

// Calibrated noise and both eps of every DP configuration (q and steps of
// every configuration); errors name a configuration whose batch exceeds the
// training set or whose calibration fails.
Result<std::vector<PointAccounting>> PlanAccounting(const std::vector<SweepPoint>& points,
                                                    const EpsilonStarSweepConfig& c,
                                                    int64_t n_train);

// Nearest-rank quantiles at 0%, 1%, ..., 100% (kLossQuantiles values;
// 0%: the minimum, 100%: the maximum). `values` must not be empty.
std::vector<double> LossQuantiles(std::vector<double> values);

// Per-example losses, accuracy and logits from ONE forward pass: the same
// values as PerExampleLosses() and Accuracy() (mechanisms/dp_model.cc:
// float64 log-softmax of the logits, argmax against the label), which would
// each run their own pass over the data (the dominant evaluation cost at
// Purchase-100's paper scale).
struct ModelEvaluation {
  torch::Tensor logits;
  std::vector<double> losses;
  double accuracy = 0.0;
};
Result<ModelEvaluation> Evaluate(const DpModel& model, const torch::Tensor& x,
                                 const torch::Tensor& y);

// Whether a training error is a divergence (non-finite loss or gradient).
bool IsDivergence(const std::string& message);

// What every unit of one sweep shares.
struct UnitInputs {
  const SweepStudy* study = nullptr;
  const EpsilonStarSweepConfig* config = nullptr;
  const Dataset* dataset = nullptr;
  const SweepTensors* tensors = nullptr;
  const std::vector<SweepPoint>* points = nullptr;
  const std::vector<PointAccounting>* accounting = nullptr;
  std::vector<EpsilonStarVariant> variants;
  EpsilonStarOptions options;  // the library defaults (+ quantile count)
  ModelSpec spec;
  uint64_t seed = 0;
};

// One model: trains repetition `rep` of configuration `point`, evaluates it
// and writes the part (plan.h UnitScalarFields, /unit/epsilon_star_<variant>,
// /unit/loss_quantiles_{train,population}, /unit/loss_per_epoch, /record,
// /meta train_seconds and eval_seconds).
Status RunModelUnit(const UnitInputs& u, int64_t point, int64_t rep, ResultWriter& part);

// Seconds per step of each kind of run (a few steps of each) and of one
// full model evaluation: the projection of --plan_only.
Result<Probe> MeasureProbe(const UnitInputs& u, int64_t probe_steps);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_COMPUTE_H_
