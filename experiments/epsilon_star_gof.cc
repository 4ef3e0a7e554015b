// Study C4 epsilon_star_gof: goodness of fit of Gaussian mixtures to the
// transformed losses of Adult models trained with and without DP.
// Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning Models"
// (PPAI-24), App. B.2 "Goodness-of-fit for Parametric Distributions Fitted
// to Loss Data", Fig. 6; STUDIES.md C4.
//
//   bazel run //experiments:epsilon_star_gof [-- --scale=paper]
//
// Per repetition r and model type m in {no_dp, dp} (one sweep unit each,
// experiments/sweep.h: sharded with --shard=i/n, resumable, --merge_only):
//  1. train an Adult MLP (epsilon_star_gof_models.h): non-private for
//     baseline_epochs, or DP-SGD to (dp_epsilon, delta = 1/n) for dp_epochs;
//  2. per-example cross-entropy losses on the training rows and on the
//     population rows; the App. B transform (normalise with the JOINT min and
//     max of both sets, add 1, p = exp(-x), logit) fitted on both sets, as
//     the parametric Epsilon* does (estimators/loss_samples/loss_transform.h);
//  3. App. B.2 on the transformed TRAINING losses (the paper's Fig. 6) and,
//     as an extra, on the transformed POPULATION losses: for every n_eval and
//     k = 1..max_components, split into fit / evaluation sets, fit a
//     k-component mixture by EM, draw n_eval values from the fit, two-sample
//     KS p-value against the evaluation set (epsilon_star_gof_analysis.h);
//  4. extra (--carlini_analysis): step 3 again on Carlini et al.'s logit of
//     the confidence, logit(exp(-loss)), WITHOUT the App. B normalisation
//     (the paper calls its transform "similar to" Carlini's), at the primary
//     variance floor, on the same splits and sampling streams.
// Seeds: model m, repetition r trains from DeriveSeed(seed, {1, m, r}); the
// GOF of loss set s uses DeriveSeed(seed, {2, m, r, s}).
//
// Output results/raw/epsilon_star_gof.h5:
//   /settings/{n_eval [I], components [K], models [M], loss_sets [S],
//              variance_floors, analyses [A], analysis_transform [A],
//              analysis_variance_floor [A], analysis_label [A],
//              analysis_claim_suffix [A]}
//   /gof/<field> [M x R x S x A x I x K] (A = analyses: App. B transform at
//       each variance floor, then the Carlini logit): p_value (by the
//       primary --ks_method), p_exact, p_asymptotic, ks_statistic,
//       p_one_sample, d_one_sample,
//       heldout_log_likelihood, log_likelihood, bic, iterations, converged,
//       active_components, floored_components; /gof/fit_size [M x R x S x I]
//   /models/<field> [M x R] (accuracies, AUROC, membership AUC, eps, noise,
//       transform min/max, timings); /models/<model>/loss_per_epoch [R x E]
//   /losses/<model>/{train,population}[_transformed] [R x n]: per-example
//       cross-entropy losses and their App. B transform
//   /numbers, /summary/{gof_by_n_eval, gof_by_components, models}, /claims.
// Variance floors: EM needs a lower bound on component variances; its value
// (scikit-learn's reg_covar, 1e-6 by default) is lost in the paper and
// decides whether a component can follow the narrow spike that the App. B
// transform makes of the many near-zero training losses of a well-fit model
// (the joint min-max normalisation squeezes them next to logit(e^-1)). The
// first floor of --variance_floors is the primary analysis, the others are
// sensitivity analyses on the same splits and sampling streams.
// Claims (training losses, primary p-values, alpha = significance = 0.05;
// for the primary analysis, and again for each other analysis with its
// suffix: _floor<value> for the other floors, _carlini_logit):
//   most_above            fraction of all p-values > alpha is > 1/2;
//   more_with_dp          that fraction is larger for DP than for no DP;
//   more_with_components  fraction at k >= 10 (or k = K if K < 10) is
//                         larger than at k = 1 (both models pooled);
//   one_component_most_n_eval  for EACH model type, more than half of the
//                         n_eval values have median p (over repetitions)
//                         at k = 1 above alpha;
//   one_component_more_with_dp  fraction of k = 1 p-values > alpha is
//                         larger for DP than for no DP.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/files.h"
#include "core/progress.h"
#include "core/seeding.h"
#include "core/validate.h"
#include "data_scripts/adult.h"
#include "data_scripts/dataset.h"
#include "estimators/fit/gaussian_mixture.h"
#include "estimators/fit/ks_test.h"
#include "estimators/loss_samples/loss_transform.h"
#include "experiments/epsilon_star_gof_analysis.h"
#include "experiments/epsilon_star_gof_models.h"
#include "experiments/framework/study.h"
#include "experiments/framework/sweep.h"

namespace privbench {
namespace {

constexpr char kStudy[] = "epsilon_star_gof";
constexpr char kSource[] = "Epsilon* paper App. B.2, Fig. 6";
const std::vector<std::string> kModels = {"no_dp", "dp"};
const std::vector<std::string> kModelLabels = {"no DP", "DP-SGD"};
const std::vector<std::string> kSets = {"train", "population"};

struct Config {
  // Data.
  std::string data_dir;
  int64_t n_train = -1;       // -1: all 32,561 rows, else the first n_train
  int64_t n_population = -1;  // -1: all 16,281 rows, else the first n_population
  // Models.
  int64_t repetitions = 5;
  int64_t baseline_epochs = 10;
  int64_t dp_epochs = 10;
  double dp_epsilon = 10.0;
  double delta = 0.0;  // 0: 1/n_train
  double clip_norm = 1.0;
  int64_t num_microbatches = 0;
  std::string calibration_rule = "tf_privacy_0_5_1";
  int64_t batch_size = 64;
  double learning_rate = 0.01;
  double momentum = 0.9;
  int64_t hidden = 128;
  // Goodness of fit.
  std::vector<int64_t> n_eval;
  int64_t max_components = 20;
  int64_t max_iterations = 100;
  double tolerance = 1e-3;
  // EM variance floors: the first is the primary analysis (scikit-learn's
  // reg_covar 1e-6); the others are sensitivity analyses.
  std::vector<double> variance_floors = {1e-6, 1e-12};
  std::string init = "quantile";
  std::string ks_method = "exact";
  double significance = 0.05;
  bool population_losses = true;
  // Extra analysis: Carlini et al.'s logit of the confidence, without the
  // App. B normalisation, at the primary variance floor.
  bool carlini_analysis = true;
  // Sweep mechanics (not part of the unit configuration).
  std::string shard = "0/1";
  std::string parts_dir;
  bool merge_only = false;
};

Config Defaults(Scale scale) {
  Config c;
  switch (scale) {
    case Scale::kPaper:
      c.n_eval = {100, 200, 300, 400, 500, 600, 700, 800, 900, 1000};
      break;
    case Scale::kQuick:
      c.repetitions = 3;
      c.n_eval = {100, 500, 1000};
      break;
    case Scale::kTest:
      c.n_train = 2000;
      c.n_population = 1000;
      c.repetitions = 1;
      c.baseline_epochs = 1;
      c.dp_epochs = 1;
      c.n_eval = {100, 200};
      c.max_components = 3;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddString("data_dir", &c.data_dir,
              "directory with adult.data and adult.test (empty: PRIVBENCH_DATA_DIR, then "
              "../shared/data/adult, then the vendored copy)");
  f.AddInt("n_train", &c.n_train, "training rows: -1 = all 32,561, else the first n_train");
  f.AddInt("n_population", &c.n_population,
           "population rows: -1 = all 16,281, else the first n_population");
  f.AddInt("repetitions", &c.repetitions,
           "models per type (each with its own splits and fit/sample seeds)");
  f.AddInt("baseline_epochs", &c.baseline_epochs, "epochs of the non-private model (lost)");
  f.AddInt("dp_epochs", &c.dp_epochs, "epochs of the DP-SGD model (lost)");
  f.AddDouble("dp_epsilon", &c.dp_epsilon, "target eps of the DP-SGD model (lost)");
  f.AddDouble("delta", &c.delta, "delta of the DP model; 0 = 1/n_train (the paper's 1/n)");
  f.AddDouble("clip_norm", &c.clip_norm, "DP-SGD clip norm C (lost; paper grid 1,10,30)");
  f.AddInt("num_microbatches", &c.num_microbatches,
           "TF Privacy microbatches of the DP model; 0 = per-example clipping");
  f.AddString("calibration_rule", &c.calibration_rule,
              "sigma for dp_epsilon: tf_privacy_0_5_1 (paper's library) or sound (equal for "
              "per-example clipping)");
  f.AddInt("batch_size", &c.batch_size, "expected (Poisson) batch size of both models");
  f.AddDouble("learning_rate", &c.learning_rate, "SGD learning rate (paper: 0.01)");
  f.AddDouble("momentum", &c.momentum, "SGD momentum (paper: 0.9)");
  f.AddInt("hidden", &c.hidden, "hidden Tanh units of the Adult MLP");
  f.AddIntList("n_eval", &c.n_eval, "evaluation-set sizes, increasing (paper: 100..1000)");
  f.AddInt("max_components", &c.max_components, "mixtures with k = 1..max_components (paper 20)");
  f.AddInt("max_iterations", &c.max_iterations, "EM iterations at most (sklearn default 100)");
  f.AddDouble("tolerance", &c.tolerance,
              "EM stops when the mean log-likelihood per point changes less (sklearn 1e-3)");
  f.AddDoubleList("variance_floors", &c.variance_floors,
                  "EM lower bounds on component variances; the first is the primary analysis "
                  "(sklearn reg_covar 1e-6), the others sensitivity analyses");
  f.AddString("init", &c.init, "EM initialisation: quantile or kmeans++");
  f.AddString("ks_method", &c.ks_method,
              "primary two-sample KS p-value: exact (SciPy's default at these sizes) or "
              "asymptotic");
  f.AddDouble("significance", &c.significance, "the paper's threshold 0.05");
  f.AddBool("population_losses", &c.population_losses,
            "also test the transformed population losses (extra; the paper shows training)");
  f.AddBool("carlini_analysis", &c.carlini_analysis,
            "also test Carlini et al.'s logit(exp(-loss)) without the App. B normalisation "
            "(extra analysis)");
  f.AddString("shard", &c.shard, "run units k with k mod n == i (i/n)");
  f.AddString("parts_dir", &c.parts_dir, "sweep parts directory (empty: results/parts)");
  f.AddBool("merge_only", &c.merge_only, "assemble the study file from existing parts only");
}

Result<GofOptions> MakeGofOptions(const Config& c) {
  GofOptions o;
  o.n_eval = c.n_eval;
  o.max_components = c.max_components;
  o.em.max_iterations = c.max_iterations;
  o.em.tolerance = c.tolerance;
  o.variance_floors = c.variance_floors;
  if (!c.variance_floors.empty()) o.em.variance_floor = c.variance_floors[0];
  PB_ASSIGN_OR_RETURN(o.em.init, ParseMixtureInit(c.init));
  PB_ASSIGN_OR_RETURN(o.primary, ParseKsPValueMethod(c.ks_method));
  PB_RETURN_IF_ERROR(ValidateGofOptions(o));
  return o;
}

Status CheckRows(const std::string& name, int64_t v, int64_t max) {
  if (v == 0 || v < -1 || v > max) {
    return Error(name + " must be -1 (all) or in [1, " + std::to_string(max) + "], got " +
                 std::to_string(v));
  }
  return Status::Ok();
}

Status Validate(const Config& c) {
  PB_RETURN_IF_ERROR(CheckRows("n_train", c.n_train, kAdultTrainRows));
  PB_RETURN_IF_ERROR(CheckRows("n_population", c.n_population, kAdultPopulationRows));
  PB_RETURN_IF_ERROR(CheckPositiveCount("repetitions", c.repetitions));
  PB_RETURN_IF_ERROR(CheckPositiveCount("baseline_epochs", c.baseline_epochs));
  PB_RETURN_IF_ERROR(CheckPositiveCount("dp_epochs", c.dp_epochs));
  PB_RETURN_IF_ERROR(CheckPositive("dp_epsilon", c.dp_epsilon));
  if (!(c.delta >= 0.0 && c.delta < 1.0)) {
    return Error("delta must be 0 (= 1/n_train) or in (0, 1), got " + FormatDouble(c.delta));
  }
  PB_RETURN_IF_ERROR(CheckPositive("clip_norm", c.clip_norm));
  PB_RETURN_IF_ERROR(CheckPositiveCount("batch_size", c.batch_size));
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("num_microbatches", c.num_microbatches));
  if (c.num_microbatches > c.batch_size) {
    return Error("num_microbatches must be <= batch_size (" + std::to_string(c.batch_size) +
                 "), got " + std::to_string(c.num_microbatches));
  }
  if (c.calibration_rule != "tf_privacy_0_5_1" && c.calibration_rule != "sound") {
    return Error("calibration_rule must be tf_privacy_0_5_1 or sound, got '" + c.calibration_rule +
                 "'");
  }
  PB_RETURN_IF_ERROR(CheckPositive("learning_rate", c.learning_rate));
  if (!(c.momentum >= 0.0 && c.momentum < 1.0)) {
    return Error("momentum must be in [0, 1), got " + FormatDouble(c.momentum));
  }
  PB_RETURN_IF_ERROR(CheckPositiveCount("hidden", c.hidden));
  if (!(c.significance > 0.0 && c.significance < 1.0)) {
    return Error("significance must be in (0, 1), got " + FormatDouble(c.significance));
  }
  PB_RETURN_IF_ERROR(MakeGofOptions(c).status());
  // Every tested loss set must leave max_components values to fit on.
  const int64_t train_rows = c.n_train == -1 ? kAdultTrainRows : c.n_train;
  const int64_t population_rows = c.n_population == -1 ? kAdultPopulationRows : c.n_population;
  const int64_t smallest = c.population_losses ? std::min(train_rows, population_rows) : train_rows;
  if (c.n_eval.back() + c.max_components > smallest) {
    return Error("n_eval must leave max_components (" + std::to_string(c.max_components) +
                 ") of the " + std::to_string(smallest) +
                 " losses of the smallest tested set to fit on, got n_eval " +
                 std::to_string(c.n_eval.back()));
  }
  if (c.batch_size > train_rows) {
    return Error("batch_size must be <= the training rows (" + std::to_string(train_rows) +
                 "), got " + std::to_string(c.batch_size));
  }
  return ParseShard(c.shard).status();
}

std::string Fmt(double x, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*g", digits, x);
  return buf;
}

std::string JoinInts(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

// What a unit's results depend on: parts made with anything else are refused.
std::string SweepConfigText(const Config& c, const Dataset& d, uint64_t seed) {
  std::string s;
  auto kv = [&s](const std::string& k, const std::string& v) { s += k + " = " + v + "\n"; };
  kv("seed", std::to_string(seed));
  kv("dataset", d.provenance + " n_train=" + std::to_string(d.n_train()) +
                    " n_population=" + std::to_string(d.n_population()));
  kv("dataset_checksums", d.checksums);
  kv("repetitions", std::to_string(c.repetitions));
  kv("baseline_epochs", std::to_string(c.baseline_epochs));
  kv("dp_epochs", std::to_string(c.dp_epochs));
  kv("dp_epsilon", FormatDouble(c.dp_epsilon));
  kv("delta", FormatDouble(c.delta));
  kv("clip_norm", FormatDouble(c.clip_norm));
  kv("num_microbatches", std::to_string(c.num_microbatches));
  kv("calibration_rule", c.calibration_rule);
  kv("batch_size", std::to_string(c.batch_size));
  kv("learning_rate", FormatDouble(c.learning_rate));
  kv("momentum", FormatDouble(c.momentum));
  kv("hidden", std::to_string(c.hidden));
  kv("n_eval", JoinInts(c.n_eval));
  kv("max_components", std::to_string(c.max_components));
  kv("max_iterations", std::to_string(c.max_iterations));
  kv("tolerance", FormatDouble(c.tolerance));
  std::string floors;
  for (double v : c.variance_floors) floors += (floors.empty() ? "" : ",") + FormatDouble(v);
  kv("variance_floors", floors);
  kv("init", c.init);
  kv("ks_method", c.ks_method);
  kv("population_losses", c.population_losses ? "true" : "false");
  kv("carlini_analysis", c.carlini_analysis ? "true" : "false");
  return s;
}

// One analysis = one transform of the losses and one EM variance floor. The
// App. B transform at every floor of --variance_floors (the first is the
// primary analysis), then, with --carlini_analysis, Carlini's logit at the
// primary floor. All analyses of a loss set share its splits and streams.
struct AnalysisSpec {
  std::string name;       // "app_b_floor1e-06", "carlini_logit_floor1e-06"
  std::string transform;  // "epsilon_star_logit" or "carlini_logit"
  double floor = 0.0;
  std::string suffix;  // claim / number id suffix: "" for the primary
  std::string label;   // for captions and figures
};

std::vector<AnalysisSpec> Analyses(const Config& c) {
  std::vector<AnalysisSpec> out;
  for (size_t f = 0; f < c.variance_floors.size(); ++f) {
    const std::string v = FormatDouble(c.variance_floors[f]);
    out.push_back(
        {"app_b_floor" + v, "epsilon_star_logit", c.variance_floors[f], f == 0 ? "" : "_floor" + v,
         "App. B transform, variance floor " + v + (f == 0 ? " (primary)" : " (sensitivity)")});
  }
  if (c.carlini_analysis && !c.variance_floors.empty()) {
    const std::string v = FormatDouble(c.variance_floors[0]);
    out.push_back(
        {"carlini_logit_floor" + v, "carlini_logit", c.variance_floors[0], "_carlini_logit",
         "Carlini logit(exp(-loss)), no App. B normalisation, variance floor " + v + " (extra)"});
  }
  return out;
}

GofModelConfig ModelConfig(const Config& c, bool dp, double delta) {
  GofModelConfig m;
  m.private_training = dp;
  m.epochs = dp ? c.dp_epochs : c.baseline_epochs;
  m.batch_size = c.batch_size;
  m.learning_rate = c.learning_rate;
  m.momentum = c.momentum;
  m.hidden = c.hidden;
  m.target_epsilon = c.dp_epsilon;
  m.delta = delta;
  m.clip_norm = c.clip_norm;
  m.num_microbatches = c.num_microbatches;
  m.calibration_rule = c.calibration_rule;
  return m;
}

// Fields of a GofGrid written per loss set.
const std::vector<std::pair<std::string, std::vector<double> GofGrid::*>>& DoubleFields() {
  static const std::vector<std::pair<std::string, std::vector<double> GofGrid::*>> f = {
      {"p_value", &GofGrid::p_value},
      {"p_exact", &GofGrid::p_exact},
      {"p_asymptotic", &GofGrid::p_asymptotic},
      {"ks_statistic", &GofGrid::ks_statistic},
      {"p_one_sample", &GofGrid::p_one_sample},
      {"d_one_sample", &GofGrid::d_one_sample},
      {"heldout_log_likelihood", &GofGrid::heldout_log_likelihood},
      {"log_likelihood", &GofGrid::log_likelihood},
      {"bic", &GofGrid::bic}};
  return f;
}
const std::vector<std::pair<std::string, std::vector<int64_t> GofGrid::*>>& IntFields() {
  static const std::vector<std::pair<std::string, std::vector<int64_t> GofGrid::*>> f = {
      {"iterations", &GofGrid::iterations},
      {"converged", &GofGrid::converged},
      {"active_components", &GofGrid::active_components},
      {"floored_components", &GofGrid::floored_components}};
  return f;
}
const std::vector<std::string>& UnitScalars() {
  static const std::vector<std::string> f = {"train_accuracy",
                                             "population_accuracy",
                                             "auroc",
                                             "membership_auc",
                                             "eps",
                                             "eps_tf_privacy_0_5_1",
                                             "noise_multiplier",
                                             "accounting_noise_multiplier",
                                             "q",
                                             "steps",
                                             "epochs",
                                             "mean_train_loss",
                                             "mean_population_loss",
                                             "transform_min",
                                             "transform_max",
                                             "carlini_clamped",
                                             "train_seconds",
                                             "gof_seconds"};
  return f;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double Mean(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return v.empty() ? NAN : s / static_cast<double>(v.size());
}

struct UnitInputs {
  const Config* config;
  const Dataset* dataset;
  const GofOptions* gof;
  const GofNoisePlan* plan;
  double delta;
  uint64_t seed;
  int64_t sets;
  ProgressReporter* fits;
};

Status RunUnit(const UnitInputs& in, int64_t m, int64_t r, ResultWriter& part) {
  const Config& c = *in.config;
  const bool dp = m == 1;
  const auto t0 = std::chrono::steady_clock::now();
  const GofModelConfig mc = ModelConfig(c, dp, in.delta);
  PB_ASSIGN_OR_RETURN(
      GofTrainedModel model,
      TrainGofModel(*in.dataset, mc, dp ? *in.plan : GofNoisePlan{},
                    DeriveSeed(in.seed, {1, static_cast<uint64_t>(m), static_cast<uint64_t>(r)})));
  const double train_seconds = Seconds(t0);
  PB_ASSIGN_OR_RETURN(LossTransformMap map,
                      LossTransformMap::Fit(LossTransform::kEpsilonStarLogit, model.train_losses,
                                            model.population_losses));
  PB_ASSIGN_OR_RETURN(TransformedLosses t,
                      ApplyLossTransform(LossTransform::kEpsilonStarLogit, model.train_losses,
                                         model.population_losses));
  TransformedLosses carlini;
  if (c.carlini_analysis) {
    PB_ASSIGN_OR_RETURN(carlini, ApplyLossTransform(LossTransform::kCarliniLogit,
                                                    model.train_losses, model.population_losses));
  }
  const auto t1 = std::chrono::steady_clock::now();
  for (int64_t s = 0; s < in.sets; ++s) {
    const uint64_t gof_seed = DeriveSeed(
        in.seed, {2, static_cast<uint64_t>(m), static_cast<uint64_t>(r), static_cast<uint64_t>(s)});
    // App. B transform at every floor; then Carlini's logit at the primary
    // floor, with the same seed: the same splits and sampling streams.
    std::vector<GofGrid> grids;
    {
      auto grid = RunGofGrid(s == 0 ? t.train : t.population, *in.gof, gof_seed, in.fits);
      if (!grid.ok()) return Error(kModels[m] + " " + kSets[s] + " losses: " + grid.message());
      grids.push_back(std::move(grid).value());
    }
    if (c.carlini_analysis) {
      GofOptions primary_floor = *in.gof;
      primary_floor.variance_floors = {in.gof->variance_floors[0]};
      auto grid =
          RunGofGrid(s == 0 ? carlini.train : carlini.population, primary_floor, gof_seed, in.fits);
      if (!grid.ok()) {
        return Error(kModels[m] + " " + kSets[s] + " losses (Carlini logit): " + grid.message());
      }
      grids.push_back(std::move(grid).value());
    }
    // Concatenated along the analysis axis (GofGrid's outermost).
    const std::string g = "/gof/" + kSets[s] + "/";
    for (const auto& [name, field] : DoubleFields()) {
      std::vector<double> v;
      for (const GofGrid& gr : grids) v.insert(v.end(), (gr.*field).begin(), (gr.*field).end());
      PB_RETURN_IF_ERROR(part.WriteDoubles(g + name, v));
    }
    for (const auto& [name, field] : IntFields()) {
      std::vector<int64_t> v;
      for (const GofGrid& gr : grids) v.insert(v.end(), (gr.*field).begin(), (gr.*field).end());
      PB_RETURN_IF_ERROR(part.WriteInts(g + name, v));
    }
    PB_RETURN_IF_ERROR(part.WriteInts(g + "fit_size", grids[0].fit_size));
  }
  const std::map<std::string, double> scalars = {
      {"train_accuracy", model.train_accuracy},
      {"population_accuracy", model.population_accuracy},
      {"auroc", model.population_auroc},
      {"membership_auc", model.membership_auc},
      {"eps", dp ? model.eps : NAN},
      {"eps_tf_privacy_0_5_1", dp ? model.eps_tf_privacy_0_5_1 : NAN},
      {"noise_multiplier", model.noise_multiplier},
      {"accounting_noise_multiplier", model.accounting_noise_multiplier},
      {"q", model.q},
      {"steps", static_cast<double>(model.steps)},
      {"epochs", static_cast<double>(mc.epochs)},
      {"mean_train_loss", Mean(model.train_losses)},
      {"mean_population_loss", Mean(model.population_losses)},
      {"transform_min", map.min()},
      {"transform_max", map.max()},
      {"carlini_clamped", static_cast<double>(carlini.clamped)},
      {"train_seconds", train_seconds},
      {"gof_seconds", Seconds(t1)}};
  for (const std::string& name : UnitScalars()) {
    PB_RETURN_IF_ERROR(part.WriteScalar("/unit/" + name, scalars.at(name)));
  }
  PB_RETURN_IF_ERROR(part.WriteDoubles("/unit/loss_per_epoch", model.loss_per_epoch));
  for (const auto& [k, v] : model.record) PB_RETURN_IF_ERROR(part.SetAttribute("/record", k, v));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/losses/train", model.train_losses));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/losses/population", model.population_losses));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/losses/train_transformed", t.train));
  return part.WriteDoubles("/losses/population_transformed", t.population);
}

// The merged raw data: [M][R][S][A][I][K] arrays (A = analyses).
struct Merged {
  int64_t M = 2, R = 0, S = 0, A = 0, I = 0, K = 0;
  std::map<std::string, std::vector<double>> d;
  std::map<std::string, std::vector<int64_t>> n;
  std::map<std::string, std::vector<double>> unit;  // [M][R]
  size_t At(int64_t m, int64_t r, int64_t s, int64_t f, int64_t i, int64_t k) const {
    return static_cast<size_t>(((((m * R + r) * S + s) * A + f) * I + i) * K + (k - 1));
  }
  // Values of `field` for one (model, set, analysis f) over repetitions, every
  // n_eval (or only index i_only) and components k_lo..k_hi.
  std::vector<double> P(int64_t m, int64_t s, int64_t f, int64_t k_lo, int64_t k_hi,
                        const std::string& field = "p_value", int64_t i_only = -1) const {
    std::vector<double> out;
    for (int64_t r = 0; r < R; ++r) {
      for (int64_t i = 0; i < I; ++i) {
        if (i_only >= 0 && i != i_only) continue;
        for (int64_t k = k_lo; k <= k_hi; ++k) out.push_back(d.at(field)[At(m, r, s, f, i, k)]);
      }
    }
    return out;
  }
  // Both model types.
  std::vector<double> Both(int64_t s, int64_t f, int64_t k_lo, int64_t k_hi,
                           const std::string& field = "p_value") const {
    std::vector<double> a = P(0, s, f, k_lo, k_hi, field);
    const std::vector<double> b = P(1, s, f, k_lo, k_hi, field);
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }
};

Result<Merged> MergeParts(const std::vector<std::unique_ptr<ResultReader>>& parts, const Config& c,
                          int64_t sets, ResultWriter& out) {
  Merged mg;
  mg.R = c.repetitions;
  mg.S = sets;
  mg.A = static_cast<int64_t>(Analyses(c).size());
  mg.I = static_cast<int64_t>(c.n_eval.size());
  mg.K = c.max_components;
  const size_t cells = static_cast<size_t>(mg.A * mg.I * mg.K);
  std::vector<int64_t> fit_size;
  for (int64_t m = 0; m < mg.M; ++m) {
    std::vector<double> epoch_losses, train_t, pop_t, train_raw, pop_raw;
    size_t epochs = 0;
    for (int64_t r = 0; r < mg.R; ++r) {
      const ResultReader& p = *parts[static_cast<size_t>(m * mg.R + r)];
      for (int64_t s = 0; s < mg.S; ++s) {
        const std::string g = "/gof/" + kSets[s] + "/";
        for (const auto& [name, field] : DoubleFields()) {
          PB_ASSIGN_OR_RETURN(std::vector<double> v, p.ReadDoubles(g + name));
          if (v.size() != cells) {
            return Error("part " + p.path() + ": " + name + " has the wrong size");
          }
          mg.d[name].insert(mg.d[name].end(), v.begin(), v.end());
        }
        for (const auto& [name, field] : IntFields()) {
          PB_ASSIGN_OR_RETURN(std::vector<int64_t> v, p.ReadInts(g + name));
          if (v.size() != cells) {
            return Error("part " + p.path() + ": " + name + " has the wrong size");
          }
          mg.n[name].insert(mg.n[name].end(), v.begin(), v.end());
        }
        PB_ASSIGN_OR_RETURN(std::vector<int64_t> fs, p.ReadInts(g + "fit_size"));
        fit_size.insert(fit_size.end(), fs.begin(), fs.end());
      }
      for (const std::string& name : UnitScalars()) {
        PB_ASSIGN_OR_RETURN(std::vector<double> v, p.ReadDoubles("/unit/" + name));
        mg.unit[name].push_back(v.at(0));
      }
      PB_ASSIGN_OR_RETURN(std::vector<double> le, p.ReadDoubles("/unit/loss_per_epoch"));
      epochs = le.size();
      epoch_losses.insert(epoch_losses.end(), le.begin(), le.end());
      PB_ASSIGN_OR_RETURN(std::vector<double> tt, p.ReadDoubles("/losses/train_transformed"));
      PB_ASSIGN_OR_RETURN(std::vector<double> tp, p.ReadDoubles("/losses/population_transformed"));
      train_t.insert(train_t.end(), tt.begin(), tt.end());
      pop_t.insert(pop_t.end(), tp.begin(), tp.end());
      PB_ASSIGN_OR_RETURN(std::vector<double> rt, p.ReadDoubles("/losses/train"));
      PB_ASSIGN_OR_RETURN(std::vector<double> rp, p.ReadDoubles("/losses/population"));
      train_raw.insert(train_raw.end(), rt.begin(), rt.end());
      pop_raw.insert(pop_raw.end(), rp.begin(), rp.end());
      if (r == 0) {
        // The training record of the first repetition, for /meta.
        std::string rec;
        for (const char* key :
             {"private_training", "sampling", "dataset_size", "batch_size", "q", "steps", "epochs",
              "noise_multiplier", "clip_norm", "num_microbatches", "accounting_noise_multiplier",
              "tf_privacy_0_5_1_noise_multiplier", "accounting_rule", "microbatch_rule",
              "learning_rate", "momentum", "model", "architecture", "num_parameters"}) {
          auto v = p.ReadStringAttribute("/record", key);
          if (v.ok()) rec += std::string(key) + " = " + *v + "\n";
        }
        PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "training_record_" + kModels[m], rec));
      }
    }
    const uint64_t ur = static_cast<uint64_t>(mg.R);
    PB_RETURN_IF_ERROR(
        out.WriteDoubles("/models/" + kModels[m] + "/loss_per_epoch", epoch_losses, {ur, epochs}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/" + kModels[m] + "/train_transformed", train_t,
                                        {ur, train_t.size() / ur}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/" + kModels[m] + "/population_transformed", pop_t,
                                        {ur, pop_t.size() / ur}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/" + kModels[m] + "/train", train_raw,
                                        {ur, train_raw.size() / ur}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/" + kModels[m] + "/population", pop_raw,
                                        {ur, pop_raw.size() / ur}));
  }
  const std::vector<uint64_t> shape = {static_cast<uint64_t>(mg.M), static_cast<uint64_t>(mg.R),
                                       static_cast<uint64_t>(mg.S), static_cast<uint64_t>(mg.A),
                                       static_cast<uint64_t>(mg.I), static_cast<uint64_t>(mg.K)};
  for (const auto& [name, v] : mg.d) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/gof/" + name, v, shape));
  }
  for (const auto& [name, v] : mg.n) PB_RETURN_IF_ERROR(out.WriteInts("/gof/" + name, v, shape));
  PB_RETURN_IF_ERROR(
      out.WriteInts("/gof/fit_size", fit_size, {shape[0], shape[1], shape[2], shape[4]}));
  PB_RETURN_IF_ERROR(out.SetAttribute("/gof", "dims",
                                      "model, repetition, loss_set, analysis, n_eval, components"));
  PB_RETURN_IF_ERROR(
      out.SetAttribute("/gof/fit_size", "dims", "model, repetition, loss_set, n_eval"));
  PB_RETURN_IF_ERROR(out.SetAttribute("/gof", "p_value_method", c.ks_method));
  for (const auto& [name, v] : mg.unit) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/models/" + name, v, {shape[0], shape[1]}));
  }
  PB_RETURN_IF_ERROR(out.SetAttribute("/models", "dims", "model, repetition"));
  return mg;
}

Status Number(ResultWriter& out, const std::string& id, double value) {
  return out.WriteScalar("/numbers/epsilon_star_gof_" + id, value);
}

// Summary tables.
Status WriteTables(const Merged& mg, const Config& c, const std::string& dataset_label,
                   ResultWriter& out) {
  const double alpha = c.significance;
  const int64_t k_big = std::min<int64_t>(10, mg.K);
  const std::string big = "k>=" + std::to_string(k_big);
  const std::vector<AnalysisSpec> an = Analyses(c);
  const std::string floors_text =
      "analysis: the loss transform (App. B 'epsilon_star_logit', or Carlini's logit without "
      "the App. B normalisation, an extra) and the EM variance floor (the EM lower bound on "
      "component variances; primary " +
      FormatDouble(c.variance_floors[0]) + ", scikit-learn's reg_covar; others: sensitivity)";
  {
    std::vector<std::string> set_col, model_col, an_col;
    std::vector<int64_t> n_col, bic_col;
    std::vector<double> floor_col, med1, frac1, med_big, frac_big, frac_all, one_sample1, conv,
        floored;
    for (int64_t s = 0; s < mg.S; ++s) {
      for (int64_t m = 0; m < mg.M; ++m) {
        for (int64_t f = 0; f < mg.A; ++f) {
          for (int64_t i = 0; i < mg.I; ++i) {
            set_col.push_back(kSets[s]);
            model_col.push_back(kModels[m]);
            an_col.push_back(an[static_cast<size_t>(f)].name);
            floor_col.push_back(an[static_cast<size_t>(f)].floor);
            n_col.push_back(c.n_eval[static_cast<size_t>(i)]);
            const std::vector<double> p1 = mg.P(m, s, f, 1, 1, "p_value", i);
            const std::vector<double> pb = mg.P(m, s, f, k_big, mg.K, "p_value", i);
            const std::vector<double> pa = mg.P(m, s, f, 1, mg.K, "p_value", i);
            med1.push_back(Median(p1));
            frac1.push_back(FractionAbove(p1, alpha));
            med_big.push_back(Median(pb));
            frac_big.push_back(FractionAbove(pb, alpha));
            frac_all.push_back(FractionAbove(pa, alpha));
            one_sample1.push_back(Median(mg.P(m, s, f, 1, 1, "p_one_sample", i)));
            // BIC-best k per repetition; the median over repetitions.
            std::vector<double> best;
            double conv_n = 0.0, floored_n = 0.0;
            for (int64_t r = 0; r < mg.R; ++r) {
              int64_t arg = 1;
              for (int64_t k = 1; k <= mg.K; ++k) {
                const size_t at = mg.At(m, r, s, f, i, k);
                if (mg.d.at("bic")[at] < mg.d.at("bic")[mg.At(m, r, s, f, i, arg)]) arg = k;
                conv_n += static_cast<double>(mg.n.at("converged")[at]);
              }
              floored_n +=
                  static_cast<double>(mg.n.at("floored_components")[mg.At(m, r, s, f, i, mg.K)]);
              best.push_back(static_cast<double>(arg));
            }
            bic_col.push_back(static_cast<int64_t>(std::lround(Median(best))));
            conv.push_back(conv_n / static_cast<double>(mg.R * mg.K));
            floored.push_back(floored_n / static_cast<double>(mg.R));
          }
        }
      }
    }
    PB_RETURN_IF_ERROR(out.WriteTable(
        {"gof_by_n_eval",
         "KS goodness of fit of Gaussian mixtures to transformed Adult losses, by evaluation size "
         "(Epsilon* App. B.2, Fig. 6)",
         "Data: " + dataset_label +
             ". Rows: loss set (train = Fig. 6; population = extra), model "
             "type, " +
             floors_text + ", evaluation size n_eval. p = two-sample KS p-value (" + c.ks_method +
             ") of n_eval draws from the k-component EM fit against the held-out evaluation set; "
             "medians and fractions above " +
             Fmt(alpha) + " are over the " + std::to_string(mg.R) +
             " repetitions (models) and, for '" + big +
             "' and 'all k', over k. Under a perfect fit p is uniform, so about " +
             Fmt(100 * (1 - alpha)) + "% of p-values exceed " + Fmt(alpha) +
             ". one_sample_p_k1: extra, KS of the evaluation set against the fitted Normal's "
             "CDF (no sampling noise). bic_best_k: median over repetitions of the k minimising "
             "BIC on the fitting set. converged: fraction of fits meeting the EM tolerance "
             "within max_iterations. floored_at_k_max: mean number of components at the floor "
             "in the k = " +
             std::to_string(mg.K) + " fit.",
         {Column::Strings("loss_set", set_col), Column::Strings("model", model_col),
          Column::Strings("analysis", an_col), Column::Doubles("variance_floor", floor_col),
          Column::Ints("n_eval", n_col), Column::Doubles("median_p_k1", med1),
          Column::Doubles("frac_above_k1", frac1), Column::Doubles("median_p_" + big, med_big),
          Column::Doubles("frac_above_" + big, frac_big),
          Column::Doubles("frac_above_all_k", frac_all),
          Column::Doubles("one_sample_p_k1", one_sample1), Column::Ints("bic_best_k", bic_col),
          Column::Doubles("converged", conv), Column::Doubles("floored_at_k_max", floored)}}));
  }
  {
    std::vector<std::string> set_col, model_col, an_col;
    std::vector<int64_t> k_col;
    std::vector<double> floor_col, med, frac, med_one, frac_one, held, iters, conv, floored;
    for (int64_t s = 0; s < mg.S; ++s) {
      for (int64_t m = 0; m < mg.M; ++m) {
        for (int64_t f = 0; f < mg.A; ++f) {
          for (int64_t k = 1; k <= mg.K; ++k) {
            set_col.push_back(kSets[s]);
            model_col.push_back(kModels[m]);
            an_col.push_back(an[static_cast<size_t>(f)].name);
            floor_col.push_back(an[static_cast<size_t>(f)].floor);
            k_col.push_back(k);
            const std::vector<double> p = mg.P(m, s, f, k, k);
            med.push_back(Median(p));
            frac.push_back(FractionAbove(p, alpha));
            const std::vector<double> p1 = mg.P(m, s, f, k, k, "p_one_sample");
            med_one.push_back(Median(p1));
            frac_one.push_back(FractionAbove(p1, alpha));
            held.push_back(Mean(mg.P(m, s, f, k, k, "heldout_log_likelihood")));
            double it = 0.0, cv = 0.0, fl = 0.0;
            for (int64_t r = 0; r < mg.R; ++r) {
              for (int64_t i = 0; i < mg.I; ++i) {
                const size_t a = mg.At(m, r, s, f, i, k);
                it += static_cast<double>(mg.n.at("iterations")[a]);
                cv += static_cast<double>(mg.n.at("converged")[a]);
                fl += static_cast<double>(mg.n.at("floored_components")[a]);
              }
            }
            const double cnt = static_cast<double>(mg.R * mg.I);
            iters.push_back(it / cnt);
            conv.push_back(cv / cnt);
            floored.push_back(fl / cnt);
          }
        }
      }
    }
    PB_RETURN_IF_ERROR(out.WriteTable(
        {"gof_by_components",
         "KS goodness of fit by number of mixture components (Epsilon* App. B.2, Fig. 6)",
         "Data: " + dataset_label + ". Rows: loss set, model type, " + floors_text +
             ", components k. Medians and fractions above " + Fmt(alpha) +
             " over every (repetition, n_eval) pair (" + std::to_string(mg.R * mg.I) +
             " p-values per row; n_eval = " + JoinInts(c.n_eval) + "). p: two-sample KS (" +
             c.ks_method +
             ", the paper's procedure); one_sample: extra, evaluation set against the fitted "
             "CDF. heldout_ll: mean log-density of the evaluation set under the fit (nats per "
             "point). iterations / converged / floored: mean EM iterations, fraction converged, "
             "mean number of components at the variance floor.",
         {Column::Strings("loss_set", set_col), Column::Strings("model", model_col),
          Column::Strings("analysis", an_col), Column::Doubles("variance_floor", floor_col),
          Column::Ints("k", k_col), Column::Doubles("median_p", med),
          Column::Doubles("frac_above", frac), Column::Doubles("median_p_one_sample", med_one),
          Column::Doubles("frac_above_one_sample", frac_one), Column::Doubles("heldout_ll", held),
          Column::Doubles("iterations", iters), Column::Doubles("converged", conv),
          Column::Doubles("floored", floored)}}));
  }
  {
    std::vector<std::string> model_col;
    std::vector<int64_t> rep_col, epochs_col;
    std::vector<double> eps, sigma, tacc, pacc, auroc, mia, tmax, secs;
    for (int64_t m = 0; m < mg.M; ++m) {
      for (int64_t r = 0; r < mg.R; ++r) {
        const size_t u = static_cast<size_t>(m * mg.R + r);
        model_col.push_back(kModels[m]);
        rep_col.push_back(r);
        epochs_col.push_back(static_cast<int64_t>(mg.unit.at("epochs")[u]));
        eps.push_back(mg.unit.at("eps")[u]);
        sigma.push_back(mg.unit.at("noise_multiplier")[u]);
        tacc.push_back(mg.unit.at("train_accuracy")[u]);
        pacc.push_back(mg.unit.at("population_accuracy")[u]);
        auroc.push_back(mg.unit.at("auroc")[u]);
        mia.push_back(mg.unit.at("membership_auc")[u]);
        tmax.push_back(mg.unit.at("transform_max")[u]);
        secs.push_back(mg.unit.at("train_seconds")[u] + mg.unit.at("gof_seconds")[u]);
      }
    }
    PB_RETURN_IF_ERROR(out.WriteTable(
        {"models",
         "The Adult models behind the goodness-of-fit tests",
         "Data: " + dataset_label +
             ". One row per model (type, repetition). eps: RDP accountant "
             "(DefaultRdpOrders, Poisson sampling) at delta of the run's q, steps and accounting "
             "noise multiplier; NaN = non-private. AUROC: population set, logit difference against "
             "the income label. membership_auc: loss-threshold attack, training vs population "
             "losses. max_loss: the joint maximum loss that the App. B transform maps to its lower "
             "end (a large maximum squeezes the typical losses into a narrow spike). seconds: "
             "training + goodness-of-fit wall time of the unit.",
         {Column::Strings("model", model_col), Column::Ints("repetition", rep_col),
          Column::Ints("epochs", epochs_col), Column::Doubles("eps", eps),
          Column::Doubles("noise_multiplier", sigma), Column::Doubles("train_accuracy", tacc),
          Column::Doubles("population_accuracy", pacc), Column::Doubles("auroc", auroc),
          Column::Doubles("membership_auc", mia), Column::Doubles("max_loss", tmax),
          Column::Doubles("seconds", secs)}}));
  }
  return Status::Ok();
}

// The claims of one variance-floor analysis (f = 0: primary).
Status WriteClaimsForAnalysis(const Merged& mg, const Config& c, int64_t f, ResultWriter& out) {
  const double alpha = c.significance;
  const int64_t k_big = std::min<int64_t>(10, mg.K);
  const std::string a = Fmt(alpha);
  const AnalysisSpec spec = Analyses(c)[static_cast<size_t>(f)];
  const std::string sfx = spec.suffix;
  // Training losses (s = 0): the paper's Fig. 6.
  const std::vector<double> no_dp = mg.P(0, 0, f, 1, mg.K), dp = mg.P(1, 0, f, 1, mg.K);
  const std::vector<double> all = mg.Both(0, f, 1, mg.K);
  const double f_all = FractionAbove(all, alpha), f_no = FractionAbove(no_dp, alpha),
               f_dp = FractionAbove(dp, alpha);
  const std::vector<double> k1_no = mg.P(0, 0, f, 1, 1), k1_dp = mg.P(1, 0, f, 1, 1);
  const std::vector<double> big = mg.Both(0, f, k_big, mg.K);
  const std::vector<double> k1 = mg.Both(0, f, 1, 1);
  const double f_k1 = FractionAbove(k1, alpha), f_big = FractionAbove(big, alpha);
  const double f_k1_no = FractionAbove(k1_no, alpha), f_k1_dp = FractionAbove(k1_dp, alpha);
  PB_RETURN_IF_ERROR(Number(out, "frac_above_all" + sfx, f_all));
  PB_RETURN_IF_ERROR(Number(out, "frac_above_no_dp" + sfx, f_no));
  PB_RETURN_IF_ERROR(Number(out, "frac_above_dp" + sfx, f_dp));
  PB_RETURN_IF_ERROR(Number(out, "frac_above_k1" + sfx, f_k1));
  PB_RETURN_IF_ERROR(Number(out, "frac_above_k_big" + sfx, f_big));
  PB_RETURN_IF_ERROR(Number(out, "frac_above_k1_no_dp" + sfx, f_k1_no));
  PB_RETURN_IF_ERROR(Number(out, "frac_above_k1_dp" + sfx, f_k1_dp));
  PB_RETURN_IF_ERROR(Number(out, "median_p_all" + sfx, Median(all)));
  // The same with the other p-value method and with the one-sample extra.
  const char* other = c.ks_method == "exact" ? "p_asymptotic" : "p_exact";
  const double f_all_other = FractionAbove(mg.Both(0, f, 1, mg.K, other), alpha);
  const double f_all_one = FractionAbove(mg.Both(0, f, 1, mg.K, "p_one_sample"), alpha);
  PB_RETURN_IF_ERROR(Number(out, "frac_above_all_other_method" + sfx, f_all_other));
  PB_RETURN_IF_ERROR(Number(out, "frac_above_all_one_sample" + sfx, f_all_one));
  for (int64_t m = 0; m < mg.M; ++m) {
    for (int64_t s = 0; s < mg.S; ++s) {
      const std::string tag = kModels[m] + "_" + kSets[s] + sfx;
      PB_RETURN_IF_ERROR(Number(out, "frac_above_one_sample_k1_" + tag,
                                FractionAbove(mg.P(m, s, f, 1, 1, "p_one_sample"), alpha)));
      PB_RETURN_IF_ERROR(
          Number(out, "frac_above_" + tag, FractionAbove(mg.P(m, s, f, 1, mg.K), alpha)));
      PB_RETURN_IF_ERROR(
          Number(out, "frac_above_k1_" + tag, FractionAbove(mg.P(m, s, f, 1, 1), alpha)));
      PB_RETURN_IF_ERROR(
          Number(out, "frac_above_k_big_" + tag, FractionAbove(mg.P(m, s, f, k_big, mg.K), alpha)));
    }
  }
  // Per (model, n_eval) medians at k = 1 (training losses).
  std::string per_n;
  std::vector<int> most(2, 0);
  for (int64_t m = 0; m < mg.M; ++m) {
    per_n += std::string(m ? "; " : "") + kModelLabels[m] + ":";
    for (int64_t i = 0; i < mg.I; ++i) {
      const int64_t n = c.n_eval[static_cast<size_t>(i)];
      const double med = Median(mg.P(m, 0, f, 1, 1, "p_value", i));
      PB_RETURN_IF_ERROR(
          Number(out, "median_p_k1_" + kModels[m] + "_n" + std::to_string(n) + sfx, med));
      if (med > alpha) ++most[static_cast<size_t>(m)];
      per_n += " n=" + std::to_string(n) + " " + Fmt(med) + (med > alpha ? "" : "*");
    }
  }
  per_n += " (* = not above " + a + ")";
  const std::string pooled = std::to_string(all.size()) + " p-values (" + std::to_string(mg.R) +
                             " repetitions x " + std::to_string(mg.I) + " n_eval x " +
                             std::to_string(mg.K) + " k x 2 model types)";
  const std::string h0 =
      "; under a perfect fit about " + Fmt(100 * (1 - alpha)) + "% would exceed " + a;
  const std::string scope = " [training losses, " + c.ks_method + " p-values; " + spec.label + "]";
  PB_RETURN_IF_ERROR(out.WriteClaim(
      {"epsilon_star_gof_most_above" + sfx, "Most p-values of the KS tests go above 0.05" + scope,
       kSource, f_all > 0.5,
       "criterion: fraction of p > " + a + " over all " + pooled + " is > 0.5; got " + Fmt(f_all) +
           " (no DP " + Fmt(f_no) + ", DP " + Fmt(f_dp) + "; median p " + Fmt(Median(all)) + ")" +
           h0 + "; with the other p-value method " + Fmt(f_all_other) +
           ", one-sample KS against the fitted CDF (extra) " + Fmt(f_all_one)}));
  PB_RETURN_IF_ERROR(out.WriteClaim(
      {"epsilon_star_gof_more_with_dp" + sfx,
       "P-values go above 0.05 more often when DP is used in training" + scope, kSource,
       f_dp > f_no,
       "criterion: fraction of p > " + a +
           " over every (repetition, n_eval, k) is larger for "
           "the DP-SGD models than for the non-private ones; DP " +
           Fmt(f_dp) + " vs no DP " + Fmt(f_no) + " (" + std::to_string(dp.size()) +
           " p-values each; medians " + Fmt(Median(dp)) + " vs " + Fmt(Median(no_dp)) + ")"}));
  PB_RETURN_IF_ERROR(out.WriteClaim(
      {"epsilon_star_gof_more_with_components" + sfx,
       "P-values go above 0.05 more often as the number of mixture components increases" + scope,
       kSource, f_big > f_k1,
       "criterion: fraction of p > " + a + " at k >= " + std::to_string(k_big) +
           " (both model types, all repetitions and n_eval) is larger than at k = 1; " +
           Fmt(f_big) + " vs " + Fmt(f_k1) + " (medians " + Fmt(Median(big)) + " vs " +
           Fmt(Median(k1)) + ")"}));
  const bool most_both = 2 * most[0] > mg.I && 2 * most[1] > mg.I;
  PB_RETURN_IF_ERROR(out.WriteClaim(
      {"epsilon_star_gof_one_component_most_n_eval" + sfx,
       "For most evaluation sizes even one component (a Normal) gives p-values above 0.05" + scope,
       kSource, most_both,
       "criterion: for EACH model type, more than half of the n_eval values have median p (over " +
           std::to_string(mg.R) + " repetitions) at k = 1 above " + a + "; no DP " +
           std::to_string(most[0]) + " of " + std::to_string(mg.I) + ", DP " +
           std::to_string(most[1]) + " of " + std::to_string(mg.I) + "; medians: " + per_n}));
  PB_RETURN_IF_ERROR(out.WriteClaim(
      {"epsilon_star_gof_one_component_more_with_dp" + sfx,
       "One component gives p-values above 0.05 especially when training with DP-SGD" + scope,
       kSource, f_k1_dp > f_k1_no,
       "criterion: fraction of k = 1 p-values > " + a +
           " (all repetitions and n_eval) is larger "
           "for DP than for no DP; DP " +
           Fmt(f_k1_dp) + " vs no DP " + Fmt(f_k1_no) + " (" + std::to_string(k1_dp.size()) +
           " p-values each; medians " + Fmt(Median(k1_dp)) + " vs " + Fmt(Median(k1_no)) + ")"}));
  return Status::Ok();
}

Status WriteClaimsAndNumbers(const Merged& mg, const Config& c, ResultWriter& out) {
  for (int64_t f = 0; f < mg.A; ++f) PB_RETURN_IF_ERROR(WriteClaimsForAnalysis(mg, c, f, out));
  return Status::Ok();
}

std::string LostParameters(const Config& c, const Dataset& d, double delta,
                           const GofNoisePlan& plan) {
  std::string floors;
  for (size_t f = 1; f < c.variance_floors.size(); ++f) {
    floors += (f > 1 ? ", " : "") + FormatDouble(c.variance_floors[f]);
  }
  if (floors.empty()) floors = "(none)";
  return "The paper gives neither the models of Fig. 6 nor the fitting details; ours: "
         "Adult MLP Linear(" +
         std::to_string(d.num_features) + "->" + std::to_string(c.hidden) + ") Tanh Linear(" +
         std::to_string(c.hidden) +
         "->2) (mechanisms AdultMlpSpec), Poisson sampling, expected batch " +
         std::to_string(c.batch_size) + ", SGD momentum " + FormatDouble(c.momentum) + ", lr " +
         FormatDouble(c.learning_rate) +
         " (paper Sec. 4.1 values); non-private model: " + std::to_string(c.baseline_epochs) +
         " epochs (paper baselines 1/5/10/20); DP model: " + std::to_string(c.dp_epochs) +
         " epochs, target eps " + FormatDouble(c.dp_epsilon) + " (paper grid 1/3/10/100), delta " +
         FormatDouble(delta) + (c.delta == 0.0 ? " (= 1/n_train)" : "") + ", clip norm " +
         FormatDouble(c.clip_norm) + ", " +
         (c.num_microbatches == 0 ? std::string("per-example clipping")
                                  : std::to_string(c.num_microbatches) + " microbatches") +
         ", calibration " + c.calibration_rule + " -> noise multiplier " +
         Fmt(plan.noise_multiplier, 5) + " (q " + Fmt(plan.q, 4) + ", " +
         std::to_string(plan.steps) + " steps; sound eps " + Fmt(plan.eps_sound, 4) +
         "); repetitions " + std::to_string(c.repetitions) +
         " models per type (paper: apparently one instance each); transform: App. B, fitted "
         "jointly on train + population losses of each model; partition: uniform random, "
         "n_eval = {" +
         JoinInts(c.n_eval) + "} (paper 100..1000), the rest fits; EM: " + c.init +
         " initialisation, tolerance " + FormatDouble(c.tolerance) +
         " on the mean log-likelihood, at most " + std::to_string(c.max_iterations) +
         " iterations, variance floor " + FormatDouble(c.variance_floors[0]) +
         " (scikit-learn GaussianMixture defaults, which the paper's Python pipeline likely "
         "used, except the initialisation; sklearn ADDS reg_covar = 1e-6 to each variance, we "
         "floor at it); sensitivity analyses at variance floors " +
         floors +
         (c.carlini_analysis ? "; extra analysis: Carlini et al.'s logit(exp(-loss)) without the "
                               "App. B normalisation, at the primary floor"
                             : "") +
         "; k = 1.." + std::to_string(c.max_components) +
         "; draws: n_eval from each fit; KS p-value: " + c.ks_method +
         " (SciPy ks_2samp's default at these sizes is exact), significance " +
         FormatDouble(c.significance);
}

Status Run(const Config& c, StudyContext& ctx) {
  ResultWriter& out = ctx.out();
  AdultOptions ao;
  ao.data_dir = c.data_dir;
  PB_ASSIGN_OR_RETURN(Dataset full, LoadAdult(ao));
  Dataset data = std::move(full);
  if (c.n_train != -1 || c.n_population != -1) {
    PB_ASSIGN_OR_RETURN(data,
                        HeadSubset(data, c.n_train == -1 ? data.n_train() : c.n_train,
                                   c.n_population == -1 ? data.n_population() : c.n_population));
  }
  const int64_t sets = c.population_losses ? 2 : 1;
  const int64_t smallest =
      c.population_losses ? std::min(data.n_train(), data.n_population()) : data.n_train();
  if (c.n_eval.back() + c.max_components > smallest) {
    return Error("n_eval " + std::to_string(c.n_eval.back()) + " plus max_components " +
                 std::to_string(c.max_components) + " exceeds the " + std::to_string(smallest) +
                 " losses of the smallest tested set");
  }
  const double delta = c.delta > 0.0 ? c.delta : 1.0 / static_cast<double>(data.n_train());
  PB_ASSIGN_OR_RETURN(GofNoisePlan plan, PlanGofNoise(ModelConfig(c, true, delta), data.n_train()));
  PB_ASSIGN_OR_RETURN(GofOptions gof, MakeGofOptions(c));
  PB_ASSIGN_OR_RETURN(Shard shard, ParseShard(c.shard));

  std::vector<SweepUnit> units;
  for (int64_t m = 0; m < 2; ++m) {
    for (int64_t r = 0; r < c.repetitions; ++r) {
      units.push_back({"model=" + kModels[m] + "_rep=" + std::to_string(r)});
    }
  }
  SweepOptions so;
  so.study = kStudy;
  so.parts_dir = c.parts_dir.empty() ? DefaultPartsDir() : c.parts_dir;
  so.config_text = SweepConfigText(c, data, ctx.seed());
  so.shard = shard;
  so.threads = ctx.threads();
  so.quiet = ctx.quiet();
  if (!c.merge_only) {
    int64_t pending = 0;
    for (size_t u = 0; u < units.size(); ++u) {
      if (shard.Owns(static_cast<int64_t>(u)) && !FileExists(PartPath(so, units[u]))) ++pending;
    }
    ProgressReporter fits("GMM fits (EM + KS)",
                          pending * sets * gof.max_components *
                              static_cast<int64_t>(gof.n_eval.size() * Analyses(c).size()),
                          ctx.quiet(), /*interval_seconds=*/5.0);
    UnitInputs in{&c, &data, &gof, &plan, delta, ctx.seed(), sets, &fits};
    PB_ASSIGN_OR_RETURN(SweepReport report,
                        RunSweep(units, so, [&](int64_t u, const SweepUnit&, ResultWriter& part) {
                          return RunUnit(in, u / c.repetitions, u % c.repetitions, part);
                        }));
    fits.Finish();
    if (!report.all_complete()) {
      ctx.SkipOutput(std::to_string(report.total - report.complete) + " of " +
                     std::to_string(report.total) +
                     " units pending: run the other shards, then --merge_only");
      return Status::Ok();
    }
  }
  PB_ASSIGN_OR_RETURN(auto parts, OpenSweepParts(units, so));
  PB_ASSIGN_OR_RETURN(Merged mg, MergeParts(parts, c, sets, out));

  // Settings and metadata.
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/n_eval", c.n_eval));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/variance_floors", c.variance_floors));
  {
    std::vector<std::string> names, transforms, labels, suffixes;
    std::vector<double> floors;
    for (const AnalysisSpec& a : Analyses(c)) {
      names.push_back(a.name);
      transforms.push_back(a.transform);
      labels.push_back(a.label);
      suffixes.push_back(a.suffix);
      floors.push_back(a.floor);
    }
    PB_RETURN_IF_ERROR(out.WriteStrings("/settings/analyses", names));
    PB_RETURN_IF_ERROR(out.WriteStrings("/settings/analysis_transform", transforms));
    PB_RETURN_IF_ERROR(out.WriteStrings("/settings/analysis_label", labels));
    PB_RETURN_IF_ERROR(out.WriteStrings("/settings/analysis_claim_suffix", suffixes));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/analysis_variance_floor", floors));
  }
  std::vector<int64_t> ks;
  for (int64_t k = 1; k <= c.max_components; ++k) ks.push_back(k);
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/components", ks));
  PB_RETURN_IF_ERROR(out.WriteStrings("/settings/models", kModels));
  PB_RETURN_IF_ERROR(out.WriteStrings("/settings/model_labels", kModelLabels));
  PB_RETURN_IF_ERROR(out.WriteStrings(
      "/settings/loss_sets", std::vector<std::string>(kSets.begin(), kSets.begin() + sets)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "repetitions", c.repetitions));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "significance", c.significance));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "delta", delta));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "dp_epsilon", c.dp_epsilon));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "p_value_method", c.ks_method));
  const std::string label =
      data.provenance +
      (data.n_train() != kAdultTrainRows || data.n_population() != kAdultPopulationRows
           ? " (first " + std::to_string(data.n_train()) + " train / " +
                 std::to_string(data.n_population()) + " population rows)"
           : "");
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "dataset_label", label));
  PB_RETURN_IF_ERROR(
      out.SetAttribute("/meta", "sweep_part_versions", DescribePartVersions(parts).description));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "dataset_provenance", data.provenance));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "dataset_source", data.source));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "dataset_checksums", data.checksums));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "sweep_config", so.config_text));
  PB_RETURN_IF_ERROR(out.SetAttribute(
      "/meta", "accounting",
      "RDP accountant (estimators/accountants 'rdp', DefaultRdpOrders, Poisson sampling, "
      "classic RDP->(eps, delta) conversion); calibration_rule " +
          c.calibration_rule + "; calibrated sigma " + Fmt(plan.calibrated_sigma, 6) +
          ", trained noise multiplier " + Fmt(plan.noise_multiplier, 6) +
          ", accounting noise multiplier " + Fmt(plan.accounting_noise_multiplier, 6) + ", q " +
          Fmt(plan.q, 6) + ", steps " + std::to_string(plan.steps) + ", delta " +
          FormatDouble(delta) + "; eps sound " + Fmt(plan.eps_sound, 6) +
          ", eps by TF Privacy 0.5.1's rule " + Fmt(plan.eps_tf_privacy_0_5_1, 6)));
  PB_RETURN_IF_ERROR(out.SetAttribute(
      "/meta", "loss_transform",
      "epsilon_star_logit (App. B): joint min/max of train + population losses of each model"));
  PB_RETURN_IF_ERROR(
      out.SetAttribute("/meta", "lost_parameters", LostParameters(c, data, delta, plan)));

  PB_RETURN_IF_ERROR(WriteTables(mg, c, label, out));
  return WriteClaimsAndNumbers(mg, c, out);
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  Study<Config> study;
  study.info = {kStudy,
                "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
                "App. B.2, Fig. 6; STUDIES.md C4",
                "KS goodness of fit of 1..20-component Gaussian mixtures to transformed losses "
                "of Adult models with and without DP"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
