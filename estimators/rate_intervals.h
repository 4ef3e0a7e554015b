// Confidence intervals for one binomial proportion k/n, used to build the
// rate boxes of the Clopper-Pearson and Jeffreys eps estimators.
//
// Both are two-sided at significance `significance` (each tail
// significance/2), written with Beta quantiles B(q; a, b):
//   Clopper-Pearson: [B(s/2; k, n-k+1), B(1-s/2; k+1, n-k)]
//                    (Bayesian paper §2.6), 0 when k = 0, 1 when k = n.
//   Jeffreys:        [B(s/2; k+1/2, n-k+1/2), B(1-s/2; k+1/2, n-k+1/2)]
//                    with lower = 0 when k = 0 and upper = 1 when k = n
//                    (Bayesian paper §3.1, Eq. 2).
#ifndef PRIVBENCH_ESTIMATORS_RATE_INTERVALS_H_
#define PRIVBENCH_ESTIMATORS_RATE_INTERVALS_H_

#include <cstdint>

namespace privbench {

struct RateInterval {
  double lo, hi;
};

// Beta quantiles B(p; a, b) (lower: I_x(a, b) = p; upper: 1 - I_x(a, b) = p)
// for every p in (0, 1): Boost's inverse where it converges, else a
// bisection on the forward CDF (Boost's iteration fails for tail masses far
// below 1e-16 with small shapes, e.g. Clopper-Pearson at alpha = 1e-300, or
// returns 0 (1 for the upper) there without failing; both go to the
// bisection, which gives 0 only below the smallest double).
// Preconditions (unchecked): a, b > 0 finite.
double BetaLowerQuantile(double a, double b, double p);
double BetaUpperQuantile(double a, double b, double p);

// Preconditions (unchecked): 0 <= k <= n, n >= 1, 0 < significance < 1.
RateInterval ClopperPearsonRate(int64_t k, int64_t n, double significance);
RateInterval JeffreysRate(int64_t k, int64_t n, double significance);

// Each end alone, the same values: ClopperPearsonRate(k, n, s) is
// {ClopperPearsonLower(k, n, s), ClopperPearsonUpper(k, n, s)}, likewise
// Jeffreys (a bound over a box of counts needs one end of each rate,
// rate_box_method.h).
double ClopperPearsonLower(int64_t k, int64_t n, double significance);
double ClopperPearsonUpper(int64_t k, int64_t n, double significance);
double JeffreysLower(int64_t k, int64_t n, double significance);
double JeffreysUpper(int64_t k, int64_t n, double significance);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_RATE_INTERVALS_H_
