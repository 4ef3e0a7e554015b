// The claims of study synthetic_data_mia (F1; claims.json holds each
// statement and its criterion in "note"), judged from the Results that
// report.h writes. Each claim is a small function over building blocks
// exposed here for their unit tests (claims_test.cc). The review of
// 2026-11-28 changed
// four of them:
//  - outliers_leak_more: one unit per target (the outlier sweep, compute.h
//    RunOutlierSweep), an exact one-sided rank-sum test;
//  - fixed_beats_random: one unit per game pair, separately per stratum
//    (black-box on DP synthesizers, white-box on DP synthesizers,
//    black-box on the non-private ones);
//  - no_violation: only the audits that could have exceeded eps (their
//    ceiling, power.h JudgedCeiling, above eps) are judged;
//  - bugs_flagged: each planted bug's detection probability at paper scale;
//  - black_box_far_below: the worst case against the perfect-test bound.
#ifndef PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CLAIMS_H_
#define PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CLAIMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/lib/framework/judged_claim.h"
#include "experiments/synthetic_data_mia/report.h"

namespace privbench {
namespace synthetic_data_mia {

// Why the claim `id` cannot be decided on the attacks the games ran ("" when
// it can): features_beat_dcr needs histogram_logistic, queries_logistic and
// dcr_hamming; outliers_leak_more at least one black-box attack in the
// outlier sweep (its sweep_attacks that --attacks selected);
// black_box_far_below every black-box attack (its best black-box bound over
// fewer attacks would favour the claim). The others are decidable on any
// non-empty set (the worst-case audits always run).
std::string UndecidableReason(const Results& r, const std::string& id);

// ---- Helpers shared with tables.cc. ----
bool Ran(const Results& r, const std::string& attack);
bool AnyBlackBoxRan(const Results& r);
// "; attacks run (--attacks): a, b" when the games ran only some attacks.
std::string AttacksRunNote(const Results& r);
std::string CaseLabel(const CaseSpec& s);

// Per case: the largest judged bound of the black-box attacks on the Adult
// targets (both adversaries) and the largest ceiling among them, the
// white-box one on Adult, the worst-case white-box one (-1: not audited),
// the perfect-test bound (-1: none) and the best black-box AUC.
struct CaseBounds {
  double black_box = 0, black_box_ceiling = 0, white_box_adult = 0, worst_case = -1;
  double perfect_test = -1, best_auc = 0;
};
std::vector<CaseBounds> BoundsByCase(const Results& r);

// ---- Building blocks. ----

// The exact one-sided Wilcoxon-Mann-Whitney test of x against y (NaN values
// dropped): u = the rank sum of x minus n_x (n_x + 1) / 2 with midranks for
// ties (u / (n_x n_y) estimates P(X > Y) + P(X = Y) / 2); p_greater =
// P(U >= u) and p_less = P(U <= u) under the permutation distribution of the
// midranks (every split of the pooled values equally likely), computed
// exactly. Empty x or y: p-values 1.
struct RankSumTest {
  int64_t n_x = 0, n_y = 0;
  double u = 0;
  double p_greater = 1, p_less = 1;
};
RankSumTest ExactRankSumTest(const std::vector<double>& x, const std::vector<double>& y);

// Per sweep target: its mean AUC over its sweep games and their attacks (the
// unit of outliers_leak_more); NaN for a target without games.
std::vector<double> TargetExposure(const OutlierSweep& sweep);

// fixed_beats_random per stratum: per (case, target) with both adversaries'
// games, the largest judged bound over the stratum's attacks in each game,
// paired fixed vs random (one unit per game pair: a game's attacks share
// its releases). Strata: "black-box, DP", "white-box, DP", "black-box,
// non-private" (the non-private synthesizers release nothing white-box).
struct StratumTest {
  std::string name;
  bool black_box = true;
  SignTest test;
};
std::vector<StratumTest> FixedRandomStrata(const Results& r);
// The rule: each stratum's sign test at alpha / (number of strata)
// (Bonferroni). Holds when a black-box stratum is significant for the
// fixed adversary and no stratum is significant against it; does not hold
// when some stratum is significant against it; else inconclusive. The
// white-box stratum can refute but not establish the claim: there the two
// adversaries use different statistics (the exact likelihood ratio against
// a Gaussian approximation). holds_fraction: the fixed adversary's share of
// the untied black-box units.
SignVerdict FixedRandomVerdict(const std::vector<StratumTest>& strata, double alpha);

// no_violation's counts over the audits of correct DP synthesizers: all of
// them, those that could exceed their eps (judged ceiling above eps), and
// the bounds above eps among all and among those.
struct ViolationCount {
  int64_t audits = 0, could_exceed = 0, exceed = 0;
  int64_t game_audits = 0, game_could_exceed = 0, worst_audits = 0, worst_could_exceed = 0;
};
ViolationCount CountViolations(const Results& r);

// Per planted bug (a worst-case audit with a bug): its detection
// probability at quick and paper scale (the largest row of r.bug_power for
// it: each row is a lower bound on the flag probability; NaN: none) and
// whether this run flagged it.
struct BugDetection {
  int64_t worst_case = 0;
  double quick = 0, paper = 0;
  bool flagged = false;
};
std::vector<BugDetection> BugDetections(const Results& r);
// The probability the claim asks of each planted bug, at paper scale.
inline constexpr double kBugPowerRequired = 0.9;

// ---- The claims. ----
JudgedClaim FixedBeatsRandomClaim(const Results& r, double alpha);
JudgedClaim FeaturesBeatDcrClaim(const Results& r, double alpha);
JudgedClaim OutliersLeakMoreClaim(const Results& r, double alpha);
JudgedClaim NoViolationClaim(const Results& r, double alpha);
Claim BugsFlaggedClaim(const Results& r);
JudgedClaim BlackBoxFarBelowClaim(const Results& r);
Claim CostClaim(const Results& r);

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_CLAIMS_H_
