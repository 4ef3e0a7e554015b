// The numbers of study C1 `region_of_privacy` (Erlingsson, Mironov,
// Raghunathan & Song 2019, "That which we call private", Sec. 3-5;
// README.md), torch-free and without I/O, so that they are
// unit-tested without training anything:
//   - the sweep's units (one per noise level and repetition, the
//     non-private baseline included);
//   - per trained model, Yeom et al.'s loss-threshold attack (TPR at the
//     target FPR, Table 1; the best-threshold advantage, Sec. 5.3) and the
//     Prop. 3 lower bounds eps >= ln((1 - delta) / (1 - advantage));
//   - per noise level, the naive, advanced, zCDP and RDP upper bounds of the
//     noise actually used (estimators/accountants; RDP with Table 1's orders
//     and with the default orders), assuming Poisson sampling at rate q;
//   - the aggregates over repetitions and the claim criteria.
//
// Conventions: a "level" is one training noise multiplier; level vectors are
// ordered from the LARGEST noise to the smallest (the order of the paper's
// Table 1), so "rises as the noise falls" means "rises along the vector".
#ifndef PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_COMPUTE_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace privbench {
namespace region_of_privacy {

// ------------------------------------------------------------------ units --

// The noise levels, largest noise first (Table 1's order).
std::vector<double> SortedNoise(std::vector<double> noise_multipliers);

struct UnitKey {
  int64_t level = 0;  // 0 = non-private baseline, 1..L = noise[level - 1]
  int64_t rep = 0;
};

// "baseline_rep=0", "sigma=13.76_rep=1": the unit's part name.
std::string UnitId(const std::vector<double>& noise, const UnitKey& key);

// Every (level, repetition) for `levels` noise levels plus the baseline,
// repetition-major, so that a complete first repetition exists early.
std::vector<UnitKey> MakeUnits(int64_t levels, int64_t repetitions);

// "1.06" for 1.06, "136.67" for 136.67: a noise multiplier in unit ids and
// tables (shortest round-trip text).
std::string NoiseText(double sigma);

// ----------------------------------------------------------------- models --

// Yeom et al.'s loss-threshold attack on one model (members: the training
// records; non-members: the population records), with its Prop. 3 bounds.
struct AttackSummary {
  double tpr_at_target = 0.0, fpr_at_target = 0.0, members_recovered = 0.0;
  double best_advantage = 0.0, best_tpr = 0.0, best_fpr = 0.0, best_threshold_loss = 0.0;
  double auc = 0.0, avg_loss_tpr = 0.0, avg_loss_fpr = 0.0;
  double eps_lower_best = 0.0;    // Prop. 3 at the best advantage
  double eps_lower_target = 0.0;  // Prop. 3 at TPR - FPR of the target-FPR point
};
Result<AttackSummary> AttackModel(const std::vector<double>& train_loss,
                                  const std::vector<double>& population_loss, double target_fpr,
                                  double delta);

// One trained model, as read back from its sweep part, with its attack.
struct Model {
  double train_accuracy = 0.0, population_accuracy = 0.0;
  std::vector<double> train_loss, population_loss, loss_per_epoch;
  double q = 0.0, accounting_sigma = 0.0;
  int64_t steps = 0;
  bool eps_reportable = false;
  double unit_seconds = 0.0;
  std::string provenance, source, checksums, notes, sampling, accounting_rule, architecture,
      torch_version;
  std::vector<std::pair<std::string, std::string>> record;  // TrainingRecord::Metadata()
  AttackSummary attack;
};

// models[level][rep]; level 0 is the non-private baseline, level l >= 1 the
// noise multiplier noise[l - 1].
using ModelGrid = std::vector<std::vector<Model>>;

// A per-run quantity stored as /dp/<name> (levels x repetitions) and
// /baseline/<name> (repetitions).
struct Quantity {
  std::string name;
  double (*get)(const Model&);
};
const std::vector<Quantity>& PerRunQuantities();

// The values of `get` over the repetitions of one level.
std::vector<double> RepValues(const ModelGrid& models, int64_t level, double (*get)(const Model&));

// ----------------------------------------------------------- upper bounds --

// The upper bounds of one noise level at delta.
struct Bounds {
  std::map<std::string, double> table_one;  // every registered accountant, Table 1 orders
  std::map<std::string, double> table_one_order;
  double rdp_default = 0.0, rdp_default_order = 0.0;
  double rdp_improved_default = 0.0, rdp_improved_default_order = 0.0;
  double rdp_best() const { return std::min(table_one.at("rdp"), rdp_default); }
};
Result<Bounds> Account(double sigma, double q, int64_t steps, double delta);

// Bounds of every private level (models[1..L]), from repetition 0's training
// record; errors if a run is not eps-reportable or the repetitions of a
// level differ in q, steps or accounting noise multiplier.
Result<std::vector<Bounds>> AccountLevels(const ModelGrid& models, const std::vector<double>& noise,
                                          double delta);

// One number per level.
std::vector<double> BoundColumn(const std::vector<Bounds>& bounds, double (*get)(const Bounds&));
std::vector<double> TableOneColumn(const std::vector<Bounds>& bounds, const std::string& name);

// ------------------------------------------------------------- aggregates --

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

// What the tables, claims and /aggregate hold: the baseline's summaries and,
// per private level (largest noise first), means over the repetitions.
struct Aggregates {
  // Non-private baseline.
  RateSummary base_acc, base_tpr;
  double base_population_accuracy = 0.0;
  double base_best = 0.0;        // mean best advantage
  double base_eps_best = 0.0;    // Prop. 3 at base_best
  double base_eps_target = 0.0;  // Prop. 3 at the mean target-FPR advantage
  // Best advantage of indistinguishable members and non-members.
  double null_mean = 0.0, null_q95 = 0.0;
  // Per level.
  std::vector<double> acc_mean, acc_se, acc_rel, pacc_mean, tpr_mean, tpr_se, recovered, loss_mean,
      best_mean, target_adv_mean, eps_lo_best, eps_lo_target, eps_lo_best_max_rep;
  // Upper bounds per level (Table 1 orders unless named otherwise).
  std::vector<double> eps_naive, eps_adv, eps_zcdp, eps_rdp, eps_rdp_def, eps_rdp_best;
  // The PLD accountant (estimators/accountants/pld.h) at each level.
  std::vector<double> eps_pld;
};
Result<Aggregates> Aggregate(const ModelGrid& models, const std::vector<Bounds>& bounds,
                             int64_t n_train, int64_t n_population, double delta);

// ----------------------------------------------------------------- claims --

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

// A trend from the largest noise to the smallest, judged by a one-sided
// test of the smallest-noise mean above the largest-noise mean at level
// alpha: z = difference / sqrt(se_first^2 + se_last^2) (standard errors per
// level as above) referred to Student's t with `dof` degrees of freedom
// (repetitions - 1: the between-repetition part of the se is estimated from
// that many; conservative where the binomial part dominates), or to the
// normal when dof is 0: holds when p_rise <= alpha (so with probability at
// most alpha when the mean does not rise), does not hold when the opposite one-sided p <= alpha,
// inconclusive otherwise, with holds_fraction = the fraction of steps
// whose mean rises. Each step's change and its z are reported, not judged:
// Table 1's TPR column is read as a trend, and per-step monotonicity of a
// mean over few repetitions would turn on sampling noise (see the README).
struct TrendCheck {
  bool holds = false, inconclusive = false;
  double holds_fraction = 0.0;
  double z = 0.0, p_rise = 1.0;  // the endpoints' test
  std::string evidence;
};
Result<TrendCheck> CheckTrendRisesAsNoiseFalls(const std::vector<double>& noise,
                                               const std::vector<double>& means,
                                               const std::vector<double>& se,
                                               const std::string& what, double scale, double alpha,
                                               int64_t dof);

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
// floor set by the sample size (Sec. 5.4: the best threshold uses the
// labels). m, n >= 1; p in (0, 1).
Result<double> NullMeanBestAdvantage(int64_t m, int64_t n);
Result<double> NullQuantileBestAdvantage(int64_t m, int64_t n, double p);

}  // namespace region_of_privacy
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_COMPUTE_H_
