// Shared code of the two Monte-Carlo coverage studies (STUDIES.md B6
// bayes_coverage, B7 katz_coverage) and of //experiments:coverage_benchmark.
//
// B6 (eps intervals from confusion counts; Bayesian paper Sec. 2.5-3.4):
//   for true rates (FNR, FPR) and n total membership trials (n/2 members,
//   n/2 non-members), one Monte-Carlo trial draws
//     FN ~ Bin(n/2, FNR),  FP ~ Bin(n/2, FPR)   (independent, Boost.Random)
//   and every registered interval estimator (interval_registry.h) builds its
//   nominal 1 - alpha interval from (TP, FN, FP, TN). The target is the true
//   eps of STUDIES.md A1, EpsFromRatesUnchecked(FNR, FPR, delta_m), where a
//   method with requires_zero_delta() runs at delta_m = 0 (and its target is
//   recomputed there) and every other method at the study's delta.
//   Coverage of a two-sided interval: lower <= eps_true <= upper; of a
//   one-sided lower bound: lower <= eps_true.
//
// B7 (a ratio of two binomial proportions; ML-Audit Sec. 4.2, Lemma A.3):
//   n1 ~ Bin(N, p1), n0 ~ Bin(N, p0) with p1 = P[M(D) in S],
//   p0 = P[M(D') in S]; the target is log(p1/p0), the eps lower bound at
//   delta = 0. RatioLowerBounds() gives four lower bounds on log(p1/p0):
//     katz_log                 Katz-log two-sided interval at significance
//                              alpha, lower end (ML-Audit's Eps_LB,
//                              KatzLogEpsLowerBound before clipping at 0);
//                              one-sided nominal level 1 - alpha/2;
//     katz_log_one_sided       the same with z_alpha; nominal 1 - alpha;
//     clopper_pearson_ratio    log(p1_lo / p0_hi), each Clopper-Pearson
//                              limit one-sided at alpha/2 (union bound; the
//                              prior-work bound ML-Audit replaces);
//                              guaranteed level >= 1 - alpha;
//     clopper_pearson_ratio_strict  each limit one-sided at alpha/4;
//                              guaranteed level >= 1 - alpha/2 (the level of
//                              katz_log, for a like-for-like comparison).
//   Coverage: bound <= log(p1/p0), with the bound NOT clipped at 0 (a bound
//   of -inf, from n1 = 0, covers). The eps lower bound an auditor reports is
//   max{0, bound}; it is vacuous when bound <= 0.
//
// Coverage classes (both studies): with the nominal standard error
// se0 = sqrt(nominal (1 - nominal) / trials), a setting's coverage c is
// "under" if c < nominal - 3 se0, "over" if c > nominal + 3 se0, else
// "near". For a method whose true coverage equals its nominal level, each
// one-sided class is entered by chance with probability Phi(-3) = 0.00135
// per setting (normal approximation).
#ifndef PRIVBENCH_EXPERIMENTS_COVERAGE_SIM_H_
#define PRIVBENCH_EXPERIMENTS_COVERAGE_SIM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/format.h"  // FormatFixed, used by the coverage tables
#include "core/result.h"
#include "estimators/confusion_counts.h"
#include "estimators/interval_estimator.h"

namespace privbench {

// ---------------------------------------------------------------------------
// Shared statistics.

// Nominal Monte-Carlo standard error sqrt(p (1 - p) / trials).
double NominalSe(double nominal, int64_t trials);
// Observed Monte-Carlo standard error sqrt(c (1 - c) / trials).
double ObservedSe(double coverage, int64_t trials);

enum class CoverageClass { kUnder, kNear, kOver };
// The classes above, with the threshold in units of NominalSe.
CoverageClass ClassifyCoverage(double coverage, double nominal, int64_t trials,
                               double threshold_se = 3.0);
const char* CoverageClassName(CoverageClass c);  // "under", "near", "over"

// printf("%.*f") of x ("inf", "-inf", "nan" for non-finite values): for
// evidence strings and captions.

// ---------------------------------------------------------------------------
// B6: eps intervals from confusion counts.

// The B6 defaults shared by the study and the benchmark (our choice; the
// paper gives no coverage grid): (FPR, FNR) pairs and total trials n.
struct RatePair {
  double fpr;
  double fnr;
};
std::vector<RatePair> DefaultCoverageRatePairs();
std::vector<int64_t> DefaultCoverageTrialCounts();  // {200, 1000, 5000}

// One Monte-Carlo trial: FN ~ Bin(positives, fnr), FP ~ Bin(negatives, fpr),
// drawn in that order from MakeRng-style seed `seed` with Boost.Random's
// binomial_distribution. Preconditions (unchecked): rates in [0, 1],
// counts in [1, 2^31).
ConfusionCounts DrawConfusionCounts(double fnr, double fpr, int64_t positives, int64_t negatives,
                                    uint64_t seed);

// A registered estimator as the study runs it.
struct CoverageMethod {
  std::string name;   // registry name
  std::string label;  // name, plus " (delta=0)" when run at delta = 0
  bool one_sided = false;
  double delta = 0.0;  // the delta it runs at (0 if requires_zero_delta())
  std::unique_ptr<IntervalEstimator> estimator;  // stateless; shared by threads
};

// Every registered interval estimator, in registry order (new estimators
// appear automatically). Validates delta.
Result<std::vector<CoverageMethod>> MakeCoverageMethods(double delta);

// Coverage of one interval (see the header comment).
bool IntervalCovers(double lower, const double* upper, double truth);

struct IntervalCoverageStats {
  int64_t trials = 0;
  double coverage = 0.0;    // fraction of trials covering the truth
  double se = 0.0;          // ObservedSe(coverage, trials)
  double miss_low = 0.0;    // fraction with truth < lower (interval above the truth)
  double miss_high = 0.0;   // fraction with truth > upper (two-sided only, else 0)
  double mean_lower = 0.0;  // mean lower end (always finite)
  double median_lower = 0.0;
  int64_t infinite = 0;  // two-sided intervals with upper = +inf
  double frac_infinite = 0.0;
  // Mean of upper - lower over the finite two-sided intervals; NaN when the
  // method is one-sided or every interval is infinite (documented in the
  // study's tables).
  double mean_width = 0.0;
};

// Statistics of one method in one setting; `upper` is empty for a one-sided
// method, else the same length as `lower`. Precondition: lower non-empty.
IntervalCoverageStats SummarizeIntervals(const std::vector<double>& lower,
                                         const std::vector<double>& upper, double truth);

// Paired width comparison of two two-sided methods over the same trials:
// means of upper - lower over the trials where BOTH are finite.
struct PairedWidths {
  int64_t both_finite = 0;
  double mean_a = 0.0, mean_b = 0.0;  // NaN if both_finite == 0
  double frac_infinite_a = 0.0, frac_infinite_b = 0.0;
};
PairedWidths ComparePairedWidths(const std::vector<double>& lower_a,
                                 const std::vector<double>& upper_a,
                                 const std::vector<double>& lower_b,
                                 const std::vector<double>& upper_b);

// ---------------------------------------------------------------------------
// B7: lower bounds on log(p1/p0).

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

// One Monte-Carlo trial of B7: n1 ~ Bin(n, p1) then n0 ~ Bin(n, p0).
void DrawRatioCounts(double p1, double p0, int64_t n, uint64_t seed, int64_t* n1, int64_t* n0);

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
RatioCoverageStats SummarizeRatioBounds(const std::vector<double>& bounds, double target);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_COVERAGE_SIM_H_
