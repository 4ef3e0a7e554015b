// Scalar metrics of membership scores beyond the score auditor's
// (score_audit.h): the ROC's convex hull and the quantities read off it
// (the hull's AUC, TPR at a given FPR with randomised thresholds, the
// largest accuracy with an upper confidence bound, and the raw-count eps
// estimate), as Google DeepMind's jax-privacy auditing module
// (`jax_privacy.auditing.CanaryScoreAuditor`, version 2.0.0) defines them.
// The one-run bounds are in one_run_scores.h; the bootstrap and MultiSplit
// in resampling.h.
//
// INPUT AND CONVENTIONS. As score_audit.h: member scores (trials whose point
// was in the training set) and non-member scores, higher = "more likely a
// member"; a threshold t flags a score s iff s >= t; P member and N
// non-member scores, both non-empty, every score finite. The ROC is
// estimators/roc/roc.h's: one point per distinct score plus +inf, thresholds
// decreasing, (fp, tp) non-decreasing from (0, 0) to (N, P).
//
// THE ROC'S CONVEX HULL (RocHull). The vertices of the upper convex hull of
// the ROC points in (fp, tp) counts, from (0, 0) to (N, P), without points
// on a hull edge (collinear points dropped); the first and last ROC points
// always stay (so a vertical first edge from (0, 0) and a horizontal last
// edge to (N, P) are kept). A point of an edge between two vertices is the
// ROC of a RANDOMISED threshold test: flag by the edge's first vertex's
// threshold, and the scores between the two thresholds with probability
// q; the hull is the ROC of the best such tests (Fawcett, "An introduction
// to ROC analysis", Pattern Recognition Letters 27(8), 2006). It is
// jax-privacy's `_pareto_frontier` of its (fn, tn) counts: that function
// keeps the points no chord between a point on each side weakly dominates,
// which is the upper hull of (fn, tn), the same vertices reflected through
// the centre ((fn, tn) = (P - tp, N - fp)). Computed by Andrew's monotone
// chain ("Another efficient algorithm for convex hulls in two dimensions",
// Information Processing Letters 9, 1979) on the ROC, which is sorted
// already: O(number of ROC points), exact (integer cross products).
//
// METRICS (each documented at its function):
//  - ScoreAuc: Mann-Whitney (the ROC's trapezoids, ties 1/2; score_audit's
//    AUC) or the hull's area. jax-privacy's `attack_auroc` is the HULL's
//    area (its counts are the hull vertices); hull >= Mann-Whitney, and
//    hull >= 1/2 always.
//  - RandomisedTprAtFpr: the hull at FPR = fpr (jax-privacy
//    `tpr_at_given_fpr`).
//  - MaxAccuracyOfScores: max over thresholds of prevalence * TPR + (1 -
//    prevalence) * TNR, and an upper confidence bound on the population's
//    (jax-privacy `max_accuracy`).
//  - RawCountEpsilon: max over hull tests with >= min_count false
//    positives of log((TPR - delta) / FPR): a POINT ESTIMATE, NOT a
//    confidence statement (jax-privacy `epsilon_raw_counts`).
//
// SPEED. One radix sort per side (roc.h), the ROC, the hull: O(n) time and
// memory after the sort; the max-accuracy upper bound adds a pruned pass
// (see there). Measured (score_metrics_benchmark: 10^6 N(1, 1) and 10^6
// N(0, 1) scores, one thread's CPU time, load ~5 on this project's 2-core
// machine): each AUC, TPR at FPR, max accuracy and raw-count eps 0.11-0.13 s
// (the sort and the ROC), the max-accuracy upper bound 0.16 s (0.21 s at
// N(0.1, 1), where the accuracy is flat and more points need exact limits).
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_METRICS_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_METRICS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/confusion_counts.h"
#include "estimators/roc/roc.h"

namespace privbench {

// The hull's vertices (above), in the ROC's order: thresholds decreasing,
// fp and tp strictly increasing along it except a vertical first edge (fp
// stays 0) and a horizontal last edge (tp stays P). roc.points must be a
// RocCurve's (at least its +inf point and one more).
std::vector<OperatingPoint> RocHull(const RocCurve& roc);

// The area under the hull's piecewise-linear TPR(FPR), by trapezoids.
double HullAuc(const std::vector<OperatingPoint>& hull);

enum class AucConvention {
  kMannWhitney,  // P[S_member > S_non] + P[S_member = S_non] / 2 (roc.h)
  kHull,         // the hull's area (jax-privacy's attack_auroc)
};
// "mann_whitney", "hull".
std::string_view AucConventionName(AucConvention convention);
// The inverse; an unknown name is an error naming convention.
Result<AucConvention> ParseAucConvention(const std::string& name);

// The AUC of the scores in either convention. Errors name member_scores /
// nonmember_scores (empty, or an element not finite).
Result<double> ScoreAuc(const std::vector<double>& member_scores,
                        const std::vector<double>& nonmember_scores, AucConvention convention);

// TPR AT A GIVEN FPR WITH RANDOMISED THRESHOLDS. The largest TPR, on these
// scores, of a test that randomises between two thresholds and has FPR
// exactly fpr: the hull's TPR at FPR = fpr. With the hull's vertices
// (fp_j, tp_j), j = the first vertex with fp_j > N fpr (the last vertex
// when fpr = 1) and i = j - 1:
//   TPR = (tp_i + q (tp_j - tp_i)) / P,   q = (N fpr - fp_i) / (fp_j - fp_i),
// jax-privacy's `_tpr_at_given_fpr`, evaluated in the same order of
// operations. fpr in [0, 1]. At fpr = 0 it is the hull's TPR at FPR 0
// (its vertical first edge). It is an empirical ROC quantity (no
// confidence statement); score_audit's TprAtFpr is the best single
// threshold with a Clopper-Pearson interval.
Result<double> RandomisedTprAtFpr(const std::vector<double>& member_scores,
                                  const std::vector<double>& nonmember_scores, double fpr);
// The same on a hull (RocHull), for several FPRs without recomputing it.
Result<double> HullTprAtFpr(const std::vector<OperatingPoint>& hull, double fpr);

// MAX ACCURACY. The accuracy of the threshold test "member iff score >=
// t" when a trial is a member with probability `prevalence` (pi):
//   acc(t) = pi TPR(t) + (1 - pi) TNR(t).
//  - accuracy: the largest empirical acc over every ROC point (the maximum
//    of a linear function, so a hull vertex attains it and randomising
//    does not help; jax-privacy `max_accuracy()`, computed on its hull
//    vertices, is the same number).
//  - upper (when alpha is given): an upper confidence bound at confidence
//    1 - alpha on the POPULATION's sup_t acc(t):
//        upper = max over ROC points of pi TPR_u + (1 - pi) TNR_u,
//    TPR_u, TNR_u the one-sided Clopper-Pearson upper limits at level
//    alpha / 2 each (Beta(k + 1, n - k) quantile 1 - alpha/2; 1 at k = n).
//    Validity: let t* be a threshold (population) attaining the sup (or a
//    rule "score > t*", where the sup is a limit); its test is fixed before
//    the data are seen, so with probability >= 1 - alpha both its rates lie
//    below their limits (union bound over the two), and its empirical counts
//    are those of one ROC point (the one with the smallest score >= t*, or
//    > t*), over which the maximum is taken. No union over thresholds is
//    needed: only t*'s statement is used. ASSUMPTIONS: the scores are
//    independent draws, members from one distribution and non-members from
//    another (score_audit.h), and prevalence is fixed in advance (the
//    default, P / (P + N), is read off the data: the bound is then for that
//    prevalence, not a statement about the sampling).
//    jax-privacy's `max_accuracy(significance=alpha)` takes the same
//    maximum over the HULL VERTICES only, at most this one (the objective is
//    not linear, so a non-vertex can be larger), and then the argument above
//    does not apply (t*'s point need not be a vertex).
//    SPEED: a ROC point inside a run of member scores alone is beaten by the
//    run's last point (TPR_u rises, TNR_u is unchanged), one inside a run of
//    non-member scores by the run's first; of the rest, those whose value
//    cannot beat the best so far by an upper bound on each limit are
//    skipped: first Hoeffding's (the limit is below k/n + sqrt(ln(2/alpha) /
//    (2n)), as P[Bin(n, p) <= k] <= exp(-2n (p - k/n)^2)), then the exact
//    limit at the next point of a grid of counts of step ~n / 2^16 (the
//    limit rises with k; each grid limit computed once, when needed); the
//    others get the exact limits. Exact (the same maximum as every point),
//    O(n) after the sort.
struct MaxAccuracyOptions {
  std::optional<double> prevalence;  // in [0, 1]; nullopt: P / (P + N)
  std::optional<double> alpha;       // in (0, 1); nullopt: no upper bound
};
struct MaxAccuracy {
  double prevalence = 0.5;
  double accuracy = 0.0;
  OperatingPoint point;         // the (first) ROC point attaining it
  std::optional<double> upper;  // when alpha was given
  std::optional<OperatingPoint> upper_point;
  double tpr_upper = 1.0, tnr_upper = 1.0;  // upper_point's limits
};
Result<MaxAccuracy> MaxAccuracyOfScores(const std::vector<double>& member_scores,
                                        const std::vector<double>& nonmember_scores,
                                        const MaxAccuracyOptions& options);

// RAW-COUNT EPS (NOT a confidence statement; jax-privacy
// `epsilon_raw_counts`). The largest eps any randomised threshold test with
// at least min_count false positives shows on these scores, from the DP
// inequality TPR <= e^eps FPR + delta read with the empirical rates:
//   eps_hat = max{0, max over hull tests with fp >= min_count of
//                    log(TPR - delta) - log(FPR)}   (TPR > delta),
// where the hull tests are the vertices with fp >= min_count and the hull's
// point at fp = min_count (RandomisedTprAtFpr at min_count / N); at delta =
// 0 the latter is the maximum (the hull is concave through the origin).
// two-sided (one_sided = false) also takes the reverse test ("member iff
// score < t": the same hull read from (N, P) back, TNR against FNR, min_count
// false negatives), i.e. the other inequality TNR <= e^eps FNR + delta.
// 0 when min_count >= N (min_count >= P for the reverse test). It is a plug-in
// estimate: the rates are not bounded with any confidence, so eps_hat can
// exceed the mechanism's eps by chance (more often the fewer false positives
// min_count allows); too large a min_count biases it towards 0. Report it
// as an estimate, never as a lower bound.
struct RawCountOptions {
  int64_t min_count = 50;  // >= 1
  double delta = 0.0;      // in [0, 1)
  bool one_sided = true;
};
Result<double> RawCountEpsilon(const std::vector<double>& member_scores,
                               const std::vector<double>& nonmember_scores,
                               const RawCountOptions& options);

// NAMED SCALAR METRICS (for the bootstrap, resampling.h, and Python): a
// metric is a function of the two score samples. Names: "auc_mann_whitney",
// "auc_hull", "tpr_at_fpr" (uses fpr), "max_accuracy" (uses prevalence; the
// empirical maximum), "raw_count_epsilon" (uses min_count, delta,
// one_sided).
using ScoreMetric = std::function<Result<double>(const std::vector<double>& member_scores,
                                                 const std::vector<double>& nonmember_scores)>;
struct ScoreMetricParams {
  double fpr = 0.01;
  std::optional<double> prevalence;
  RawCountOptions raw_count;
};
std::vector<std::string> ScoreMetricNames();
// An unknown name, or a parameter out of its range, is an error naming it.
Result<ScoreMetric> MakeScoreMetric(const std::string& name, const ScoreMetricParams& params);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_METRICS_H_
