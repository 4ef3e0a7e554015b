// DP-SGD training (Abadi et al. 2016, Alg. 1) with TensorFlow Privacy's
// microbatch semantics, momentum SGD, Poisson or shuffled sampling; the
// engine of docs/studies.md, "Studies that train models" (C1 region_of_privacy, C2/C3 Epsilon*
// sweeps, D2, E1).
//
// One step t, private training:
//   1. sample a batch (below);
//   2. split it into microbatches, clip each microbatch's MEAN gradient to
//      L2 norm C (mechanisms/per_example_grads.h; per-example clipping is
//      microbatch size 1);
//   3. g = (sum_j clip_C(g_j) + N(0, sigma^2 C^2 I)) / normaliser;
//   4. g += weight_decay * theta (data-independent, so post-processing);
//      then the optimizer (`optimizer`, recorded):
//      - "momentum_sgd" (default): v = momentum * v + g; theta -= lr * v
//        (PyTorch SGD with dampening 0, identical to TF's MomentumOptimizer);
//      - "adam": TF1's AdamOptimizer, as in TF Privacy's
//        DPAdamGaussianOptimizer (Jayaraman & Evans' code):
//        m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2;
//        theta -= lr sqrt(1-b2^t)/(1-b1^t) * m / (sqrt(v) + eps).
//      Either is post-processing of the privatised gradient: the privacy
//      accounting does not depend on it.
// Non-private training (private_training = false): g = the mean
// cross-entropy gradient of the sampled batch, then step 4.
//
// SAMPLING (recorded as `sampling`):
//  - "poisson" (default, what every accountant here assumes): each of the N
//    examples joins the batch independently with probability
//    q = batch_size / N (drawn by geometric skipping, exact);
//    steps = ceil(epochs * N / batch_size) = ceil(epochs / q), TF Privacy's
//    step count. Batches may be empty: a private step then releases noise
//    only (still a step of the sampled Gaussian mechanism); a non-private
//    step is skipped.
//  - "shuffle": a fresh permutation per epoch cut into floor(N / batch_size)
//    batches of exactly batch_size (the remainder of each epoch is dropped,
//    so every batch splits into equal microbatches);
//    steps = epochs * floor(N / batch_size). This is what Jayaraman & Evans
//    and TF Privacy's Keras examples do; it does NOT match the Poisson
//    assumption of the accountants, so TrainingRecord says
//    sampling_matches_poisson_accountant = false and eps_reportable = false:
//    the caller must not report an accountant eps for such a run.
//
// MICROBATCHES (num_microbatches = m; 0 means per-example clipping):
//  - shuffle: TF Privacy exactly: m must divide batch_size; microbatch j is
//    rows j*b..(j+1)*b-1 of the batch (b = batch_size/m, tf.reshape(loss,
//    [m, -1])); normaliser = m (m = batch_size for per-example clipping).
//  - poisson, m = 0: per-example clipping, normaliser = batch_size, the
//    EXPECTED batch size q N (Opacus): dividing by the realised batch size
//    would make the normaliser data-dependent.
//  - poisson, m > 0 (our extension; TF Privacy has no Poisson sampling):
//    every sampled example joins one of the m microbatches uniformly at
//    random, independently of the others (its own seeded stream);
//    each microbatch's gradient is the mean over its actual members (empty
//    microbatches contribute 0); normaliser = m. Why: the expected
//    microbatch size is q N / m = batch_size / m, as in TF Privacy; adding
//    or removing one example changes exactly ONE microbatch (a contiguous
//    partition of the sampled batch would shift every later boundary and
//    change many), whose clipped mean moves by at most 2C; and m is
//    data-independent.
//
// ACCOUNTING (this library computes no eps; the caller runs the RDP
// accountant of the Poisson-sampled Gaussian mechanism, add/remove
// adjacency, with q, steps and accounting_noise_multiplier):
//  The accountant needs the noise std over the L2 sensitivity of the summed
//  clipped contributions. Per-example clipping: sensitivity C, so
//  accounting_noise_multiplier = sigma. Microbatches of (expected) size > 1:
//  one example can move its microbatch's clipped mean anywhere in the
//  C-ball, sensitivity 2C, so accounting_noise_multiplier = sigma / 2. This
//  is the rule of current TF Privacy (compute_dp_sgd_privacy_lib,
//  used_microbatching=True halves the noise multiplier); we PICK it because
//  it is the sound one. TF Privacy 0.5.1, which the Epsilon* paper used,
//  accounted every run with sigma; that value is recorded separately as
//  tf_privacy_0_5_1_noise_multiplier so that a study can reproduce the
//  paper's calibration (sigma for a target eps) while reporting the sound
//  eps. To train at a given accounting noise multiplier, pass
//  NoiseMultiplierForAccounting(...) as noise_multiplier.
//
// RANDOMNESS: the model's initial weights come from DpModel::Create(spec,
// seed'); here `seed` drives three independent streams
// (core/seeding.h MakeRng(seed, {s})): s = 1 data order / Poisson sampling,
// s = 2 microbatch assignment, s = 3 Gaussian noise (Boost.Random normal
// on mt19937_64), so the batches do not depend on m or sigma. LibTorch's
// global RNG is not used. `threads` sets at::set_num_threads (global to the
// process; default 1 for bit-for-bit determinism; 0 leaves it unchanged).
//
// DEVICE (`device`, mechanisms/device.h): the model's parameters and the
// training rows move to the GPU for the steps; each step's Gaussian noise
// is drawn on the CPU (the same stream and order as above), copied over
// and added there; the model returns to the CPU at the end, also on error.
// CPU runs are bit-for-bit what they were before devices existed.
//
// FAILURES: invalid configurations are refused with a message naming the
// argument ("batch_size 600 exceeds the dataset size 500"); a non-finite
// loss or noisy gradient stops training with "NaN loss at step 1234 of 5000
// (epoch 3)" and nothing is returned for the run; LibTorch exceptions
// become Errors.
#ifndef PRIVBENCH_MECHANISMS_DPSGD_H_
#define PRIVBENCH_MECHANISMS_DPSGD_H_

#include <torch/types.h>

#include <boost/random/normal_distribution.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "core/result.h"
#include "core/seeding.h"
#include "mechanisms/device.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/per_example_grads.h"

namespace privbench {

enum class Sampling { kPoisson, kShuffle };

// "poisson" or "shuffle".
std::string_view SamplingName(Sampling sampling);
// Parses "poisson" / "shuffle".
Result<Sampling> ParseSampling(std::string_view name);
// True only for Poisson sampling, the assumption of every accountant here.
bool SamplingMatchesPoissonAccountant(Sampling sampling);

enum class OptimizerKind { kMomentumSgd, kAdam };
std::string_view OptimizerName(OptimizerKind kind);  // "momentum_sgd", "adam"
Result<OptimizerKind> ParseOptimizer(std::string_view name);

struct DpSgdConfig {
  bool private_training = true;
  double noise_multiplier = 1.0;  // sigma: noise std = sigma * clip_norm
  double clip_norm = 1.0;         // C
  int64_t num_microbatches = 0;   // m; 0 = per-example clipping
  Sampling sampling = Sampling::kPoisson;
  int64_t batch_size = 256;  // shuffle: exact; poisson: expected (q = batch_size / N)
  int64_t epochs = 1;
  double learning_rate = 0.01;
  OptimizerKind optimizer = OptimizerKind::kMomentumSgd;
  double momentum = 0.9;                                             // momentum_sgd only
  double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_epsilon = 1e-8;  // adam only (TF1 defaults)
  double weight_decay = 0.0;  // L2 coefficient, added to the privatised gradient
  uint64_t seed = 0;
  int threads = 1;  // at::set_num_threads; 0 = leave unchanged
  // Where the steps run (mechanisms/device.h). The model is moved there for
  // training and back to the CPU afterwards; the random draws stay on the
  // CPU, so both devices see the same batches and noise.
  ComputeDevice device = ComputeDevice::kCpu;
};

// True if the run clips microbatch means of (expected) size > 1.
bool IsMicrobatched(const DpSgdConfig& config);
// sigma / 2 if microbatched (sensitivity 2C), else sigma; 0 if not private.
double AccountingNoiseMultiplier(const DpSgdConfig& config);
// The noise_multiplier to train with so that AccountingNoiseMultiplier()
// equals `accounting_sigma`.
double NoiseMultiplierForAccounting(double accounting_sigma, const DpSgdConfig& config);

// Checks every field against a dataset of `dataset_size` rows.
Status ValidateDpSgdConfig(const DpSgdConfig& config, int64_t dataset_size);

// Everything the caller needs to account for and describe a run.
struct TrainingRecord {
  bool private_training = true;
  std::string sampling;  // "poisson" / "shuffle"
  bool sampling_matches_poisson_accountant = false;
  bool eps_reportable = false;  // private && Poisson: an accountant eps is valid
  int64_t dataset_size = 0;     // N
  int64_t batch_size = 0;       // exact (shuffle) or expected (poisson)
  double q = 0.0;               // batch_size / N
  int64_t steps = 0;
  int64_t epochs = 0;
  double noise_multiplier = 0.0;  // sigma as trained (0 if not private)
  double clip_norm = 0.0;
  int64_t num_microbatches = 0;  // as configured (0 = per-example)
  bool microbatched = false;     // microbatch size > 1
  double expected_microbatch_size = 1.0;
  double gradient_normaliser = 1.0;
  double accounting_noise_multiplier = 0.0;        // feed THIS to the accountant
  double tf_privacy_0_5_1_noise_multiplier = 0.0;  // = sigma: the paper's (unsound) rule
  std::string accounting_rule;
  std::string microbatch_rule;
  double learning_rate = 0.0;
  std::string optimizer;  // "momentum_sgd" / "adam"
  double momentum = 0.0;
  double weight_decay = 0.0;
  uint64_t seed = 0;
  int threads = 0;
  std::string device;        // DescribeDevice(): the device and its determinism
  std::string model;         // spec name
  std::string architecture;  // DescribeModel()
  int64_t num_parameters = 0;
  // Per trainable layer, how its per-example (per-microbatch) gradient norms
  // are computed (DescribeGradientNorms, per_example_grads.h).
  std::string gradient_norms;
  int64_t empty_batches = 0;
  double mean_batch_size = 0.0;
  // Mean per-example training loss over the batches of each epoch (before
  // each step's update); 0 for an epoch whose batches were all empty.
  std::vector<double> loss_per_epoch;

  // "key", "value" pairs of every field above, for result-file metadata.
  std::vector<std::pair<std::string, std::string>> Metadata() const;
};

// Trains `model` in place on (x, y) (see the header comment). The model is
// not re-initialised. On error the model's parameters are unspecified.
Result<TrainingRecord> TrainDpSgd(DpModel& model, const torch::Tensor& x, const torch::Tensor& y,
                                  const DpSgdConfig& config, ProgressReporter* progress = nullptr);

namespace internal {

// The seed streams of a run (RANDOMNESS above).
constexpr uint64_t kSamplingStream = 1;
constexpr uint64_t kMicrobatchStream = 2;
constexpr uint64_t kNoiseStream = 3;

// Draws the examples of each step: Poisson sampling, or a fresh shuffle at
// the start of every epoch cut into consecutive batches (SAMPLING above),
// from the stream kSamplingStream of config.seed.
class BatchSampler {
 public:
  BatchSampler(int64_t n, const DpSgdConfig& config, double q);
  int64_t EpochOf(int64_t step) const;
  std::vector<int64_t> Next(int64_t step);

 private:
  int64_t n_, batch_;
  bool poisson_;
  double q_;
  int64_t steps_per_epoch_;
  Rng rng_;
  std::vector<int64_t> perm_;
};

// values[i] = (values[i] + noise_std * z_i) * inverse_normaliser for
// i = 0..n-1, z_i drawn from `normal` on `rng` in index order (the order is
// part of the seed contract); false if a result is not finite. The noise of
// every DP-SGD step, single and batched (mechanisms/dpsgd_batched.h).
bool AddNoiseAndNormalise(float* values, int64_t n, double noise_std, double inverse_normaliser,
                          boost::random::normal_distribution<double>& normal, Rng& rng);

// Everything about a run that is known before its first step.
TrainingRecord DescribeTraining(const DpModel& model, int64_t n, const DpSgdConfig& config);

// theta <- one optimizer step (see step 4 above); no autograd.
class Optimizer {
 public:
  // The optimizer, learning rate, momentum / Adam constants and weight decay
  // of `config`.
  Optimizer(std::vector<torch::Tensor> params, const DpSgdConfig& config);
  void Step(const std::vector<torch::Tensor>& grads);

 private:
  std::vector<torch::Tensor> params_;
  std::vector<torch::Tensor> first_;   // momentum velocity, or Adam's m
  std::vector<torch::Tensor> second_;  // Adam's v
  DpSgdConfig config_;
  int64_t t_ = 0;
};

struct StepOutcome {
  double loss_sum = 0.0;  // summed cross-entropy of the batch (0 if empty)
  bool finite = true;     // false: non-finite loss or gradient; no update was made
  bool loss_finite = true;
};

// One non-private step on a prepared batch (mean cross-entropy gradient).
StepOutcome NonPrivateStep(const DpModel& model, const torch::Tensor& x, const torch::Tensor& y,
                           Optimizer& optimizer);
// One DP-SGD step on a prepared batch (may be empty): clipped sum, plus
// N(0, noise_std^2) per coordinate, divided by normaliser, then the update.
StepOutcome DpSgdStep(const DpModel& model, const torch::Tensor& x, const torch::Tensor& y,
                      const Microbatching& microbatching, double clip_norm, double noise_std,
                      double normaliser, Rng& noise_rng, Optimizer& optimizer);

}  // namespace internal

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_DPSGD_H_
