// The last-iterate HEURISTIC for DP-SGD: the registry's
// `last_iterate_heuristic`.
//
// THIS IS A HEURISTIC, NOT AN UPPER BOUND. Every other registered accountant
// bounds eps from above for every loss; this one gives the exact eps of
// DP-SGD only when every loss is linear, and real training can leak more
// (Steinke et al. construct losses for which it does). Use it as a rough
// prediction of what an audit of the final model can find, never as a
// privacy guarantee.
//
// REFERENCE: Thomas Steinke, Milad Nasr, Arun Ganesh, Borja Balle,
// Christopher A. Choquette-Choo, Matthew Jagielski, Jamie Hayes, Abhradeep
// Guha Thakurta, Adam Smith, Andreas Terzis. "The Last Iterate Advantage:
// Empirical Auditing and Principled Heuristic Analysis of Differentially
// Private SGD." ICLR 2025, arXiv:2410.06186.
//
// WHAT: only the last iterate of T steps of DP-SGD is released (rate-q
// Poisson sampling, clip norm 1, noise multiplier sigma). With linear losses
// the last iterate is a fixed function of the sum of the T noisy clipped
// gradients, and along the target example's gradient that sum is
//     P = B + Z  with the target,  Q = Z  without it,
//     B ~ Binomial(T, q) (the steps that sampled the target),
//     Z ~ N(0, sigma^2 T) (the T steps' noise, each N(0, sigma^2)).
// The heuristic eps(delta) is the smallest eps with
//     delta(eps) = max( H_{e^eps}(P || Q), H_{e^eps}(Q || P) ) <= delta,
// H_c(A || B) = sup_S A(S) - c B(S) the hockey-stick divergence (both
// orderings: add and remove adjacency).
//
// HOW (exact up to floating point; no discretisation, no sampling): in the
// standardised coordinate y = x / (sigma sqrt(T)), with a = 1/(sigma sqrt T),
// P = sum_k w_k N(k a, 1), w_k = Binomial(T, q) pmf, and Q = N(0, 1). The
// log likelihood ratio
//     L(y) = ln p(y)/q(y) = ln sum_k w_k exp(k a y - k^2 a^2 / 2)
// is a log-sum-exp of affine functions of y with nonnegative slopes k a, so
// it is convex and strictly increasing (L' = a E[k | y] > 0), from
// L(-inf) = ln w_0 = T ln(1 - q) to +inf. Hence {L > eps} is the half-line
// y > L^-1(eps) and {L < -eps} the half-line y < L^-1(-eps):
//     H_{e^eps}(P||Q) = P(Y > y1) - e^eps Q(Y > y1),   L(y1) = eps,
//     H_{e^eps}(Q||P) = Q(Y < y2) - e^eps P(Y < y2),   L(y2) = -eps
// (the latter 0 once eps >= -T ln(1 - q)), with P's tails the binomial
// mixtures of normal CDFs. Each direction is solved in y: as a function of
// its endpoint y, eps = +-L(y) and delta are both monotone (d delta/dy =
// -L'(y) e^L Q(Y > y) in the first direction), so eps(delta) is found by
// bisection on y, and the answer is the larger of the two directions'.
// Every quantity is kept in logarithms (delta down to the smallest doubles,
// eps in the tens of thousands). The binomial log pmf is Loader's
// saddle-point form (C. Loader, "Fast and Accurate Computation of Binomial
// Probabilities", 2000), accurate for any T below 2^53; each mixture sum
// runs over a log-concave sequence in k and is summed outward from its peak
// until the terms fall e^-64 below it, so the neglected terms weigh less
// than 1e-16 of the sum.
//
// ACCURACY (tested): against 40-digit references of the Gaussian curve at
// q = 1 (within 1e-9 at eps ~ 6 and 1e-6 at eps ~ 1.3e5), an independent
// quadrature of delta(eps) (1e-7 relative) and pld at T = 1 down to sigma =
// 1e-3. In logarithms the two terms of delta are each of size ~eps, so
// delta(eps) carries a relative rounding error of ~1e-16 eps; eps(delta) is
// far less sensitive to it (at sigma = 1e-100, q = 0.5, T = 1, eps ~ 5e199
// comes out within 1e-8 relative of sigma^-2 / 2).
//
// EXACT SPECIAL CASES (tested): q = 1 is T Gaussian steps, i.e.
// (sqrt(T)/sigma)-GDP, whose curve is gaussian_dp.h's; T = 1 is one step of
// the sampled Gaussian mechanism, the pld accountant's one-step curve.
//
// MONOTONICITY: eps is nonincreasing in sigma (more noise per step adds the
// same independent Gaussian to P and Q: post-processing), so CalibrateSigma
// applies. It is NOT monotone in the number of steps T (the paper's public
// ICLR reviews note that its authors discuss this; the numbers here are this
// implementation's): at q = 0.01, sigma = 1, delta = 1e-6 it is 0.364 at T = 1,
// 0.230 at T = 10 and 0.492 at T = 100 (each added step adds noise while the
// target is rarely sampled). Callers who need a value monotone in T must
// take the maximum over the step counts themselves.
//
// WORK BOUND: the binomial variance T q (1 - q) must be at most
// kMaxLastIterateBinomialVariance (the sums then stay below ~10^5 terms)
// and T below 2^53; beyond either the request is refused naming steps.
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_LAST_ITERATE_HEURISTIC_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_LAST_ITERATE_HEURISTIC_H_

#include "core/result.h"
#include "estimators/accountants/accountant.h"

namespace privbench {

inline constexpr double kMaxLastIterateBinomialVariance = 1e7;

struct LastIterateHeuristic {
  double epsilon = 0.0;          // max of the two orderings
  double with_vs_without = 0.0;  // eps of H(P || Q): P = with the target
  double without_vs_with = 0.0;  // eps of H(Q || P)
};

// The heuristic eps(setting.delta) (setting.orders and discretization are
// ignored). Validates the setting as Accountant::Epsilon does.
Result<LastIterateHeuristic> LastIterateHeuristicEpsilon(const DpSgdAccounting& setting);

// delta(epsilon) of the heuristic pair (setting.delta is not used), the max
// of the two orderings; epsilon finite and >= 0.
Result<double> LastIterateHeuristicDelta(const DpSgdAccounting& setting, double epsilon);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_LAST_ITERATE_HEURISTIC_H_
