#include "experiments/epsilon_star_gof/compute.h"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "core/format.h"
#include "core/seeding.h"
#include "core/validate.h"

namespace privbench::epsilon_star_gof {

namespace {

// Steps 2-4 (and the extras) for one cell c of the grid.
Status FitAndTest(const std::vector<double>& fit_set, const std::vector<double>& eval, int64_t k,
                  const EmOptions& em, uint64_t sample_seed, KsPValueMethod primary, size_t c,
                  GofGrid& g) {
  const int64_t n_eval = static_cast<int64_t>(eval.size());
  // Step 2.
  PB_ASSIGN_OR_RETURN(EmFit fit, FitGaussianMixture(fit_set, k, em));
  g.log_likelihood[c] = fit.log_likelihood;
  g.bic[c] = fit.bic;
  g.iterations[c] = fit.iterations;
  g.converged[c] = fit.converged ? 1 : 0;
  g.active_components[c] = fit.active_components;
  g.floored_components[c] = fit.floored_components;
  // Step 3.
  Rng sample_rng(sample_seed);
  PB_ASSIGN_OR_RETURN(std::vector<double> draw,
                      SampleGaussianMixture(fit.mixture, n_eval, sample_rng));
  // Step 4.
  PB_ASSIGN_OR_RETURN(KsTestResult exact, KsTwoSampleTest(draw, eval, KsPValueMethod::kExact));
  PB_ASSIGN_OR_RETURN(double asym, KsTwoSampleAsymptoticPValue(exact.statistic, n_eval, n_eval));
  g.ks_statistic[c] = exact.statistic;
  g.p_exact[c] = exact.p_value;
  g.p_asymptotic[c] = asym;
  g.p_value[c] = primary == KsPValueMethod::kExact ? exact.p_value : asym;
  // Extras.
  const GaussianMixture& mix = fit.mixture;
  PB_ASSIGN_OR_RETURN(KsTestResult one,
                      KsOneSampleTest(eval, [&mix](double x) { return MixtureCdf(mix, x); }));
  g.p_one_sample[c] = one.p_value;
  g.d_one_sample[c] = one.statistic;
  PB_ASSIGN_OR_RETURN(double held, MixtureLogLikelihood(mix, eval));
  g.heldout_log_likelihood[c] = held / static_cast<double>(n_eval);
  return Status::Ok();
}

}  // namespace

Status ValidateGofOptions(const GofOptions& o) {
  if (o.n_eval.empty()) return Error("n_eval must list at least one evaluation size");
  for (size_t i = 0; i < o.n_eval.size(); ++i) {
    if (o.n_eval[i] < 2) {
      return Error("n_eval must be >= 2, got " + std::to_string(o.n_eval[i]));
    }
    if (i > 0 && o.n_eval[i] <= o.n_eval[i - 1]) {
      return Error("n_eval must be strictly increasing, got " + std::to_string(o.n_eval[i - 1]) +
                   " then " + std::to_string(o.n_eval[i]));
    }
  }
  PB_RETURN_IF_ERROR(CheckPositiveCount("max_components", o.max_components));
  if (o.variance_floors.empty()) {
    return Error("variance_floors must list at least one variance floor");
  }
  for (size_t f = 0; f < o.variance_floors.size(); ++f) {
    PB_RETURN_IF_ERROR(CheckPositive("variance_floors", o.variance_floors[f]));
    for (size_t g = 0; g < f; ++g) {
      if (o.variance_floors[g] == o.variance_floors[f]) {
        return Error("variance_floors must be distinct, got " + FormatDouble(o.variance_floors[f]) +
                     " twice");
      }
    }
  }
  EmOptions em = o.em;
  em.variance_floor = o.variance_floors[0];
  PB_RETURN_IF_ERROR(ValidateEmOptions(em));
  if (KsPValueMethodName(o.primary) == "invalid") {
    return Error("ks_method must be 'exact' or 'asymptotic'");
  }
  return Status::Ok();
}

Result<GofGrid> RunGofGrid(const std::vector<double>& values, const GofOptions& o, uint64_t seed,
                           ProgressReporter* progress) {
  PB_RETURN_IF_ERROR(ValidateGofOptions(o));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("values", values));
  const int64_t n = static_cast<int64_t>(values.size());
  const int64_t K = o.max_components;
  if (n < o.n_eval.back() + K) {
    return Error("n_eval " + std::to_string(o.n_eval.back()) + " leaves fewer than " +
                 "max_components = " + std::to_string(K) + " of the " + std::to_string(n) +
                 " values to fit on");
  }
  GofGrid g;
  g.floor_count = static_cast<int64_t>(o.variance_floors.size());
  g.n_eval_count = static_cast<int64_t>(o.n_eval.size());
  g.components = K;
  const size_t cells = static_cast<size_t>(g.floor_count * g.n_eval_count * K);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (auto* v : {&g.p_value, &g.p_exact, &g.p_asymptotic, &g.ks_statistic, &g.p_one_sample,
                  &g.d_one_sample, &g.heldout_log_likelihood, &g.log_likelihood, &g.bic}) {
    v->assign(cells, nan);
  }
  for (auto* v : {&g.iterations, &g.converged, &g.active_components, &g.floored_components}) {
    v->assign(cells, 0);
  }
  for (int64_t i = 0; i < g.n_eval_count; ++i) {
    const int64_t n_eval = o.n_eval[static_cast<size_t>(i)];
    // Step 1: Fisher-Yates; the first n_eval values are the evaluation set.
    std::vector<double> perm = values;
    Rng split_rng = MakeRng(seed, {0, static_cast<uint64_t>(i)});
    for (int64_t a = n - 1; a > 0; --a) {
      boost::random::uniform_int_distribution<int64_t> pick(0, a);
      std::swap(perm[static_cast<size_t>(a)], perm[static_cast<size_t>(pick(split_rng))]);
    }
    const std::vector<double> eval(perm.begin(), perm.begin() + n_eval);
    const std::vector<double> fit_set(perm.begin() + n_eval, perm.end());
    g.fit_size.push_back(static_cast<int64_t>(fit_set.size()));
    for (int64_t f = 0; f < g.floor_count; ++f) {
      for (int64_t k = 1; k <= K; ++k) {
        const uint64_t ui = static_cast<uint64_t>(i), uk = static_cast<uint64_t>(k);
        EmOptions em = o.em;
        em.seed = DeriveSeed(seed, {2, ui, uk});
        em.variance_floor = o.variance_floors[static_cast<size_t>(f)];
        PB_RETURN_IF_ERROR(FitAndTest(fit_set, eval, k, em, DeriveSeed(seed, {1, ui, uk}),
                                      o.primary, g.Index(f, i, k), g));
        if (progress != nullptr) progress->Advance();
      }
    }
  }
  return g;
}

double FractionAbove(const std::vector<double>& values, double threshold) {
  if (values.empty()) return 0.0;
  int64_t above = 0;
  for (double v : values) {
    if (v > threshold) ++above;
  }
  return static_cast<double>(above) / static_cast<double>(values.size());
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

const std::vector<std::pair<std::string, GofDoubleField>>& GofDoubleFields() {
  static const std::vector<std::pair<std::string, GofDoubleField>> f = {
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

const std::vector<std::pair<std::string, GofIntField>>& GofIntFields() {
  static const std::vector<std::pair<std::string, GofIntField>> f = {
      {"iterations", &GofGrid::iterations},
      {"converged", &GofGrid::converged},
      {"active_components", &GofGrid::active_components},
      {"floored_components", &GofGrid::floored_components}};
  return f;
}

std::vector<double> ConcatenateField(const std::vector<GofGrid>& grids, GofDoubleField field) {
  std::vector<double> v;
  for (const GofGrid& g : grids) v.insert(v.end(), (g.*field).begin(), (g.*field).end());
  return v;
}

std::vector<int64_t> ConcatenateField(const std::vector<GofGrid>& grids, GofIntField field) {
  std::vector<int64_t> v;
  for (const GofGrid& g : grids) v.insert(v.end(), (g.*field).begin(), (g.*field).end());
  return v;
}

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

const std::vector<std::string>& UnitScalarNames() {
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

std::vector<double> GofArrays::P(int64_t m, int64_t s, int64_t f, int64_t k_lo, int64_t k_hi,
                                 const std::string& field, int64_t i_only) const {
  std::vector<double> out;
  const std::vector<double>& values = d.at(field);
  for (int64_t r = 0; r < R; ++r) {
    for (int64_t i = 0; i < I; ++i) {
      if (i_only >= 0 && i != i_only) continue;
      for (int64_t k = k_lo; k <= k_hi; ++k) out.push_back(values[At(m, r, s, f, i, k)]);
    }
  }
  return out;
}

std::vector<double> GofArrays::Both(int64_t s, int64_t f, int64_t k_lo, int64_t k_hi,
                                    const std::string& field) const {
  std::vector<double> a = P(0, s, f, k_lo, k_hi, field);
  const std::vector<double> b = P(1, s, f, k_lo, k_hi, field);
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

int64_t BigK(const GofArrays& arrays) { return std::min<int64_t>(10, arrays.K); }

int64_t BicBestK(const GofArrays& g, int64_t m, int64_t r, int64_t s, int64_t f, int64_t i) {
  const std::vector<double>& bic = g.d.at("bic");
  int64_t arg = 1;
  for (int64_t k = 1; k <= g.K; ++k) {
    if (bic[g.At(m, r, s, f, i, k)] < bic[g.At(m, r, s, f, i, arg)]) arg = k;
  }
  return arg;
}

}  // namespace privbench::epsilon_star_gof
