// Aggregation and claim criteria of study C1 `region_of_privacy`
// (that_which_we_call_private.txt Sec. 3-5; STUDIES.md C1). Torch-free, so
// the criteria are unit-tested without training anything.
//
// Conventions: a "level" is one training noise multiplier; level vectors
// are ordered from the LARGEST noise to the smallest (the order of the
// paper's Table 1), so "rises as the noise falls" means "rises along the
// vector".
#ifndef PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_ANALYSIS_H_
#define PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_ANALYSIS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

// Mean and standard error of a rate averaged over `values.size()`
// repetitions, each measured on `n` examples: se = max(binomial standard
// error sqrt(p (1 - p) / (n R)) at the mean p, sample sd / sqrt(R) when
// R >= 2). The binomial term keeps the error honest when R = 1 or the
// repetitions happen to agree; the sd term covers training randomness.
// values non-empty, finite, in [0, 1]; n >= 1.
struct RateSummary {
  double mean = 0.0;
  double sd = 0.0;  // sample sd over repetitions (0 if R = 1)
  double se = 0.0;
};
Result<RateSummary> SummariseRate(const std::vector<double>& values, int64_t n);

// "Rises as the noise falls" (Table 1's accuracy and attack-TPR columns),
// stated so that sampling noise at chance level cannot decide it:
//   (a) no step from one noise level to the next smaller one DEcreases the
//       mean by more than 2 standard errors of the difference
//       (sqrt(se_i^2 + se_{i+1}^2)), and
//   (b) the mean at the smallest noise exceeds the mean at the largest
//       noise by more than 2 standard errors of that difference.
// Whether the means are also strictly increasing is reported separately.
struct RiseCheck {
  bool holds = false;
  bool strictly_increasing = false;
  std::string evidence;  // every mean +- se, the failing step if any
};
// noise, means, se: one entry per level (>= 2 levels), ordered from the
// largest noise to the smallest; `what` names the quantity in the evidence;
// `scale` multiplies the printed values (100 for percentages).
Result<RiseCheck> CheckRisesAsNoiseFalls(const std::vector<double>& noise,
                                         const std::vector<double>& means,
                                         const std::vector<double>& se, const std::string& what,
                                         double scale);

// Upper bound at least the lower bound at every level (lower[i] <= upper[i]).
// Used for "the attack lower bound never exceeds the RDP upper bound"
// (the region of privacy is non-empty) and for the ordering of the
// accountants ("RDP <= advanced"). Evidence lists every pair and the ratio
// upper / lower.
struct OrderCheck {
  bool holds = false;
  double min_ratio = 0.0;  // min over levels of upper / lower (+inf if a lower is 0)
  std::string evidence;
};
Result<OrderCheck> CheckBelow(const std::vector<double>& noise, const std::vector<double>& lower,
                              const std::vector<double>& upper, const std::string& lower_name,
                              const std::string& upper_name);

// The best-threshold advantage max_t (TPR(t) - FPR(t)) of a loss-threshold
// attack is the one-sided two-sample Kolmogorov-Smirnov statistic D+ of the
// member and non-member loss samples. If the two loss distributions were
// identical (a model that leaks nothing), D+ would still be positive: with
// m members and n non-members, sqrt(mn/(m+n)) D+ converges to the supremum
// of a Brownian bridge (Smirnov 1939), whose mean is sqrt(pi/8) and whose
// upper tail is P(> x) = exp(-2 x^2). Hence
//   NullMeanBestAdvantage = sqrt(pi/8) sqrt((m+n)/(mn))
//   NullQuantileBestAdvantage(p) = sqrt(ln(1/(1-p)) / 2) sqrt((m+n)/(mn)).
// For m = n = 10,000: mean 0.0089, 95% quantile 0.0173. Advantages at this
// level carry no evidence of leakage; their Prop. 3 "lower bounds" are the
// floor set by the sample size (that_which_we_call_private Sec. 5.4: the
// best threshold uses the labels). m, n >= 1; p in (0, 1).
Result<double> NullMeanBestAdvantage(int64_t m, int64_t n);
Result<double> NullQuantileBestAdvantage(int64_t m, int64_t n, double p);

// "1.06" for 1.06, "136.67" for 136.67: a noise multiplier in unit ids and
// tables (shortest round-trip text of up to 6 significant digits).
std::string NoiseText(double sigma);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_ANALYSIS_H_
