// The numbers of study published_examples: every published number of the
// estimator library (README.md) and the accountant table (B8),
// computed from the papers' own inputs:
//  - Bayesian paper (Zanella-Béguelin et al., "Bayesian Estimation of
//    Differential Privacy", ICML 2023): the Sec. 3.2 worked example
//    (intervals of every registered estimator; posterior masses of the
//    Jeffreys rectangle and of the region between R(eps-) and R(eps+)),
//    footnote 1 (Eq. 1 over a Clopper-Pearson rectangle), and the perfect
//    attack of Sec. 3.1 / footnote 3;
//  - the README example of the paper's public privacy-estimates code;
//  - ML-Audit (Lu et al. 2022) Corollary 4.0.1: the Katz-log detection
//    ceiling at N = 10^4, alpha = 0.05;
//  - Erlingsson et al., "That which we call private" (2019): Table 2 (Prop.
//    3 applied to Table 1's attack TPRs at 5% FPR) and Table 1's accountant
//    upper bounds (B8: Jayaraman & Evans' Purchase-100 logistic regression,
//    q = 0.02, 5000 steps, delta = 1e-5, every registered accountant, which
//    all assume Poisson sampling).
// Nothing here is random and nothing is tuned: the inputs are the papers'.
#ifndef PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "estimators/confusion_counts.h"
#include "estimators/eps_from_rates.h"
#include "estimators/interval_estimator.h"

namespace privbench::published_examples {

// Every registered interval estimator on one confusion matrix, in registry
// order. A method defined only at delta = 0 is not run at delta != 0 (NaN
// ends, kind "n/a: defined for delta = 0 only"); a one-sided method has a
// NaN upper end (kind "one-sided lower bound"); the others "two-sided".
struct EveryEstimator {
  std::vector<std::string> method;
  std::vector<double> lower, upper;
  std::vector<std::string> kind;
};
Result<EveryEstimator> EstimateWithEvery(const ConfusionCounts& c, double delta, double alpha);

// The intervals of the paper's three two-sided methods, in the order
// bayesian, jeffreys, clopper_pearson.
struct PaperIntervals {
  std::vector<std::string> method;
  std::vector<EpsInterval> interval;
};
Result<PaperIntervals> EstimatePaperIntervals(const ConfusionCounts& c, double delta, double alpha);

// Bayesian paper Sec. 3.2: FN = 35, TP = 65, FP = 25, TN = 75, delta = 0.05,
// 95% intervals. Masses in percent: the Jeffreys rectangle (two-sided
// per-rate intervals at significance alpha/2) and the region between
// R(eps-) and R(eps+) of that rectangle's eps interval, under the Bayesian
// posterior.
struct WorkedExample {
  EveryEstimator every;
  PaperIntervals paper;
  double rectangle_mass = 0.0;
  double region_mass = 0.0;
};
Result<WorkedExample> ComputeWorkedExample();

// Bayesian paper footnote 1: TP, FP, TN, FN = 90, 0, 100, 10, delta = 1e-5,
// the 90% two-sided Clopper-Pearson rectangle. The paper's 1.736 is Eq. 1 at
// (FNR+, 0) keeping only the term that is "well-defined" there,
// ln((1 - delta - 0) / FNR+).
struct FootnoteOne {
  RateBox box;
  double corner = 0.0;        // Eq. 1 at (FNR+, FPR+)
  double exact_min = 0.0;     // minimum of Eq. 1 over the rectangle
  double dropped_term = 0.0;  // the paper's rule
};
FootnoteOne ComputeFootnoteOne();

// Bayesian paper Sec. 3.1 and footnote 3: a perfect attack on 1000 and
// 2000 trials split evenly, delta = 1e-5, 90% lower bounds of
// clopper_pearson and the one-sided CP, Jeffreys and Bayesian methods.
struct PerfectAttack {
  std::vector<std::string> method;
  std::vector<int64_t> trials;
  std::vector<double> lower;
};
Result<PerfectAttack> ComputePerfectAttack();

// privacy-estimates README: TP = 487, TN = 1, FP = 512, FN = 0, alpha = 0.1,
// delta = 1e-5.
struct ReadmeExample {
  EveryEstimator every;
  PaperIntervals paper;
};
Result<ReadmeExample> ComputeReadmeExample();

// ML-Audit Corollary 4.0.1 and Erlingsson et al. Table 2 (Prop. 3,
// eps >= log((1 - delta) / (1 - gamma)), gamma = TPR - 5%, delta = 1e-5).
struct CeilingAndAdvantage {
  double katz_ceiling = 0.0;                  // N = 10^4, alpha = 0.05
  std::vector<std::string> noise_multiplier;  // Table 1's rows, as printed
  std::vector<double> attack_tpr;
  std::vector<double> eps_lower;
};
Result<CeilingAndAdvantage> ComputeCeilingAndAdvantage();

// Erlingsson et al. Table 1 (B8): every registered accountant at each of the
// five noise multipliers, RDP orders TableOneRdpOrders(). One row per
// (multiplier, accountant), multipliers in the table's order.
struct AccountantTable {
  std::vector<int64_t> row;  // 1-5: the table's row
  std::vector<double> noise_multiplier;
  std::vector<std::string> accountant;
  std::vector<double> epsilon;
  std::vector<double> rdp_order;  // NaN for non-RDP accountants
};
Result<AccountantTable> ComputeAccountantTable();

// All of the above.
struct Examples {
  WorkedExample worked;
  FootnoteOne footnote1;
  PerfectAttack perfect;
  ReadmeExample readme;
  CeilingAndAdvantage ceiling;
  AccountantTable accountants;
};
Result<Examples> ComputeExamples();

}  // namespace privbench::published_examples

#endif  // PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_COMPUTE_H_
