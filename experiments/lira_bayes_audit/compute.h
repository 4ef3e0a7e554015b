// The torch-free part of study lira_bayes_audit (README.md): the
// DP-SGD noise for the target eps, the sweep's units, the IND-MIA game, the
// LiRA scores of the trials and the eps intervals with three threshold
// selections. Bayesian paper (Zanella-Beguelin et al., ICML 2023), Sec. 2.4
// (Experiment 2), Sec. 4 and 4.1, App. A.1 (Alg. 3).
//
// The game (Experiment 2, add/remove adjacency): the k = trials challenge
// points chosen by SelectWorst on the shadows of the setting; a base set S
// of pool_size / 2 points drawn at random from the rest of the pool and
// fixed for every trial; trial i trains ONE target model on S, plus the
// challenge point z_i if b_i = 1, b_i ~ Bernoulli(1/2) independently (so
// the members number ~ Binomial(trials, 1/2)). The attack's score for trial
// i is online LiRA on the target's phi(z_i), with z_i's IN/OUT Gaussians
// fitted on all the setting's shadows (the paper re-uses the shadows; so do
// we). The offline score is stored beside it.
//
// Estimation, per setting and registered interval estimator (those that need
// delta = 0, katz_log, do not apply at delta > 0 and are skipped):
//  - "max_lower" (the paper, Sec. 4): the ROC over the N trial scores has up
//    to N + 1 thresholds; each method reports its interval at the threshold
//    that maximises its OWN lower bound. The threshold is chosen on the same
//    data: NOT a valid confidence statement (the maximum of N + 1 lower
//    bounds exceeds the truth more often than alpha).
//  - "split_half" (valid): the trials are split at random into two halves;
//    the threshold maximising the method's lower bound on the first half is
//    applied to the second half, whose interval is reported.
//  - "bonferroni" (valid): G thresholds fixed before the trials are seen
//    (quantiles of the shadows' own LiRA scores on the challenge points); at
//    each, the method's interval at level alpha / G; the one with the largest
//    lower bound is reported. By the union bound every one of the G
//    intervals holds at once with probability >= 1 - alpha.
//  Ties in the lower bound go to the smaller upper bound, then to the first
//  threshold considered: the higher one on the ROC (max_lower, split_half),
//  the lower one in the ascending Bonferroni grid.
//  Validity here is the frequentist property of the threshold selection;
//  each method keeps its own coverage (the Bayesian interval is a credible
//  interval, experiments/bayes_coverage/README.md).
#ifndef PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "attacks/lira.h"
#include "core/result.h"
#include "estimators/confusion_counts.h"
#include "estimators/roc/roc.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/lira_bayes_audit/config.h"

namespace privbench {
namespace lira_bayes_audit {

struct Setting {
  std::string name;  // "no_dp", "dp_eps8"
  bool private_training = false;
};
std::vector<Setting> MakeSettings(const Config& c);

// The DP setting's noise: sigma for target_epsilon by the RDP accountant
// (add/remove, Poisson rate q = batch_size / n, steps = ceil(epochs n /
// batch_size)) for the target's training-set size n = pool_size / 2.
struct Accounting {
  int64_t n_train = 0;
  double q = 0.0;
  int64_t steps = 0;
  double sigma = 0.0;
  double epsilon = 0.0;  // the RDP eps at sigma (= target_epsilon)
  double delta = 0.0;
};
Result<Accounting> CalibrateNoise(const Config& c);

// Sweep units of phase 1 (shadows) and phase 2 (targets): per setting,
// blocks of models_per_unit models.
struct UnitKey {
  int64_t setting = 0;
  int64_t first = 0;  // first model (shadow index or trial index)
  int64_t count = 0;
};
std::vector<UnitKey> ShadowUnits(const Config& c);
std::vector<UnitKey> TargetUnits(const Config& c);
std::string UnitId(const std::vector<Setting>& settings, const UnitKey& key, const char* kind);

// Seeds of one model: weights, and batches + noise.
uint64_t InitSeed(uint64_t seed, int64_t setting, bool target, int64_t index);
uint64_t TrainSeed(uint64_t seed, int64_t setting, bool target, int64_t index);

// Pool rows: pool_size distinct rows of [0, n_available), seeded.
std::vector<int64_t> DrawRows(int64_t n_available, int64_t count, uint64_t seed);

struct GamePlan {
  std::vector<int64_t> challenge;  // pool index of trial i's point
  std::vector<uint8_t> bits;       // b_i
  std::vector<int64_t> base;       // S, sorted pool indices
};
// challenge: distinct pool indices; base of pool_size / 2 points from the
// rest (needs trials <= pool_size / 2).
Result<GamePlan> PlanGame(int64_t pool_size, const std::vector<int64_t>& challenge, uint64_t seed,
                          int64_t setting);
std::vector<int64_t> TargetTrainRows(const GamePlan& plan, int64_t trial);

// The shadows' training rows: pool points IN for shadow m.
std::vector<int64_t> ShadowTrainRows(const std::vector<uint8_t>& keep, int64_t pool_size,
                                     int64_t m);

struct TrialScores {
  std::vector<double> phi;      // the target's phi(z_i)
  std::vector<double> online;   // online LiRA score
  std::vector<double> offline;  // offline LiRA score
  std::vector<uint8_t> bits;
};
Result<TrialScores> ScoreTrials(const ShadowScores& shadows, const GamePlan& plan,
                                const std::vector<double>& target_phi, LiraLocation location);

// G thresholds from the shadows alone: quantiles (j + 1/2) / G of the online
// scores of every shadow on every challenge point.
Result<std::vector<double>> BonferroniGrid(const ShadowScores& shadows,
                                           const std::vector<int64_t>& challenge,
                                           LiraLocation location, int64_t g);

struct IntervalRow {
  std::string setting, selection, method;
  double threshold = 0.0;  // flag member iff score >= threshold
  ConfusionCounts counts;
  double lower = 0.0, upper = 0.0;  // upper = +inf for one-sided methods
  double level_alpha = 0.0;         // alpha of the reported interval
  int64_t thresholds_considered = 0;
};

// Every applicable method's lower/upper at every ROC point of all trials.
struct RocTable {
  RocCurve roc;
  std::vector<std::string> methods;
  std::vector<std::vector<double>> lower, upper;  // [method][point]
};

struct EstimateOptions {
  double alpha = 0.1;
  double delta = 1e-5;
  uint64_t split_seed = 0;
  int threads = 1;
};
// Registered interval methods applicable at delta > 0.
Result<std::vector<std::string>> ApplicableMethods(double delta);

Result<RocTable> EstimateAtEveryThreshold(const std::vector<double>& scores,
                                          const std::vector<uint8_t>& bits,
                                          const EstimateOptions& o);
// The three selections (see the header comment) for every method.
Result<std::vector<IntervalRow>> SelectIntervals(
    const std::string& setting, const std::vector<double>& scores, const std::vector<uint8_t>& bits,
    const RocTable& table, const std::vector<double>& grid, const EstimateOptions& o);

// Trial halves of the split variant: a seeded random half (first) and the rest.
std::vector<uint8_t> SplitHalves(int64_t n, uint64_t seed);

// ---- RMIA beside LiRA on the same shadow (reference) models ----
// (attacks/rmia.h; Zarifzadeh et al., ICML 2024). Population points z: the
// test_size held-out test images, which train no model; every model stores
// its true-class softmax probability of each. Pr(x | model) of a challenge
// point is sigmoid(phi) (phi is the logit of that probability).
//
// Attacks per setting, each with one score per trial (the target's model):
//  - "<attack>_all": every shadow serves every trial: lira_online and
//    lira_offline (the study's existing scores), rmia_online (all M shadows,
//    IN and OUT), rmia_offline (the M/2 OUT shadows of x; Pr(z) over all M).
//  - "<attack>_k<k>", k in kFewReferenceCounts: the k shadows with the
//    smallest indices that x did NOT train (offline, few references):
//    lira_offline with location mu_out the median of their phi and ONE
//    global standard deviation (the population std of every used reference
//    phi of every trial: Carlini et al.'s fixed-variance variant for few
//    shadows), and rmia_offline with Pr(x) and Pr(z) over the same k models.
// RMIA's a: tuned as the reference code's tune_offline_a (grid 0, 0.1, ..,
// 1; the largest AUC, ties to the smaller a) by attacking shadow 0 on every
// pool point with one OUT reference per point (the first other shadow it
// did not train); gamma = 1.
inline constexpr int64_t kFewReferenceCounts[] = {1, 2, 4};

double ProbFromPhi(double phi);  // 1 / (1 + exp(-phi))

struct PopulationProbs {
  int64_t population = 0;           // Z
  std::vector<double> shadow_prob;  // [M x Z]
  std::vector<double> target_prob;  // [trials x Z]
};

struct AttackScores {
  std::string name;        // lira_online_all, rmia_offline_k1, ...
  std::string attack;      // lira_online | lira_offline | rmia_online | rmia_offline
  int64_t references = 0;  // models serving each trial (0: all M)
  std::vector<double> scores;
  std::vector<int64_t> reference_shadows;  // [trials x k] for the _k<k> attacks
};

// The k shadows (smallest indices) that `point` did not train, skipping
// `exclude` (-1: none). Error when fewer than k exist.
Result<std::vector<int64_t>> FirstOutShadows(const ShadowScores& s, int64_t point, int64_t k,
                                             int64_t exclude);

Result<double> TuneOfflineA(const ShadowScores& shadows, const PopulationProbs& pop);

Result<std::vector<AttackScores>> ReferenceAttacks(const ShadowScores& shadows,
                                                   const GamePlan& plan, const TrialScores& trials,
                                                   const PopulationProbs& pop, double offline_a,
                                                   LiraLocation location);

// AUC, TPR at low FPR and eps lower bounds of one attack's trial scores
// (estimators/score_audit: one-sided Clopper-Pearson under the split,
// Bonferroni-quantile and max-over-thresholds selections, and the
// Gaussian-DP bound under the split).
struct AttackSummary {
  std::string setting, name, attack;
  int64_t references = 0;
  double auc = 0.0;
  std::vector<double> tpr_at_fpr;  // at kAuditFprLevels
  double eps_split = 0.0, eps_bonferroni = 0.0, eps_max = 0.0;
  double gdp_mu_split = 0.0, gdp_eps_split = 0.0;
};
Result<AttackSummary> SummariseAttack(const std::string& setting, const AttackScores& a,
                                      const std::vector<uint8_t>& bits, const EstimateOptions& o,
                                      int64_t bonferroni_thresholds, uint64_t seed);

// The claim's blocks: member trials in trial order go to blocks 0, 1, ..,
// B-1, 0, .. and so do the non-member trials (independent of the scores), so
// every block has both when B <= min(members, non-members). AUC per block.
std::vector<double> BlockAucs(const std::vector<double>& scores, const std::vector<uint8_t>& bits,
                              int64_t blocks);

}  // namespace lira_bayes_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_COMPUTE_H_
