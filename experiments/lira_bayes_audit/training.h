// One model of study lira_bayes_audit (README.md): train a
// classifier on chosen rows of the audit pool (non-private, or DP-SGD) and
// score it: the LiRA statistic phi (attacks/lira.h, logit-scaled confidence
// of the true class) of chosen pool rows in one batched forward pass, and
// the accuracy on the held-out test rows. The model itself is not kept.
//
// Training (mechanisms/dpsgd.h): Poisson sampling at q = batch_size / N (the
// accountants' assumption), per-example clipping (accounting noise
// multiplier = sigma), momentum SGD; one LibTorch thread per model (sweep
// units train in parallel instead), so the result is the same for a seed on
// any machine load.
//
// This is the study's only LibTorch translation unit; the header is
// torch-free.
#ifndef PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_TRAINING_H_
#define PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_TRAINING_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "mechanisms/device.h"

namespace privbench {
namespace lira_bayes_audit {

// The audit's data: the pool (candidate points) and the accuracy rows,
// row-major float features as the model sees them (run.h: Fashion-MNIST in
// [0, 1], CIFAR-10 standardised per channel).
struct AuditData {
  int64_t num_features = 0;
  int64_t num_classes = 0;
  // One image as C x H x W (num_features = C H W): {1, 28, 28} Fashion-MNIST,
  // {3, 32, 32} CIFAR-10; the paper_cnn model is built for it. Empty: flat
  // features (the mlp model only).
  std::vector<int64_t> input_shape;
  std::vector<float> pool_x;
  std::vector<int64_t> pool_y;
  std::vector<float> test_x;
  std::vector<int64_t> test_y;
  int64_t pool_size() const { return static_cast<int64_t>(pool_y.size()); }
};

struct TrainSpec {
  std::string model = "mlp";  // mlp | paper_cnn (BayesPaperCnnSpec on data.input_shape)
  int64_t hidden = 32;
  bool private_training = false;
  double noise_multiplier = 0.0;
  double clip_norm = 1.0;
  int64_t batch_size = 64;
  int64_t epochs = 20;
  double learning_rate = 0.05;
  double momentum = 0.9;
  ComputeDevice device = ComputeDevice::kCpu;  // where DP-SGD trains (mechanisms/device.h)
};

struct ModelScores {
  std::vector<double> phi;        // one per scored row
  std::vector<double> test_prob;  // true-class softmax probability of every test row
  double test_accuracy = 0.0;
  double train_accuracy = 0.0;
  // TrainingRecord::Metadata() of the run (q, steps, accounting sigma, ...).
  std::vector<std::pair<std::string, std::string>> record;
};

// Trains on pool rows `train_rows` (seeds: init_seed for the weights,
// train_seed for batches and noise) and scores pool rows `score_rows`.
Result<ModelScores> TrainAndScore(const AuditData& data, const std::vector<int64_t>& train_rows,
                                  const std::vector<int64_t>& score_rows, const TrainSpec& spec,
                                  uint64_t init_seed, uint64_t train_seed);

// "Linear(784->32) Tanh Linear(32->10)" and the parameter count of the spec
// on this data (an mlp takes num_features inputs, paper_cnn input_shape).
Result<std::pair<std::string, int64_t>> DescribeArchitecture(const AuditData& data,
                                                             const TrainSpec& spec);

// "libtorch 2.11.0".
std::string TorchVersion();

}  // namespace lira_bayes_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_TRAINING_H_
