// The numbers of study C4 epsilon_star_gof (README.md): the
// goodness-of-fit procedure of the parametric Epsilon* (Negoescu et al.,
// "Epsilon*", PPAI-24, App. B.2, Fig. 6) on one set of transformed losses,
// the study's analyses (loss transform x EM variance floor), and the merged
// [model, repetition, loss set, analysis, n_eval, k] arrays behind its
// tables and claims. No I/O; torch-free (the models are in models.h).
//
// For each evaluation size n_eval (paper: 100..1000) and each number of
// components k = 1..max_components (paper: 1..20), App. B.2 steps 1-4:
//   1. partition the values into an evaluation set of n_eval and a fitting
//      set of the rest: a uniformly random permutation (Fisher-Yates with
//      Boost.Random on MakeRng(seed, {0, i})); the SAME partition serves
//      every k at this n_eval, so the curves over k are paired;
//   2. fit a k-component Gaussian mixture to the fitting set by EM
//      (estimators/fit/gaussian_mixture.h; for the k-means++ initialisation
//      the seed is DeriveSeed(seed, {2, i, k})), once per variance floor in
//      `variance_floors` (a sensitivity analysis: the floor, scikit-learn's
//      reg_covar, is lost in the paper and decides whether a component can
//      follow a narrow spike of losses);
//   3. draw n_eval values from the fit (MakeRng(seed, {1, i, k}); the same
//      stream for every floor, so floors are compared on paired draws);
//   4. two-sample Kolmogorov-Smirnov test of the draw against the evaluation
//      set (estimators/fit/ks_test.h): D, the exact p-value (equal sizes)
//      and the asymptotic one.
// Extra (not in the paper): the one-sample KS test of the evaluation set
// against the fitted mixture's CDF (asymptotic p-value), which has no
// sampling noise from step 3, and the mean held-out log-likelihood of the
// evaluation set under the fit.
// Under a correct model every p-value is (super-)uniform: about 95% of them
// exceed 0.05 even for a perfect fit, and the test's power grows with n_eval.
//
// The permutation of step 1 depends only on the seed and the number of
// values, so two calls with the same seed on two transforms of the same
// losses use the same split (paired analyses).
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_COMPUTE_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "core/result.h"
#include "estimators/fit/gaussian_mixture.h"
#include "estimators/fit/ks_test.h"
#include "experiments/epsilon_star_gof/config.h"

namespace privbench::epsilon_star_gof {

struct GofOptions {
  std::vector<int64_t> n_eval;  // each >= 2, increasing
  int64_t max_components = 20;  // k = 1..max_components
  // EM variance floors, each finite and > 0, distinct; the first is the
  // primary analysis.
  std::vector<double> variance_floors = {1e-6};
  EmOptions em;  // em.seed and em.variance_floor are set per fit
  KsPValueMethod primary = KsPValueMethod::kExact;
};

// Errors name the study parameters: n_eval, max_components, max_iterations,
// tolerance, variance_floors.
Status ValidateGofOptions(const GofOptions& options);

// Arrays over (floor index f, n_eval index i, component count k): element
// (f * I + i) * K + (k - 1), I = n_eval count, K = max_components.
struct GofGrid {
  int64_t floor_count = 0;
  int64_t n_eval_count = 0;
  int64_t components = 0;
  std::vector<int64_t> fit_size;  // per i: values.size() - n_eval[i]
  std::vector<double> p_value;    // primary method
  std::vector<double> p_exact;
  std::vector<double> p_asymptotic;
  std::vector<double> ks_statistic;
  std::vector<double> p_one_sample;  // extra: eval set vs fitted CDF
  std::vector<double> d_one_sample;
  std::vector<double> heldout_log_likelihood;  // mean log p(x) over the eval set
  std::vector<double> log_likelihood;          // of the fitting set
  std::vector<double> bic;
  std::vector<int64_t> iterations;
  std::vector<int64_t> converged;  // 1/0
  std::vector<int64_t> active_components;
  std::vector<int64_t> floored_components;
  size_t Index(int64_t f, int64_t i, int64_t k) const {
    return static_cast<size_t>((f * n_eval_count + i) * components + (k - 1));
  }
};

// Runs steps 1-4 on `values` (finite; more than max(n_eval) + max_components
// values). Advances `progress` (may be null) once per fit.
Result<GofGrid> RunGofGrid(const std::vector<double>& values, const GofOptions& options,
                           uint64_t seed, ProgressReporter* progress);

// The study's GofOptions: n_eval, components, EM settings (the first
// variance floor as em.variance_floor), init and primary p-value method
// parsed and validated (errors name the parameter).
Result<GofOptions> MakeGofOptions(const Config& config);

// The GofGrid fields a sweep unit stores per loss set, and the merged
// arrays hold per analysis (all but fit_size).
using GofDoubleField = std::vector<double> GofGrid::*;
using GofIntField = std::vector<int64_t> GofGrid::*;
const std::vector<std::pair<std::string, GofDoubleField>>& GofDoubleFields();
const std::vector<std::pair<std::string, GofIntField>>& GofIntFields();

// Grids of one loss set concatenated along their outermost (floor) axis:
// the analysis axis of the study.
std::vector<double> ConcatenateField(const std::vector<GofGrid>& grids, GofDoubleField field);
std::vector<int64_t> ConcatenateField(const std::vector<GofGrid>& grids, GofIntField field);

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
std::vector<AnalysisSpec> Analyses(const Config& config);

// The per-model scalars a sweep unit stores under /unit (and the merged file
// under /models), in this order.
const std::vector<std::string>& UnitScalarNames();

// The merged raw data of the study: arrays over [model m][repetition r]
// [loss set s][analysis f][n_eval index i][components k = 1..K].
struct GofArrays {
  int64_t M = 2, R = 0, S = 0, A = 0, I = 0, K = 0;
  std::map<std::string, std::vector<double>> d;     // GofDoubleFields()
  std::map<std::string, std::vector<int64_t>> n;    // GofIntFields()
  std::map<std::string, std::vector<double>> unit;  // UnitScalarNames(), [m][r]
  size_t At(int64_t m, int64_t r, int64_t s, int64_t f, int64_t i, int64_t k) const {
    return static_cast<size_t>(((((m * R + r) * S + s) * A + f) * I + i) * K + (k - 1));
  }
  // Values of `field` for one (model, set, analysis f) over repetitions,
  // every n_eval (or only index i_only) and components k_lo..k_hi.
  std::vector<double> P(int64_t m, int64_t s, int64_t f, int64_t k_lo, int64_t k_hi,
                        const std::string& field = "p_value", int64_t i_only = -1) const;
  // Both model types (no DP first).
  std::vector<double> Both(int64_t s, int64_t f, int64_t k_lo, int64_t k_hi,
                           const std::string& field = "p_value") const;
};

// The smallest k of the "many components" pool: 10, or K if K < 10.
int64_t BigK(const GofArrays& arrays);

// The k minimising the BIC of the fitting set (the smallest on ties) for one
// (model, repetition, loss set, analysis, n_eval index).
int64_t BicBestK(const GofArrays& arrays, int64_t m, int64_t r, int64_t s, int64_t f, int64_t i);

// Fraction of values strictly above `threshold` (NaN-free input; 0 for an
// empty one).
double FractionAbove(const std::vector<double>& values, double threshold);

}  // namespace privbench::epsilon_star_gof

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_COMPUTE_H_
