#include "experiments/sequential_audit/dpsgd_case.h"

#include <torch/torch.h>

#include <algorithm>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "core/seeding.h"
#include "estimators/sequential/sequential_audit.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/per_example_grads.h"

namespace privbench {
namespace sequential_audit {

namespace {

// Seed streams of run r: DeriveSeed(seed, {kDpsgdStream, variant, r, what}).
constexpr uint64_t kDpsgdStream = 3;
constexpr uint64_t kDataPart = 0, kModelPart = 1, kEnginePart = 2, kCoinPart = 3;

struct Rows {
  torch::Tensor x, y;  // [rows, d + 1] float, [rows] long
  torch::Tensor canary_x;
};

Rows MakeRows(const Config& c, Rng& rng) {
  const int64_t n = c.dpsgd_rows, d = c.dpsgd_features;
  std::vector<float> x(n * (d + 1), 0.0f);
  std::vector<int64_t> y(n);
  boost::random::normal_distribution<double> normal;
  const double w = 1.0 / std::sqrt(static_cast<double>(d));
  for (int64_t i = 0; i < n; ++i) {
    double dot = 0;
    for (int64_t j = 0; j < d; ++j) {
      const double v = normal(rng);
      x[i * (d + 1) + j] = static_cast<float>(v);
      dot += w * v;
    }
    y[i] = dot + normal(rng) > 0 ? 1 : 0;
  }
  Rows rows;
  rows.x = torch::from_blob(x.data(), {n, d + 1}, torch::kFloat).clone();
  rows.y = torch::from_blob(y.data(), {n}, torch::kLong).clone();
  rows.canary_x = torch::zeros({1, d + 1}, torch::kFloat);
  rows.canary_x[0][d] = static_cast<float>(c.dpsgd_dirac_value);
  return rows;
}

// W[:, d] = 0: the canary's logit starts at the bias alone (CANARY in the
// header).
Status ZeroCanaryColumn(DpModel& model, int64_t d) {
  std::vector<torch::Tensor> values;
  for (const torch::Tensor& p : model.parameters()) values.push_back(p.detach().clone());
  values[0].select(1, d).zero_();
  return model.SetParameters(values);
}

// W[1, d] - W[0, d] of the model's weight matrix, in double.
double CanaryCoordinate(const DpModel& model, int64_t d) {
  const torch::Tensor w = model.parameters()[0].detach();
  return static_cast<double>(w[1][d].item<float>()) - static_cast<double>(w[0][d].item<float>());
}

SequentialAuditOptions AuditOptions(const Config& c) {
  SequentialAuditOptions o;
  o.alpha = c.alpha;
  o.delta = 0.0;
  o.mus = DpsgdMuGrid(c);
  o.threshold = 0.5;
  return o;
}

size_t ClaimIndex(const Config& c) {
  const std::vector<double> grid = DpsgdMuGrid(c);
  return std::find(grid.begin(), grid.end(), 1.0 / c.dpsgd_noise_multiplier) - grid.begin();
}

Result<DpsgdRun> OneRun(const Config& c, DpsgdVariant variant, uint64_t seed, int64_t r) {
  auto stream = [&](uint64_t part) {
    return DeriveSeed(
        seed, {kDpsgdStream, static_cast<uint64_t>(variant), static_cast<uint64_t>(r), part});
  };
  Rng data_rng(stream(kDataPart)), coin_rng(stream(kCoinPart));
  const Rows rows = MakeRows(c, data_rng);
  const int64_t d = c.dpsgd_features;
  PB_ASSIGN_OR_RETURN(DpModel model,
                      DpModel::Create(LogisticRegressionSpec(d + 1, 2), stream(kModelPart)));
  PB_RETURN_IF_ERROR(ZeroCanaryColumn(model, d));
  DpSgdConfig engine;
  engine.noise_multiplier = c.dpsgd_noise_multiplier;
  engine.clip_norm = c.dpsgd_clip_norm;
  engine.batch_size = c.dpsgd_batch_size;
  engine.learning_rate = c.dpsgd_learning_rate;
  engine.momentum = 0.0;
  engine.seed = stream(kEnginePart);
  const double q = static_cast<double>(c.dpsgd_batch_size) / static_cast<double>(c.dpsgd_rows);
  internal::BatchSampler sampler(c.dpsgd_rows, engine, q);
  Rng noise_rng = MakeRng(engine.seed, {internal::kNoiseStream});
  internal::Optimizer optimizer(model.parameters(), engine);
  const double normaliser = static_cast<double>(c.dpsgd_batch_size);
  const double noise_std = variant == DpsgdVariant::kCorrect
                               ? c.dpsgd_noise_multiplier * c.dpsgd_clip_norm
                               : c.dpsgd_noise_multiplier * c.dpsgd_clip_norm / normaliser;
  const double unit = c.dpsgd_learning_rate * std::sqrt(2.0) * c.dpsgd_clip_norm / normaliser;
  PB_ASSIGN_OR_RETURN(SequentialAuditor auditor, SequentialAuditor::Start(AuditOptions(c)));
  const size_t claim = ClaimIndex(c);
  DpsgdRun run;
  boost::random::bernoulli_distribution<double> coin(0.5);
  for (int64_t t = 0; t < c.dpsgd_steps; ++t) {
    const std::vector<int64_t> idx = sampler.Next(t);
    const bool with_canary = coin(coin_rng);
    const torch::Tensor index = torch::tensor(idx, torch::kLong);
    torch::Tensor xb = rows.x.index_select(0, index), yb = rows.y.index_select(0, index);
    const int64_t canary_label = t % 2;  // fixed before the step (CANARY in the header)
    if (with_canary) {
      xb = torch::cat({xb, rows.canary_x});
      yb = torch::cat({yb, torch::full({1}, canary_label, torch::kLong)});
    }
    const double before = CanaryCoordinate(model, d);
    const internal::StepOutcome step =
        internal::DpSgdStep(model, xb, yb, Microbatching::PerExample(), c.dpsgd_clip_norm,
                            noise_std, normaliser, noise_rng, optimizer);
    if (!step.finite) {
      return Error("non-finite DP-SGD step " + std::to_string(t + 1) + " of run " +
                   std::to_string(r) + " (" + DpsgdVariantName(variant) + ")");
    }
    const double s = (CanaryCoordinate(model, d) - before) / unit * (canary_label == 1 ? 1 : -1);
    PB_RETURN_IF_ERROR(auditor.AddScores({s}, {with_canary ? 1 : 0}));
    run.trace.push_back(auditor.state().gdp[claim].log_wealth);
    run.canary_steps += with_canary;
  }
  const SequentialAuditReport report = auditor.Report();
  run.steps = c.dpsgd_steps;
  run.correct_guesses = report.correct_guesses;
  run.rejected_at = report.gdp[claim].rejected_at;
  run.largest_rejected_mu = report.largest_rejected_mu;
  PB_ASSIGN_OR_RETURN(run.final_train_accuracy, Accuracy(model, rows.x, rows.y));
  return run;
}

}  // namespace

std::string DpsgdVariantName(DpsgdVariant v) {
  return v == DpsgdVariant::kCorrect ? "correct" : "noise_on_mean";
}

std::vector<double> DpsgdMuGrid(const Config& c) {
  const double claim = 1.0 / c.dpsgd_noise_multiplier;
  std::vector<double> grid;
  for (double f : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0}) grid.push_back(claim * f);
  return grid;
}

Result<std::vector<DpsgdRun>> RunDpsgdAudits(const Config& c, DpsgdVariant variant, uint64_t seed) {
  SetMathThreads(1);
  std::vector<DpsgdRun> runs;
  for (int64_t r = 0; r < c.dpsgd_runs; ++r) {
    PB_ASSIGN_OR_RETURN(DpsgdRun run, OneRun(c, variant, seed, r));
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace sequential_audit
}  // namespace privbench
