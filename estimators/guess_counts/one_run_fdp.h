// One-run auditing of f-differential privacy (Mahloujifar, Melis &
// Chaudhuri, "Auditing f-Differential Privacy in One Run", ICML 2025,
// arXiv:2410.22235): the registry's `one_run_fdp`, and the Gaussian-DP audit.
//
// SETTING: the one-run game of one_run.h. m canaries, each included
// independently with probability 1/2; the attack makes r guesses (e.g. "in"
// for its k+ highest-scored canaries, "out" for its k- lowest; r = k+ + k-)
// and v of them are correct.
//
// THE BOUND: a mechanism is f-DP for a trade-off function f (Dong, Roth &
// Su 2022) when no test of one canary's inclusion has type II error below
// f(type I error). Write B^-1(y) = inf { x : 1 - f(x) >= y } for f's
// inverse "blow-up" (the least probability, under one neighbour, of an event
// that has probability y under the other). The paper's audit of the claim
// "M is f-DP" at significance beta is the recursion (the authors' reference
// implementation, rh_with_cap / audit_rh_with_cap, for alphabet size k = 2):
//   r_v = beta v / m,   h_v = beta (r - v) / m,
//   for i = v-1, ..., 0:   h_i = max(h_{i+1}, B^-1(r_{i+1})),
//                          r_i = min(1, r_{i+1} + i/(r - i) (h_i - h_{i+1})),
// and the claim is REJECTED (P[v or more correct] < beta under every f-DP
// mechanism) when r_0 + h_0 > r / m. (h and r only grow as i falls, so the
// loop stops early at a fixed point or once the sum exceeds r/m; the cap at 1
// is DeepMind's, conservative, and keeps B^-1 in its domain.)
//
// PROVENANCE: the recursion is taken from the authors' public code
// (facebookresearch/PrivacyGuard, FDPAnalysisNode.rh_with_cap) and agrees
// with an independent public implementation (DeepMind's one-run f-DP audit,
// `_epsilon_one_run_fdp`); the paper's theorem statement itself was not
// available to check it against. Its validity is checked here by simulation
// (one_run_fdp_test.cc and the conformance test): on mechanisms whose
// trade-off is exactly f, the claim is rejected at most a beta fraction of
// the time.
//
// TWO FAMILIES (a smaller B^-1 makes the claim weaker and harder to reject,
// so each family's rejected set is an interval from the strongest claim up):
//  - Gaussian DP, f = G_mu, B^-1(y) = Phi(Phi^-1(y) - mu): the paper's
//    headline use. mu_lower = sup { mu : G_mu-DP rejected } (0 when even
//    mu = 0 is not rejected); under the ASSUMPTION that the mechanism's
//    trade-off is exactly Gaussian, eps(delta) >= GaussianDpEpsilon(mu_lower,
//    delta) at confidence 1 - beta. That eps is NOT a lower bound for other
//    mechanisms (an eps-DP randomised response is G_mu-DP only for mu with
//    eps(delta) of G_mu far above eps), so it is not registered.
//  - (eps, delta)-DP, f = f_{eps,delta}, B^-1(y) = max(0, (y - delta) e^-eps,
//    1 - delta - e^eps (1 - y)): a valid eps lower bound for every (eps,
//    delta)-DP algorithm, the guess-count estimator contract; registered as
//    `one_run_fdp`. eps_lower = sup { eps : f_{eps,delta}-DP rejected }.
// Both are 0 when v <= r/2 (even the perfectly private claim, B^-1(y) = y,
// is then a fixed point of the recursion).
// HOW: the recursion is O(v) per claim; the bounds bisect mu (eps) to 1e-9.
// WORK BOUND: v <= kMaxFdpCorrectGuesses (one bound takes up to ~40 passes
// of up to v steps).
#ifndef PRIVBENCH_ESTIMATORS_GUESS_COUNTS_ONE_RUN_FDP_H_
#define PRIVBENCH_ESTIMATORS_GUESS_COUNTS_ONE_RUN_FDP_H_

#include <cstdint>

#include "core/result.h"
#include "estimators/guess_counts/guess_count_estimator.h"

namespace privbench {

inline constexpr int64_t kMaxFdpCorrectGuesses = 10'000'000;

// Whether the recursion rejects G_mu-DP (mu >= 0; mu = 0 is perfect privacy)
// at significance beta, for validated counts with v <= kMaxFdpCorrectGuesses.
bool OneRunRejectsGaussianDp(const GuessCounts& counts, double mu, double beta);

// Whether it rejects (eps, delta)-DP, i.e. f_{eps,delta}-DP (eps >= 0,
// delta in [0, 1)).
bool OneRunRejectsApproximateDp(const GuessCounts& counts, double eps, double delta, double beta);

// mu_lower above: the Gaussian-DP parameter every smaller value of which is
// rejected. Validates the counts and beta as LowerBound() does (delta is
// not an argument) and refuses v > kMaxFdpCorrectGuesses naming v.
Result<double> OneRunGaussianDpMuLowerBound(const GuessCounts& counts, double beta);

// GaussianDpEpsilon(mu_lower, delta), 0 when mu_lower = 0: eps(delta)'s
// lower bound under the Gaussian-trade-off assumption. delta in (0, 1).
Result<double> OneRunGaussianDpEpsilonLowerBound(const GuessCounts& counts, double delta,
                                                 double beta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_GUESS_COUNTS_ONE_RUN_FDP_H_
