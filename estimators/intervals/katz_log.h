// Katz-log confidence interval for a ratio of binomial proportions
// (Katz et al. 1978; ML-Audit, Lu et al. NeurIPS 2022, §4.2 and Lemma A.3;
// docs/studies.md A4).
//
// With n1 of N1 successes and n0 of N0 successes, the interval for
// log(p1/p0) at two-sided significance s is
//   log(p1^/p0^) -+ z_{s/2} sqrt(1/n1 - 1/N1 + 1/n0 - 1/N0).
// At delta = 0, eps >= log(p1/p0) for p1 = P[M(D) in S], p0 = P[M(D') in S],
// so the lower end is an eps lower bound (ML-Audit's Eps_LB). Asymptotic:
// coverage is approximate, not guaranteed.
//
// Zero counts: a zero numerator or denominator count makes the point
// estimate infinite; the corresponding end of the interval is then -inf
// (n1 = 0) or +inf (n0 = 0), and the other end is computed with the
// Haldane-Anscombe correction (0.5 added to every cell of the 2x2 table).
#ifndef PRIVBENCH_ESTIMATORS_INTERVALS_KATZ_LOG_H_
#define PRIVBENCH_ESTIMATORS_INTERVALS_KATZ_LOG_H_

#include <cstdint>

#include "core/result.h"

namespace privbench {

struct LogRatioInterval {
  double lo, hi;  // bounds on log(p1/p0); may be -inf / +inf
};

// Preconditions (unchecked): 0 <= n1 <= N1, 0 <= n0 <= N0, N1, N0 >= 1,
// z > 0.
LogRatioInterval KatzLogInterval(int64_t n1, int64_t N1, int64_t n0, int64_t N0, double z);

// ML-Audit's eps lower bound with N samples per side at significance alpha:
// max{0, log(n1/n0) - z_{alpha/2} sqrt(1/n1 - 1/N + 1/n0 - 1/N)}.
// Validates 0 <= n1, n0 <= n, n >= 1 and alpha in (0, 1).
Result<double> KatzLogEpsLowerBound(int64_t n1, int64_t n0, int64_t n, double alpha);

// ML-Audit Corollary 4.0.1: the largest lower bound N samples can show,
// ln(N) - z_{alpha/2} sqrt(1 - 1/N).
Result<double> KatzLogCeiling(int64_t n, double alpha);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_INTERVALS_KATZ_LOG_H_
