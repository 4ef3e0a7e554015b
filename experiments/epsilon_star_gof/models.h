// The Adult models of the goodness-of-fit study C4 `epsilon_star_gof`
// (Negoescu et al., "Epsilon*", PPAI-24, App. B.2, Fig. 6: "instances of the
// Adult model trained with and without DP"), and their per-example losses.
// The only LibTorch translation unit of the study; this header is torch-free.
//
// A model is AdultMlpSpec(d, hidden) (mechanisms/dp_model.h) trained by
// mechanisms/dpsgd.h TrainDpSgd (Poisson sampling, momentum SGD, one LibTorch
// math thread: the study parallelises over models), either
// non-private or DP-SGD with per-example clipping (or TF Privacy
// microbatches) at a noise multiplier calibrated for a target eps by the RDP
// accountant (estimators/accountants, "rdp", DefaultRdpOrders(), classic
// conversion) on the run's q = B/N and steps = ceil(epochs N / B) at delta.
// Calibration rules (recorded): "sound" trains with
// NoiseMultiplierForAccounting(sigma), so the run is (eps, delta)-DP under
// dpsgd.h's accounting; "tf_privacy_0_5_1" trains with sigma itself (the
// paper's library; identical to "sound" for per-example clipping).
// The reported eps of a run is recomputed from its TrainingRecord (q, steps,
// accounting_noise_multiplier) and only when eps_reportable.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_MODELS_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_MODELS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "data_scripts/dataset.h"
#include "mechanisms/device.h"

namespace privbench::epsilon_star_gof {

struct GofModelConfig {
  bool private_training = false;
  int64_t epochs = 10;
  int64_t batch_size = 64;  // expected batch (Poisson)
  double learning_rate = 0.01;
  double momentum = 0.9;
  int64_t hidden = 128;  // AdultMlpSpec width
  // Where DP-SGD trains (mechanisms/device.h).
  ComputeDevice device = ComputeDevice::kCpu;
  // DP only.
  double target_epsilon = 10.0;
  double delta = 0.0;  // > 0 (the study passes 1/n by default)
  double clip_norm = 1.0;
  int64_t num_microbatches = 0;            // 0 = per-example clipping
  std::string calibration_rule = "sound";  // or "tf_privacy_0_5_1"
};

// The noise plan of a DP configuration on n training rows.
struct GofNoisePlan {
  double q = 0.0;
  int64_t steps = 0;
  double calibrated_sigma = 0.0;             // accountant's sigma for target eps
  double noise_multiplier = 0.0;             // trained with
  double accounting_noise_multiplier = 0.0;  // what the sound accountant sees
  double eps_sound = 0.0;                    // rdp eps at the accounting multiplier
  double eps_tf_privacy_0_5_1 = 0.0;         // rdp eps at the trained sigma
};

// Calibrates (private_training must be true; errors name the field).
Result<GofNoisePlan> PlanGofNoise(const GofModelConfig& config, int64_t n_train);

struct GofTrainedModel {
  std::vector<double> train_losses;  // per-example cross-entropy, float64
  std::vector<double> population_losses;
  double train_accuracy = 0.0;
  double population_accuracy = 0.0;
  double population_auroc = 0.0;      // utility: logit difference vs label
  double membership_auc = 0.0;        // loss-threshold attack AUC (train vs population)
  double eps = 0.0;                   // sound eps of the run (DP only, else 0)
  double eps_tf_privacy_0_5_1 = 0.0;  // eps by TF Privacy 0.5.1's rule (DP only)
  double noise_multiplier = 0.0;
  double accounting_noise_multiplier = 0.0;
  double q = 0.0;
  int64_t steps = 0;
  std::vector<double> loss_per_epoch;
  std::vector<std::pair<std::string, std::string>> record;  // TrainingRecord::Metadata()
};

// Trains one model (initial weights from DeriveSeed(seed, {0}), training
// streams from DeriveSeed(seed, {1})) and evaluates it. For DP, `plan` is
// PlanGofNoise's result (its steps and q must match the run's).
Result<GofTrainedModel> TrainGofModel(const Dataset& dataset, const GofModelConfig& config,
                                      const GofNoisePlan& plan, uint64_t seed);

}  // namespace privbench::epsilon_star_gof

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_MODELS_H_
