#include "mechanisms/dpsgd.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/autograd.h>

#include <algorithm>
#include <boost/random/geometric_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/validate.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/tensor_memory.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {

std::string_view SamplingName(Sampling sampling) {
  return sampling == Sampling::kPoisson ? "poisson" : "shuffle";
}

Result<Sampling> ParseSampling(std::string_view name) {
  if (name == "poisson") return Sampling::kPoisson;
  if (name == "shuffle") return Sampling::kShuffle;
  return Error("sampling must be \"poisson\" or \"shuffle\", got \"" + std::string(name) + "\"");
}

bool SamplingMatchesPoissonAccountant(Sampling sampling) { return sampling == Sampling::kPoisson; }

std::string_view OptimizerName(OptimizerKind kind) {
  return kind == OptimizerKind::kAdam ? "adam" : "momentum_sgd";
}

Result<OptimizerKind> ParseOptimizer(std::string_view name) {
  if (name == "momentum_sgd") return OptimizerKind::kMomentumSgd;
  if (name == "adam") return OptimizerKind::kAdam;
  return Error("optimizer must be momentum_sgd or adam, got '" + std::string(name) + "'");
}

bool IsMicrobatched(const DpSgdConfig& config) {
  if (!config.private_training || config.num_microbatches == 0) return false;
  // Shuffle with m = B is per-example clipping; Poisson random microbatches
  // can hold several examples whatever m is.
  return !(config.sampling == Sampling::kShuffle && config.num_microbatches == config.batch_size);
}

double AccountingNoiseMultiplier(const DpSgdConfig& config) {
  if (!config.private_training) return 0.0;
  return IsMicrobatched(config) ? config.noise_multiplier / 2.0 : config.noise_multiplier;
}

double NoiseMultiplierForAccounting(double accounting_sigma, const DpSgdConfig& config) {
  return IsMicrobatched(config) ? 2.0 * accounting_sigma : accounting_sigma;
}

Status ValidateDpSgdConfig(const DpSgdConfig& c, int64_t dataset_size) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("dataset size", dataset_size));
  PB_RETURN_IF_ERROR(CheckPositiveCount("batch_size", c.batch_size));
  if (c.batch_size > dataset_size) {
    return Error("batch_size " + std::to_string(c.batch_size) + " exceeds the dataset size " +
                 std::to_string(dataset_size));
  }
  PB_RETURN_IF_ERROR(CheckPositiveCount("epochs", c.epochs));
  PB_RETURN_IF_ERROR(CheckPositive("learning_rate", c.learning_rate));
  if (!(c.adam_beta1 >= 0.0 && c.adam_beta1 < 1.0)) {
    return Error("adam_beta1 must be in [0, 1), got " + FormatDouble(c.adam_beta1));
  }
  if (!(c.adam_beta2 >= 0.0 && c.adam_beta2 < 1.0)) {
    return Error("adam_beta2 must be in [0, 1), got " + FormatDouble(c.adam_beta2));
  }
  if (!(c.adam_epsilon > 0.0 && std::isfinite(c.adam_epsilon))) {
    return Error("adam_epsilon must be finite and > 0, got " + FormatDouble(c.adam_epsilon));
  }
  if (!(c.momentum >= 0.0 && c.momentum < 1.0)) {
    return Error("momentum must be in [0, 1), got " + FormatDouble(c.momentum));
  }
  PB_RETURN_IF_ERROR(CheckNonNegative("weight_decay", c.weight_decay));
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("threads", c.threads));
  if (!c.private_training) return Status::Ok();
  PB_RETURN_IF_ERROR(CheckNonNegative("noise_multiplier", c.noise_multiplier));
  PB_RETURN_IF_ERROR(CheckPositive("clip_norm", c.clip_norm));
  if (!std::isfinite(c.noise_multiplier * c.clip_norm)) {
    return Error("noise_multiplier * clip_norm must be finite, got " +
                 FormatDouble(c.noise_multiplier * c.clip_norm));
  }
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("num_microbatches", c.num_microbatches));
  if (c.num_microbatches > c.batch_size) {
    return Error("num_microbatches " + std::to_string(c.num_microbatches) + " exceeds the " +
                 (c.sampling == Sampling::kPoisson ? "expected " : "") + "batch size " +
                 std::to_string(c.batch_size));
  }
  if (c.sampling == Sampling::kShuffle && c.num_microbatches > 0 &&
      c.batch_size % c.num_microbatches != 0) {
    return Error("num_microbatches " + std::to_string(c.num_microbatches) +
                 " does not divide the batch size " + std::to_string(c.batch_size));
  }
  return Status::Ok();
}

std::vector<std::pair<std::string, std::string>> TrainingRecord::Metadata() const {
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  auto i = [](int64_t v) { return std::to_string(v); };
  auto d = [](double v) { return FormatDouble(v); };
  std::string losses;
  for (size_t e = 0; e < loss_per_epoch.size(); ++e) {
    losses += (e ? "," : "") + FormatDouble(loss_per_epoch[e]);
  }
  return {
      {"private_training", b(private_training)},
      {"sampling", sampling},
      {"sampling_matches_poisson_accountant", b(sampling_matches_poisson_accountant)},
      {"eps_reportable", b(eps_reportable)},
      {"dataset_size", i(dataset_size)},
      {"batch_size", i(batch_size)},
      {"q", d(q)},
      {"steps", i(steps)},
      {"epochs", i(epochs)},
      {"noise_multiplier", d(noise_multiplier)},
      {"clip_norm", d(clip_norm)},
      {"num_microbatches", i(num_microbatches)},
      {"microbatched", b(microbatched)},
      {"expected_microbatch_size", d(expected_microbatch_size)},
      {"gradient_normaliser", d(gradient_normaliser)},
      {"accounting_noise_multiplier", d(accounting_noise_multiplier)},
      {"tf_privacy_0_5_1_noise_multiplier", d(tf_privacy_0_5_1_noise_multiplier)},
      {"accounting_rule", accounting_rule},
      {"microbatch_rule", microbatch_rule},
      {"learning_rate", d(learning_rate)},
      {"optimizer", optimizer},
      {"momentum", d(momentum)},
      {"weight_decay", d(weight_decay)},
      {"seed", std::to_string(seed)},
      {"threads", i(threads)},
      {"device", device},
      {"model", model},
      {"architecture", architecture},
      {"num_parameters", i(num_parameters)},
      {"gradient_norms", gradient_norms},
      {"empty_batches", i(empty_batches)},
      {"mean_batch_size", d(mean_batch_size)},
      {"loss_per_epoch", losses},
  };
}

namespace internal {

Optimizer::Optimizer(std::vector<torch::Tensor> params, const DpSgdConfig& config)
    : params_(std::move(params)), config_(config) {
  for (const torch::Tensor& p : params_) {
    first_.push_back(at::zeros_like(p.detach()));
    if (config_.optimizer == OptimizerKind::kAdam) second_.push_back(at::zeros_like(p.detach()));
  }
}

void Optimizer::Step(const std::vector<torch::Tensor>& grads) {
  at::NoGradGuard no_grad;
  ++t_;
  const double lr = config_.learning_rate, wd = config_.weight_decay;
  if (config_.optimizer == OptimizerKind::kAdam) {
    const double b1 = config_.adam_beta1, b2 = config_.adam_beta2;
    // TF1 AdamOptimizer: the bias corrections fold into the step size.
    const double step = lr * std::sqrt(1.0 - std::pow(b2, static_cast<double>(t_))) /
                        (1.0 - std::pow(b1, static_cast<double>(t_)));
    for (size_t i = 0; i < params_.size(); ++i) {
      torch::Tensor g = wd > 0.0 ? grads[i] + wd * params_[i] : grads[i];
      first_[i].mul_(b1).add_(g, 1.0 - b1);
      second_[i].mul_(b2).addcmul_(g, g, 1.0 - b2);
      params_[i].addcdiv_(first_[i], second_[i].sqrt().add_(config_.adam_epsilon), -step);
    }
    return;
  }
  const double momentum = config_.momentum;
  for (size_t i = 0; i < params_.size(); ++i) {
    torch::Tensor g = wd > 0.0 ? grads[i] + wd * params_[i] : grads[i];
    if (momentum > 0.0) {
      first_[i].mul_(momentum).add_(g);
      params_[i].add_(first_[i], -lr);
    } else {
      params_[i].add_(g, -lr);
    }
  }
}

StepOutcome NonPrivateStep(const DpModel& model, const torch::Tensor& x, const torch::Tensor& y,
                           Optimizer& optimizer) {
  StepOutcome out;
  const torch::Tensor loss = SummedCrossEntropy(model.Forward(x), y);
  out.loss_sum = loss.item<double>();
  if (!std::isfinite(out.loss_sum)) {
    out.finite = out.loss_finite = false;
    return out;
  }
  std::vector<torch::Tensor> grads =
      torch::autograd::grad({loss * (1.0 / static_cast<double>(x.size(0)))}, model.parameters());
  for (const torch::Tensor& g : grads) {
    if (!std::isfinite(g.sum().item<double>())) {
      out.finite = false;
      return out;
    }
  }
  optimizer.Step(grads);
  return out;
}

StepOutcome DpSgdStep(const DpModel& model, const torch::Tensor& x, const torch::Tensor& y,
                      const Microbatching& microbatching, double clip_norm, double noise_std,
                      double normaliser, Rng& noise_rng, Optimizer& optimizer) {
  StepOutcome out;
  std::vector<torch::Tensor> grads;
  if (x.size(0) > 0) {
    ClippedGradientSum cs = ClippedGradientSumUnchecked(model, x, y, microbatching, clip_norm);
    out.loss_sum = cs.loss_sum;
    if (!std::isfinite(out.loss_sum)) {
      out.finite = out.loss_finite = false;
      return out;
    }
    grads = std::move(cs.sum);
  } else {
    for (const torch::Tensor& p : model.parameters()) grads.push_back(at::zeros_like(p.detach()));
  }
  // Noise, normalisation and the finiteness check in one pass. The order
  // of the draws (parameters in order, row-major) is part of the seed
  // contract.
  boost::random::normal_distribution<double> normal(0.0, 1.0);
  const double inv = 1.0 / normaliser;
  bool finite = true;
  for (torch::Tensor& g : grads) {
    // On a GPU the sum comes to the CPU for the seeded noise and goes back
    // (one small copy each way per parameter tensor and step).
    const torch::Device device = g.device();
    g = g.to(torch::kCPU).contiguous();
    finite =
        AddNoiseAndNormalise(g.data_ptr<float>(), g.numel(), noise_std, inv, normal, noise_rng) &&
        finite;
    g = g.to(device);
  }
  if (!finite) {
    out.finite = false;
    return out;
  }
  optimizer.Step(grads);
  return out;
}

}  // namespace internal

namespace {

std::vector<int64_t> PoissonSample(int64_t n, double q, Rng& rng) {
  std::vector<int64_t> idx;
  if (q >= 1.0) {
    idx.resize(n);
    for (int64_t i = 0; i < n; ++i) idx[i] = i;
    return idx;
  }
  // Gaps between selected indices are Geometric(q) (failures before a
  // success): exact Bernoulli(q) sampling of every index in O(batch).
  boost::random::geometric_distribution<int64_t, double> gap(q);
  for (int64_t i = gap(rng); i < n; i += 1 + gap(rng)) idx.push_back(i);
  return idx;
}

void Shuffle(std::vector<int64_t>& v, Rng& rng) {
  for (int64_t i = static_cast<int64_t>(v.size()) - 1; i > 0; --i) {
    boost::random::uniform_int_distribution<int64_t> pick(0, i);
    std::swap(v[i], v[pick(rng)]);
  }
}

}  // namespace

namespace {

// The accounting and microbatching rules of a run, in words (/meta).
void DescribeRules(const DpSgdConfig& config, TrainingRecord& rec) {
  const bool poisson = config.sampling == Sampling::kPoisson;
  if (!rec.private_training) {
    rec.accounting_rule = "none (non-private training)";
    rec.microbatch_rule = "none (mean gradient of the realised batch)";
    return;
  }
  rec.accounting_rule =
      "accounting_noise_multiplier = sigma for per-example clipping (sensitivity C), "
      "sigma/2 for microbatches of size > 1 (sensitivity 2C); current TF Privacy rule "
      "(used_microbatching); TF Privacy 0.5.1 used sigma for both";
  if (!rec.microbatched) {
    rec.microbatch_rule = poisson ? "per-example clipping; sum divided by the expected batch size"
                                  : "per-example clipping; sum divided by the batch size";
  } else {
    rec.microbatch_rule =
        poisson ? "each sampled example joins one of m microbatches uniformly at random; "
                  "clip each microbatch mean (over its actual members); sum divided by m"
                : "TF Privacy: m contiguous equal microbatches; clip each microbatch mean; "
                  "sum divided by m";
  }
}

}  // namespace

namespace internal {

bool AddNoiseAndNormalise(float* values, int64_t n, double noise_std, double inverse_normaliser,
                          boost::random::normal_distribution<double>& normal, Rng& rng) {
  bool finite = true;
  for (int64_t i = 0; i < n; ++i) {
    const double v =
        (static_cast<double>(values[i]) + noise_std * normal(rng)) * inverse_normaliser;
    values[i] = static_cast<float>(v);
    finite = finite && std::isfinite(values[i]);
  }
  return finite;
}

TrainingRecord DescribeTraining(const DpModel& model, int64_t n, const DpSgdConfig& config) {
  const bool priv = config.private_training;
  const bool poisson = config.sampling == Sampling::kPoisson;
  const int64_t batch = config.batch_size;
  TrainingRecord rec;
  rec.private_training = priv;
  rec.sampling = std::string(SamplingName(config.sampling));
  rec.sampling_matches_poisson_accountant = SamplingMatchesPoissonAccountant(config.sampling);
  rec.eps_reportable = priv && rec.sampling_matches_poisson_accountant;
  rec.dataset_size = n;
  rec.batch_size = batch;
  rec.q = static_cast<double>(batch) / static_cast<double>(n);
  rec.epochs = config.epochs;
  rec.steps = poisson ? (config.epochs * n + batch - 1) / batch : config.epochs * (n / batch);
  rec.noise_multiplier = priv ? config.noise_multiplier : 0.0;
  rec.clip_norm = priv ? config.clip_norm : 0.0;
  rec.num_microbatches = priv ? config.num_microbatches : 0;
  rec.microbatched = IsMicrobatched(config);
  const int64_t m = rec.num_microbatches;
  rec.expected_microbatch_size =
      priv && m > 0 ? static_cast<double>(batch) / static_cast<double>(m) : 1.0;
  rec.gradient_normaliser = priv ? (m > 0 ? static_cast<double>(m) : static_cast<double>(batch))
                                 : 1.0;  // non-private: mean over the realised batch
  rec.accounting_noise_multiplier = AccountingNoiseMultiplier(config);
  rec.tf_privacy_0_5_1_noise_multiplier = rec.noise_multiplier;
  DescribeRules(config, rec);
  rec.learning_rate = config.learning_rate;
  rec.optimizer = std::string(OptimizerName(config.optimizer));
  rec.momentum = config.momentum;
  rec.weight_decay = config.weight_decay;
  rec.seed = config.seed;
  rec.threads = config.threads;
  rec.device = DescribeDevice(config.device);
  rec.model = model.spec().name;
  rec.architecture = DescribeModel(model.spec());
  rec.num_parameters = model.num_parameters();
  // Per-example: one way per layer. Microbatches: the rule is applied each
  // step to that step's largest microbatch, so the record says so and
  // gives the choice at the expected size.
  const int64_t rows = static_cast<int64_t>(std::ceil(rec.expected_microbatch_size));
  if (!priv) {
    rec.gradient_norms = "none (non-private)";
  } else if (!rec.microbatched) {
    rec.gradient_norms = DescribeGradientNorms(model.spec(), 1);
  } else {
    rec.gradient_norms = "per step by the largest microbatch; at the expected " +
                         std::to_string(rows) +
                         " rows: " + DescribeGradientNorms(model.spec(), rows);
  }
  return rec;
}

BatchSampler::BatchSampler(int64_t n, const DpSgdConfig& config, double q)
    : n_(n),
      batch_(config.batch_size),
      poisson_(config.sampling == Sampling::kPoisson),
      q_(q),
      steps_per_epoch_(n / config.batch_size),
      rng_(MakeRng(config.seed, {kSamplingStream})),
      perm_(n) {
  for (int64_t i = 0; i < n; ++i) perm_[i] = i;
}

int64_t BatchSampler::EpochOf(int64_t step) const {
  return poisson_ ? step * batch_ / n_ : step / steps_per_epoch_;
}

std::vector<int64_t> BatchSampler::Next(int64_t step) {
  if (poisson_) return PoissonSample(n_, q_, rng_);
  const int64_t pos = (step % steps_per_epoch_) * batch_;
  if (pos == 0) Shuffle(perm_, rng_);
  return std::vector<int64_t>(perm_.begin() + pos, perm_.begin() + pos + batch_);
}

}  // namespace internal

namespace {

// The error of a step whose loss or (noisy) gradient is not finite.
Error NonFiniteStepError(const internal::StepOutcome& step, bool priv, int64_t t, int64_t steps,
                         int64_t epoch) {
  const std::string where = "at step " + std::to_string(t + 1) + " of " + std::to_string(steps) +
                            " (epoch " + std::to_string(epoch + 1) + ")";
  if (!step.loss_finite) {
    return Error((std::isnan(step.loss_sum)
                      ? std::string("NaN loss ")
                      : "non-finite loss " + FormatDouble(step.loss_sum) + " ") +
                 where);
  }
  return Error(std::string(priv ? "non-finite noisy gradient " : "non-finite gradient ") + where);
}

// The steps of a run, after DescribeTraining; fills the per-epoch losses,
// empty batches and mean batch size of `rec`.
Status RunSteps(DpModel& model, const torch::Tensor& xs, const torch::Tensor& ys,
                const DpSgdConfig& config, ProgressReporter* progress, TrainingRecord& rec) {
  const bool priv = config.private_training;
  const bool poisson = config.sampling == Sampling::kPoisson;
  const int64_t m = rec.num_microbatches;
  internal::BatchSampler sampler(xs.size(0), config, rec.q);
  Rng microbatch_rng = MakeRng(config.seed, {internal::kMicrobatchStream});
  Rng noise_rng = MakeRng(config.seed, {internal::kNoiseStream});
  internal::Optimizer optimizer(model.parameters(), config);
  const double noise_std = priv ? config.noise_multiplier * config.clip_norm : 0.0;
  std::vector<double> epoch_loss(config.epochs, 0.0);
  std::vector<int64_t> epoch_count(config.epochs, 0);
  Microbatching contiguous = Microbatching::PerExample();
  if (!poisson && rec.microbatched) {
    PB_ASSIGN_OR_RETURN(contiguous, Microbatching::Contiguous(config.batch_size, m));
  }
  int64_t examples = 0;
  for (int64_t t = 0; t < rec.steps; ++t) {
    const int64_t epoch = sampler.EpochOf(t);
    const std::vector<int64_t> idx = sampler.Next(t);
    const int64_t b = static_cast<int64_t>(idx.size());
    examples += b;
    if (b == 0) ++rec.empty_batches;
    const torch::Tensor index = torch::tensor(idx, torch::kLong).to(xs.device());
    const torch::Tensor xb = xs.index_select(0, index);
    const torch::Tensor yb = ys.index_select(0, index);
    internal::StepOutcome step;
    if (!priv) {
      if (b == 0) {
        if (progress != nullptr) progress->Advance();
        continue;
      }
      step = internal::NonPrivateStep(model, xb, yb, optimizer);
    } else {
      Microbatching mb = rec.microbatched && !poisson ? contiguous : Microbatching::PerExample();
      if (rec.microbatched && poisson) {
        boost::random::uniform_int_distribution<int64_t> pick(0, m - 1);
        std::vector<int64_t> group(b);
        for (int64_t& g : group) g = pick(microbatch_rng);
        PB_ASSIGN_OR_RETURN(mb, Microbatching::Groups(std::move(group), m));
      }
      step = internal::DpSgdStep(model, xb, yb, mb, config.clip_norm, noise_std,
                                 rec.gradient_normaliser, noise_rng, optimizer);
    }
    if (!step.finite) return NonFiniteStepError(step, priv, t, rec.steps, epoch);
    epoch_loss[epoch] += step.loss_sum;
    epoch_count[epoch] += b;
    if (progress != nullptr) progress->Advance();
  }
  for (int64_t e = 0; e < config.epochs; ++e) {
    rec.loss_per_epoch.push_back(
        epoch_count[e] > 0 ? epoch_loss[e] / static_cast<double>(epoch_count[e]) : 0.0);
  }
  rec.mean_batch_size =
      rec.steps > 0 ? static_cast<double>(examples) / static_cast<double>(rec.steps) : 0.0;
  return Status::Ok();
}

}  // namespace

Result<TrainingRecord> TrainDpSgd(DpModel& model, const torch::Tensor& x, const torch::Tensor& y,
                                  const DpSgdConfig& config, ProgressReporter* progress) {
  PB_ASSIGN_OR_RETURN(torch::Tensor xs, model.PrepareInputs(x));
  PB_ASSIGN_OR_RETURN(torch::Tensor ys, model.PrepareLabels(y, xs.size(0)));
  PB_RETURN_IF_ERROR(ValidateDpSgdConfig(config, xs.size(0)));
  PB_RETURN_IF_ERROR(EnsureDevice(config.device));
  TrainingRecord rec = internal::DescribeTraining(model, xs.size(0), config);
  const torch::Device device = config.device == ComputeDevice::kCuda
                                   ? torch::Device(torch::kCUDA, 0)
                                   : torch::Device(torch::kCPU);
  Result<TrainingRecord> trained = GuardTorch("TrainDpSgd", [&]() -> Result<TrainingRecord> {
    if (config.threads > 0) SetMathThreads(config.threads);
    // Speed only (steps reuse freed tensor memory); results are the same
    // bytes either way, so a C library without mallopt just trains slower.
    static_cast<void>(KeepFreedTensorMemory());
    PB_RETURN_IF_ERROR(model.MoveTo(device));
    PB_RETURN_IF_ERROR(RunSteps(model, xs.to(device), ys.to(device), config, progress, rec));
    for (const torch::Tensor& p : model.parameters()) {
      if (!at::isfinite(p).all().item<bool>()) {
        return Error("non-finite parameters after the last step " + std::to_string(rec.steps));
      }
    }
    return rec;
  });
  const Status back = model.MoveTo(torch::Device(torch::kCPU));
  if (!trained.ok()) return trained;  // the training error, not a later one
  PB_RETURN_IF_ERROR(back);
  return trained;
}

}  // namespace privbench
