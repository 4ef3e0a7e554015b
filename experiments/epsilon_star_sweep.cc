#include "experiments/epsilon_star_sweep.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

#include "attacks/roc.h"
#include "core/seeding.h"
#include "core/validate.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "estimators/loss_samples/parametric.h"
#include "experiments/framework/sweep.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kLossQuantiles = 101;  // 0%, 1%, ..., 100%

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

struct Tensors {
  torch::Tensor train_x, train_y, population_x, population_y;
};

Result<Tensors> MakeTensors(const Dataset& d) {
  return GuardTorch("MakeTensors", [&]() -> Result<Tensors> {
    Tensors t;
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
  return t;
}

double EffectiveDelta(const EpsilonStarSweepConfig& c, int64_t n_train) {
  return c.delta > 0.0 ? c.delta : 1.0 / static_cast<double>(n_train);
}

// Steps as TrainDpSgd counts them (dpsgd.h).
int64_t StepsOf(const SweepPoint& p, const EpsilonStarSweepConfig& c, int64_t n) {
  if (c.sampling == "shuffle") return p.epochs * (n / p.batch_size);
  return (p.epochs * n + p.batch_size - 1) / p.batch_size;
}

Result<double> RdpEpsilon(double sigma, double q, int64_t steps, double delta) {
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant("rdp"));
  DpSgdAccounting s;
  s.sigma = sigma;
  s.q = q;
  s.steps = steps;
  s.delta = delta;
  s.orders = DefaultRdpOrders();
  PB_ASSIGN_OR_RETURN(AccountantResult r, acc->Epsilon(s));
  return r.epsilon;
}

// Calibrated noise and both eps of every DP configuration.
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
    DpSgdAccounting s;
    s.q = a.q;
    s.steps = a.steps;
    s.delta = delta;
    s.orders = DefaultRdpOrders();
    auto sigma = CalibrateSigma(*acc, p.target_eps, s);
    if (!sigma.ok()) return Error("calibrating " + p.label + ": " + sigma.message());
    DpSgdConfig t = TrainingConfig(p, c, 1.0, 0);
    a.noise_multiplier =
        c.calibration_rule == "sound" ? NoiseMultiplierForAccounting(*sigma, t) : *sigma;
    t.noise_multiplier = a.noise_multiplier;
    a.accounting_noise_multiplier = AccountingNoiseMultiplier(t);
    PB_ASSIGN_OR_RETURN(a.eps_sound,
                        RdpEpsilon(a.accounting_noise_multiplier, a.q, a.steps, delta));
    PB_ASSIGN_OR_RETURN(a.eps_tf_privacy_0_5_1,
                        RdpEpsilon(a.noise_multiplier, a.q, a.steps, delta));
  }
  return out;
}

// The part's scalar fields under /unit/ (besides epsilon_star_<estimator>).
const std::vector<std::string>& UnitScalarFields() {
  static const std::vector<std::string> fields = {
      "diverged",
      "utility",
      "train_accuracy",
      "population_accuracy",
      "auroc",
      "membership_auc",
      "mean_train_loss",
      "mean_population_loss",
      "final_epoch_loss",
      "fit_train_mean",
      "fit_train_sd",
      "fit_population_mean",
      "fit_population_sd",
      "noise_multiplier",
      "accounting_noise_multiplier",
      "tf_privacy_0_5_1_noise_multiplier",
      "q",
      "steps",
      "eps_reportable",
      "eps_sound",
      "eps_tf_privacy_0_5_1",
      "empty_batches",
      "mean_batch_size",
  };
  return fields;
}

std::vector<double> Quantiles(std::vector<double> v) {
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

double Mean(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return v.empty() ? kNaN : s / static_cast<double>(v.size());
}

std::vector<double> ToVector(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

// Per-example losses, accuracy and logits from ONE forward pass: the same
// values as PerExampleLosses() and Accuracy() (mechanisms/dp_model.cc:
// float64 log-softmax of the logits, argmax against the label), which would
// each run their own pass over the data (the dominant evaluation cost at
// Purchase-100's paper scale).
struct Evaluation {
  torch::Tensor logits;
  std::vector<double> losses;
  double accuracy = 0.0;
};

Result<Evaluation> Evaluate(const DpModel& model, const torch::Tensor& x, const torch::Tensor& y) {
  Evaluation e;
  PB_ASSIGN_OR_RETURN(e.logits, Logits(model, x));
  PB_ASSIGN_OR_RETURN(torch::Tensor ys, model.PrepareLabels(y, e.logits.size(0)));
  return GuardTorch("Evaluate", [&]() -> Result<Evaluation> {
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

// One Epsilon* value per model: a registered estimator under some options.
struct Variant {
  std::string name;       // "parametric", "empirical", "parametric_common_window"
  std::string estimator;  // registry name
  EpsilonStarOptions options;
};

// Every registered estimator with the library defaults (except the
// quantile count), then the parametric variant on the empirical variant's
// rate window [rate_floor, rate_ceiling] = [0.001, 0.999] (the lost clip
// window is the parametric value's most influential choice).
std::vector<Variant> MakeVariants(const EpsilonStarOptions& defaults) {
  std::vector<Variant> v;
  for (const std::string& name : AllLossSampleEstimatorNames()) v.push_back({name, name, defaults});
  Variant common{std::string(kCommonWindowVariant), "parametric", defaults};
  common.options.clip_lo = defaults.rate_floor;
  common.options.clip_hi = defaults.rate_ceiling;
  v.push_back(common);
  return v;
}

struct UnitContext {
  const SweepStudy* study;
  const EpsilonStarSweepConfig* config;
  const Dataset* dataset;
  const Tensors* tensors;
  const std::vector<SweepPoint>* points;
  const std::vector<PointAccounting>* accounting;
  std::vector<Variant> variants;
  EpsilonStarOptions options;  // the library defaults (+ quantile count)
  ModelSpec spec;
  uint64_t seed = 0;
  int64_t repetitions = 1;
};

// One model: train, evaluate, write the part.
Status RunUnit(const UnitContext& u, int64_t point_index, int64_t rep, ResultWriter& part) {
  const SweepPoint& p = (*u.points)[point_index];
  const PointAccounting& a = (*u.accounting)[point_index];
  const uint64_t key = StableHash(p.id);
  const uint64_t init_seed = DeriveSeed(u.seed, {key, static_cast<uint64_t>(rep), 0});
  const uint64_t train_seed = DeriveSeed(u.seed, {key, static_cast<uint64_t>(rep), 1});
  const auto t0 = std::chrono::steady_clock::now();
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(u.spec, init_seed));
  const DpSgdConfig tc = TrainingConfig(p, *u.config, a.noise_multiplier, train_seed);
  auto record = TrainDpSgd(model, u.tensors->train_x, u.tensors->train_y, tc);
  const double train_seconds = Seconds(t0);
  std::map<std::string, double> v;
  for (const std::string& f : UnitScalarFields()) v[f] = kNaN;
  for (const Variant& e : u.variants) v["epsilon_star_" + e.name] = kNaN;
  std::vector<double> q_train(kLossQuantiles, kNaN), q_pop(kLossQuantiles, kNaN);
  std::vector<double> loss_per_epoch;
  const auto t1 = std::chrono::steady_clock::now();
  if (!record.ok()) {
    if (!IsDivergence(record.message())) return record.status();
    v["diverged"] = 1.0;
    PB_RETURN_IF_ERROR(part.SetAttribute("/unit", "divergence", record.message()));
  } else {
    const TrainingRecord& r = *record;
    v["diverged"] = 0.0;
    // The record must describe the run we planned and accounted.
    if (r.steps != a.steps || std::abs(r.q - a.q) > 1e-15 * a.q) {
      return Error("internal: planned q/steps " + FormatDouble(a.q) + "/" +
                   std::to_string(a.steps) + " differ from the run's " + FormatDouble(r.q) + "/" +
                   std::to_string(r.steps));
    }
    for (const auto& [k, val] : r.Metadata()) {
      PB_RETURN_IF_ERROR(part.SetAttribute("/record", k, val));
    }
    loss_per_epoch = r.loss_per_epoch;
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
                          RdpEpsilon(r.accounting_noise_multiplier, r.q, r.steps, a.delta));
      PB_ASSIGN_OR_RETURN(v["eps_tf_privacy_0_5_1"],
                          RdpEpsilon(r.tf_privacy_0_5_1_noise_multiplier, r.q, r.steps, a.delta));
    }
    // Losses and utility: one forward pass per split.
    PB_ASSIGN_OR_RETURN(Evaluation et, Evaluate(model, u.tensors->train_x, u.tensors->train_y));
    PB_ASSIGN_OR_RETURN(Evaluation ep,
                        Evaluate(model, u.tensors->population_x, u.tensors->population_y));
    const std::vector<double>& train_losses = et.losses;
    const std::vector<double>& population_losses = ep.losses;
    v["train_accuracy"] = et.accuracy;
    v["population_accuracy"] = ep.accuracy;
    if (u.dataset->num_classes == 2) {
      const torch::Tensor& logits = ep.logits;
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
    // Membership: lower loss = member.
    {
      std::vector<double> mt(train_losses.size()), mp(population_losses.size());
      for (size_t i = 0; i < mt.size(); ++i) mt[i] = -train_losses[i];
      for (size_t i = 0; i < mp.size(); ++i) mp[i] = -population_losses[i];
      PB_ASSIGN_OR_RETURN(RocCurve roc, ComputeRoc(mt, mp));
      v["membership_auc"] = roc.auc;
    }
    v["mean_train_loss"] = Mean(train_losses);
    v["mean_population_loss"] = Mean(population_losses);
    q_train = Quantiles(train_losses);
    q_pop = Quantiles(population_losses);
    // Epsilon*.
    for (const Variant& e : u.variants) {
      PB_ASSIGN_OR_RETURN(auto est, MakeLossSampleEstimator(e.estimator));
      auto value = est->Estimate(train_losses, population_losses, e.options);
      if (!value.ok()) return Error("Epsilon* (" + e.name + "): " + value.message());
      v["epsilon_star_" + e.name] = *value;
    }
    PB_ASSIGN_OR_RETURN(
        ParametricFits fits,
        FitParametricEpsilonStar(train_losses, population_losses, u.options.transform));
    v["fit_train_mean"] = fits.train.mean;
    v["fit_train_sd"] = fits.train.sd;
    v["fit_population_mean"] = fits.population.mean;
    v["fit_population_sd"] = fits.population.sd;
  }
  for (const auto& [k, val] : v) PB_RETURN_IF_ERROR(part.WriteScalar("/unit/" + k, val));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/unit/loss_quantiles_train", q_train));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/unit/loss_quantiles_population", q_pop));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/unit/loss_per_epoch", loss_per_epoch));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "train_seconds", train_seconds));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "eval_seconds", Seconds(t1)));
  return Status::Ok();
}

// Everything a unit's result depends on besides its id. The unit id names
// the configuration's own values (baseline epochs; DP target eps, clip norm,
// batch size, microbatches) and the repetition; this text holds the rest
// (data, model, optimiser, sampling, delta, DP epochs, baseline batch size,
// calibration rule, Epsilon* variants, seed), and the noise multiplier is a
// function of the two. Grid lists and the repetition count are NOT part of
// it, so runs of different grids (quick, paper, a re-run with more
// repetitions) share every unit they have in common. Parts made with
// another text are refused by sweep.h; they live in their own directory
// anyway (PartsStudyName()).
std::string UnitConfigText(const SweepStudy& study, const EpsilonStarSweepConfig& c,
                           const Dataset& d, const std::vector<Variant>& variants,
                           const ModelSpec& spec, uint64_t seed) {
  std::string s;
  s += "study = " + study.name + "\n";
  s += "seed = " + std::to_string(seed) + "\n";
  s += "dataset = " + d.provenance + " n_train=" + std::to_string(d.n_train()) +
       " n_population=" + std::to_string(d.n_population()) + "\n";
  // The data's identity, not where it was read from (a sweep's shards may
  // run on machines with other paths): generator parameters or checksums,
  // plus the preprocessing / subset notes.
  s += "dataset_identity = " + (d.is_surrogate ? d.source : d.checksums) + "\n";
  for (const std::string& n : d.notes) s += "dataset_note = " + n + "\n";
  s += "model = " + DescribeModel(spec) + "\n";
  s += "learning_rate = " + FormatDouble(c.learning_rate) + "\n";
  s += "momentum = " + FormatDouble(c.momentum) + "\n";
  s += "sampling = " + c.sampling + "\n";
  s += "delta = " + FormatDouble(EffectiveDelta(c, d.n_train())) + "\n";
  s += "dp_epochs = " + std::to_string(c.dp_epochs) + "\n";
  s += "baseline_batch_size = " + std::to_string(c.baseline_batch_size) + "\n";
  s += "calibration_rule = " + c.calibration_rule + " (rdp accountant, DefaultRdpOrders)\n";
  for (const Variant& v : variants) {
    s += "epsilon_star_variant = " + v.name + ": " + v.estimator + ", " +
         EpsilonStarOptionsText(v.options) + "\n";
  }
  return s;
}

// The parts directory's name: <study>.<12 hex digits of the unit text's
// hash>, e.g. results/parts/epsilon_star_sweep_adult.3f09c1d2ab47/.
std::string PartsStudyName(const std::string& study, const std::string& unit_text) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%012llx",
                static_cast<unsigned long long>(StableHash(unit_text) >> 16));
  return study + "." + buf;
}

struct Unit {
  int64_t point = 0;
  int64_t rep = 0;
  SweepUnit sweep_unit;
  double cost = 0.0;  // relative, for ordering
};

// Units in (configuration, repetition) order.
std::vector<Unit> MakeUnits(const std::vector<SweepPoint>& points, int64_t repetitions,
                            int64_t n_train) {
  std::vector<Unit> units;
  for (size_t i = 0; i < points.size(); ++i) {
    for (int64_t r = 0; r < repetitions; ++r) {
      Unit u;
      u.point = static_cast<int64_t>(i);
      u.rep = r;
      u.sweep_unit.id = points[i].id + "_rep=" + std::to_string(r);
      // Examples processed (DP steps cost ~1.5x) plus one pass of evaluation.
      u.cost = static_cast<double>(points[i].epochs) * static_cast<double>(n_train) *
                   (points[i].private_training ? 1.5 : 1.0) +
               2.0 * static_cast<double>(n_train);
      units.push_back(u);
    }
  }
  return units;
}

// Seconds per step of each kind of run, measured on a few steps, and per
// model evaluation: the projection of --plan_only and of paper-scale runs.
struct Probe {
  std::map<std::string, double> step_seconds;  // by KindKey
  double eval_seconds = 0.0;
};

std::string KindKey(const SweepPoint& p) {
  return (p.private_training ? "dp" : "baseline") + std::string("_b") +
         std::to_string(p.batch_size) + "_m" + std::to_string(p.num_microbatches);
}

Result<Probe> MeasureProbe(const UnitContext& u, int64_t probe_steps) {
  Probe probe;
  const Tensors& t = *u.tensors;
  for (const SweepPoint& p : *u.points) {
    const std::string key = KindKey(p);
    if (probe.step_seconds.count(key)) continue;
    const int64_t rows = std::min<int64_t>(t.train_x.size(0), p.batch_size * probe_steps);
    PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(u.spec, 1));
    DpSgdConfig tc = TrainingConfig(p, *u.config, 1.0, 1);
    tc.epochs = 1;
    tc.batch_size = std::min<int64_t>(p.batch_size, rows);
    auto x = GuardTorch("probe",
                        [&]() -> Result<torch::Tensor> { return t.train_x.narrow(0, 0, rows); });
    auto y = GuardTorch("probe",
                        [&]() -> Result<torch::Tensor> { return t.train_y.narrow(0, 0, rows); });
    if (!x.ok() || !y.ok()) return Error("probe: " + x.message() + y.message());
    const auto t0 = std::chrono::steady_clock::now();
    PB_ASSIGN_OR_RETURN(TrainingRecord r, TrainDpSgd(model, *x, *y, tc));
    probe.step_seconds[key] = Seconds(t0) / static_cast<double>(std::max<int64_t>(1, r.steps));
  }
  // One full evaluation: losses, accuracies, Epsilon* of every estimator.
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(u.spec, 1));
  const auto t0 = std::chrono::steady_clock::now();
  PB_ASSIGN_OR_RETURN(Evaluation et, Evaluate(model, t.train_x, t.train_y));
  PB_ASSIGN_OR_RETURN(Evaluation ep, Evaluate(model, t.population_x, t.population_y));
  const std::vector<double>& a = et.losses;
  const std::vector<double>& b = ep.losses;
  for (const Variant& e : u.variants) {
    PB_ASSIGN_OR_RETURN(auto est, MakeLossSampleEstimator(e.estimator));
    PB_RETURN_IF_ERROR(est->Estimate(a, b, e.options).status());
  }
  probe.eval_seconds = 1.5 * Seconds(t0);  // + accuracies, AUCs, quantiles
  return probe;
}

std::string Hours(double seconds) {
  char buf[64];
  if (seconds < 120) {
    std::snprintf(buf, sizeof(buf), "%.0f s", seconds);
  } else if (seconds < 7200) {
    std::snprintf(buf, sizeof(buf), "%.1f min", seconds / 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%.1f h", seconds / 3600);
  }
  return buf;
}

// Prints the plan: configurations, noise, projected time, Slurm recipe.
void PrintPlan(const SweepStudy& study, const EpsilonStarSweepConfig& c,
               const std::vector<SweepPoint>& points, const std::vector<PointAccounting>& acc,
               const std::vector<Unit>& units, const Probe* probe, int threads, Scale scale) {
  std::fprintf(stderr, "%s: %zu configurations x %lld repetitions = %zu units\n",
               study.name.c_str(), points.size(), static_cast<long long>(c.repetitions),
               units.size());
  double total = 0.0;
  for (size_t i = 0; i < points.size(); ++i) {
    double unit_seconds = kNaN;
    if (probe != nullptr) {
      unit_seconds =
          static_cast<double>(acc[i].steps) * probe->step_seconds.at(KindKey(points[i])) +
          probe->eval_seconds;
      total += unit_seconds * static_cast<double>(c.repetitions);
    }
    std::fprintf(
        stderr, "  %-40s steps %8lld  q %.3g  sigma %-10s eps(sound) %-8s eps(TF 0.5.1) %-8s%s\n",
        points[i].label.c_str(), static_cast<long long>(acc[i].steps), acc[i].q,
        points[i].private_training ? ShortNumber(acc[i].noise_multiplier).c_str() : "-",
        points[i].private_training ? ShortNumber(acc[i].eps_sound).c_str() : "-",
        points[i].private_training ? ShortNumber(acc[i].eps_tf_privacy_0_5_1).c_str() : "-",
        probe ? (" ~" + Hours(unit_seconds) + "/model").c_str() : "");
  }
  if (probe != nullptr) {
    for (const auto& [kind, seconds] : probe->step_seconds) {
      std::fprintf(stderr, "%s: measured %.3g ms per step for %s (1 LibTorch thread)\n",
                   study.name.c_str(), 1e3 * seconds, kind.c_str());
    }
    std::fprintf(stderr,
                 "%s: measured %.3g s per model evaluation (losses, accuracies, AUCs, "
                 "every Epsilon* variant)\n",
                 study.name.c_str(), probe->eval_seconds);
    std::fprintf(stderr,
                 "%s: projected %s of one core (%s on %d threads here; measured on %s-scale "
                 "data from a few steps of each kind and one evaluation)\n",
                 study.name.c_str(), Hours(total).c_str(),
                 Hours(total / std::max(1, threads)).c_str(), threads, ScaleName(scale).c_str());
  }
  std::fprintf(stderr,
               "%s: Slurm recipe (one array task per shard; parts on a shared file system):\n"
               "  #SBATCH --array=0-%zu --cpus-per-task=1\n"
               "  bazel-bin/experiments/%s --scale=%s --threads=1 "
               "--shard=${SLURM_ARRAY_TASK_ID}/%zu --parts_dir=/shared/parts\n"
               "  # when every task has finished:\n"
               "  bazel-bin/experiments/%s --scale=%s --merge_only --parts_dir=/shared/parts\n",
               study.name.c_str(), units.size() - 1, study.name.c_str(), ScaleName(scale).c_str(),
               units.size(), study.name.c_str(), ScaleName(scale).c_str());
}

std::string Dash(bool applicable, double x) { return applicable ? Num(x, 4) : "-"; }

}  // namespace

int SweepOutcome::EstimatorIndex(const std::string& name) const {
  for (size_t i = 0; i < estimators.size(); ++i) {
    if (estimators[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string Num(double x, int digits) {
  if (std::isnan(x)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*g", digits, x);
  return buf;
}

std::string SharedLostParameters(const EpsilonStarSweepConfig& c, int64_t n_train) {
  const double delta = EffectiveDelta(c, n_train);
  EpsilonStarOptions o;
  std::string s;
  s += "delta (the paper's expression was lost in extraction; '1/n, n = training set size' "
       "read): " +
       std::string(c.delta > 0 ? "set to " : "1/n_train = ") + Num(delta, 4) + "; ";
  s += "epochs of the DP runs (lost): " + std::to_string(c.dp_epochs) + "; ";
  s += "batch size of the baselines (lost): " + std::to_string(c.baseline_batch_size) +
       " (the smallest DP batch size), same optimiser (SGD lr " + Num(c.learning_rate) +
       ", momentum " + Num(c.momentum) + "); ";
  s += "batch sampling (TF Privacy 0.5.1 / Keras used shuffled batches): " + c.sampling +
       " for every run, the accountant's assumption; ";
  s += "microbatches (TF Privacy num_microbatches, m = 1 clips the batch mean gradient): with "
       "Poisson sampling each sampled example joins one of m microbatches at random "
       "(mechanisms/dpsgd.h), TF Privacy cuts the shuffled batch into m contiguous parts; ";
  s += "noise calibration: CalibrateSigma (rdp accountant, classic conversion, "
       "DefaultRdpOrders 1.01..16384; TF Privacy 0.5.1's order list lost) with calibration_rule "
       "= " +
       c.calibration_rule +
       (c.calibration_rule == "tf_privacy_0_5_1"
            ? " (the paper's library accounted microbatched runs like per-example ones, so this "
              "trains with the paper's noise; every run's sound eps, with sigma/2 for "
              "microbatches of size > 1, is reported next to the target)"
            : " (trains with twice the TF Privacy 0.5.1 noise for microbatched runs, so the run "
              "is really (target eps, delta)-DP; the paper's models had less noise)") +
       "; ";
  s += "Epsilon*: library defaults (" + EpsilonStarOptionsText(o) +
       "; the parametric clip window was lost, default [1e-6, 1-1e-6]), quantiles per "
       "distribution " +
       std::to_string(c.epsilon_star_quantiles) + "; ";
  s += "weights: Glorot-uniform (Keras default), biases 0";
  return s;
}

Result<std::optional<SweepOutcome>> RunEpsilonStarSweep(const SweepStudy& study,
                                                        const EpsilonStarSweepConfig& c,
                                                        const Dataset& d, StudyContext& ctx) {
  SetMathThreads(1);
  const std::vector<SweepPoint> points = BuildSweepGrid(c);
  for (const SweepPoint& p : points) {
    if (p.batch_size > d.n_train()) {
      return Error("batch size " + std::to_string(p.batch_size) + " of " + p.label +
                   " exceeds the training set size " + std::to_string(d.n_train()));
    }
  }
  PB_ASSIGN_OR_RETURN(std::vector<PointAccounting> accounting,
                      PlanAccounting(points, c, d.n_train()));
  PB_ASSIGN_OR_RETURN(Tensors tensors, MakeTensors(d));
  UnitContext u;
  u.study = &study;
  u.config = &c;
  u.dataset = &d;
  u.tensors = &tensors;
  u.points = &points;
  u.accounting = &accounting;
  u.options.quantiles_per_distribution = c.epsilon_star_quantiles;
  PB_RETURN_IF_ERROR(ValidateEpsilonStarOptions(u.options));
  u.variants = MakeVariants(u.options);
  std::vector<std::string> variant_names;
  for (const Variant& e : u.variants) variant_names.push_back(e.name);
  u.spec = SpecFor(study.model, d);
  u.seed = ctx.seed();
  u.repetitions = c.repetitions;

  std::vector<Unit> units = MakeUnits(points, c.repetitions, d.n_train());
  // Run order = shard assignment order: most expensive first (balances the
  // threads and the shards); the study file keeps (configuration, rep) order.
  std::vector<Unit> run_order = units;
  std::stable_sort(run_order.begin(), run_order.end(),
                   [](const Unit& a, const Unit& b) { return a.cost > b.cost; });
  std::vector<SweepUnit> sweep_units;
  for (const Unit& x : run_order) sweep_units.push_back(x.sweep_unit);
  std::map<std::string, const Unit*> by_id;
  for (const Unit& x : units) by_id[x.sweep_unit.id] = &x;

  SweepOptions so;
  so.config_text = UnitConfigText(study, c, d, u.variants, u.spec, ctx.seed());
  so.study = PartsStudyName(study.name, so.config_text);
  so.parts_dir = c.parts_dir.empty() ? DefaultPartsDir() : c.parts_dir;
  PB_ASSIGN_OR_RETURN(so.shard, ParseShard(c.shard));
  so.threads = ctx.threads();
  so.quiet = ctx.quiet();

  if (c.plan_only || (ctx.scale() == Scale::kPaper && !c.merge_only && !ctx.quiet())) {
    PB_ASSIGN_OR_RETURN(
        Probe probe, GuardTorch("probe", [&]() -> Result<Probe> { return MeasureProbe(u, 20); }));
    PrintPlan(study, c, points, accounting, units, &probe, ctx.threads(), ctx.scale());
    if (c.plan_only) {
      ctx.SkipOutput("--plan_only: nothing trained");
      return std::optional<SweepOutcome>();
    }
  }
  if (!c.merge_only) {
    const auto t0 = std::chrono::steady_clock::now();
    PB_ASSIGN_OR_RETURN(
        SweepReport report,
        RunSweep(sweep_units, so, [&](int64_t, const SweepUnit& su, ResultWriter& part) {
          const Unit* x = by_id.at(su.id);
          return GuardTorch("unit " + su.id,
                            [&]() -> Status { return RunUnit(u, x->point, x->rep, part); });
        }));
    if (!ctx.quiet()) {
      std::fprintf(stderr, "%s: shard %s ran %lld units in %.1f s; %lld of %lld complete\n",
                   study.name.c_str(), c.shard.c_str(), static_cast<long long>(report.ran),
                   Seconds(t0), static_cast<long long>(report.complete),
                   static_cast<long long>(report.total));
    }
    if (!report.all_complete()) {
      ctx.SkipOutput(std::to_string(report.total - report.complete) + " of " +
                     std::to_string(report.total) +
                     " units pending: run the other shards, "
                     "then --merge_only");
      return std::optional<SweepOutcome>();
    }
  }

  // Assemble, in (configuration, repetition) order.
  std::vector<SweepUnit> ordered;
  for (const Unit& x : units) ordered.push_back(x.sweep_unit);
  PB_ASSIGN_OR_RETURN(auto parts, OpenSweepParts(ordered, so));
  const size_t P = points.size(), R = static_cast<size_t>(c.repetitions), E = u.variants.size();
  std::map<std::string, std::vector<double>> model_fields;
  std::vector<double> lq_train, lq_pop;
  std::vector<int64_t> config_index, repetition;
  std::vector<std::string> unit_ids;
  std::string record_baseline, record_dp;
  double train_seconds_total = 0.0, eval_seconds_total = 0.0;
  std::map<std::string, std::pair<double, int>> seconds_by_config;
  std::vector<std::string> scalar_names = UnitScalarFields();
  for (const std::string& e : variant_names) scalar_names.push_back("epsilon_star_" + e);
  for (size_t k = 0; k < parts.size(); ++k) {
    const ResultReader& part = *parts[k];
    const Unit& x = units[k];
    config_index.push_back(x.point);
    repetition.push_back(x.rep);
    unit_ids.push_back(x.sweep_unit.id);
    for (const std::string& f : scalar_names) {
      PB_ASSIGN_OR_RETURN(std::vector<double> val, part.ReadDoubles("/unit/" + f));
      if (val.size() != 1) return Error("part " + part.path() + ": /unit/" + f + " not a scalar");
      model_fields[f].push_back(val[0]);
    }
    PB_ASSIGN_OR_RETURN(std::vector<double> qt, part.ReadDoubles("/unit/loss_quantiles_train"));
    PB_ASSIGN_OR_RETURN(std::vector<double> qp,
                        part.ReadDoubles("/unit/loss_quantiles_population"));
    if (qt.size() != kLossQuantiles || qp.size() != kLossQuantiles) {
      return Error("part " + part.path() + ": loss quantiles have the wrong length");
    }
    lq_train.insert(lq_train.end(), qt.begin(), qt.end());
    lq_pop.insert(lq_pop.end(), qp.begin(), qp.end());
    const double ts = part.ReadDoubleAttribute("/meta", "train_seconds").value_or(0.0);
    const double es = part.ReadDoubleAttribute("/meta", "eval_seconds").value_or(0.0);
    train_seconds_total += ts;
    eval_seconds_total += es;
    auto& sc = seconds_by_config[points[x.point].id];
    sc.first += ts + es;
    sc.second += 1;
    std::string* rec = points[x.point].private_training ? &record_dp : &record_baseline;
    if (rec->empty() && part.Exists("/record")) {
      for (const char* key : {"model",
                              "architecture",
                              "num_parameters",
                              "sampling",
                              "dataset_size",
                              "batch_size",
                              "q",
                              "steps",
                              "epochs",
                              "noise_multiplier",
                              "clip_norm",
                              "num_microbatches",
                              "microbatched",
                              "expected_microbatch_size",
                              "gradient_normaliser",
                              "accounting_noise_multiplier",
                              "tf_privacy_0_5_1_noise_multiplier",
                              "accounting_rule",
                              "microbatch_rule",
                              "learning_rate",
                              "optimizer",
                              "momentum",
                              "eps_reportable",
                              "threads"}) {
        auto val = part.ReadStringAttribute("/record", key);
        if (val.ok()) *rec += std::string(rec->empty() ? "" : "; ") + key + "=" + *val;
      }
      *rec = points[x.point].id + " rep " + std::to_string(x.rep) + ": " + *rec;
    }
  }

  SweepOutcome out;
  out.part_versions = DescribePartVersions(parts).description;
  out.points = points;
  out.accounting = accounting;
  out.estimators = variant_names;
  out.delta = accounting.empty() ? EffectiveDelta(c, d.n_train()) : accounting[0].delta;
  out.epsilon_star.assign(P, std::vector<std::vector<double>>(E, std::vector<double>(R)));
  out.utility.assign(P, std::vector<double>(R));
  out.population_accuracy.assign(P, std::vector<double>(R));
  out.train_accuracy.assign(P, std::vector<double>(R));
  for (size_t k = 0; k < units.size(); ++k) {
    const size_t i = static_cast<size_t>(units[k].point), r = static_cast<size_t>(units[k].rep);
    for (size_t e = 0; e < E; ++e) {
      out.epsilon_star[i][e][r] = model_fields["epsilon_star_" + variant_names[e]][k];
    }
    out.utility[i][r] = model_fields["utility"][k];
    out.population_accuracy[i][r] = model_fields["population_accuracy"][k];
    out.train_accuracy[i][r] = model_fields["train_accuracy"][k];
    if (model_fields["diverged"][k] != 0.0) ++out.diverged_models;
  }

  ResultWriter& w = ctx.out();
  // /models
  PB_RETURN_IF_ERROR(w.WriteInts("/models/config_index", config_index));
  PB_RETURN_IF_ERROR(w.WriteInts("/models/repetition", repetition));
  PB_RETURN_IF_ERROR(w.WriteStrings("/models/unit_id", unit_ids));
  for (const std::string& f : UnitScalarFields()) {
    PB_RETURN_IF_ERROR(w.WriteDoubles("/models/" + f, model_fields[f]));
  }
  for (const std::string& e : variant_names) {
    PB_RETURN_IF_ERROR(
        w.WriteDoubles("/models/epsilon_star/" + e, model_fields["epsilon_star_" + e]));
  }
  const uint64_t nm = units.size();
  PB_RETURN_IF_ERROR(w.WriteDoubles("/models/loss_quantiles/train", lq_train,
                                    {nm, static_cast<uint64_t>(kLossQuantiles)}));
  PB_RETURN_IF_ERROR(w.WriteDoubles("/models/loss_quantiles/population", lq_pop,
                                    {nm, static_cast<uint64_t>(kLossQuantiles)}));
  PB_RETURN_IF_ERROR(w.SetAttribute("/models", "description",
                                    "one entry per trained model in (configuration, repetition) "
                                    "order; NaN = not applicable (eps of baselines, AUROC of "
                                    "multi-class models) or a diverged run (diverged = 1); "
                                    "loss_quantiles: nearest-rank quantiles at 0%, 1%, ..., 100% "
                                    "of the per-example cross-entropy losses"));
  // /configs
  std::vector<std::string> ids, labels, kinds;
  std::vector<int64_t> epochs, batch, mb, steps, n_ok;
  std::vector<double> target, clip, qv, sigma, acc_sigma, eps_sound, eps_tf;
  std::vector<bool> eps_reportable;
  for (size_t i = 0; i < P; ++i) {
    const SweepPoint& p = points[i];
    const PointAccounting& a = accounting[i];
    const bool dp = p.private_training;
    ids.push_back(p.id);
    labels.push_back(p.label);
    kinds.push_back(p.kind());
    epochs.push_back(p.epochs);
    batch.push_back(p.batch_size);
    mb.push_back(dp ? p.num_microbatches : 0);
    steps.push_back(a.steps);
    target.push_back(dp ? p.target_eps : kNaN);
    clip.push_back(dp ? p.clip_norm : kNaN);
    qv.push_back(a.q);
    sigma.push_back(dp ? a.noise_multiplier : 0.0);
    acc_sigma.push_back(dp ? a.accounting_noise_multiplier : 0.0);
    // Reportable only if every trained model's record says so (Poisson
    // sampling, private training) and at least one model trained.
    bool reportable = dp;
    int64_t records = 0;
    for (size_t k = 0; k < units.size(); ++k) {
      if (units[k].point != static_cast<int64_t>(i)) continue;
      const double r = model_fields["eps_reportable"][k];
      if (std::isnan(r)) continue;  // diverged: no record
      ++records;
      if (r != 1.0) reportable = false;
    }
    reportable = reportable && records > 0;
    eps_reportable.push_back(reportable);
    eps_sound.push_back(reportable ? a.eps_sound : kNaN);
    eps_tf.push_back(reportable ? a.eps_tf_privacy_0_5_1 : kNaN);
    n_ok.push_back(Summarise(out.utility[i]).count);
  }
  PB_RETURN_IF_ERROR(w.WriteStrings("/configs/id", ids));
  PB_RETURN_IF_ERROR(w.WriteStrings("/configs/label", labels));
  PB_RETURN_IF_ERROR(w.WriteStrings("/configs/kind", kinds));
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/epochs", epochs));
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/batch_size", batch));
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/num_microbatches", mb));
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/steps", steps));
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/models_ok", n_ok));
  PB_RETURN_IF_ERROR(w.WriteDoubles("/configs/target_eps", target));
  PB_RETURN_IF_ERROR(w.WriteDoubles("/configs/clip_norm", clip));
  PB_RETURN_IF_ERROR(w.WriteDoubles("/configs/q", qv));
  PB_RETURN_IF_ERROR(w.WriteDoubles("/configs/noise_multiplier", sigma));
  PB_RETURN_IF_ERROR(w.WriteDoubles("/configs/accounting_noise_multiplier", acc_sigma));
  PB_RETURN_IF_ERROR(w.WriteDoubles("/configs/eps_sound", eps_sound));
  PB_RETURN_IF_ERROR(w.WriteDoubles("/configs/eps_tf_privacy_0_5_1", eps_tf));
  auto write_stats = [&](const std::string& base, const std::vector<std::vector<double>>& per_point,
                         std::vector<MinMeanMax>* keep) -> Status {
    std::vector<double> mean, mn, mx;
    for (const auto& v : per_point) {
      const MinMeanMax s = Summarise(v);
      mean.push_back(s.mean);
      mn.push_back(s.min);
      mx.push_back(s.max);
      if (keep) keep->push_back(s);
    }
    PB_RETURN_IF_ERROR(w.WriteDoubles(base + "/mean", mean));
    PB_RETURN_IF_ERROR(w.WriteDoubles(base + "/min", mn));
    return w.WriteDoubles(base + "/max", mx);
  };
  std::vector<std::vector<MinMeanMax>> es_stats(E);
  for (size_t e = 0; e < E; ++e) {
    std::vector<std::vector<double>> per_point;
    for (size_t i = 0; i < P; ++i) per_point.push_back(out.epsilon_star[i][e]);
    PB_RETURN_IF_ERROR(
        write_stats("/configs/epsilon_star/" + variant_names[e], per_point, &es_stats[e]));
  }
  std::vector<MinMeanMax> util_stats, popacc_stats, trainacc_stats;
  PB_RETURN_IF_ERROR(write_stats("/configs/utility", out.utility, &util_stats));
  PB_RETURN_IF_ERROR(
      write_stats("/configs/population_accuracy", out.population_accuracy, &popacc_stats));
  PB_RETURN_IF_ERROR(write_stats("/configs/train_accuracy", out.train_accuracy, &trainacc_stats));
  const int ip = out.EstimatorIndex("parametric");
  const int ie = out.EstimatorIndex("empirical");
  const int ic = out.EstimatorIndex(kCommonWindowVariant);
  if (ip < 0) return Error("the parametric Epsilon* estimator is not registered");
  std::vector<double> px, py;
  for (size_t i = 0; i < P; ++i) {
    px.push_back(es_stats[ip][i].mean);
    py.push_back(util_stats[i].mean);
  }
  out.pareto = ParetoFrontier(px, py);
  out.pareto_convex = ConvexParetoFrontier(px, py);
  std::vector<int64_t> pareto_i, convex_i;
  for (size_t i = 0; i < P; ++i) {
    pareto_i.push_back(out.pareto[i] ? 1 : 0);
    convex_i.push_back(out.pareto_convex[i] ? 1 : 0);
  }
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/pareto", pareto_i));
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/pareto_convex", convex_i));
  PB_RETURN_IF_ERROR(w.SetAttribute(
      "/configs", "description",
      "one entry per configuration (baselines, then DP by eps, clip norm, batch, microbatches); "
      "mean/min/max over its models that did not diverge; pareto: non-dominated by (mean "
      "parametric Epsilon* lower, mean utility higher); pareto_convex: those on the upper-left "
      "convex hull (the paper's definition); eps_* NaN for baselines (and for shuffled "
      "batches, whose eps is not reportable)"));
  PB_RETURN_IF_ERROR(w.WriteStrings("/epsilon_star_variants", variant_names));
  {
    std::string text;
    for (const Variant& e : u.variants) {
      text +=
          e.name + ": estimator " + e.estimator + ", " + EpsilonStarOptionsText(e.options) + "\n";
    }
    PB_RETURN_IF_ERROR(w.SetAttribute("/epsilon_star_variants", "options", text));
  }

  // Summary tables.
  const std::string data_note = "Data: " + study.dataset_label + " (" +
                                std::to_string(d.n_train()) + " training / " +
                                std::to_string(d.n_population()) + " population rows). ";
  {
    std::vector<std::string> eps_t, eps_s, eps_f, sig, es_p, es_e, ut, pareto_s;
    std::vector<double> esp_mean, esp_min, esp_max, ese_mean, ut_mean, ut_min, ut_max;
    for (size_t i = 0; i < P; ++i) {
      const bool dp = points[i].private_training;
      eps_t.push_back(dp ? ShortNumber(points[i].target_eps) : "-");
      eps_s.push_back(Dash(eps_reportable[i], accounting[i].eps_sound));
      eps_f.push_back(Dash(eps_reportable[i], accounting[i].eps_tf_privacy_0_5_1));
      sig.push_back(Dash(dp, accounting[i].noise_multiplier));
      esp_mean.push_back(es_stats[ip][i].mean);
      esp_min.push_back(es_stats[ip][i].min);
      esp_max.push_back(es_stats[ip][i].max);
      ese_mean.push_back(ie >= 0 ? es_stats[ie][i].mean : kNaN);
      ut_mean.push_back(util_stats[i].mean);
      ut_min.push_back(util_stats[i].min);
      ut_max.push_back(util_stats[i].max);
      pareto_s.push_back(out.pareto_convex[i] ? "yes (convex)" : out.pareto[i] ? "yes" : "");
    }
    std::vector<Column> cols = {
        Column::Strings("configuration", labels),
        Column::Strings("target_eps", eps_t),
        Column::Strings("eps_sound", eps_s),
        Column::Strings("eps_tf_privacy_0_5_1", eps_f),
        Column::Strings("noise_multiplier", sig),
        Column::Doubles("epsilon_star_parametric_mean", esp_mean),
        Column::Doubles("epsilon_star_parametric_min", esp_min),
        Column::Doubles("epsilon_star_parametric_max", esp_max),
    };
    if (ie >= 0) {
      std::vector<double> ese_min, ese_max;
      for (size_t i = 0; i < P; ++i) {
        ese_min.push_back(es_stats[ie][i].min);
        ese_max.push_back(es_stats[ie][i].max);
      }
      cols.push_back(Column::Doubles("epsilon_star_empirical_mean", ese_mean));
      cols.push_back(Column::Doubles("epsilon_star_empirical_min", ese_min));
      cols.push_back(Column::Doubles("epsilon_star_empirical_max", ese_max));
    }
    if (ic >= 0) {
      std::vector<double> c_mean, c_min, c_max;
      for (size_t i = 0; i < P; ++i) {
        c_mean.push_back(es_stats[ic][i].mean);
        c_min.push_back(es_stats[ic][i].min);
        c_max.push_back(es_stats[ic][i].max);
      }
      cols.push_back(Column::Doubles("epsilon_star_parametric_common_window_mean", c_mean));
      cols.push_back(Column::Doubles("epsilon_star_parametric_common_window_min", c_min));
      cols.push_back(Column::Doubles("epsilon_star_parametric_common_window_max", c_max));
    }
    cols.push_back(Column::Doubles("utility_mean", ut_mean));
    cols.push_back(Column::Doubles("utility_min", ut_min));
    cols.push_back(Column::Doubles("utility_max", ut_max));
    cols.push_back(Column::Ints("models", n_ok));
    cols.push_back(Column::Strings("pareto", pareto_s));
    PB_RETURN_IF_ERROR(w.WriteTable(
        {"configurations",
         "Privacy-utility landscape (" + study.dataset_label + "): every configuration",
         data_note +
             "One row per configuration; mean/min/max over its models (repetitions that "
             "did not diverge; 'models' = how many). Epsilon*: parametric and empirical variants "
             "(library defaults, " +
             EpsilonStarOptionsText(u.options) +
             ") on training vs "
             "population losses; parametric_common_window: the parametric variant on the empirical "
             "variant's window [0.001, 0.999] instead of its default clip window [1e-6, 1-1e-6] "
             "(the paper lost its window). Utility: " +
             study.utility_label +
             ". target_eps: the DP target; "
             "noise_multiplier: sigma trained with (calibration_rule " +
             c.calibration_rule +
             "); eps_sound: RDP eps of the run with the sound microbatch rule (sigma/2 for "
             "microbatches of size > 1); eps_tf_privacy_0_5_1: the same with sigma (the paper's "
             "library); delta = " +
             Num(out.delta, 4) +
             ". pareto: non-dominated (lower Epsilon*, "
             "higher utility); 'convex' = also on the convex-hull frontier of the paper.",
         cols}));
  }
  {
    std::vector<std::string> bl;
    std::vector<int64_t> be;
    std::vector<double> m, mn, mx, em, cm, um, umin, umax, tacc;
    for (size_t i = 0; i < P; ++i) {
      if (points[i].private_training) continue;
      bl.push_back(points[i].label);
      be.push_back(points[i].epochs);
      m.push_back(es_stats[ip][i].mean);
      mn.push_back(es_stats[ip][i].min);
      mx.push_back(es_stats[ip][i].max);
      em.push_back(ie >= 0 ? es_stats[ie][i].mean : kNaN);
      cm.push_back(ic >= 0 ? es_stats[ic][i].mean : kNaN);
      um.push_back(util_stats[i].mean);
      umin.push_back(util_stats[i].min);
      umax.push_back(util_stats[i].max);
      tacc.push_back(trainacc_stats[i].mean);
    }
    if (!bl.empty()) {
      PB_RETURN_IF_ERROR(w.WriteTable(
          {"baselines",
           "Non-private baselines by epochs (" + study.dataset_label + ")",
           data_note + "Non-private momentum SGD, batch " + std::to_string(c.baseline_batch_size) +
               ", " + std::to_string(c.repetitions) +
               " models each; Epsilon* (parametric "
               "mean/min/max, empirical mean, parametric on the window [0.001, 0.999] mean) and "
               "utility (" +
               study.utility_label +
               ") mean/min/max; train_accuracy: mean accuracy on the training rows.",
           {Column::Ints("epochs", be), Column::Doubles("epsilon_star_parametric_mean", m),
            Column::Doubles("epsilon_star_parametric_min", mn),
            Column::Doubles("epsilon_star_parametric_max", mx),
            Column::Doubles("epsilon_star_empirical_mean", em),
            Column::Doubles("epsilon_star_parametric_common_window_mean", cm),
            Column::Doubles("utility_mean", um), Column::Doubles("utility_min", umin),
            Column::Doubles("utility_max", umax), Column::Doubles("train_accuracy_mean", tacc)}}));
    }
  }

  // Diagnostics: is the parametric Epsilon* driven by a membership signal or
  // by the ratio of the fitted standard deviations (which its window edges
  // extrapolate)? Pearson correlations over the models that did not diverge.
  {
    std::vector<double> es, lsr, mia;
    for (size_t k = 0; k < units.size(); ++k) {
      const double e = model_fields["epsilon_star_parametric"][k];
      const double st = model_fields["fit_train_sd"][k], sp = model_fields["fit_population_sd"][k];
      const double a = model_fields["membership_auc"][k];
      if (!std::isfinite(e) || !(st > 0) || !(sp > 0) || !std::isfinite(a)) continue;
      es.push_back(e);
      lsr.push_back(std::abs(std::log(st / sp)));
      mia.push_back(a);
    }
    auto pearson = [](const std::vector<double>& x, const std::vector<double>& y) {
      const size_t n = x.size();
      if (n < 3) return kNaN;
      double mx = 0, my = 0;
      for (size_t i = 0; i < n; ++i) {
        mx += x[i] / n;
        my += y[i] / n;
      }
      double sxy = 0, sxx = 0, syy = 0;
      for (size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
      }
      return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : kNaN;
    };
    const MinMeanMax m = Summarise(mia);
    const double c_sd = pearson(es, lsr), c_mia = pearson(es, mia);
    PB_RETURN_IF_ERROR(w.WriteScalar("/numbers/membership_auc_min", m.min));
    PB_RETURN_IF_ERROR(w.WriteScalar("/numbers/membership_auc_max", m.max));
    PB_RETURN_IF_ERROR(w.WriteScalar("/numbers/corr_parametric_vs_log_sd_ratio", c_sd));
    PB_RETURN_IF_ERROR(w.WriteScalar("/numbers/corr_parametric_vs_membership_auc", c_mia));
    PB_RETURN_IF_ERROR(w.WriteTable(
        {"diagnostics",
         "What drives the parametric Epsilon* (" + study.dataset_label + ")",
         data_note + "Over the " + std::to_string(es.size()) +
             " models that did not diverge: "
             "the loss-threshold membership AUC (members = training rows, lower loss = member; "
             "0.5 = no membership signal) and the Pearson correlation of the parametric Epsilon* "
             "with |ln(sd_train / sd_population)| of the Normal fits to the transformed losses "
             "and with the membership AUC. A correlation near 1 with the sd ratio means the value "
             "is set by the fitted tails at the clip window's edges.",
         {Column::Strings("quantity",
                          {"membership AUC, minimum", "membership AUC, mean",
                           "membership AUC, maximum", "corr(parametric Epsilon*, |ln sd ratio|)",
                           "corr(parametric Epsilon*, membership AUC)"}),
          Column::Doubles("value", {m.min, m.mean, m.max, c_sd, c_mia})}}));
  }

  // Metadata.
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "dataset_provenance", d.provenance));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "dataset_label", study.dataset_label));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "dataset_source", d.source));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "dataset_checksums", d.checksums));
  std::string notes;
  for (const std::string& n : d.notes) notes += (notes.empty() ? "" : "; ") + n;
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "dataset_notes", notes));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "n_train", d.n_train()));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "n_population", d.n_population()));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "model_architecture", DescribeModel(u.spec)));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "utility", study.utility_label));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "delta", out.delta));
  PB_RETURN_IF_ERROR(
      w.SetAttribute("/meta", "epsilon_star_options", EpsilonStarOptionsText(u.options)));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "calibration_rule", c.calibration_rule));
  PB_RETURN_IF_ERROR(w.SetAttribute(
      "/meta", "accounting",
      "RDP accountant of the Poisson-sampled Gaussian mechanism (estimators/accountants rdp, "
      "classic conversion, DefaultRdpOrders 1.01..16384), add/remove adjacency; sigma per DP "
      "configuration by CalibrateSigma on its q, steps and delta; calibration_rule " +
          c.calibration_rule +
          "; eps_sound uses the run's accounting_noise_multiplier (sigma/2 "
          "for microbatches of size > 1), eps_tf_privacy_0_5_1 uses sigma (TF Privacy 0.5.1)"));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "training_record_baseline", record_baseline));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "training_record_dp", record_dp));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "sweep_config", so.config_text));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "parts_subdirectory", so.study));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "sweep_part_versions", out.part_versions));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "diverged_models", out.diverged_models));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "units_train_seconds", train_seconds_total));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "units_eval_seconds", eval_seconds_total));
  std::string timing;
  for (const SweepPoint& p : points) {
    const auto& sc = seconds_by_config[p.id];
    timing += p.id + " " + Num(sc.first / std::max(1, sc.second), 3) + " s/model\n";
  }
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "seconds_per_model_by_configuration", timing));
  return std::optional<SweepOutcome>(std::move(out));
}

}  // namespace privbench
