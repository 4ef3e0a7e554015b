// The numbers of study katz_coverage (README.md): lower confidence
// bounds on a ratio of two binomial proportions (ML-Audit, Lu et al. NeurIPS
// 2022, Sec. 4.2 point 3, Lemma A.3).
//
// n1 ~ Bin(N, p1), n0 ~ Bin(N, p0) (simulations/ratio_draws.h, seed
// DeriveSeed(seed, {setting, trial})) with p1 = P[M(D) in S],
// p0 = P[M(D') in S]; the target is log(p1/p0), the eps lower bound at
// delta = 0. RatioLowerBounds() gives four lower bounds on log(p1/p0):
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
// max{0, bound}; it is vacuous when bound <= 0. Coverage classes:
// experiments/lib/coverage/coverage_class.h.
#ifndef PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>
#include <xtensor/xtensor.hpp>

#include "core/result.h"
#include "experiments/katz_coverage/config.h"
#include "experiments/lib/coverage/coverage_class.h"

namespace privbench::katz_coverage {

// The study's defaults, shared with //experiments/katz_coverage:benchmark
// (our choice; ML-Audit's simulations are in its lost appendix).
struct RatioPair {
  double p1;
  double p0;
};
std::vector<RatioPair> DefaultRatioPairs();
std::vector<int64_t> DefaultSamplesPerSide();  // {100, 1000, 10000}

// One (pair, N) setting.
struct RatioSetting {
  int64_t pair = 0;
  double p1 = 0.0, p0 = 0.0;
  int64_t n = 0;          // samples per side
  double target() const;  // log(p1/p0)
  // "(p1 0.5, p0 0.05, N 100)"
  std::string Label() const;
};
// Every (pair, N), pair-major.
std::vector<RatioSetting> MakeRatioSettings(const Config& c);

struct RatioMethod {
  std::string name;
  std::string description;
  double nominal;   // nominal one-sided coverage at the given alpha
  bool guaranteed;  // exact (conservative) by construction vs asymptotic
};
// The four methods of the header comment, in that order. Validates alpha.
Result<std::vector<RatioMethod>> MakeRatioMethods(double alpha);

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

struct RatioCoverageStats {
  int64_t trials = 0;
  double coverage = 0.0;        // fraction with bound <= target
  double se = 0.0;              // ObservedSe
  double mean_eps_bound = 0.0;  // mean of max{0, bound}
  double median_eps_bound = 0.0;
  double frac_vacuous = 0.0;  // fraction with bound <= 0 (eps bound 0)
  // Mean of max{0, bound} over the trials where the bound covers (a
  // tightness measure that does not reward over-shooting the target).
  double mean_eps_bound_covering = 0.0;
};
// The statistics of one setting's bounds over its trials.
RatioCoverageStats SummarizeRatioBounds(const xt::xtensor<double, 1>& bounds, double target);

// One method's bounds (setting, trial) and per-setting statistics.
struct RatioMethodData {
  xt::xtensor<double, 2> bounds;
  std::vector<RatioCoverageStats> stats;  // [S]
  std::vector<CoverageClass> classes;     // [S]
};

// Everything the Monte-Carlo run produced.
struct RatioRun {
  xt::xtensor<int64_t, 2> n1, n0;     // (setting, trial) drawn counts
  std::vector<RatioMethodData> data;  // one per method, in method order
};

// Draws every (setting, trial) and computes the four bounds, on `threads`
// threads (the result does not depend on the thread count). The first trial
// of each setting goes through the validated RatioLowerBounds (which
// cross-checks katz_log against KatzLogEpsLowerBound). Fills bounds, n1 and
// n0; the statistics are left to SummarizeRatioCoverage.
Result<RatioRun> RunRatioTrials(const Config& c, const std::vector<RatioSetting>& settings,
                                const std::vector<RatioMethod>& methods, uint64_t seed, int threads,
                                bool quiet);

// Fills stats and classes of every method (at each method's nominal level).
void SummarizeRatioCoverage(const std::vector<RatioSetting>& settings,
                            const std::vector<RatioMethod>& methods, int64_t trials, RatioRun* run);

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

}  // namespace privbench::katz_coverage

#endif  // PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_COMPUTE_H_
