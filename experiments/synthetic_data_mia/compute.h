// The numbers of study synthetic_data_mia (F1; README.md in this folder), no
// I/O: membership games against synthetic tabular data (shadow modelling),
// the worst-case white-box audits of Annamalai et al., the planted bugs and
// the cost measurement.
//
// THE GAME (the review's "Shadow modeling and attack logic"; Stadler,
// Oprisanu & Troncoso, USENIX Security 2022; Houssiau et al.'s TAPAS, 2022).
// Per (synthesizer at eps, target, adversary): `train_datasets` +
// `test_datasets` releases, alternately without (even index) and with (odd)
// the target. A release draws D- (n_records - 1 rows), adds the target when
// labelled "in", and runs the synthesizer with fresh randomness, keeping the
// n_synthetic rows and the noisy measurements. Adversaries:
//  - "fixed" (TAPAS): one D- per target drawn once from the population and
//    known to the adversary; only the synthesizer's randomness varies;
//  - "random" (Stadler et al.): a fresh D- from the population per release;
//    the adversary knows the population (its auxiliary data), not D-.
// The same releases feed every attack the game runs (config `attacks`,
// --attacks; all by default, and a release computes only the statistics
// of those):
//  - dcr_hamming, dcr_l2: minus the distance from the target to its closest
//    synthetic row (no training);
//  - naive_logistic, histogram_logistic: Stadler et al.'s feature sets of the
//    synthetic table, a logistic regression trained on the training releases;
//  - correlations_forest: their correlation features with a random forest
//    (their 2,346 features make a Newton logistic fit per game too costly);
//  - queries_logistic, queries_forest: `queries` TAPAS-style targeted
//    counting queries of order 1-3 (the fraction of synthetic rows matching
//    the target on a random attribute subset), either classifier;
//  - white_box: the log-likelihood ratio of the released noisy marginals
//    (attacks/synthetic/marginal_white_box.h), the adversary's reference
//    counts being D-'s (fixed) or the population's expectation (random).
// Each attack's test scores go to the score auditor (estimators/score_audit)
// with the "split" selection only (valid): AUC, TPR at FPR <= 0.1, and every
// applicable interval method's eps lower end (the one-sided
// Clopper-Pearson one is the study's bound for pure DP) and the Gaussian-DP
// mu lower bound, at delta = 0 for the pure-DP synthesizers and `delta` for the zCDP
// ones. Privacy gain 1 - (TPR - FPR) on the test releases at a threshold
// fixed before seeing them: the classifiers' decision boundary (log-odds 0,
// forest probability 1/2), and for
// the untrained scores the threshold maximising TPR - FPR on the training
// releases.
//
// WORST CASE (Annamalai, Ganev & De Cristofaro, USENIX Security 2024): D- is
// one record r0 (every attribute at its first value), the target every
// attribute at its last value, so each of its marginal cells is empty in D-;
// `worst_case_trials` releases per side; the white-box score with D- known
// (the Neyman-Pearson test when measurements are independent) and
// dcr_hamming, each audited at alpha / 2 (Bonferroni over the two).
#ifndef PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_COMPUTE_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"
#include "data_scripts/categorical.h"
#include "experiments/synthetic_data_mia/config.h"
#include "experiments/synthetic_data_mia/power.h"
#include "experiments/synthetic_data_mia/targets.h"
#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {
namespace synthetic_data_mia {

// The attacks, in report order; the last is the white-box one.
const std::vector<std::string>& AttackNames();
bool IsWhiteBox(const std::string& attack);
// The attacks the games run: AttackNames() restricted to config.attacks, in
// AttackNames() order (a repeated name counts once).
std::vector<std::string> SelectedAttacks(const Config& config);

// One synthesizer at one budget (plus any planted bug).
struct CaseSpec {
  std::string synthesizer;
  SynthesizerOptions options;
  SynthesizerGuarantee guarantee;  // epsilon = +inf: non-private
  double audit_delta = 0;          // 0 for pure DP and non-private, else config delta
  std::string bug;                 // "" or the planted bug's option name
};

// The cases of the main grid: every non-private synthesizer once, every DP
// one at every eps. zCDP synthesizers get rho from the optimal conversion
// (accountants: Canonne, Kamath & Steinke 2020) at (eps, delta).
Result<std::vector<CaseSpec>> MainCases(const Config& config);
// bug: "" (correct) or a planted bug: "domain_from_data", "laplace_half_scale",
// "mst_unscaled_noise", "one_marginal_low_noise" (the first marginal's noise
// at kLowNoiseFraction of its scale), "double_spent_marginal" (the first
// marginal measured twice, each copy at its share of the budget).
Result<CaseSpec> MakeCase(const std::string& synthesizer, double epsilon, double delta,
                          const std::string& bug);
inline constexpr double kLowNoiseFraction = 0.75;

// One attack's audit on one game.
struct AttackOutcome {
  std::string attack;
  std::vector<double> test_scores;  // per test release (labels: odd = in)
  double auc = 0;
  double tpr_at_fpr_01 = 0;          // TPR at empirical FPR <= 0.1
  double privacy_gain = 1;           // 1 - (TPR - FPR) at the fixed threshold
  std::vector<std::string> methods;  // interval methods audited
  std::vector<double> eps_lower;     // per method, split selection
  // The one-sided Clopper-Pearson eps lower end (exact, valid at alpha):
  // the bound the study judges pure-DP synthesizers by. The other methods'
  // ends are in eps_lower; the Bayesian ones are credible, not confidence,
  // intervals and can exceed a correct mechanism's eps at the split's
  // extreme thresholds.
  double cp_eps_lower = 0;
  double mu_lower = 0;       // Gaussian-DP, split selection
  double gdp_eps_lower = 0;  // eps(delta) of mu_lower (0 at delta = 0)
  // The largest judged bound (JudgedBound) this audit could report at its
  // sample size and level, whatever the scores (power.h JudgedCeiling):
  // below the claimed eps the audit cannot exceed it. +inf: not computed.
  double judged_ceiling = std::numeric_limits<double>::infinity();
};

// An audit's one-number outcomes by the dataset name a part (/game/<name>)
// and the study file (/games/<name>) give each.
inline constexpr std::pair<const char*, double AttackOutcome::*> kOutcomeFields[] = {
    {"auc", &AttackOutcome::auc},
    {"tpr_at_fpr_01", &AttackOutcome::tpr_at_fpr_01},
    {"privacy_gain", &AttackOutcome::privacy_gain},
    {"cp_eps_lower", &AttackOutcome::cp_eps_lower},
    {"mu_lower", &AttackOutcome::mu_lower},
    {"gdp_eps_lower", &AttackOutcome::gdp_eps_lower},
    {"judged_ceiling", &AttackOutcome::judged_ceiling}};

struct GameResult {
  int64_t case_index = 0, target_index = 0;
  std::string adversary;
  std::vector<AttackOutcome> attacks;  // SelectedAttacks() order
  double seconds = 0;                  // wall clock of the whole game
};

struct WorstCaseResult {
  CaseSpec spec;
  int64_t attributes = 0;              // width of the audited table
  bool bug_audit = false;              // a planted bug or its correct counterpart
  std::vector<AttackOutcome> attacks;  // white_box, dcr_hamming (alpha / 2 each)
  double best_cp_eps_lower = 0;        // over both attacks
  bool flagged = false;                // a valid eps lower bound above the claimed eps
};

struct CostResult {
  std::string synthesizer;
  std::vector<int64_t> sizes;
  std::vector<double> seconds_per_release;  // median over repeats
  double slope = 0;                         // least-squares slope of log time on log n
};

// The shared inputs of every game.
struct GameInputs {
  const Config* config = nullptr;
  const CategoricalDomain* domain = nullptr;
  const CategoricalTable* population = nullptr;
  const std::vector<Target>* targets = nullptr;
  uint64_t seed = 0;
  int threads = 1;
};

Result<GameResult> RunGame(const GameInputs& in, const CaseSpec& spec, int64_t case_index,
                           int64_t target_index, const std::string& adversary);

// The private table of release `index`: D- (the fixed one, or n_minus
// distinct population rows drawn with rng when fixed_minus is null), plus
// the target when the index is odd ("in").
CategoricalTable ReleaseData(const CategoricalTable& population,
                             const CategoricalTable* fixed_minus,
                             const std::vector<int32_t>& target, int64_t n_minus, int64_t index,
                             Rng& rng);

// The white-box score of one release: the log-likelihood ratio of its noisy
// marginals (attacks/synthetic/marginal_white_box.h) against D-'s exact
// counts (known_minus) or, when known_minus is null, the population's
// expected counts for n_minus rows with their sampling variance. 0 for a
// release without measurements (the non-private synthesizers).
Result<double> WhiteBoxScore(const SynthesisOutput& release, const std::vector<int32_t>& target,
                             const CategoricalDomain& domain, const CategoricalTable* known_minus,
                             const CategoricalTable* population, int64_t n_minus);

// The audit of one attack's scores (labels: odd index = in).
Result<AttackOutcome> AuditAttack(const std::string& attack, const std::vector<double>& scores,
                                  double threshold, const CaseSpec& spec, double alpha,
                                  uint64_t seed);

// Whether the test's trade-off curve is Gaussian (the judged bound is then
// the Gaussian-DP eps(delta)): a zCDP case (audit delta > 0) and every
// attack on the Gaussian histograms or the white-box attack on MST.
bool GaussianTradeoff(const CaseSpec& spec, const std::string& attack);
// What JudgedBound judges for `attack` on `spec` at level alpha (power.h).
AuditJudge JudgeOf(const CaseSpec& spec, const std::string& attack, double alpha);

// The eps lower bound the study judges a DP synthesizer by (violations,
// flags, comparisons): the one-sided Clopper-Pearson end, valid for any
// mechanism; for a zCDP synthesizer, the Gaussian-DP eps(delta) of mu_lower
// instead where the trade-off curve of the test is Gaussian: every attack on
// the Gaussian histograms (an exact mu-GDP mechanism) and the white-box
// attack on MST (its log-likelihood ratio with D- known is exactly
// N(+-mu^2/2, mu^2) whatever tree is selected). Elsewhere (distance and
// feature attacks on MST) the Gaussian shape would be an assumption, so
// Clopper-Pearson is used.
double JudgedBound(const AttackOutcome& outcome, const CaseSpec& spec);

// The worst-case pair on the first `attributes` attributes of the domain.
Result<WorstCaseResult> RunWorstCase(const GameInputs& in, const CaseSpec& spec, int64_t attributes,
                                     int64_t case_index);

// The worst-case audits: every DP case of the main grid on the full domain,
// then the planted bugs and their correct counterparts at bug_epsilon.
struct WorstCasePlan {
  CaseSpec spec;
  int64_t attributes = 0;
  bool bug_audit = false;  // a planted bug or its correct counterpart
};
Result<std::vector<WorstCasePlan>> WorstCasePlans(const Config& config,
                                                  const std::vector<CaseSpec>& main_cases,
                                                  const CategoricalDomain& domain);

Result<CostResult> MeasureCost(const GameInputs& in, const std::string& synthesizer);

// ---- the outlier sweep, the planted bugs' power, the perfect
// test (power.h). ----

// THE OUTLIER SWEEP (outliers_leak_more, judged over targets): its own
// targets, the sweep_outliers most isolated and sweep_randoms random records
// of the same scored sample as the main targets (targets.h ChooseTargets at
// the run's seed, no canary), the population without any copy of them, and
// one game per (sweep case, target, sweep adversary) with
// sweep_train_datasets / sweep_test_datasets releases and the sweep's
// attacks, seeded from DeriveSeed(seed, {StableHash("outlier_sweep")}).
struct OutlierSweep {
  std::vector<Target> targets;
  int64_t removed_duplicates = 0;
  std::vector<int64_t> cases;        // indices into the main cases
  std::vector<std::string> attacks;  // SweepAttacks()
  std::vector<GameResult> games;     // case_index: the main case's index
  int64_t train_datasets = 0, test_datasets = 0;
};
// The sweep's cases: the 2-way synthesizers of the main grid (chow_liu; mst
// and privbayes at each eps of sweep_epsilons), in the main order.
std::vector<int64_t> SweepCases(const Config& config, const std::vector<CaseSpec>& cases);
// Its attacks: the black-box ones of sweep_attacks that --attacks selected,
// in AttackNames() order (empty: the claim is undecidable).
std::vector<std::string> SweepAttacks(const Config& config);
Result<OutlierSweep> RunOutlierSweep(const GameInputs& in, const CategoricalTable& pool,
                                     const std::vector<CaseSpec>& cases, bool quiet);
// The sweep before any game, for running its games one at a time (the
// study's sweep units, parts.h): RunOutlierSweep is PlanOutlierSweep, then
// RunGame(SweepGameInputs(in, plan), cases[k], k, t, adversary) for each k of
// sweep.cases, t of sweep.targets and adversary of config.adversaries, in
// that order, appended to sweep.games.
struct OutlierSweepPlan {
  Config config;       // the main config with the sweep's targets, releases, attacks, adversaries
  TargetSetup setup;   // its targets and the population without them
  OutlierSweep sweep;  // targets, cases, attacks, releases; no games yet
  bool runs_games() const;  // targets and attacks to run
};
Result<OutlierSweepPlan> PlanOutlierSweep(const GameInputs& in, const CategoricalTable& pool,
                                          const std::vector<CaseSpec>& cases);
// The inputs of the sweep's games: `plan`'s config, population and targets
// and the sweep's seed (pointers into plan, which must outlive them).
GameInputs SweepGameInputs(const GameInputs& in, const OutlierSweepPlan& plan);

// The law of the white-box score on the worst-case pair of `spec` on the
// first `attributes` attributes where it is known in closed form (D- known,
// attacks/synthetic/marginal_white_box.h), read off one release's
// measurements: Gaussian ones only -> kGaussian with mu^2 = sum 1 / sigma^2
// (Gaussian histograms: 2 rho; MST: 4 rho / 3, the selection unseen); a
// single Laplace measurement -> kLaplaceCell with its scale; nullopt
// otherwise (several Laplace cells; domain_from_data, whose "out" releases
// leave the target's cells unmeasured; non-private).
Result<std::optional<ScoreLaw>> WorstCaseWhiteBoxLaw(const GameInputs& in, const CaseSpec& spec,
                                                     int64_t attributes);

// THE PLANTED BUGS' POWER: per planted bug, the probability that its
// worst-case audit flags it (power.h AuditDetectionPower), at
// kQuickWorstCaseTrials and kPaperWorstCaseTrials releases per side with
// config.bug_power_replicates selection halves, seeded from the run's seed.
// Where the white-box law is known (WorstCaseWhiteBoxLaw): that attack's
// power under it, exact given the threshold (one row); else the plug-in law
// of the run's own scores, one row per attack (white_box, dcr_hamming).
// Each attack is audited at alpha / 2, so the flag probability is at least
// the largest row of the bug.
struct BugPower {
  int64_t worst_case = 0;  // index into the worst-case audits
  std::string attack;
  std::string law;  // "exact Gaussian mu = ..", "exact Laplace cell b = ..", "plug-in"
  DetectionPower quick, paper;
};
Result<std::vector<BugPower>> PlantedBugPower(const GameInputs& in,
                                              const std::vector<WorstCaseResult>& worst_case);
// PlantedBugPower's rows of worst-case audit `index` alone (none unless it
// audits a planted bug): PlantedBugPower concatenates them in index order.
Result<std::vector<BugPower>> BugPowerRows(const GameInputs& in, int64_t index,
                                           const WorstCaseResult& w);

// THE PERFECT TEST (black_box_far_below): per main case, the perfect-test
// bound (power.h PerfectTestBound) of its worst-case white-box audit
// (worst_case_trials releases per side, alpha / 2) where that test's
// trade-off is Gaussian (Gaussian histograms: mu^2 = 2 rho; MST: 4 rho /
// 3); -1 elsewhere (the Laplace histograms and PrivBayes: pure-DP bounds
// need tail events; the non-private ones).
Result<std::vector<double>> PerfectTestBounds(const GameInputs& in,
                                              const std::vector<CaseSpec>& cases);

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_COMPUTE_H_
