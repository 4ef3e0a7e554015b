// Many models per pass: K DP-SGD runs of one MLP architecture on the same
// rows, trained together (stacked weights, batched matrix products), each
// run equal to TrainDpSgd (mechanisms/dpsgd.h) with its own config up to
// float32 rounding.
//
// Why: shadow models, ML-Audit cells and sweep repetitions train thousands
// of small models that differ only in their seed (and so in their initial
// weights, Poisson batches and noise). One at a time, a 784-32-2 MLP's
// step is a handful of tiny matrix products whose per-operation overhead
// dominates; stacked, the K models share every operation.
//
// Per step t, for every model k (its own streams of config k's seed, in
// the same order as TrainDpSgd: kSamplingStream for the Poisson batch,
// kNoiseStream for the noise, parameters in order, row-major):
//   1. B_k = Poisson sample of the n rows at q = batch_size / n;
//   2. forward of all K models at once on their batches, zero-padded to
//      the largest |B_k| with a mask (padded rows get weight 0);
//   3. one backward pass of the summed masked loss to the layer outputs;
//      per-example squared norms sum_l ||d_l||^2 (||a_l||^2 + 1) (the
//      Linear-layer ghost norm of mechanisms/per_example_grads.h);
//   4. private: weights w_i = min(1, C / ||g_i||); the clipped sums
//      sum_i w_i d_l,i a_l,i^T by one batched product per layer; then
//      per model: + N(0, sigma^2 C^2) per coordinate, / batch_size;
//      non-private: w_i = 1 / |B_k| (the mean gradient), and a model whose
//      batch is empty skips the step, as TrainDpSgd does;
//   5. the optimizer step of every model (elementwise, stacked).
// Differences from TrainDpSgd are the float32 rounding of batched vs single
// matrix products (the tests bound them); the random draws are identical.
//
// Failures: a non-finite loss or gradient of any model stops all K (the
// error names the model and step) and no model is written back.
// Memory: on the CPU, K models whose pass would need more than half of the
// available memory (BatchedPassBytes vs /proc/meminfo's MemAvailable) are
// refused before training; on a GPU, an allocator's out-of-memory error is
// reported naming K. Either way: pass fewer models at a time.
//
// Scope (refused otherwise, naming the argument): every model's spec is the
// same MLP, Linear (activation Linear)*; the configs are equal but
// for the seed; Poisson sampling, per-example clipping
// (num_microbatches = 0), momentum SGD; the CPU or one GPU (config.device).
#ifndef PRIVBENCH_MECHANISMS_DPSGD_BATCHED_H_
#define PRIVBENCH_MECHANISMS_DPSGD_BATCHED_H_

#include <torch/types.h>

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"

namespace privbench {

// Trains models[k] in place with configs[k] on (x, y), all K together;
// returns one TrainingRecord per model. Errors name the argument
// ("configs[3] differs from configs[0] in more than the seed").
Result<std::vector<TrainingRecord>> TrainDpSgdBatched(std::vector<DpModel>& models,
                                                      const torch::Tensor& x,
                                                      const torch::Tensor& y,
                                                      const std::vector<DpSgdConfig>& configs);

namespace internal {
// About how many bytes one batched pass holds at once: per model its
// parameters four times (values, velocity, gradient, noise) and, per row of
// the padded batch (Poisson: at most batch + 6 sqrt(batch) + 1 rows but
// with probability < 1e-9), its input and each layer's output twice, all
// doubled for the temporaries.
uint64_t BatchedPassBytes(const ModelSpec& spec, int64_t num_parameters, int64_t k_models,
                          int64_t batch_size);
// Ok if `needed_bytes` is at most half of `available_bytes` (0: unknown,
// not checked); else the error naming K ("models: K = ... do not fit").
Status CheckBatchedPassFits(uint64_t needed_bytes, uint64_t available_bytes, size_t k_models);
}  // namespace internal

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_DPSGD_BATCHED_H_
