// One model of study C1 `region_of_privacy` (Erlingsson et al. 2019,
// "That which we call private", Sec. 4-5; README.md): train
// Jayaraman & Evans' Purchase-100 multinomial logistic regression once, with
// DP-SGD at one noise multiplier or without privacy, and return what the
// study needs: training / population accuracy, every member's and
// non-member's cross-entropy loss (the input of Yeom et al.'s loss-threshold
// attack) and the training record (q, steps, accounting noise multiplier,
// sampling).
//
// Training (mechanisms/dpsgd.h): LogisticRegressionSpec(d, K) (one
// Linear(d -> K) layer, softmax cross-entropy), Poisson sampling at rate
// q = batch_size / N (the assumption of every accountant), per-example
// clipping (num_microbatches = 0, so accounting_noise_multiplier = sigma),
// Adam (J&E) or momentum SGD with weight decay, one LibTorch thread (units run
// in parallel instead). The non-private baseline uses the same batches and
// optimiser without clipping or noise.
//
// This is the only translation unit of the study that includes LibTorch
// (~40 s to compile); the header is torch-free.
#ifndef PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_TRAINING_H_
#define PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_TRAINING_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "core/result.h"
#include "data_scripts/dataset.h"
#include "mechanisms/device.h"

namespace privbench {
namespace region_of_privacy {

struct TrainOptions {
  bool private_training = true;
  double noise_multiplier = 1.0;  // sigma (ignored without privacy)
  double clip_norm = 1.0;         // C, per example
  int64_t batch_size = 200;       // expected batch size: q = batch_size / N
  int64_t epochs = 100;           // steps = ceil(epochs / q)
  double learning_rate = 0.01;
  std::string optimizer = "adam";  // or "momentum_sgd"; J&E: DPAdamGaussianOptimizer
  double momentum = 0.9;           // momentum_sgd only
  double weight_decay = 1e-5;
  // Where DP-SGD trains (mechanisms/device.h).
  ComputeDevice device = ComputeDevice::kCpu;
  uint64_t train_seed = 0;  // TrainDpSgd's seed: batches and noise
  uint64_t init_seed = 0;   // DpModel::Create's seed: initial weights
};

struct TrainOutcome {
  double train_accuracy = 0.0;
  double population_accuracy = 0.0;
  std::vector<double> train_losses;       // one per training (member) record
  std::vector<double> population_losses;  // one per population (non-member) record
  std::vector<double> loss_per_epoch;     // mean batch loss during training
  // From the TrainingRecord: what the accountant needs.
  double q = 0.0;
  int64_t steps = 0;
  double accounting_noise_multiplier = 0.0;
  bool eps_reportable = false;
  std::string sampling;
  std::string architecture;
  // TrainingRecord::Metadata(): every field of the record as text.
  std::vector<std::pair<std::string, std::string>> record_metadata;
};

// Trains one model on dataset.train_* and evaluates it on the training and
// population rows. Errors (invalid options, NaN loss, LibTorch failures)
// are returned, never thrown. `progress` (may be null) advances once per
// step.
Result<TrainOutcome> TrainModel(const Dataset& dataset, const TrainOptions& options,
                                ProgressReporter* progress = nullptr);

// "libtorch 2.11.0" (TORCH_VERSION), for result metadata.
std::string TorchVersion();

}  // namespace region_of_privacy
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_TRAINING_H_
