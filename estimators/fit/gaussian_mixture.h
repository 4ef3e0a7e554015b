// One-dimensional Gaussian mixture models fitted by maximum likelihood with
// the EM algorithm, for the goodness-of-fit study of the parametric Epsilon*
// (Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning Models",
// PPAI-24, App. B.2 and Fig. 6; experiments/epsilon_star_gof/README.md), which fits mixtures with
// 1..20 components to transformed losses, samples from each fit and compares
// the sample with held-out losses by a two-sample Kolmogorov-Smirnov test
// (estimators/fit/ks_test.h).
//
// MODEL: p(x) = sum_j w_j N(x; mu_j, v_j), j = 1..k, weights w_j >= 0
// summing to 1, variances v_j >= variance_floor.
//
// EM (Dempster, Laird & Rubin 1977; Bishop, PRML 2006, Sec. 9.2.2), on data
// x_1..x_N:
//   E-step: responsibilities r_ij = w_j N(x_i; mu_j, v_j) / p(x_i), computed
//           in log space (log-sum-exp), which also gives the log-likelihood
//           LL = sum_i log p(x_i) of the current parameters;
//   M-step: N_j = sum_i r_ij, w_j = N_j / N, mu_j = sum_i r_ij x_i / N_j,
//           v_j = max(sum_i r_ij (x_i - mu_j)^2 / N_j, variance_floor).
//           (Sums are accumulated around the previous mean, so the variance
//           suffers no cancellation.)
// Iterations stop when the mean log-likelihood per point changes by less than
// `tolerance` (|LL_t - LL_{t-1}| / N < tolerance, the criterion of
// scikit-learn's GaussianMixture) or after `max_iterations` M-steps.
//
// COLLAPSE GUARD: the likelihood of a mixture is unbounded (a component on
// one point with v -> 0); the variance floor bounds it. The floored M-step
// still maximises the expected complete-data log-likelihood over
// {v >= floor} (it is unimodal in v), so LL never decreases (up to rounding):
// a generalised EM. A component whose responsibilities all underflow to 0
// (N_j = 0) gets weight 0 and keeps its mean and variance; it is reported as
// inactive and does not count in `active_components`.
//
// INITIALISATION (deterministic):
//  - kQuantile (default, no randomness): sort the data and cut it into k
//    contiguous blocks of (nearly) equal count; component j starts at block
//    j's mean, variance (floored) and share of the points.
//  - kKMeansPlusPlus: k-means++ seeding (Arthur & Vassilvitskii 2007: first
//    centre uniform, each next one drawn with probability proportional to the
//    squared distance to the nearest chosen centre; Boost.Random on
//    MakeRng(seed)), then Lloyd iterations until the assignment stops
//    changing (at most max_iterations); components start from the clusters
//    (an empty cluster starts inactive). Data with fewer distinct values
//    than k end the seeding early; the missing components start inactive.
//
// BIC = -2 LL + (3k - 1) ln N (k means, k variances, k - 1 free weights;
// nominal k, as scikit-learn counts).
//
// ASSUMPTIONS: the data are i.i.d. draws of a continuous distribution; the
// mixture is a fit, not a claim that the losses are a mixture. Nothing here
// throws: bad input is an Error naming the argument ("k must be >= 1, got
// 0", "data must be non-empty", "data[3] must be finite, got nan").
#ifndef PRIVBENCH_ESTIMATORS_FIT_GAUSSIAN_MIXTURE_H_
#define PRIVBENCH_ESTIMATORS_FIT_GAUSSIAN_MIXTURE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"

namespace privbench {

struct GaussianMixture {
  std::vector<double> weights;    // w_j >= 0, sum 1
  std::vector<double> means;      // mu_j
  std::vector<double> variances;  // v_j > 0
  int64_t k() const { return static_cast<int64_t>(weights.size()); }
};

// Equal lengths >= 1, weights finite and >= 0 summing to 1 within 1e-9,
// means finite, variances finite and > 0. Messages name `name`.
Status CheckGaussianMixture(std::string_view name, const GaussianMixture& mixture);

enum class MixtureInit { kQuantile, kKMeansPlusPlus };

// "quantile" / "kmeans++".
std::string_view MixtureInitName(MixtureInit init);
// Inverse of MixtureInitName; the error names the argument "init".
Result<MixtureInit> ParseMixtureInit(std::string_view name);

struct EmOptions {
  int64_t max_iterations = 100;  // M-steps; >= 1 (scikit-learn's default 100)
  double tolerance = 1e-3;       // on the mean log-likelihood per point; >= 0 (sklearn: 1e-3)
  double variance_floor = 1e-6;  // > 0 (sklearn's reg_covar is 1e-6, added instead of floored)
  MixtureInit init = MixtureInit::kQuantile;
  uint64_t seed = 0;  // kKMeansPlusPlus only
};

// max_iterations >= 1, tolerance finite and >= 0, variance_floor finite and
// > 0, init a known enumerator.
Status ValidateEmOptions(const EmOptions& options);

struct EmFit {
  GaussianMixture mixture;
  double log_likelihood = 0.0;  // sum_i log p(x_i) at the returned parameters
  double bic = 0.0;
  int64_t iterations = 0;          // M-steps performed
  bool converged = false;          // the tolerance was met within max_iterations
  int64_t active_components = 0;   // weight > 0
  int64_t floored_components = 0;  // active, with variance at the floor
  // Log-likelihood at the initial parameters and after each M-step
  // (iterations + 1 values); non-decreasing up to rounding.
  std::vector<double> log_likelihood_trace;
};

// Fits a k-component mixture to `data` (non-empty, finite, at least k
// points; k >= 1). Errors name the argument; a non-finite log-likelihood
// (data spanning more than the double range) is an error, never a NaN.
Result<EmFit> FitGaussianMixture(const std::vector<double>& data, int64_t k,
                                 const EmOptions& options = {});

// log p(x) of a checked mixture (log-sum-exp over active components).
double MixtureLogPdf(const GaussianMixture& mixture, double x);
// P(X <= x) = sum_j w_j Phi((x - mu_j) / sqrt(v_j)) (Boost.Math erfc).
double MixtureCdf(const GaussianMixture& mixture, double x);
// sum_i log p(x_i); validates both arguments.
Result<double> MixtureLogLikelihood(const GaussianMixture& mixture,
                                    const std::vector<double>& data);

// n i.i.d. draws (n >= 0): a component by its weight (Boost.Random
// uniform_01 against the cumulative weights), then a Boost.Random normal.
// Same rng state => same values on every platform.
Result<std::vector<double>> SampleGaussianMixture(const GaussianMixture& mixture, int64_t n,
                                                  Rng& rng);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_FIT_GAUSSIAN_MIXTURE_H_
