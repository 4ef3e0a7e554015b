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
// Haldane-Anscombe correction (0.5 added to every cell of the 2x2 table),
// made monotone at the zero boundary: the lower end at n0 = 0 is at least
// the one at n0 = 1 (and the upper end at n1 = 0 at most the one at
// n1 = 1), since a zero count is at least as strong evidence as a count of
// one. With Haldane alone 10000/0 scored 7.13 below 10000/1's 7.25 (N =
// 10,000, alpha = 0.05). With the rule, n1 = N, n0 = 0 reaches exactly the
// ceiling ln N - z sqrt(1 - 1/N) of KatzLogCeiling. (Away from zero the
// Katz-log lower end is not monotone in n0 either when z is large: at
// alpha = 0.001 and N = 10,000, 10000/1 gives 5.92 and 10000/2 gives 6.19;
// that is the published interval's own shape and is kept.)
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
// ln(N) - z_{alpha/2} sqrt(1 - 1/N). It is the n1 = N, n0 = 0 value, the
// maximum of KatzLogEpsLowerBound only for alpha in about [0.019, 0.094]
// (checked exhaustively at N = 100, 1,000, 10,000): outside, n0 = 0 with
// the Haldane rule (larger alpha) or a small n0 > 0 (smaller alpha) gives
// more. Use KatzLogLargestLowerBound where an upper bound is needed.
Result<double> KatzLogCeiling(int64_t n, double alpha);

// The largest eps lower bound KatzLogEpsLowerBound reports with n samples
// per side at significance alpha, whatever the counts: its maximum over
// n0 in [0, n] at n1 = n (for a fixed n0 the lower end rises with n1). An
// audit whose guarantee is at or above it cannot exceed that guarantee.
// O(n) evaluations.
Result<double> KatzLogLargestLowerBound(int64_t n, double alpha);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_INTERVALS_KATZ_LOG_H_
