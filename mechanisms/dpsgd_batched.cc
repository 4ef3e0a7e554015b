#include "mechanisms/dpsgd_batched.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "mechanisms/device.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/tensor_memory.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {
namespace {

bool SameButSeed(const DpSgdConfig& a, const DpSgdConfig& b) {
  return a.private_training == b.private_training && a.noise_multiplier == b.noise_multiplier &&
         a.clip_norm == b.clip_norm && a.num_microbatches == b.num_microbatches &&
         a.sampling == b.sampling && a.batch_size == b.batch_size && a.epochs == b.epochs &&
         a.learning_rate == b.learning_rate && a.optimizer == b.optimizer &&
         a.momentum == b.momentum && a.weight_decay == b.weight_decay && a.threads == b.threads &&
         a.device == b.device;
}

Status ValidateModels(const std::vector<DpModel>& models) {
  if (models.empty()) return Error("models: TrainDpSgdBatched needs at least one model");
  const ModelSpec& spec = models[0].spec();
  // Linear (Act Linear)*: what the hand-written forward and backward cover.
  const std::vector<LayerSpec>& layers = spec.layers;
  bool mlp = layers.size() % 2 == 1;
  for (size_t i = 0; mlp && i < layers.size(); ++i) {
    mlp = layers[i].kind == (i % 2 == 0 ? LayerKind::kLinear : LayerKind::kActivation);
  }
  if (!mlp) {
    return Error("models: TrainDpSgdBatched trains MLPs of the form Linear (activation Linear)*; " +
                 DescribeModel(spec) + " is not one");
  }
  for (size_t k = 1; k < models.size(); ++k) {
    if (DescribeModel(models[k].spec()) != DescribeModel(spec) ||
        models[k].spec().input_shape != spec.input_shape) {
      return Error("models[" + std::to_string(k) + "] is " + DescribeModel(models[k].spec()) +
                   ", models[0] " + DescribeModel(spec) + ": one architecture per batch");
    }
  }
  return Status::Ok();
}

Status ValidateConfigs(const std::vector<DpSgdConfig>& configs, size_t models, int64_t n) {
  if (configs.size() != models) {
    return Error("configs: " + std::to_string(configs.size()) + " configs for " +
                 std::to_string(models) + " models");
  }
  const DpSgdConfig& c0 = configs[0];
  if (c0.sampling != Sampling::kPoisson) {
    return Error("configs: TrainDpSgdBatched needs Poisson sampling");
  }
  if (c0.private_training && c0.num_microbatches != 0) {
    return Error("configs: TrainDpSgdBatched clips per example (num_microbatches = 0)");
  }
  if (c0.optimizer != OptimizerKind::kMomentumSgd) {
    return Error("configs: TrainDpSgdBatched uses momentum SGD");
  }
  for (size_t k = 0; k < configs.size(); ++k) {
    PB_RETURN_IF_ERROR(ValidateDpSgdConfig(configs[k], n));
    if (!SameButSeed(configs[k], c0)) {
      return Error("configs[" + std::to_string(k) +
                   "] differs from configs[0] in more than the seed");
    }
  }
  return Status::Ok();
}

// The K models' parameters stacked: W_l (K, out, in), b_l (K, out), and
// what follows each Linear layer.
struct Stack {
  std::vector<torch::Tensor> weights, biases, weight_velocity, bias_velocity;
  std::vector<bool> has_activation;
  std::vector<Activation> activation;
};

Stack StackModels(const std::vector<DpModel>& models, const torch::Device& device) {
  Stack s;
  const std::vector<LayerSpec>& layers = models[0].spec().layers;
  size_t p = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].kind != LayerKind::kLinear) continue;
    std::vector<torch::Tensor> w, b;
    for (const DpModel& m : models) {
      w.push_back(m.parameters()[p].detach());
      b.push_back(m.parameters()[p + 1].detach());
    }
    p += 2;
    s.weights.push_back(at::stack(w).to(device));
    s.biases.push_back(at::stack(b).to(device));
    s.weight_velocity.push_back(at::zeros_like(s.weights.back()));
    s.bias_velocity.push_back(at::zeros_like(s.biases.back()));
    const bool act = i + 1 < layers.size() && layers[i + 1].kind == LayerKind::kActivation;
    s.has_activation.push_back(act);
    s.activation.push_back(act ? layers[i + 1].activation : Activation::kTanh);
  }
  return s;
}

// One step's batches: row indices (K, bmax) padded with row 0, the mask of
// real rows and each model's batch size.
struct Batches {
  torch::Tensor index, mask;
  std::vector<int64_t> sizes;
};

Batches DrawBatches(std::vector<internal::BatchSampler>& samplers, int64_t t,
                    const torch::Device& device) {
  const int64_t k_models = static_cast<int64_t>(samplers.size());
  std::vector<std::vector<int64_t>> idx;
  int64_t bmax = 1;
  for (auto& s : samplers) {
    idx.push_back(s.Next(t));
    bmax = std::max<int64_t>(bmax, static_cast<int64_t>(idx.back().size()));
  }
  Batches b;
  std::vector<int64_t> flat(static_cast<size_t>(k_models * bmax), 0);
  std::vector<float> mask(flat.size(), 0.0f);
  for (int64_t k = 0; k < k_models; ++k) {
    const std::vector<int64_t>& rows = idx[static_cast<size_t>(k)];
    b.sizes.push_back(static_cast<int64_t>(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i) {
      flat[static_cast<size_t>(k * bmax) + i] = rows[i];
      mask[static_cast<size_t>(k * bmax) + i] = 1.0f;
    }
  }
  b.index = torch::tensor(flat, torch::kLong).view({k_models, bmax}).to(device);
  b.mask = torch::tensor(mask, torch::kFloat).view({k_models, bmax}).to(device);
  return b;
}

// Per-example gradient pieces of a batched step: each Linear layer's
// input a_l (K, B, in) and output gradient d_l (K, B, out) of the summed
// masked cross-entropy, and each model's summed loss.
struct Backprop {
  std::vector<torch::Tensor> inputs, out_grads;
  torch::Tensor loss_sum;  // (K) float64
};

Backprop ForwardBackward(const Stack& s, const torch::Tensor& x, const torch::Tensor& y,
                         const torch::Tensor& mask) {
  Backprop bp;
  torch::Tensor a = x;
  for (size_t l = 0; l < s.weights.size(); ++l) {
    bp.inputs.push_back(a);
    a = at::baddbmm(s.biases[l].unsqueeze(1), a, s.weights[l].transpose(1, 2));
    if (s.has_activation[l]) a = s.activation[l] == Activation::kTanh ? at::tanh(a) : at::relu(a);
  }
  const torch::Tensor log_p = at::log_softmax(a, 2);
  const torch::Tensor picked = log_p.gather(2, y.unsqueeze(2)).squeeze(2);
  // Padding rows are selected away (not multiplied by 0, which would turn a
  // non-finite padding value into NaN).
  const torch::Tensor real = mask > 0;
  bp.loss_sum = at::where(real, -picked, at::zeros_like(picked)).to(torch::kDouble).sum(1);
  // d(sum of CE)/dlogits = softmax - onehot, on the real rows only.
  torch::Tensor d = log_p.exp();
  d.scatter_add_(2, y.unsqueeze(2), at::full_like(picked.unsqueeze(2), -1.0));
  d = at::where(real.unsqueeze(2), d, at::zeros_like(d));
  bp.out_grads.assign(s.weights.size(), torch::Tensor());
  for (size_t l = s.weights.size(); l-- > 0;) {
    bp.out_grads[l] = d;
    if (l == 0) break;
    d = at::bmm(d, s.weights[l]);  // gradient w.r.t. a_l = act(z_{l-1})
    const torch::Tensor& act_out = bp.inputs[l];
    d = s.activation[l - 1] == Activation::kTanh ? d * (1 - act_out * act_out)
                                                 : d * (act_out > 0).to(d.scalar_type());
  }
  return bp;
}

// Per-example weights of the summed gradient: min(1, C / ||g_i||) (private;
// TF Privacy's C / max(||g_i||, C)) or 1 / |B_k| (non-private), 0 on padding.
torch::Tensor ExampleWeights(const Backprop& bp, const torch::Tensor& mask,
                             const std::vector<int64_t>& sizes, const DpSgdConfig& c) {
  if (!c.private_training) {
    std::vector<float> inv;
    for (int64_t b : sizes) inv.push_back(b > 0 ? 1.0f / static_cast<float>(b) : 0.0f);
    return mask * torch::tensor(inv, torch::kFloat).to(mask.device()).unsqueeze(1);
  }
  torch::Tensor sq = at::zeros_like(mask);
  for (size_t l = 0; l < bp.inputs.size(); ++l) {
    sq = sq + bp.out_grads[l].pow(2).sum(2) * (bp.inputs[l].pow(2).sum(2) + 1);
  }
  const torch::Tensor norms = sq.clamp_min(0.0).sqrt();
  return at::where(mask > 0, c.clip_norm / norms.clamp_min(c.clip_norm), at::zeros_like(mask));
}

// Adds each model's Gaussian noise (its own stream, parameters in order,
// row-major) and divides by the normaliser; false if a value is not finite.
std::vector<bool> AddNoise(std::vector<torch::Tensor>& grads, std::vector<Rng>& noise_rngs,
                           double noise_std, double normaliser) {
  for (torch::Tensor& g : grads) g = g.to(torch::kCPU).contiguous();
  boost::random::normal_distribution<double> normal(0.0, 1.0);
  const double inv = 1.0 / normaliser;
  std::vector<bool> finite(noise_rngs.size(), true);
  for (size_t k = 0; k < noise_rngs.size(); ++k) {
    for (torch::Tensor& g : grads) {
      const int64_t per_model = g.numel() / g.size(0);
      float* p = g.data_ptr<float>() + static_cast<int64_t>(k) * per_model;
      finite[k] =
          internal::AddNoiseAndNormalise(p, per_model, noise_std, inv, normal, noise_rngs[k]) &&
          finite[k];
    }
  }
  return finite;
}

// Per model: are all its gradient values finite?
std::vector<bool> FiniteByModel(const std::vector<torch::Tensor>& grads) {
  torch::Tensor ok = at::isfinite(grads[0]).flatten(1).all(1);
  for (size_t i = 1; i < grads.size(); ++i) ok = ok & at::isfinite(grads[i]).flatten(1).all(1);
  ok = ok.to(torch::kCPU);
  std::vector<bool> out;
  for (int64_t k = 0; k < ok.size(0); ++k) out.push_back(ok[k].item<bool>());
  return out;
}

// Momentum SGD with weight decay, as internal::Optimizer, on the models
// whose `active` entry is true (all stacked when every model is).
void OptimizerStep(std::vector<torch::Tensor>& params, std::vector<torch::Tensor>& velocity,
                   const std::vector<torch::Tensor>& grads, const std::vector<bool>& active,
                   const DpSgdConfig& c) {
  const bool all = std::all_of(active.begin(), active.end(), [](bool a) { return a; });
  for (size_t i = 0; i < params.size(); ++i) {
    for (size_t k = 0; k < (all ? 1 : active.size()); ++k) {
      if (!all && !active[k]) continue;
      torch::Tensor p = all ? params[i] : params[i].select(0, static_cast<int64_t>(k));
      torch::Tensor v = all ? velocity[i] : velocity[i].select(0, static_cast<int64_t>(k));
      const torch::Tensor g0 =
          all ? grads[i] : grads[i].to(p.device()).select(0, static_cast<int64_t>(k));
      torch::Tensor g =
          c.weight_decay > 0.0 ? g0.to(p.device()) + c.weight_decay * p : g0.to(p.device());
      if (c.momentum > 0.0) {
        v.mul_(c.momentum).add_(g);
        p.add_(v, -c.learning_rate);
      } else {
        p.add_(g, -c.learning_rate);
      }
    }
  }
}

// Everything one run of the K models accumulates besides the weights.
struct RunState {
  std::vector<internal::BatchSampler> samplers;
  std::vector<Rng> noise_rngs;
  std::vector<std::vector<double>> epoch_loss;
  std::vector<std::vector<int64_t>> epoch_count;
  std::vector<int64_t> empty, examples;
};

Status Step(Stack& s, const torch::Tensor& xs, const torch::Tensor& ys, const DpSgdConfig& c,
            int64_t t, int64_t steps, RunState& r) {
  const int64_t epoch = r.samplers[0].EpochOf(t);
  const Batches b = DrawBatches(r.samplers, t, xs.device());
  const int64_t k_models = b.index.size(0), bmax = b.index.size(1);
  const torch::Tensor x = xs.index_select(0, b.index.view(-1)).view({k_models, bmax, -1});
  const torch::Tensor y = ys.index_select(0, b.index.view(-1)).view({k_models, bmax});
  const Backprop bp = ForwardBackward(s, x, y, b.mask);
  const torch::Tensor w = ExampleWeights(bp, b.mask, b.sizes, c).unsqueeze(2);
  std::vector<torch::Tensor> grads;
  for (size_t l = 0; l < s.weights.size(); ++l) {
    const torch::Tensor wd = w * bp.out_grads[l];
    grads.push_back(at::bmm(wd.transpose(1, 2), bp.inputs[l]));
    grads.push_back(wd.sum(1));
  }
  const torch::Tensor loss = bp.loss_sum.to(torch::kCPU);
  std::vector<bool> active(static_cast<size_t>(k_models), true);
  const std::vector<bool> finite =
      c.private_training ? AddNoise(grads, r.noise_rngs, c.noise_multiplier * c.clip_norm,
                                    static_cast<double>(c.batch_size))
                         : FiniteByModel(grads);
  for (int64_t k = 0; k < k_models; ++k) {
    const double lk = loss[k].item<double>();
    const std::string where = "model " + std::to_string(k) + " at step " + std::to_string(t + 1) +
                              " of " + std::to_string(steps);
    if (!std::isfinite(lk)) return Error("non-finite loss of " + where);
    if (!finite[static_cast<size_t>(k)]) {
      return Error(std::string(c.private_training ? "non-finite noisy gradient of "
                                                  : "non-finite gradient of ") +
                   where);
    }
    const int64_t bk = b.sizes[static_cast<size_t>(k)];
    r.epoch_loss[k][epoch] += lk;
    r.epoch_count[k][epoch] += bk;
    r.examples[k] += bk;
    if (bk == 0) ++r.empty[k];
    active[static_cast<size_t>(k)] = c.private_training || bk > 0;
  }
  std::vector<torch::Tensor> params, velocity;
  for (size_t l = 0; l < s.weights.size(); ++l) {
    params.insert(params.end(), {s.weights[l], s.biases[l]});
    velocity.insert(velocity.end(), {s.weight_velocity[l], s.bias_velocity[l]});
  }
  OptimizerStep(params, velocity, grads, active, c);
  return Status::Ok();
}

Status WriteBack(const Stack& s, std::vector<DpModel>& models) {
  for (size_t k = 0; k < models.size(); ++k) {
    std::vector<torch::Tensor> values;
    for (size_t l = 0; l < s.weights.size(); ++l) {
      values.push_back(s.weights[l].select(0, static_cast<int64_t>(k)).to(torch::kCPU));
      values.push_back(s.biases[l].select(0, static_cast<int64_t>(k)).to(torch::kCPU));
    }
    PB_RETURN_IF_ERROR(models[k].SetParameters(values));
  }
  return Status::Ok();
}

// MemAvailable of /proc/meminfo in bytes; 0 if unknown.
uint64_t AvailableHostBytes() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (f == nullptr) return 0;
  char line[256];
  uint64_t kib = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::strncmp(line, "MemAvailable:", 13) == 0) kib = std::strtoull(line + 13, nullptr, 10);
  }
  std::fclose(f);
  return kib * 1024;
}

// "K = 64 models per pass ...": the out-of-memory message, naming K.
std::string DoesNotFit(size_t k_models, const std::string& detail) {
  return "models: K = " + std::to_string(k_models) + " models per pass do not fit in memory (" +
         detail + "); pass fewer models at a time";
}

}  // namespace

namespace internal {

uint64_t BatchedPassBytes(const ModelSpec& spec, int64_t num_parameters, int64_t k_models,
                          int64_t batch_size) {
  // One batch row: its input and every layer's output twice, doubled for
  // the temporaries of the forward and backward expressions.
  int64_t row_floats = 0;
  for (const LayerSpec& l : spec.layers) {
    if (l.kind == LayerKind::kLinear) row_floats += 2 * (l.in + 2 * l.out);
  }
  // A Poisson batch exceeds its mean by more than 6 standard deviations with
  // probability < 1e-9.
  const double bmax = static_cast<double>(batch_size) + 6.0 * std::sqrt(batch_size) + 1.0;
  const double floats = static_cast<double>(k_models) *
                        (4.0 * static_cast<double>(num_parameters) + bmax * row_floats);
  return static_cast<uint64_t>(4.0 * floats);
}

Status CheckBatchedPassFits(uint64_t needed_bytes, uint64_t available_bytes, size_t k_models) {
  if (available_bytes == 0 || needed_bytes <= available_bytes / 2) return Status::Ok();
  return Error(DoesNotFit(k_models, "about " + std::to_string(needed_bytes >> 20) +
                                        " MiB needed, " + std::to_string(available_bytes >> 20) +
                                        " MiB available; this check allows half"));
}

}  // namespace internal

namespace {

// The stacked training of TrainDpSgdBatched after validation.
Result<std::vector<TrainingRecord>> TrainStacked(std::vector<DpModel>& models,
                                                 const torch::Tensor& xs, const torch::Tensor& ys,
                                                 const std::vector<DpSgdConfig>& configs,
                                                 std::vector<TrainingRecord> recs) {
  const DpSgdConfig& c = configs[0];
  const int64_t n = xs.size(0), steps = recs[0].steps;
  return GuardTorch("TrainDpSgdBatched", [&]() -> Result<std::vector<TrainingRecord>> {
    at::NoGradGuard no_grad;
    if (c.threads > 0) SetMathThreads(c.threads);
    static_cast<void>(KeepFreedTensorMemory());
    const torch::Device device =
        c.device == ComputeDevice::kCuda ? torch::Device(torch::kCUDA, 0) : torch::kCPU;
    Stack s = StackModels(models, device);
    const torch::Tensor xd = xs.to(device), yd = ys.to(device);
    RunState r;
    const size_t k_models = models.size();
    for (const DpSgdConfig& ck : configs) {
      r.samplers.emplace_back(n, ck, recs[0].q);
      r.noise_rngs.push_back(MakeRng(ck.seed, {internal::kNoiseStream}));
    }
    r.epoch_loss.assign(k_models, std::vector<double>(static_cast<size_t>(c.epochs), 0.0));
    r.epoch_count.assign(k_models, std::vector<int64_t>(static_cast<size_t>(c.epochs), 0));
    r.empty.assign(k_models, 0);
    r.examples.assign(k_models, 0);
    for (int64_t t = 0; t < steps; ++t) PB_RETURN_IF_ERROR(Step(s, xd, yd, c, t, steps, r));
    for (size_t k = 0; k < k_models; ++k) {
      std::vector<torch::Tensor> all = s.weights;
      all.insert(all.end(), s.biases.begin(), s.biases.end());
      for (const torch::Tensor& w : all) {
        if (!at::isfinite(w.select(0, static_cast<int64_t>(k))).all().item<bool>()) {
          return Error("non-finite parameters of model " + std::to_string(k) +
                       " after the last step " + std::to_string(steps));
        }
      }
    }
    PB_RETURN_IF_ERROR(WriteBack(s, models));
    for (size_t k = 0; k < k_models; ++k) {
      for (int64_t e = 0; e < c.epochs; ++e) {
        const int64_t cnt = r.epoch_count[k][static_cast<size_t>(e)];
        recs[k].loss_per_epoch.push_back(
            cnt > 0 ? r.epoch_loss[k][static_cast<size_t>(e)] / static_cast<double>(cnt) : 0.0);
      }
      recs[k].empty_batches = r.empty[k];
      recs[k].mean_batch_size =
          steps > 0 ? static_cast<double>(r.examples[k]) / static_cast<double>(steps) : 0.0;
    }
    return recs;
  });
}

}  // namespace

Result<std::vector<TrainingRecord>> TrainDpSgdBatched(std::vector<DpModel>& models,
                                                      const torch::Tensor& x,
                                                      const torch::Tensor& y,
                                                      const std::vector<DpSgdConfig>& configs) {
  PB_RETURN_IF_ERROR(ValidateModels(models));
  PB_ASSIGN_OR_RETURN(torch::Tensor xs, models[0].PrepareInputs(x));
  PB_ASSIGN_OR_RETURN(torch::Tensor ys, models[0].PrepareLabels(y, xs.size(0)));
  const int64_t n = xs.size(0);
  PB_RETURN_IF_ERROR(ValidateConfigs(configs, models.size(), n));
  const DpSgdConfig& c = configs[0];
  PB_RETURN_IF_ERROR(EnsureDevice(c.device));
  if (c.device == ComputeDevice::kCpu) {
    PB_RETURN_IF_ERROR(internal::CheckBatchedPassFits(
        internal::BatchedPassBytes(models[0].spec(), models[0].num_parameters(),
                                   static_cast<int64_t>(models.size()), c.batch_size),
        AvailableHostBytes(), models.size()));
  }
  std::vector<TrainingRecord> recs;
  for (size_t k = 0; k < models.size(); ++k) {
    recs.push_back(internal::DescribeTraining(models[k], n, configs[k]));
  }
  Result<std::vector<TrainingRecord>> out = TrainStacked(models, xs, ys, configs, recs);
  // A device without the memory (the check above sees only the host's), or
  // an estimate too low: LibTorch's CUDA allocator says "out of memory", its
  // CPU allocator "not enough memory"; name K in the message.
  if (!out.ok() && (out.message().find("out of memory") != std::string::npos ||
                    out.message().find("not enough memory") != std::string::npos)) {
    return Error(DoesNotFit(models.size(), out.message()));
  }
  return out;
}

}  // namespace privbench
