#include "experiments/epsilon_star_gof/models.h"

#include <torch/torch.h>

#include <cmath>
#include <string>

#include "core/seeding.h"
#include "core/validate.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/roc/roc.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/torch_boundary.h"

namespace privbench::epsilon_star_gof {
namespace {

DpSgdConfig TrainingConfig(const GofModelConfig& c, double noise_multiplier, uint64_t seed) {
  DpSgdConfig t;
  t.private_training = c.private_training;
  t.noise_multiplier = c.private_training ? noise_multiplier : 0.0;
  t.clip_norm = c.clip_norm;
  t.num_microbatches = c.private_training ? c.num_microbatches : 0;
  t.sampling = Sampling::kPoisson;
  t.batch_size = c.batch_size;
  t.epochs = c.epochs;
  t.learning_rate = c.learning_rate;
  t.momentum = c.momentum;
  t.weight_decay = 0.0;
  t.seed = seed;
  t.threads = 1;
  t.device = c.device;
  return t;
}

std::vector<double> ToVector(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

}  // namespace

Result<GofNoisePlan> PlanGofNoise(const GofModelConfig& c, int64_t n_train) {
  if (!c.private_training) return Error("PlanGofNoise needs a private_training configuration");
  PB_RETURN_IF_ERROR(CheckPositiveCount("n_train", n_train));
  PB_RETURN_IF_ERROR(CheckPositiveCount("batch_size", c.batch_size));
  PB_RETURN_IF_ERROR(CheckPositiveCount("dp_epochs", c.epochs));
  PB_RETURN_IF_ERROR(CheckPositive("dp_epsilon", c.target_epsilon));
  if (!(c.delta > 0.0 && c.delta < 1.0)) {
    return Error("delta must be in (0, 1), got " + FormatDouble(c.delta));
  }
  if (c.batch_size > n_train) {
    return Error("batch_size " + std::to_string(c.batch_size) + " exceeds the training set size " +
                 std::to_string(n_train));
  }
  if (c.calibration_rule != "sound" && c.calibration_rule != "tf_privacy_0_5_1") {
    return Error("calibration_rule must be 'sound' or 'tf_privacy_0_5_1', got '" +
                 c.calibration_rule + "'");
  }
  GofNoisePlan p;
  p.q = static_cast<double>(c.batch_size) / static_cast<double>(n_train);
  p.steps = (c.epochs * n_train + c.batch_size - 1) / c.batch_size;  // dpsgd.h, Poisson
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant("rdp"));
  DpSgdAccounting s;
  s.q = p.q;
  s.steps = p.steps;
  s.delta = c.delta;
  s.orders = DefaultRdpOrders();
  auto sigma = CalibrateSigma(*acc, c.target_epsilon, s);
  if (!sigma.ok()) return Error("calibrating dp_epsilon: " + sigma.message());
  p.calibrated_sigma = *sigma;
  DpSgdConfig t = TrainingConfig(c, 1.0, 0);
  p.noise_multiplier =
      c.calibration_rule == "sound" ? NoiseMultiplierForAccounting(*sigma, t) : *sigma;
  t.noise_multiplier = p.noise_multiplier;
  p.accounting_noise_multiplier = AccountingNoiseMultiplier(t);
  PB_ASSIGN_OR_RETURN(p.eps_sound,
                      RdpAccountedEpsilon(p.accounting_noise_multiplier, p.q, p.steps, c.delta));
  PB_ASSIGN_OR_RETURN(p.eps_tf_privacy_0_5_1,
                      RdpAccountedEpsilon(p.noise_multiplier, p.q, p.steps, c.delta));
  return p;
}

Result<GofTrainedModel> TrainGofModel(const Dataset& d, const GofModelConfig& c,
                                      const GofNoisePlan& plan, uint64_t seed) {
  SetMathThreads(1);
  return GuardTorch("TrainGofModel", [&]() -> Result<GofTrainedModel> {
    // The dataset outlives the call and is never written: no copies.
    const torch::Tensor train_x = torch::from_blob(const_cast<float*>(d.train_x.data()),
                                                   {d.n_train(), d.num_features}, torch::kFloat32);
    const torch::Tensor train_y =
        torch::from_blob(const_cast<int64_t*>(d.train_y.data()), {d.n_train()}, torch::kInt64);
    const torch::Tensor pop_x =
        torch::from_blob(const_cast<float*>(d.population_x.data()),
                         {d.n_population(), d.num_features}, torch::kFloat32);
    const torch::Tensor pop_y = torch::from_blob(const_cast<int64_t*>(d.population_y.data()),
                                                 {d.n_population()}, torch::kInt64);
    PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(AdultMlpSpec(d.num_features, c.hidden),
                                                       DeriveSeed(seed, {0})));
    const DpSgdConfig tc = TrainingConfig(c, plan.noise_multiplier, DeriveSeed(seed, {1}));
    PB_ASSIGN_OR_RETURN(TrainingRecord r, TrainDpSgd(model, train_x, train_y, tc));
    GofTrainedModel m;
    m.record = r.Metadata();
    m.loss_per_epoch = r.loss_per_epoch;
    m.noise_multiplier = r.noise_multiplier;
    m.accounting_noise_multiplier = r.accounting_noise_multiplier;
    m.q = r.q;
    m.steps = r.steps;
    if (c.private_training) {
      if (r.steps != plan.steps || std::fabs(r.q - plan.q) > 1e-15 * plan.q) {
        return Error("internal: planned q/steps " + FormatDouble(plan.q) + "/" +
                     std::to_string(plan.steps) + " differ from the run's " + FormatDouble(r.q) +
                     "/" + std::to_string(r.steps));
      }
      if (!r.eps_reportable) return Error("internal: a Poisson-sampled DP run must be reportable");
      PB_ASSIGN_OR_RETURN(
          m.eps, RdpAccountedEpsilon(r.accounting_noise_multiplier, r.q, r.steps, c.delta));
      PB_ASSIGN_OR_RETURN(
          m.eps_tf_privacy_0_5_1,
          RdpAccountedEpsilon(r.tf_privacy_0_5_1_noise_multiplier, r.q, r.steps, c.delta));
    }
    PB_ASSIGN_OR_RETURN(torch::Tensor lt, PerExampleLosses(model, train_x, train_y));
    PB_ASSIGN_OR_RETURN(torch::Tensor lp, PerExampleLosses(model, pop_x, pop_y));
    m.train_losses = ToVector(lt);
    m.population_losses = ToVector(lp);
    PB_ASSIGN_OR_RETURN(m.train_accuracy, Accuracy(model, train_x, train_y));
    PB_ASSIGN_OR_RETURN(m.population_accuracy, Accuracy(model, pop_x, pop_y));
    PB_ASSIGN_OR_RETURN(torch::Tensor logits, Logits(model, pop_x));
    // Ranked like the positive-class probability softmax(logits)_1.
    const std::vector<double> score = ToVector(logits.select(1, 1) - logits.select(1, 0));
    std::vector<double> pos, neg;
    for (size_t i = 0; i < score.size(); ++i) {
      (d.population_y[i] == 1 ? pos : neg).push_back(score[i]);
    }
    PB_ASSIGN_OR_RETURN(RocCurve utility, ComputeRoc(pos, neg));
    m.population_auroc = utility.auc;
    std::vector<double> mt, mp;  // lower loss = member
    for (double v : m.train_losses) mt.push_back(-v);
    for (double v : m.population_losses) mp.push_back(-v);
    PB_ASSIGN_OR_RETURN(RocCurve attack, ComputeRoc(mt, mp));
    m.membership_auc = attack.auc;
    return m;
  });
}

}  // namespace privbench::epsilon_star_gof
