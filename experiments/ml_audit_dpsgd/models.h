// The models of study D2 `ml_audit_dpsgd` (README.md): the data, the
// two DP-SGD poisonings of ML-Audit (Lu et al., NeurIPS 2022, Sec. 5,
// "DP-SGD") and one DP-SGD training with its probe outputs.
//
// Data: Fashion-MNIST (data_scripts/fashion_mnist.h) classes `class_a`
// (label 0) vs `class_b` (label 1); `n_train` rows drawn without replacement
// (seeded) from their training images, pixels / 255, flattened to 784;
// `test_probes` rows of the same two classes from the test images are the
// vector summary's extra probes.
//
// Poisons, built by attacks/dpsgd_poisoning/dpsgd_poisoning.h
// (constructions, citations and assumptions there) from networks this file
// trains on D:
//  - clipbkd (Jagielski, Ullman & Oprea, NeurIPS 2020; ML-Audit Sec. 5): x*
//    the least-variance direction at the median row norm; y* the label least
//    likely at x* under the mean of `label_models` non-private networks
//    (DesignClipBkd), or of DP-trained ones (DpLeastLikelyLabel: ML-Audit
//    Sec. 4.1, step 2's average over DP outputs).
//  - shadow (Nasr et al., IEEE S&P 2021, the adversarial-example poison, as
//    ML-Audit describes it): a seeded random row of D, label kept, moved by
//    `shadow_steps` normalised ascent steps (L2 length `shadow_step`) on its
//    cross-entropy over `shadow_models` shadow networks, kept in
//    [0, 1]^784.
//
// Neighbours (PoisonedRows): the poison's k copies either appended to D's
// rows (add/remove neighbours at distance k, the adjacency of the RDP
// accountant that calibrates sigma; n grows by k) or put in place of D's
// last k rows (n kept: the same q and T). The second, with the copies
// labelled 1 - y* on one side and y* on the other, is Jagielski et al.'s
// label-flip pair (their public Fashion-MNIST code): replace-one = remove +
// add, so the pair is at add/remove distance 2k.
//
// Training: MLP 784-hidden-2 (Tanh, or ReLU; mechanisms/dp_model.h), DP-SGD with
// per-example clipping, Poisson sampling at q = batch_size / |D|, momentum
// SGD (mechanisms/dpsgd.h), one LibTorch thread. Output of one model (its
// "probe vector", the raw material of every summary tau):
//   [ P_{y_c}(x_c), P_{y_c}(0), P_{y_c}(t_1), ..., P_{y_c}(t_m), P_{y_s}(x_s) ]
// P_y(x) = softmax probability of label y at x; (x_c, y_c) the clipbkd
// poison, (x_s, y_s) the shadow poison, t_i the test probes.
//
// This is the only translation unit of the study that includes LibTorch; the
// header is torch-free.
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_MODELS_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_MODELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "mechanisms/device.h"

namespace privbench {
namespace ml_audit_dpsgd {

struct AuditData {
  int64_t num_features = 784;
  std::vector<float> x;  // n_train x 784, row-major
  std::vector<int64_t> y;
  std::vector<float> probes_x;  // test_probes x 784
  std::string checksums;
  int64_t n() const { return static_cast<int64_t>(y.size()); }
};

struct DataOptions {
  std::string data_dir;  // empty: the loader's default
  int64_t class_a = 0, class_b = 1;
  int64_t n_train = 6000;
  int64_t test_probes = 8;
  uint64_t seed = 0;
};

// Errors name data_dir (a file failing its checksum), n_train or classes.
Result<AuditData> LoadAuditData(const DataOptions& o);

struct TrainSpec {
  bool private_training = true;
  int64_t hidden = 32;
  bool relu = false;              // hidden activation: Tanh, or ReLU (Jagielski et al.'s "2f")
  double noise_multiplier = 1.0;  // sigma
  double clip_norm = 1.0;
  int64_t batch_size = 250;  // expected (Poisson)
  int64_t epochs = 24;
  double learning_rate = 0.15;
  double momentum = 0.0;
  ComputeDevice device = ComputeDevice::kCpu;  // where DP-SGD trains (mechanisms/device.h)
};

struct PoisonPoint {
  std::string attack;  // "clipbkd" or "shadow"
  std::vector<float> x;
  int64_t y = 0;
  int64_t source_row = -1;  // shadow: the row it started from
  double clean_prob = 0;    // P_y(x) under the (mean) non-private model(s) on D
};

// Errors name clipbkd_label_models (< 1).
Result<PoisonPoint> DesignClipBkd(const AuditData& d, const TrainSpec& spec, int64_t label_models,
                                  uint64_t seed);

struct ShadowOptions {
  int64_t models = 4;
  int64_t steps = 50;
  double step = 0.5;  // L2 length of each ascent step
};
Result<PoisonPoint> DesignShadow(const AuditData& d, const TrainSpec& spec, const ShadowOptions& o,
                                 uint64_t seed);

struct ClipBkdLabel {
  int64_t y = 0;    // the label least likely at x* under the networks' mean
  double prob = 0;  // its mean probability there
};
// ClipBKD's label from `models` networks trained as `spec` says (DP-SGD at
// its sigma) on D's rows alone, no poison: the label least likely at x*
// under their mean softmax. Model m is the one TrainAndProbe trains on D
// (no insertion) with seed DeriveSeed(seed, {m}). Errors name
// clipbkd_label_models (< 1).
Result<ClipBkdLabel> DpLeastLikelyLabel(const AuditData& d, const TrainSpec& spec,
                                        const std::vector<float>& x_star, int64_t models,
                                        uint64_t seed);

// Probe-vector length for m test probes: m + 3.
inline int64_t ProbeDim(int64_t test_probes) { return test_probes + 3; }

enum class Placement {
  kAppend,       // D's n rows, then the k copies: n + k rows
  kReplaceLast,  // D's rows with the last k replaced by the copies: n rows
};
// The poison copies in one model's training set; none when poison is null
// or k = 0.
struct Insertion {
  const PoisonPoint* poison = nullptr;
  int64_t k = 0;
  Placement placement = Placement::kAppend;
  int64_t label = 0;  // the copies' label: y*, or 1 - y* (the flip pair's D)
};
struct TrainingRows {
  std::vector<float> x;  // n x num_features, row-major
  std::vector<int64_t> y;
  int64_t n() const { return static_cast<int64_t>(y.size()); }
};
// The rows one model trains on. Errors: kReplaceLast with k >= n (naming k).
Result<TrainingRows> PoisonedRows(const AuditData& d, const Insertion& insertion);

// Trains one model on PoisonedRows(d, insertion) and returns its probe
// vector (above). Deterministic in `seed`.
Result<std::vector<double>> TrainAndProbe(const AuditData& d, const Insertion& insertion,
                                          const TrainSpec& spec, const PoisonPoint& clipbkd,
                                          const PoisonPoint& shadow, uint64_t seed);

// "libtorch 2.11.0", for /meta.
std::string TorchVersion();

}  // namespace ml_audit_dpsgd
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_MODELS_H_
