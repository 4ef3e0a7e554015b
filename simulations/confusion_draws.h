// Synthetic confusion counts of a membership test with known true error
// rates (experiments/bayes_coverage/README.md; Bayesian paper, Zanella-Beguelin et al. ICML
// 2023, Sec. 2.5 Experiment 2): the attacker is run on `positives` members
// and `negatives` non-members and errs independently on each, so
//   FN ~ Bin(positives, FNR),  FP ~ Bin(negatives, FPR),
//   TP = positives - FN,       TN = negatives - FP.
// The true eps of such counts is EpsFromRates(FNR, FPR, delta)
// (estimators/eps_from_rates.h), which the coverage studies score the
// interval estimators against.
#ifndef PRIVBENCH_SIMULATIONS_CONFUSION_DRAWS_H_
#define PRIVBENCH_SIMULATIONS_CONFUSION_DRAWS_H_

#include <cstdint>

#include "estimators/confusion_counts.h"

namespace privbench {

// One Monte-Carlo trial: FN then FP, drawn in that order from Rng(seed)
// (core/seeding.h; pass a DeriveSeed value) with DrawBinomial
// (simulations/binomial.h). Preconditions (unchecked): rates in [0, 1],
// counts in [0, 2^31).
ConfusionCounts DrawConfusionCounts(double fnr, double fpr, int64_t positives, int64_t negatives,
                                    uint64_t seed);

}  // namespace privbench

#endif  // PRIVBENCH_SIMULATIONS_CONFUSION_DRAWS_H_
