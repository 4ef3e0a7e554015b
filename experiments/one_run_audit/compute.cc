#include "experiments/one_run_audit/compute.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "attacks/loss_threshold.h"
#include "core/seeding.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/guess_counts/guess_count_registry.h"
#include "mechanisms/device.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"

namespace privbench {
namespace one_run_audit {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Rows (n x width) as a float tensor.
torch::Tensor Matrix(const std::vector<float>& rows, int64_t width) {
  const int64_t n = static_cast<int64_t>(rows.size()) / width;
  return torch::from_blob(const_cast<float*>(rows.data()), {n, width}, torch::kFloat).clone();
}

torch::Tensor Labels(const std::vector<int64_t>& y) {
  return torch::from_blob(const_cast<int64_t*>(y.data()), {static_cast<int64_t>(y.size())},
                          torch::kLong)
      .clone();
}

// The candidate rows of one run, widened by m zero features (the Dirac
// features), and who is included.
struct Pool {
  int64_t width = 0;  // Adult features + m
  std::vector<float> base_x, input_x, dirac_x, population_x;
  std::vector<int64_t> base_y, input_y, dirac_y, population_y;
};

void AppendWidened(const std::vector<float>& x, int64_t features, int64_t row, int64_t extra,
                   std::vector<float>& out) {
  out.insert(out.end(), x.begin() + row * features, x.begin() + (row + 1) * features);
  out.insert(out.end(), static_cast<size_t>(extra), 0.0f);
}

// Base rows and input canaries drawn (without replacement) from Adult's
// training and population rows by `seed`; the Dirac canaries are fixed.
Pool MakePool(const Config& c, const Dataset& adult, uint64_t seed) {
  const int64_t f = adult.num_features, m = c.canaries;
  Pool p;
  p.width = f + m;
  Rng rng = MakeRng(seed, {0});
  std::vector<int64_t> train(static_cast<size_t>(adult.n_train()));
  std::iota(train.begin(), train.end(), 0);
  std::shuffle(train.begin(), train.end(), rng);
  for (int64_t k = 0; k < c.n_base; ++k) {
    AppendWidened(adult.train_x, f, train[k], m, p.base_x);
    p.base_y.push_back(adult.train_y[train[k]]);
  }
  std::vector<int64_t> pop(static_cast<size_t>(adult.n_population()));
  std::iota(pop.begin(), pop.end(), 0);
  std::shuffle(pop.begin(), pop.end(), rng);
  for (int64_t k = 0; k < static_cast<int64_t>(pop.size()); ++k) {
    if (k < m) {
      AppendWidened(adult.population_x, f, pop[k], m, p.input_x);
      p.input_y.push_back(1 - adult.population_y[pop[k]]);  // mislabelled
    } else {
      AppendWidened(adult.population_x, f, pop[k], m, p.population_x);
      p.population_y.push_back(adult.population_y[pop[k]]);
    }
  }
  p.dirac_x.assign(static_cast<size_t>(m * p.width), 0.0f);
  for (int64_t i = 0; i < m; ++i)
    p.dirac_x[i * p.width + f + i] = static_cast<float>(c.dirac_value);
  p.dirac_y.assign(static_cast<size_t>(m), 1);
  return p;
}

// The training set: base rows and the included canaries of both types.
void TrainingSet(const Pool& p, const std::vector<int64_t>* included, std::vector<float>& x,
                 std::vector<int64_t>& y) {
  x = p.base_x;
  y = p.base_y;
  const std::vector<float>* cx[kCanaryTypes] = {&p.input_x, &p.dirac_x};
  const std::vector<int64_t>* cy[kCanaryTypes] = {&p.input_y, &p.dirac_y};
  for (int t = 0; t < kCanaryTypes; ++t) {
    for (size_t i = 0; i < included[t].size(); ++i) {
      if (!included[t][i]) continue;
      x.insert(x.end(), cx[t]->begin() + static_cast<int64_t>(i) * p.width,
               cx[t]->begin() + static_cast<int64_t>(i + 1) * p.width);
      y.push_back((*cy[t])[i]);
    }
  }
}

Result<double> AccountantEpsilon(const std::string& name, const TrainingRecord& rec, double delta) {
  if (!rec.private_training) return kInf;
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant(name));
  PB_ASSIGN_OR_RETURN(AccountantResult r,
                      acc->Epsilon({rec.accounting_noise_multiplier, rec.q, rec.steps, delta, {}}));
  return r.epsilon;
}

// The noise multiplier giving target_epsilon under RDP at the run's q, steps.
Result<double> Calibrate(const Config& c, int64_t n, double target_epsilon) {
  const double q = static_cast<double>(c.batch_size) / static_cast<double>(n);
  const int64_t steps = (c.epochs * n + c.batch_size - 1) / c.batch_size;
  PB_ASSIGN_OR_RETURN(auto rdp, MakeAccountant("rdp"));
  return CalibrateSigma(*rdp, target_epsilon, {1.0, q, steps, c.delta, {}});
}

// Scores: input-space -loss; white-box the change of w[1, j] - w[0, j].
Status Score(const Config& c, const Pool& p, const DpModel& model, const torch::Tensor& w0,
             RunResult& out) {
  PB_ASSIGN_OR_RETURN(torch::Tensor losses,
                      PerExampleLosses(model, Matrix(p.input_x, p.width), Labels(p.input_y)));
  auto& in = out.audits[0].scores;
  in.resize(static_cast<size_t>(c.canaries));
  const auto l = losses.accessor<double, 1>();
  for (int64_t i = 0; i < c.canaries; ++i) in[i] = -l[i];
  const torch::Tensor dw = (model.parameters()[0].detach() - w0).to(torch::kDouble);
  const int64_t f = p.width - c.canaries;
  const torch::Tensor diff = dw[1].slice(0, f, p.width) - dw[0].slice(0, f, p.width);
  const auto d = diff.accessor<double, 1>();
  auto& wb = out.audits[1].scores;
  wb.resize(static_cast<size_t>(c.canaries));
  for (int64_t i = 0; i < c.canaries; ++i) wb[i] = d[i];
  return Status::Ok();
}

// C1's attack bound on the base rows vs as many population rows.
Status AttackBound(const Config& c, const Pool& p, const DpModel& model, RunResult& out) {
  PB_ASSIGN_OR_RETURN(torch::Tensor in,
                      PerExampleLosses(model, Matrix(p.base_x, p.width), Labels(p.base_y)));
  const int64_t n_out = std::min<int64_t>(c.n_base, static_cast<int64_t>(p.population_y.size()));
  const std::vector<float> px(p.population_x.begin(), p.population_x.begin() + n_out * p.width);
  const std::vector<int64_t> py(p.population_y.begin(), p.population_y.begin() + n_out);
  PB_ASSIGN_OR_RETURN(torch::Tensor out_losses,
                      PerExampleLosses(model, Matrix(px, p.width), Labels(py)));
  const auto a = in.accessor<double, 1>();
  const auto b = out_losses.accessor<double, 1>();
  std::vector<double> members(a.data(), a.data() + a.size(0));
  std::vector<double> nonmembers(b.data(), b.data() + b.size(0));
  PB_ASSIGN_OR_RETURN(LossAttackResult attack, LossThresholdAttack(members, nonmembers));
  out.attack_advantage = std::max(0.0, attack.best_advantage.advantage());
  out.attack_eps_lower = std::max(0.0, std::log((1 - c.delta) / (1 - out.attack_advantage)));
  return Status::Ok();
}

}  // namespace

int64_t CorrectGuesses(const std::vector<double>& scores, const std::vector<int64_t>& included,
                       int64_t k_plus, int64_t k_minus) {
  std::vector<int64_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return scores[a] > scores[b]; });
  int64_t v = 0;
  for (int64_t k = 0; k < k_plus; ++k) v += included[order[k]] ? 1 : 0;
  const int64_t m = static_cast<int64_t>(order.size());
  for (int64_t k = 0; k < k_minus; ++k) v += included[order[m - 1 - k]] ? 0 : 1;
  return v;
}

Status BoundAudit(const Config& c, Audit& a) {
  PB_ASSIGN_OR_RETURN(auto est, MakeGuessCountEstimator("one_run"));
  const double beta = c.beta / static_cast<double>(c.k_plus.size());
  a.v.clear();
  a.lower.clear();
  a.best_lower = 0.0;
  for (size_t k = 0; k < c.k_plus.size(); ++k) {
    const int64_t v = CorrectGuesses(a.scores, a.included, c.k_plus[k], c.k_minus[k]);
    PB_ASSIGN_OR_RETURN(
        double lower, est->LowerBound({c.canaries, c.k_plus[k] + c.k_minus[k], v}, c.delta, beta));
    a.v.push_back(v);
    a.lower.push_back(lower);
    a.best_lower = std::max(a.best_lower, lower);
  }
  return Status::Ok();
}

Result<RunResult> RunOne(const Config& c, const Dataset& adult, double target_epsilon,
                         uint64_t study_seed, uint64_t run_index, int threads) {
  const Pool p = MakePool(c, adult, study_seed);
  const uint64_t seed = DeriveSeed(study_seed, {run_index + 1});
  RunResult out;
  out.target_epsilon = target_epsilon;
  std::vector<int64_t> included[kCanaryTypes];
  for (int t = 0; t < kCanaryTypes; ++t) {
    Rng rng = MakeRng(seed, {1, static_cast<uint64_t>(t)});
    std::bernoulli_distribution coin(0.5);
    for (int64_t i = 0; i < c.canaries; ++i) included[t].push_back(coin(rng) ? 1 : 0);
    out.audits[t].included = included[t];
  }
  std::vector<float> x;
  std::vector<int64_t> y;
  TrainingSet(p, included, x, y);
  const int64_t n = static_cast<int64_t>(y.size());
  DpSgdConfig cfg;
  cfg.private_training = std::isfinite(target_epsilon);
  cfg.clip_norm = c.clip_norm;
  cfg.batch_size = c.batch_size;
  cfg.epochs = c.epochs;
  cfg.learning_rate = c.learning_rate;
  cfg.seed = DeriveSeed(seed, {2});
  cfg.threads = threads;
  PB_ASSIGN_OR_RETURN(cfg.device, ParseDevice(c.device));
  if (cfg.private_training) {
    PB_ASSIGN_OR_RETURN(double sigma, Calibrate(c, n, target_epsilon));
    cfg.noise_multiplier = NoiseMultiplierForAccounting(sigma, cfg);
  }
  PB_ASSIGN_OR_RETURN(DpModel model,
                      DpModel::Create(LogisticRegressionSpec(p.width, 2), DeriveSeed(seed, {3})));
  const torch::Tensor w0 = model.parameters()[0].detach().clone();
  PB_ASSIGN_OR_RETURN(TrainingRecord rec, TrainDpSgd(model, Matrix(x, p.width), Labels(y), cfg));
  out.noise_multiplier = rec.accounting_noise_multiplier;
  out.q = rec.q;
  out.steps = rec.steps;
  out.n_train = n;
  PB_ASSIGN_OR_RETURN(out.eps_rdp, AccountantEpsilon("rdp", rec, c.delta));
  PB_ASSIGN_OR_RETURN(out.eps_pld, AccountantEpsilon("pld", rec, c.delta));
  PB_ASSIGN_OR_RETURN(out.eps_last_iterate,
                      AccountantEpsilon("last_iterate_heuristic", rec, c.delta));
  PB_ASSIGN_OR_RETURN(out.train_accuracy,
                      Accuracy(model, Matrix(p.base_x, p.width), Labels(p.base_y)));
  PB_ASSIGN_OR_RETURN(out.population_accuracy,
                      Accuracy(model, Matrix(p.population_x, p.width), Labels(p.population_y)));
  PB_RETURN_IF_ERROR(Score(c, p, model, w0, out));
  PB_RETURN_IF_ERROR(AttackBound(c, p, model, out));
  for (Audit& a : out.audits) PB_RETURN_IF_ERROR(BoundAudit(c, a));
  return out;
}

}  // namespace one_run_audit
}  // namespace privbench
