#include "experiments/lib/epsilon_star_sweep/compute.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>

#include "core/format.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "estimators/loss_samples/parametric.h"
#include "estimators/roc/roc.h"
#include "mechanisms/device.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

std::vector<double> ToVector(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

}  // namespace

Result<SweepTensors> MakeTensors(const Dataset& d) {
  return GuardTorch("MakeTensors", [&]() -> Result<SweepTensors> {
    SweepTensors t;
    // The dataset outlives the sweep and is never written: no copies.
    t.train_x = torch::from_blob(const_cast<float*>(d.train_x.data()),
                                 {d.n_train(), d.num_features}, torch::kFloat32);
    t.train_y =
        torch::from_blob(const_cast<int64_t*>(d.train_y.data()), {d.n_train()}, torch::kInt64);
    t.population_x = torch::from_blob(const_cast<float*>(d.population_x.data()),
                                      {d.n_population(), d.num_features}, torch::kFloat32);
    t.population_y = torch::from_blob(const_cast<int64_t*>(d.population_y.data()),
                                      {d.n_population()}, torch::kInt64);
    return t;
  });
}

ModelSpec SpecFor(SweepModel model, const Dataset& d) {
  switch (model) {
    case SweepModel::kAdultMlp:
      return AdultMlpSpec(d.num_features);
    case SweepModel::kPurchaseMlp:
      return PurchaseMlpSpec(d.num_features, d.num_classes);
  }
  return AdultMlpSpec(d.num_features);
}

DpSgdConfig TrainingConfig(const SweepPoint& p, const EpsilonStarSweepConfig& c,
                           double noise_multiplier, uint64_t seed) {
  DpSgdConfig t;
  t.private_training = p.private_training;
  t.noise_multiplier = p.private_training ? noise_multiplier : 0.0;
  t.clip_norm = p.private_training ? p.clip_norm : 1.0;
  t.num_microbatches = p.private_training ? p.num_microbatches : 0;
  t.sampling = c.sampling == "shuffle" ? Sampling::kShuffle : Sampling::kPoisson;
  t.batch_size = p.batch_size;
  t.epochs = p.epochs;
  t.learning_rate = c.learning_rate;
  t.optimizer = OptimizerKind::kMomentumSgd;  // the paper: SGD with momentum 0.9
  t.momentum = c.momentum;
  t.weight_decay = 0.0;
  t.seed = seed;
  t.threads = 1;
  t.device = ParseDevice(c.device).value();  // checked by ValidateEpsilonStarSweep
  return t;
}

namespace {

// Calibrates the noise of DP configuration p (a.q, a.steps, a.delta set).
Status CalibratePoint(const Accountant& acc, const SweepPoint& p, const EpsilonStarSweepConfig& c,
                      PointAccounting* a) {
  DpSgdAccounting s;
  s.q = a->q;
  s.steps = a->steps;
  s.delta = a->delta;
  s.orders = DefaultRdpOrders();
  auto sigma = CalibrateSigma(acc, p.target_eps, s);
  if (!sigma.ok()) return Error("calibrating " + p.label + ": " + sigma.message());
  DpSgdConfig t = TrainingConfig(p, c, 1.0, 0);
  a->noise_multiplier =
      c.calibration_rule == "sound" ? NoiseMultiplierForAccounting(*sigma, t) : *sigma;
  t.noise_multiplier = a->noise_multiplier;
  a->accounting_noise_multiplier = AccountingNoiseMultiplier(t);
  PB_ASSIGN_OR_RETURN(
      a->eps_sound, RdpAccountedEpsilon(a->accounting_noise_multiplier, a->q, a->steps, a->delta));
  PB_ASSIGN_OR_RETURN(a->eps_tf_privacy_0_5_1,
                      RdpAccountedEpsilon(a->noise_multiplier, a->q, a->steps, a->delta));
  return Status::Ok();
}

}  // namespace

Result<std::vector<PointAccounting>> PlanAccounting(const std::vector<SweepPoint>& points,
                                                    const EpsilonStarSweepConfig& c,
                                                    int64_t n_train) {
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant("rdp"));
  const double delta = EffectiveDelta(c, n_train);
  std::vector<PointAccounting> out(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    PointAccounting& a = out[i];
    a.delta = delta;
    a.q = static_cast<double>(p.batch_size) / static_cast<double>(n_train);
    a.steps = StepsOf(p, c, n_train);
    if (!p.private_training) continue;
    if (p.batch_size > n_train) {
      return Error("batch_sizes " + std::to_string(p.batch_size) +
                   " exceeds the training set size " + std::to_string(n_train));
    }
    PB_RETURN_IF_ERROR(CalibratePoint(*acc, p, c, &a));
  }
  return out;
}

std::vector<double> LossQuantiles(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::vector<double> q(kLossQuantiles);
  const size_t n = v.size();
  for (int k = 0; k < kLossQuantiles; ++k) {
    // Nearest-rank quantile at level k/100 (k = 0: minimum, 100: maximum).
    const size_t rank = (static_cast<size_t>(k) * n + 99) / 100;  // ceil(k n / 100)
    const size_t idx = std::min(n - 1, rank == 0 ? 0 : rank - 1);
    q[k] = v[idx];
  }
  return q;
}

Result<ModelEvaluation> Evaluate(const DpModel& model, const torch::Tensor& x,
                                 const torch::Tensor& y) {
  ModelEvaluation e;
  PB_ASSIGN_OR_RETURN(e.logits, Logits(model, x));
  PB_ASSIGN_OR_RETURN(torch::Tensor ys, model.PrepareLabels(y, e.logits.size(0)));
  return GuardTorch("Evaluate", [&]() -> Result<ModelEvaluation> {
    torch::Tensor logp = at::log_softmax(e.logits.to(torch::kDouble), 1);
    e.losses = ToVector(logp.gather(1, ys.unsqueeze(1)).squeeze(1).neg());
    e.accuracy = e.logits.argmax(1).eq(ys).to(torch::kDouble).mean().item<double>();
    return e;
  });
}

bool IsDivergence(const std::string& message) {
  return message.find("non-finite") != std::string::npos ||
         message.find("NaN loss") != std::string::npos;
}

namespace {

// What a unit writes into its part.
struct UnitValues {
  std::map<std::string, double> scalars;  // /unit/<name>
  std::vector<double> q_train, q_population, loss_per_epoch;
};

// Every scalar NaN (what a diverged run keeps).
UnitValues EmptyValues(const UnitInputs& u) {
  UnitValues out;
  for (const std::string& f : UnitScalarFields()) out.scalars[f] = kNaN;
  for (const EpsilonStarVariant& e : u.variants) out.scalars["epsilon_star_" + e.name] = kNaN;
  out.q_train.assign(kLossQuantiles, kNaN);
  out.q_population.assign(kLossQuantiles, kNaN);
  return out;
}

// The training record's values and the run's eps. The record must describe
// the run we planned and accounted.
Status RecordTraining(const TrainingRecord& r, const PointAccounting& a, UnitValues* out,
                      ResultWriter& part) {
  auto& v = out->scalars;
  if (r.steps != a.steps || std::abs(r.q - a.q) > 1e-15 * a.q) {
    return Error("internal: planned q/steps " + FormatDouble(a.q) + "/" + std::to_string(a.steps) +
                 " differ from the run's " + FormatDouble(r.q) + "/" + std::to_string(r.steps));
  }
  for (const auto& [k, val] : r.Metadata()) {
    PB_RETURN_IF_ERROR(part.SetAttribute("/record", k, val));
  }
  out->loss_per_epoch = r.loss_per_epoch;
  v["final_epoch_loss"] = r.loss_per_epoch.empty() ? kNaN : r.loss_per_epoch.back();
  v["noise_multiplier"] = r.noise_multiplier;
  v["accounting_noise_multiplier"] = r.accounting_noise_multiplier;
  v["tf_privacy_0_5_1_noise_multiplier"] = r.tf_privacy_0_5_1_noise_multiplier;
  v["q"] = r.q;
  v["steps"] = static_cast<double>(r.steps);
  v["eps_reportable"] = r.eps_reportable ? 1.0 : 0.0;
  v["empty_batches"] = static_cast<double>(r.empty_batches);
  v["mean_batch_size"] = r.mean_batch_size;
  if (r.private_training && r.eps_reportable) {
    PB_ASSIGN_OR_RETURN(v["eps_sound"],
                        RdpAccountedEpsilon(r.accounting_noise_multiplier, r.q, r.steps, a.delta));
    PB_ASSIGN_OR_RETURN(
        v["eps_tf_privacy_0_5_1"],
        RdpAccountedEpsilon(r.tf_privacy_0_5_1_noise_multiplier, r.q, r.steps, a.delta));
  }
  return Status::Ok();
}

// Accuracies, the AUROC (binary labels) and the study's utility.
Status MeasureUtility(const UnitInputs& u, const ModelEvaluation& train,
                      const ModelEvaluation& population, UnitValues* out) {
  auto& v = out->scalars;
  v["train_accuracy"] = train.accuracy;
  v["population_accuracy"] = population.accuracy;
  if (u.dataset->num_classes == 2) {
    const torch::Tensor& logits = population.logits;
    // Ranked like the positive-class probability softmax(logits)_1.
    const std::vector<double> score = ToVector(logits.select(1, 1) - logits.select(1, 0));
    if (score.size() != u.dataset->population_y.size()) {
      return Error("internal: population scores have the wrong length");
    }
    std::vector<double> pos, neg;
    for (size_t i = 0; i < score.size(); ++i) {
      (u.dataset->population_y[i] == 1 ? pos : neg).push_back(score[i]);
    }
    PB_ASSIGN_OR_RETURN(RocCurve roc, ComputeRoc(pos, neg));
    v["auroc"] = roc.auc;
  }
  v["utility"] = u.study->utility == SweepUtility::kAuroc ? v["auroc"] : v["population_accuracy"];
  return Status::Ok();
}

// Membership AUC, loss summaries, every Epsilon* variant and the Normal fits.
Status MeasurePrivacy(const UnitInputs& u, const std::vector<double>& train_losses,
                      const std::vector<double>& population_losses, UnitValues* out) {
  auto& v = out->scalars;
  {  // Membership: lower loss = member.
    std::vector<double> mt(train_losses.size()), mp(population_losses.size());
    for (size_t i = 0; i < mt.size(); ++i) mt[i] = -train_losses[i];
    for (size_t i = 0; i < mp.size(); ++i) mp[i] = -population_losses[i];
    PB_ASSIGN_OR_RETURN(RocCurve roc, ComputeRoc(mt, mp));
    v["membership_auc"] = roc.auc;
  }
  v["mean_train_loss"] = Mean(train_losses);
  v["mean_population_loss"] = Mean(population_losses);
  out->q_train = LossQuantiles(train_losses);
  out->q_population = LossQuantiles(population_losses);
  for (const EpsilonStarVariant& e : u.variants) {
    PB_ASSIGN_OR_RETURN(auto est, MakeLossSampleEstimator(e.estimator));
    auto value = est->Estimate(train_losses, population_losses, e.options);
    if (!value.ok()) return Error("Epsilon* (" + e.name + "): " + value.message());
    v["epsilon_star_" + e.name] = *value;
  }
  PB_ASSIGN_OR_RETURN(ParametricFits fits, FitParametricEpsilonStar(train_losses, population_losses,
                                                                    u.options.transform));
  v["fit_train_mean"] = fits.train.mean;
  v["fit_train_sd"] = fits.train.sd;
  v["fit_population_mean"] = fits.population.mean;
  v["fit_population_sd"] = fits.population.sd;
  return Status::Ok();
}

// Evaluates a trained model into `out`.
Status MeasureModel(const UnitInputs& u, const DpModel& model, UnitValues* out) {
  const SweepTensors& t = *u.tensors;
  PB_ASSIGN_OR_RETURN(ModelEvaluation et, Evaluate(model, t.train_x, t.train_y));
  PB_ASSIGN_OR_RETURN(ModelEvaluation ep, Evaluate(model, t.population_x, t.population_y));
  PB_RETURN_IF_ERROR(MeasureUtility(u, et, ep, out));
  return MeasurePrivacy(u, et.losses, ep.losses, out);
}

Status WriteUnit(const UnitValues& values, ResultWriter& part) {
  for (const auto& [k, val] : values.scalars) {
    PB_RETURN_IF_ERROR(part.WriteScalar("/unit/" + k, val));
  }
  PB_RETURN_IF_ERROR(part.WriteDoubles("/unit/loss_quantiles_train", values.q_train));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/unit/loss_quantiles_population", values.q_population));
  return part.WriteDoubles("/unit/loss_per_epoch", values.loss_per_epoch);
}

}  // namespace

Status RunModelUnit(const UnitInputs& u, int64_t point, int64_t rep, ResultWriter& part) {
  const SweepPoint& p = (*u.points)[point];
  const PointAccounting& a = (*u.accounting)[point];
  const uint64_t key = StableHash(p.id);
  const uint64_t init_seed = DeriveSeed(u.seed, {key, static_cast<uint64_t>(rep), 0});
  const uint64_t train_seed = DeriveSeed(u.seed, {key, static_cast<uint64_t>(rep), 1});
  const auto t0 = std::chrono::steady_clock::now();
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(u.spec, init_seed));
  const DpSgdConfig tc = TrainingConfig(p, *u.config, a.noise_multiplier, train_seed);
  auto record = TrainDpSgd(model, u.tensors->train_x, u.tensors->train_y, tc);
  const double train_seconds = Seconds(t0);
  UnitValues values = EmptyValues(u);
  const auto t1 = std::chrono::steady_clock::now();
  if (!record.ok()) {
    if (!IsDivergence(record.message())) return record.status();
    values.scalars["diverged"] = 1.0;
    PB_RETURN_IF_ERROR(part.SetAttribute("/unit", "divergence", record.message()));
  } else {
    values.scalars["diverged"] = 0.0;
    PB_RETURN_IF_ERROR(RecordTraining(*record, a, &values, part));
    PB_RETURN_IF_ERROR(MeasureModel(u, model, &values));
  }
  PB_RETURN_IF_ERROR(WriteUnit(values, part));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "train_seconds", train_seconds));
  return part.SetAttribute("/meta", "eval_seconds", Seconds(t1));
}

namespace {

// Seconds per step of a run of p's kind, from a few steps on the first rows.
Result<double> StepSeconds(const UnitInputs& u, const SweepPoint& p, int64_t probe_steps) {
  const SweepTensors& t = *u.tensors;
  const int64_t rows = std::min<int64_t>(t.train_x.size(0), p.batch_size * probe_steps);
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(u.spec, 1));
  DpSgdConfig tc = TrainingConfig(p, *u.config, 1.0, 1);
  tc.epochs = 1;
  tc.batch_size = std::min<int64_t>(p.batch_size, rows);
  auto x =
      GuardTorch("probe", [&]() -> Result<torch::Tensor> { return t.train_x.narrow(0, 0, rows); });
  auto y =
      GuardTorch("probe", [&]() -> Result<torch::Tensor> { return t.train_y.narrow(0, 0, rows); });
  if (!x.ok() || !y.ok()) return Error("probe: " + x.message() + y.message());
  const auto t0 = std::chrono::steady_clock::now();
  PB_ASSIGN_OR_RETURN(TrainingRecord r, TrainDpSgd(model, *x, *y, tc));
  return Seconds(t0) / static_cast<double>(std::max<int64_t>(1, r.steps));
}

}  // namespace

Result<Probe> MeasureProbe(const UnitInputs& u, int64_t probe_steps) {
  Probe probe;
  for (const SweepPoint& p : *u.points) {
    const std::string key = KindKey(p);
    if (probe.step_seconds.count(key)) continue;
    PB_ASSIGN_OR_RETURN(probe.step_seconds[key], StepSeconds(u, p, probe_steps));
  }
  // One full evaluation: losses, accuracies, Epsilon* of every estimator.
  const SweepTensors& t = *u.tensors;
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(u.spec, 1));
  const auto t0 = std::chrono::steady_clock::now();
  PB_ASSIGN_OR_RETURN(ModelEvaluation et, Evaluate(model, t.train_x, t.train_y));
  PB_ASSIGN_OR_RETURN(ModelEvaluation ep, Evaluate(model, t.population_x, t.population_y));
  for (const EpsilonStarVariant& e : u.variants) {
    PB_ASSIGN_OR_RETURN(auto est, MakeLossSampleEstimator(e.estimator));
    PB_RETURN_IF_ERROR(est->Estimate(et.losses, ep.losses, e.options).status());
  }
  probe.eval_seconds = 1.5 * Seconds(t0);  // + accuracies, AUCs, quantiles
  return probe;
}

}  // namespace privbench
