// Vectorised per-example (per-microbatch) gradient clipping for DP-SGD
// (Abadi et al. 2016, Alg. 1 lines "compute gradient" and "clip gradient";
// microbatches with TensorFlow Privacy's semantics, docs/studies.md, "Studies that train models").
//
// Computes, for one batch of B examples split into m microbatches G_1..G_m,
//   S = sum_j clip_C(g_j),   g_j = (1/|G_j|) sum_{i in G_j} grad l(theta; x_i, y_i),
//   clip_C(g) = g * min(1, C / ||g||)   (TF Privacy's clip_by_global_norm),
// where l is the cross-entropy and ||.|| the L2 norm over ALL parameters.
// Per-example clipping is m = B with |G_j| = 1. Empty microbatches
// contribute nothing. No noise is added here (see mechanisms/dpsgd.h).
//
// Method ("ghost clipping", Goodfellow 2015; Lee & Kifer 2021; Opacus):
// LibTorch's C++ API (2.11) has no vmap and no module hooks, so the model
// (mechanisms/dp_model.h) records each trainable layer's input a_i and
// output z_i, and ONE backward pass of the SUMMED loss gives
// d_i = dL/dz_i, which is example i's own output gradient because the loss
// is a sum over examples and the models have no cross-example layers
// (no batch norm). Then per layer, with d~_i = d_i / |G_j(i)|:
//  - Linear (W: dout x din): the microbatch gradient is
//    sum_{i in G_j} d~_i a_i^T. Squared norm either from Gram matrices,
//    sum_{i,i' in G_j} (a_i.a_i' + 1)(d~_i.d~_i') (the +1 is the bias;
//    per-example: ||d_i||^2 (||a_i||^2 + 1)), or by materialising the m
//    microbatch gradients, whichever costs fewer flops
//    (b (din + dout) vs din dout, b = largest microbatch). The clipped sum
//    is one matmul: (c ⊙ D~)^T A with c_i the clip factor of i's microbatch.
//  - Conv2d (W: Cout x Cin k k, T = OH OW output positions, U_i the
//    unfolded input, Cin k k x T): the microbatch gradient is
//    sum_{i in G_j} D~_i U_i^T. Per layer (ConvNorms::kAuto), the mixed
//    ghost clipping rule of Bu, Mao & Xu ("Scalable and Efficient Training
//    of Large Convolutional Neural Networks with Differential Privacy",
//    NeurIPS 2022, Sec. 3) picks one of two ways to its squared norm:
//    - ghost norm (Lee & Kifer 2021; Li et al. 2022) if 2 (b T)^2 < Cout
//      Cin k^2, b = largest microbatch: with the members' U_i, D~_i side by
//      side, ||D~ U^T||_F^2 = <U^T U, D~^T D~>_F, two (bT x bT) Gram
//      matrices per microbatch, never the gradient itself; computed in
//      chunks of microbatches (kGhostChunkFloats), so its memory is bounded
//      whatever the rule picks. The clipped sum is then ONE
//      weight-gradient convolution of the input with the output gradients
//      scaled by their clip factors (the "book-keeping" of Bu, Wang, Zha &
//      Karypis, "Differentially Private Optimization on Large Model at
//      Small Cost", ICML 2023): no second backward pass.
//    - materialised otherwise: the m microbatch gradients (m x Cout Cin k k)
//      for all j at once as the weight gradient of a GROUPED convolution
//      (Rochette, Manoel & Tramel 2019): microbatch j becomes channel group
//      j and its members the batch dimension; norms are row norms, the
//      clipped sum is sum_j c_j G_j.
//    The rule (the paper's, from the memory of the two ways) also agrees
//    with a flop count on the models here; on the Bayesian paper's
//    CNN (dp_model.h) it materialises the first convolution (T = 196,
//    Cin k^2 = 64) and ghost-norms the other two, whose per-example
//    gradients (0.3M and 0.6M floats each) dominated the step's time and
//    memory (//mechanisms:dpsgd_benchmark). ConvNorms::kGhostNorm /
//    kMaterialise force one way (tests, benchmark); DescribeGradientNorms
//    says which way each layer takes, for result metadata.
// Microbatches of unequal size (Poisson sampling) are zero-padded to the
// largest one so that everything stays one batched matmul.
//
// Cost: one forward, one backward to the layer outputs (the weight
// gradients of the backward pass are NOT computed), plus about one
// weight-gradient product per layer, plus the ghost norms' Gram matrices.
// ComputeClippedGradientSumLoop is the reference (one autograd call per microbatch) used in tests
// and by the benchmark.
//
// Precision: float32, like the model; norms agree with the reference loop
// to ~1e-5 relative.
#ifndef PRIVBENCH_MECHANISMS_PER_EXAMPLE_GRADS_H_
#define PRIVBENCH_MECHANISMS_PER_EXAMPLE_GRADS_H_

#include <torch/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "mechanisms/dp_model.h"

namespace privbench {

// How the B examples of a batch are grouped into microbatches.
class Microbatching {
 public:
  // Every example is its own microbatch: per-example clipping (m = B).
  static Microbatching PerExample();
  // TF Privacy: tf.reshape(loss, [m, -1]), i.e. microbatch j holds rows
  // j*B/m .. (j+1)*B/m - 1. B must be divisible by m.
  static Result<Microbatching> Contiguous(int64_t batch_size, int64_t num_microbatches);
  // Row i belongs to microbatch group_of[i] in [0, num_microbatches); sizes
  // may differ and microbatches may be empty (Poisson sampling).
  static Result<Microbatching> Groups(std::vector<int64_t> group_of, int64_t num_microbatches);

  bool per_example() const { return per_example_; }
  // m for a batch of `batch_size` rows (batch_size itself if per-example).
  int64_t num_microbatches(int64_t batch_size) const {
    return per_example_ ? batch_size : num_microbatches_;
  }
  // Empty if per-example; else one entry per row.
  const std::vector<int64_t>& group_of() const { return group_of_; }

 private:
  bool per_example_ = true;
  int64_t num_microbatches_ = 0;
  std::vector<int64_t> group_of_;
  friend struct MicrobatchLayout;
};

// How Conv2d layers get their microbatch gradient norms (see above).
enum class ConvNorms { kAuto, kGhostNorm, kMaterialise };

// The per-layer rules above: true if the layer's norms come from Gram
// matrices (ghost norm) for microbatches of `microbatch_rows` rows (1:
// per-example) and, for a convolution, `positions` = OH OW.
bool LinearUsesGhostNorm(const LayerSpec& layer, int64_t microbatch_rows);
bool ConvUsesGhostNorm(const LayerSpec& layer, int64_t positions, int64_t microbatch_rows,
                       ConvNorms choice = ConvNorms::kAuto);
// "layer 0 materialised; layer 3 ghost norm; ...": each trainable layer's
// way for microbatches of `microbatch_rows` rows (with Poisson
// microbatches the rule is applied each step to the largest one).
std::string DescribeGradientNorms(const ModelSpec& spec, int64_t microbatch_rows,
                                  ConvNorms conv_norms = ConvNorms::kAuto);

struct ClippedGradientSum {
  // sum_j clip_C(g_j), one tensor per model parameter (same shapes).
  std::vector<torch::Tensor> sum;
  // ||g_j|| before clipping, float64 (m); 0 for an empty microbatch.
  torch::Tensor norms;
  // Sum over the batch of the per-example cross-entropies.
  double loss_sum = 0.0;
};

// Vectorised (see above). Validates x, y, the microbatching (its size must
// match the batch) and clip_norm > 0 (use a huge clip_norm for unclipped
// sums).
Result<ClippedGradientSum> ComputeClippedGradientSum(const DpModel& model, const torch::Tensor& x,
                                                     const torch::Tensor& y,
                                                     const Microbatching& microbatching,
                                                     double clip_norm,
                                                     ConvNorms conv_norms = ConvNorms::kAuto);

// Reference: one autograd call per microbatch (per example if per-example).
Result<ClippedGradientSum> ComputeClippedGradientSumLoop(const DpModel& model,
                                                         const torch::Tensor& x,
                                                         const torch::Tensor& y,
                                                         const Microbatching& microbatching,
                                                         double clip_norm);

namespace internal {
// Floats per chunk of the ghost-norm path (about 32 MiB): unfolded inputs,
// output gradients and Gram matrices of the chunk's microbatches.
inline constexpr int64_t kGhostChunkFloats = int64_t{1} << 23;

// The unchecked hot paths behind the two functions above: x, y prepared
// (DpModel::PrepareInputs/PrepareLabels), B >= 1, microbatching valid for B.
// May throw c10::Error; callers guard.
ClippedGradientSum ClippedGradientSumUnchecked(const DpModel& model, const torch::Tensor& x,
                                               const torch::Tensor& y,
                                               const Microbatching& microbatching, double clip_norm,
                                               ConvNorms conv_norms = ConvNorms::kAuto,
                                               int64_t ghost_chunk_floats = kGhostChunkFloats);
ClippedGradientSum ClippedGradientSumLoopUnchecked(const DpModel& model, const torch::Tensor& x,
                                                   const torch::Tensor& y,
                                                   const Microbatching& microbatching,
                                                   double clip_norm);
// Summed cross-entropy of logits (B, K) against labels (B).
torch::Tensor SummedCrossEntropy(const torch::Tensor& logits, const torch::Tensor& y);
}  // namespace internal

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_PER_EXAMPLE_GRADS_H_
