// Eps lower bounds from summary metrics of a membership attack
// (docs/studies.md A5). All return +inf for a perfect attack and clamp at 0.
#ifndef PRIVBENCH_ESTIMATORS_SUMMARY_BOUNDS_H_
#define PRIVBENCH_ESTIMATORS_SUMMARY_BOUNDS_H_

#include <cstdint>

#include "core/result.h"

namespace privbench {

// Membership advantage gamma = TPR - FPR (Yeom et al.). An (eps, delta)-DP
// model admits advantage at most 1 - e^-eps + delta e^-eps
// (that_which_we_call_private.txt Prop. 2), hence (Prop. 3)
//   eps >= log((1 - delta) / (1 - gamma)).
// gamma in [-1, 1]; a non-positive advantage gives 0.
Result<double> EpsFromAdvantage(double advantage, double delta);

// Balanced accuracy acc of a membership test. From
// acc <= (e^eps + delta) / (1 + e^eps) (review paper, Sec. 2):
//   eps >= log((acc - delta) / (1 - acc)).
// acc in [0, 1]; 0 when acc - delta <= 1 - acc.
Result<double> EpsFromAccuracy(double accuracy, double delta);

// Group privacy (ML-Audit Lemma 3.4): if M is (eps, delta)-DP, datasets
// differing in k rows satisfy
//   P[M(D) in S] <= e^{k eps} P[M(D') in S] + delta (e^{k eps} - 1)/(e^eps - 1).
// GroupDelta returns that delta term (k delta in the limit eps -> 0).
Result<double> GroupDelta(double eps, double delta, int64_t k);

// An eps lower bound measured between datasets differing in k inserted
// copies of a point is a bound on k*eps; the per-record bound is
// group_eps / k (ML-Audit Sec. 4.1, item 2). Valid as stated when the
// group-level bound was computed at delta = 0 (as ML-Audit's Katz-log
// bounds are); at delta > 0 the group-level test must use GroupDelta.
Result<double> EpsFromGroupBound(double group_eps_lower_bound, int64_t k);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SUMMARY_BOUNDS_H_
