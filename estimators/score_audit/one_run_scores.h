// One-run audits from membership scores: the guess counts of the one-run
// game read off the scores at a threshold, a threshold searched over the
// ROC with a Bonferroni correction fixed in advance, and the eps (or mu)
// lower bound of the guess-count estimators (estimators/guess_counts/)
// at the best threshold. jax-privacy's `CanaryScoreAuditor.epsilon_one_run`
// and `epsilon_one_run_fdp` (version 2.0.0) compute the same kind of bound;
// the differences are listed below.
//
// THE GAME (Steinke, Nasr & Jagielski, "Privacy Auditing with One (1)
// Training Run", NeurIPS 2023). The m = P + N scored canaries were each
// included in the training set independently with probability 1/2 (the
// member scores are those of the included ones): an ASSUMPTION about how
// the scores were produced, which the caller must ensure. The attack
// guesses "in" for the r canaries with the highest scores and abstains on
// the rest (k+ = r, k- = 0, as jax-privacy's one-sided audit); v of its
// guesses are correct. At threshold t: r = tp + fp and v = tp (the members
// and non-members scoring >= t). For every r fixed in advance the guesses
// depend on the data only through the trained model (via the scores), so
// each method's test of "the training algorithm is (eps, delta)-DP" (or
// mu-GDP) is valid at the counts (m, r, v).
//
// METHODS (the bounds are the library's, not reimplemented here):
//  - "one_run": Steinke et al. Thm 3.1: eps_lower = sup { eps : p(eps) <
//    level } with p the theorem's p-value (OneRunPValue, the registry's
//    one_run estimator, estimators/guess_counts/one_run.h). delta in [0, 1).
//  - "one_run_fdp": Mahloujifar, Melis & Chaudhuri, "Auditing f-Differential
//    Privacy in One Run", ICML 2025 (arXiv:2410.22235), the recursion for
//    the trade-off curve f_{eps,delta} of (eps, delta)-DP: a valid eps lower
//    bound for every (eps, delta)-DP algorithm (the registry's one_run_fdp,
//    one_run_fdp.h). delta in [0, 1).
//  - "one_run_gaussian_dp": the same recursion for the Gaussian trade-off
//    G_mu: mu_lower (OneRunGaussianDpMuLowerBound), a lower bound on the mu
//    of every mu-GDP description of the algorithm; and, at delta > 0 only,
//    eps_lower = GaussianDpEpsilon(mu_lower, delta), a lower bound on
//    eps(delta) ONLY UNDER THE ASSUMPTION that the algorithm's trade-off is
//    exactly Gaussian (one_run_fdp.h). THIS eps is what jax-privacy's
//    `epsilon_one_run_fdp` returns: it tests, for each eps, the Gaussian
//    curve G_{1/sigma} with sigma = dp_accounting.get_sigma_gaussian(eps,
//    delta), the mu whose (eps, delta) profile passes through (eps, delta),
//    so its root is eps(delta) of the largest rejected mu.
//
// THRESHOLD SELECTION.
//  - A threshold fixed in advance (options.threshold): the counts at it,
//    the bound at level alpha (K = 1).
//  - Otherwise "Bonferroni over every number of guesses": the m hypotheses
//    "r = 1, ..., m" are fixed before the data are seen, each tested at
//    level alpha / K, K = m; by the union bound all hold at once with
//    probability >= 1 - alpha, so the largest bound over any thresholds
//    (any r) is a lower bound at confidence 1 - alpha whichever thresholds
//    are searched (the candidates below). jax-privacy's Bonferroni()
//    divides alpha by H instead, the number of vertices of the ROC's convex
//    hull (score_metrics.h) that its search visits: a number taken from
//    the data (the hull depends on which canaries are members), for which
//    the union bound as stated does not apply; its bound equals this one's
//    at level alpha H / m (anchors/jax_privacy/feature_cross_check.py).
// Validity is that of the selection; the methods' own assumptions (the game
// above) are needed in both.
//
// CANDIDATE THRESHOLDS. The ROC points (estimators/roc/roc.h) with tp >= 1
// that end a run of member scores (the next point down adds a non-member,
// or there is none). A point inside a run is beaten by the run's end for
// "one_run" at delta = 0: adding a member guess turns (r, v) into (r + 1,
// v + 1), and with W' = W + B, B ~ Bernoulli(q) independent of W ~
// Binomial(r, q), P[W' >= v + 1] = q P[W >= v] + (1 - q) P[W >= v + 1] <=
// P[W >= v]: the p-value cannot rise. For delta > 0 and the f-DP methods
// this is not proven (the tests check it on small inputs against every
// point); dropping points keeps the statement valid (K is fixed), it can
// only lower the bound. jax-privacy's candidates, the hull's vertices, are
// among these.
//  - "one_run": every candidate, exactly, with two exact shortcuts at level
//    < 1/2 (always: alpha / m < 1/2 for m >= 2): a candidate with precision
//    v / r <= q(best) = e^best / (1 + e^best) cannot beat the best bound so
//    far (then v <= floor(r q), the binomial median or below, so P[W >= v]
//    >= 1/2 > level, and the delta term only adds), nor one whose p-value
//    at eps = best, delta = 0, is >= level (p rises with eps and delta).
//    The first candidates evaluated are the 32 with the largest Wilson lower
//    limit of v / r (so that best is high early).
//  - "one_run_fdp", "one_run_gaussian_dp": the recursion costs O(v) per claim
//    tested; each candidate is first tested at the best claim so far (one
//    pass) and bounded only when that claim is rejected. More than
//    kMaxOneRunFdpCandidates candidates are reduced to those with the
//    largest Wilson lower limit of v / r at level alpha / K (ties: the
//    higher threshold): valid, as above, but the maximum may be missed;
//    `note` says so. Their work bound is the library's: a best threshold
//    with more than kMaxFdpCorrectGuesses correct guesses is refused,
//    naming v (one_run_fdp.h).
// Ties: the larger bound; on equal bounds the higher threshold.
// SPEED: the sort and the ROC (score_metrics.h), then the search. Measured
// (score_metrics_benchmark, 10^6 N(mu, 1) and 10^6 N(0, 1) scores, mu = 0.1,
// 1, 3, delta = 0, 1e-5, 1e-8; one thread, load ~5 on a 2-core machine):
// one_run 0.14-0.27 s, one_run_fdp 0.12-0.16 s, one_run_gaussian_dp
// 0.12-0.21 s.
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_ONE_RUN_SCORES_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_ONE_RUN_SCORES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/guess_counts/guess_count_estimator.h"

namespace privbench {

enum class OneRunMethod { kOneRun, kOneRunFdp, kOneRunGaussianDp };

// "one_run", "one_run_fdp", "one_run_gaussian_dp".
std::string_view OneRunMethodName(OneRunMethod method);
// The inverse; an unknown name is an error naming method.
Result<OneRunMethod> ParseOneRunMethod(const std::string& name);

// The f-DP methods' candidate bound (above).
inline constexpr int64_t kMaxOneRunFdpCandidates = 1025;

struct OneRunScoreOptions {
  double alpha = 0.05;  // in (0, 1): confidence 1 - alpha
  double delta = 0.0;   // in [0, 1)
  OneRunMethod method = OneRunMethod::kOneRun;
  // A threshold fixed in advance (not NaN; +inf makes no guess); nullopt:
  // the Bonferroni search.
  std::optional<double> threshold;
};

struct OneRunScoreBound {
  OneRunMethod method = OneRunMethod::kOneRun;
  // The eps lower bound; for one_run_gaussian_dp eps(delta) of mu_lower
  // under the Gaussian assumption, nullopt at delta = 0.
  std::optional<double> eps_lower;
  std::optional<double> mu_lower;  // one_run_gaussian_dp only
  double threshold = 0.0;          // "in" iff score >= threshold
  GuessCounts counts;              // m, r, v at the threshold
  double level_alpha = 0.0;        // alpha / K
  int64_t bonferroni_k = 1;        // K: m, or 1 at a fixed threshold
  int64_t candidates = 0;          // thresholds searched (pruned ones included)
  bool valid_confidence_statement = true;
  std::string note;
};

// The bound from the scores. Errors name the argument: member_scores /
// nonmember_scores (empty, an element not finite), alpha, delta,
// threshold (NaN).
Result<OneRunScoreBound> OneRunFromScores(const std::vector<double>& member_scores,
                                          const std::vector<double>& nonmember_scores,
                                          const OneRunScoreOptions& options);

// ONE SPLIT (for MultiSplit, resampling.h). The m canaries are split at
// random into a selection half (floor(m/2) of them) and an audit half,
// WITHOUT regard to membership: a Fisher-Yates permutation of the pooled
// indices (members first, then non-members, in input order) with
// Rng(DeriveSeed(seed, {2})) (core/seeding.h), the first floor(m/2)
// positions forming the selection half. So, given the split, the audit
// half's inclusions are still independent fair coins, as the game needs
// (a split stratified by membership would fix how many members each half
// has). The selection half's best threshold at level `level` (the search
// above with K = 1) is applied to the audit half, whose bound at `level`
// is returned: eps_lower for one_run and one_run_fdp, mu_lower for
// one_run_gaussian_dp. 0 when the selection half has no positive bound.
// options.alpha and options.threshold are not used.
Result<double> OneRunSplitBound(const std::vector<double>& member_scores,
                                const std::vector<double>& nonmember_scores,
                                const OneRunScoreOptions& options, uint64_t seed, double level);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_ONE_RUN_SCORES_H_
