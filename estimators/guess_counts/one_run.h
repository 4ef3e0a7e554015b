// One-run auditing (Steinke, Nasr & Jagielski, "Privacy Auditing with One
// (1) Training Run", NeurIPS 2023, Thm 3.1): the registry's `one_run`.
//
// WHAT: m canaries, each included independently with probability 1/2; an
// attack makes r guesses (e.g. "in" for its k+ highest-scored canaries and
// "out" for its k- lowest, r = k+ + k-) of which v are correct. If training
// is (eps, delta)-DP then, for W ~ Binomial(r, e^eps / (1 + e^eps)) (the
// accuracy of eps-DP randomised response) and f(v) = P[W >= v],
//   P[v or more correct] <= p(eps) = f(v) + 2 m delta max_{1<=i<=v} (f(v-i) - f(v)) / i
// (Thm 3.1; the max term is the delta term, 0 at delta = 0). p(eps)
// increases with eps, so the lower bound at confidence 1 - beta is
//   eps_lower = sup { eps >= 0 : p(eps) < beta },  0 when p(0) >= beta.
// ASSUMPTIONS: the inclusions are independent fair coins and the guesses
// depend on the data only through the trained model; the guesses need
// not be independent (that is the theorem's point).
// HOW: f by the regularised incomplete beta function (Boost), in the form
// that keeps 1 - q = 1/(1 + e^eps) exact for large eps; the delta term's
// max over i of P[v-i <= W <= v-1]/i is unimodal in i (the binomial is
// log-concave), found by integer ternary search and finished by a scan, in
// O(log v) incomplete-beta evaluations; eps_lower by bisection to 1e-9.
#ifndef PRIVBENCH_ESTIMATORS_GUESS_COUNTS_ONE_RUN_H_
#define PRIVBENCH_ESTIMATORS_GUESS_COUNTS_ONE_RUN_H_

#include "estimators/guess_counts/guess_count_estimator.h"

namespace privbench {

// p(eps) above (capped at 1), for validated counts, eps >= 0, delta in [0, 1).
double OneRunPValue(const GuessCounts& counts, double eps, double delta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_GUESS_COUNTS_ONE_RUN_H_
