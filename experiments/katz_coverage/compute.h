// The numbers of study katz_coverage (README.md): lower confidence
// bounds on a ratio of two binomial proportions (ML-Audit, Lu et al. NeurIPS
// 2022, Sec. 4.2 point 3, Lemma A.3).
//
// The design, the statistics and their assumptions are those of
// experiments/lib/coverage/coverage_run.h with (x, y) = (p1, p0) and n = N
// samples per side: a trial draws n1 ~ Bin(N, p1), n0 ~ Bin(N, p0)
// (simulations/ratio_draws.h) with p1 = P[M(D) in S], p0 = P[M(D') in S];
// the target is log(p1/p0), the eps lower bound at delta = 0.
// RatioLowerBounds() gives four lower bounds on log(p1/p0):
//   katz_log                 Katz-log two-sided interval at significance
//                            alpha, lower end (ML-Audit's Eps_LB,
//                            KatzLogEpsLowerBound before clipping at 0);
//                            one-sided nominal level 1 - alpha/2;
//   katz_log_one_sided       the same with z_alpha; nominal 1 - alpha;
//   clopper_pearson_ratio    log(p1_lo / p0_hi), each Clopper-Pearson
//                            limit one-sided at alpha/2 (union bound; the
//                            prior-work bound ML-Audit replaces);
//                            guaranteed level >= 1 - alpha;
//   clopper_pearson_ratio_strict  each limit one-sided at alpha/4;
//                            guaranteed level >= 1 - alpha/2 (the level of
//                            katz_log, for a like-for-like comparison).
// Coverage: bound <= log(p1/p0), with the bound NOT clipped at 0 (a bound
// of -inf, from n1 = 0, covers). The eps lower bound an auditor reports is
// max{0, bound} (the clipped lower end); it is vacuous when bound <= 0.
#ifndef PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_COMPUTE_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "experiments/katz_coverage/config.h"
#include "experiments/lib/coverage/coverage_run.h"

namespace privbench::katz_coverage {

// The study's defaults, shared with //experiments/katz_coverage:benchmark
// (our choice; ML-Audit's simulations are in its lost appendix).
struct RatioPair {
  double p1;
  double p0;
};
std::vector<RatioPair> DefaultRatioPairs();
std::vector<int64_t> DefaultSamplesPerSide();  // {100, 1000, 10000}

// The target log(p1/p0) of a setting (x = p1, y = p0).
double LogRatio(const CoverageSetting& s);

// The four methods of the header comment, in that order, each one-sided at
// its nominal level. Validates alpha.
Result<std::vector<CoverageMethod>> MakeRatioMethods(double alpha);

// The four unclipped lower bounds on log(p1/p0) (may be -inf), in the order
// of MakeRatioMethods, from n1 of n and n0 of n successes. Validates the
// counts and alpha; the katz_log value is checked against the library's
// KatzLogEpsLowerBound (max{0, bound} must agree).
Result<std::vector<double>> RatioLowerBounds(int64_t n1, int64_t n0, int64_t n, double alpha);

// The same without validation or the cross-check, with precomputed
// normal quantiles z_{alpha/2}, z_alpha (for inner loops).
struct RatioBoundConstants {
  double alpha;
  double z_half_alpha;  // upper alpha/2 quantile of N(0, 1)
  double z_alpha;       // upper alpha quantile
};
Result<RatioBoundConstants> MakeRatioBoundConstants(double alpha);
std::vector<double> RatioLowerBoundsUnchecked(int64_t n1, int64_t n0, int64_t n,
                                              const RatioBoundConstants& k);

// The largest bound each method can show with N samples per side: the
// extreme outcomes n1 = N with n0 = 1 (ML-Audit Corollary 4.0.1 for Katz)
// and n0 = 0, for every N of the config (rows with n0 > N left out).
struct CeilingRow {
  int64_t n = 0;
  int64_t n0 = 0;
  double corollary = 0.0;      // KatzLogCeiling(N, alpha)
  std::vector<double> bounds;  // RatioLowerBounds(N, n0, N, alpha)
};
Result<std::vector<CeilingRow>> DetectionCeiling(const Config& c);

// What the computation hands the report: the grid of (p1, p0) x N settings,
// the four methods, the trials (counts n1, n0) with their statistics, and
// the detection ceiling.
struct Results : CoverageResults {
  std::vector<CeilingRow> ceiling;
};

// The grid of (p1, p0) x N settings and the four methods, not yet run.
Result<Results> RatioDesign(const Config& c);

// One trial: draws (n1, n0) and computes the four bounds, the first trial of
// each setting through the validated RatioLowerBounds (which cross-checks
// katz_log against KatzLogEpsLowerBound), the others through
// RatioLowerBoundsUnchecked.
Result<CoverageTrialFn> RatioTrial(double alpha);

// The whole computation, on `threads` threads (the result does not depend
// on the thread count).
Result<Results> ComputeRatioCoverage(const Config& c, uint64_t seed, int threads, bool quiet);

}  // namespace privbench::katz_coverage

#endif  // PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_COMPUTE_H_
