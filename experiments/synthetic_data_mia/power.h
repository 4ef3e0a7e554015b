// What a worst-case audit of study synthetic_data_mia (compute.h) can show at
// its sample size, no I/O:
//  - the judged bound at given counts and its CEILING, the largest bound the
//    audit could report at its sample size whatever the scores (perfect
//    separation on the audit half): an audit whose ceiling is below eps
//    cannot exceed eps, so it cannot fail a validity test;
//  - the DETECTION PROBABILITY of the split audit when the score's law is
//    known: the auditor's own threshold selection (estimators/score_audit
//    "split") applied to `replicates` selection halves drawn from the law,
//    and, given each selected threshold, the exact probability that the
//    audit half's judged bound exceeds the claimed eps (independent
//    binomial counts on the audit half; the flagged set of counts is a
//    down-set plus an up-set, score_audit.h's proof for corners). The mean
//    over the replicates is the detection probability, with its Monte Carlo
//    standard error;
//  - the PERFECT-TEST BOUND: the median Gaussian-DP eps(delta) that an exact
//    likelihood-ratio test whose trade-off is Gaussian (mu) reaches on the
//    audit half at the best fixed threshold (a grid of 201 thresholds), the
//    median exact over the two binomial counts: what a perfect test can show
//    at that sample size (the split's threshold, chosen on the other half,
//    can only do worse on average).
// The audit half holds n - floor(n / 2) of the n releases of each side
// (score_audit.h: the selection half takes floor(n / 2)).
#ifndef PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_POWER_H_
#define PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_POWER_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"
#include "estimators/confusion_counts.h"

namespace privbench {
namespace synthetic_data_mia {

// The law of one attack's score on both sides of a worst-case pair, up to an
// increasing map (the audit reads the scores' order only).
struct ScoreLaw {
  enum class Kind { kGaussian, kLaplaceCell, kEmpirical };
  Kind kind = Kind::kGaussian;
  // kGaussian: non-member N(0, 1), member N(mu, 1): the white-box
  // log-likelihood ratio of a Gaussian mechanism, standardised.
  double mu = 0;
  // kLaplaceCell: one noisy count x = c + Laplace(b), c = 0 (non-member) or 1
  // (member); score clip(2x - 1, -1, 1), an increasing map of the white-box
  // LLR (|x| - |x - 1|) / b.
  double b = 0;
  // kEmpirical: observed scores (sorted ascending), each side drawn
  // uniformly from its own (a plug-in law).
  std::vector<double> member, nonmember;
};

// P(score >= t) on the member (true) or non-member side.
double Survival(const ScoreLaw& law, bool member, double t);
// One score drawn from the law.
double DrawScore(const ScoreLaw& law, bool member, Rng& rng);

// The bound a study audit judges (compute.h JudgedBound): the one-sided
// Clopper-Pearson eps lower end or, where the test's trade-off is Gaussian,
// the Gaussian-DP eps(delta) of mu_lower; at level alpha against the
// claimed epsilon.
struct AuditJudge {
  bool gaussian_dp = false;
  double alpha = 0.05;
  double delta = 0;
  double epsilon = 1;
};

// The judged bound at the audit half's counts.
Result<double> JudgeAtCounts(const AuditJudge& judge, const ConfusionCounts& counts);

// The largest bound the audit of n_member and n_nonmember scores can report:
// the judged bound at perfect separation (fn = fp = 0) of its audit half.
Result<double> JudgedCeiling(const AuditJudge& judge, int64_t n_member, int64_t n_nonmember);

// The counts the audit flags on an audit half of m_in member and m_out
// non-member scores: fn <= below[fp] or fn >= above[fp], fp = 0..m_out
// (below -1, above m_in + 1: none).
struct FlagRegion {
  int64_t m_in = 0, m_out = 0;
  std::vector<int64_t> below, above;
};
Result<FlagRegion> MakeFlagRegion(const AuditJudge& judge, int64_t m_in, int64_t m_out);
// P(flag) at a threshold with rates fpr and fnr (exact binomial sums).
double FlagProbability(const FlagRegion& region, double fpr, double fnr);

struct DetectionPower {
  int64_t trials = 0;         // releases per side
  int64_t replicates = 0;     // selection halves drawn
  double probability = 0;     // mean over the replicates of the exact audit-half probability
  double standard_error = 0;  // Monte Carlo standard error of that mean
};
// The detection probability of the split audit of `trials` releases per side
// (above). Errors name the argument.
Result<DetectionPower> AuditDetectionPower(const ScoreLaw& law, const AuditJudge& judge,
                                           int64_t trials, int64_t replicates, uint64_t seed);

// The perfect-test bound (above) of a test whose trade-off is Gaussian with
// parameter mu, audited with `trials` releases per side at level alpha and
// delta > 0; 0 where no threshold's median bound is positive.
Result<double> PerfectTestBound(double mu, double alpha, double delta, int64_t trials);

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_POWER_H_
