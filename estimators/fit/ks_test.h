// Kolmogorov-Smirnov tests: the two-sample test of the goodness-of-fit study
// of the parametric Epsilon* (Negoescu et al., PPAI-24, App. B.2, Fig. 6;
// experiments/epsilon_star_gof/README.md: held-out transformed losses against a sample drawn from a
// fitted Gaussian mixture), and a one-sample test against a known CDF.
//
// STATISTIC (two-sided): D = sup_x |F_a(x) - F_b(x)| over the empirical CDFs
// of the two samples, evaluated after ALL observations equal to x (so ties,
// within or across samples, are handled exactly, as scipy.stats.ks_2samp
// does). Computed as the exact rational max |i n_b - j n_a| / (n_a n_b) over
// the merged sorted samples, then converted to double.
//
// P-VALUES, H0: both samples are i.i.d. from the same continuous
// distribution (with ties the p-values are conservative):
//  - kExact, equal sizes n_a = n_b = n only: D takes values h/n, and
//      P(D >= h/n) = 2 sum_{j=1}^{floor(n/h)} (-1)^{j+1} C(2n, n - jh) / C(2n, n)
//    (Gnedenko & Korolyuk 1951; the reflection principle for lattice paths;
//    the formula scipy.stats.ks_2samp(method="exact") uses for n_a = n_b).
//    The binomial ratios are exp of differences of Boost.Math lgamma.
//  - kAsymptotic: Kolmogorov's limit distribution at the effective sample
//    size n_e = n_a n_b / (n_a + n_b) (Smirnov 1939):
//      p = Q_KS(sqrt(n_e) D),  Q_KS(l) = 2 sum_{j>=1} (-1)^{j-1} exp(-2 j^2 l^2),
//    i.e. scipy.stats.kstwobign.sf(sqrt(n_e) * D). NOTE: scipy's
//    ks_2samp(method="asymp") is NOT this: it evaluates the exact one-sample
//    distribution at round(n_e) (scipy.stats.kstwo.sf(D, round(n_e))).
//    For n_a = n_b = n the limit differs from the exact p-value by at most
//    0.0027 (n = 100), 0.0014 (200), 0.00055 (500), 0.00028 (1000) over
//    every attainable D (max over h = 1..n, computed with SciPy 1.10), in
//    either direction.
// Q_KS is hand-written because Boost.Math 1.74 has no Kolmogorov
// distribution (boost/math/distributions/kolmogorov_smirnov.hpp arrived in
// 1.75) and no Jacobi theta functions: for l >= 1 the alternating series
// above; for l < 1 the Jacobi-transformed series
//   1 - Q_KS(l) = sqrt(2 pi) / l sum_{j>=1} exp(-(2j-1)^2 pi^2 / (8 l^2)),
// both summed until the next term is below 1e-17 of the sum (absolute error
// < 1e-15; the test pins scipy.special.kolmogorov values).
//
// ONE-SAMPLE (an extra of the study, without the sampling noise of the
// paper's sample-from-the-fit design): D = sup_x |F_n(x) - F(x)| for a
// continuous F, p = Q_KS(sqrt(n) D) (asymptotic).
#ifndef PRIVBENCH_ESTIMATORS_FIT_KS_TEST_H_
#define PRIVBENCH_ESTIMATORS_FIT_KS_TEST_H_

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace privbench {

enum class KsPValueMethod { kExact, kAsymptotic };

// "exact" / "asymptotic".
std::string_view KsPValueMethodName(KsPValueMethod method);
// Inverse of KsPValueMethodName; the error names the argument "ks_method".
Result<KsPValueMethod> ParseKsPValueMethod(std::string_view name);

struct KsTestResult {
  double statistic = 0.0;  // D in [0, 1]
  double p_value = 1.0;    // in [0, 1]
  int64_t n_a = 0, n_b = 0;
};

// D of two non-empty finite samples (messages name "sample_a" / "sample_b").
Result<double> KsTwoSampleStatistic(const std::vector<double>& sample_a,
                                    const std::vector<double>& sample_b);

// Q_KS(lambda) = P(K > lambda) for Kolmogorov's K; 1 for lambda <= 0,
// 0 for +inf. Error for NaN (names "lambda").
Result<double> KolmogorovSurvival(double lambda);

// Asymptotic two-sample p-value of a statistic d in [0, 1] (names "d",
// "n_a", "n_b"; sizes >= 1).
Result<double> KsTwoSampleAsymptoticPValue(double d, int64_t n_a, int64_t n_b);

// Exact P(D >= d) for two samples of equal size n >= 1; d in [0, 1] must be
// a multiple of 1/n (within 1e-9), as every statistic of such samples is.
Result<double> KsTwoSampleExactPValue(double d, int64_t n);

// Statistic and p-value. kExact requires equal sizes (error otherwise,
// naming "ks_method").
Result<KsTestResult> KsTwoSampleTest(const std::vector<double>& sample_a,
                                     const std::vector<double>& sample_b, KsPValueMethod method);

// One-sample D of a non-empty finite sample against a CDF (values outside
// [0, 1] or NaN from `cdf` are an error), and its asymptotic p-value.
Result<KsTestResult> KsOneSampleTest(const std::vector<double>& sample,
                                     const std::function<double(double)>& cdf);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_FIT_KS_TEST_H_
