// MultiSplit: a lower bound that aggregates many random splits (Meinshausen,
// Meier & Buhlmann, "p-Values for High-Dimensional Regression", JASA
// 104(488), 2009, Sec. 2.2 and Thm 3.1, at gamma = 1/2), as jax-privacy's
// auditing module (version 2.0.0, `MultiSplit`) uses it. Its own library so
// that both the score auditor (score_audit.h, selection "multi_split") and
// the named per-split bounds of resampling.h call the same code.
//
// A single split (score_audit.h "split") spends its statement on one
// random half; its bound varies from split to split. MultiSplit draws B
// splits, computes each split's bound at level alpha / 2 and reports their
// MEDIAN (the middle value; the mean of the two middle ones for even B).
// Why it is valid at level alpha: let p_j(x) be split j's p-value for the
// claim x (eps, or mu) and L_j = sup { x : p_j(x) < alpha / 2 } its bound,
// the claim rejected at every x below it (a bound from inverting a test
// monotone in x: every bound in this library). If the median exceeds the
// true x*, at least half of the L_j do (for even B the larger middle value
// does, and so the upper half), so at least half of the p_j(x*) are below
// alpha / 2. Each p_j(x*) is a valid p-value, so E[(1/B) sum_j 1{p_j(x*) <=
// alpha/2}] <= alpha/2 and, by Markov's inequality, P[that fraction >= 1/2]
// <= alpha (the proof of Thm 3.1). The splits may depend on each other and
// on the data in any way; only each split's own validity is used. The
// splits' seeds: DeriveSeed(seed, {3, j}), j = 0..B-1 (core/seeding.h);
// split j is computed before split j + 1, one at a time.
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_MULTI_SPLIT_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_MULTI_SPLIT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/result.h"

namespace privbench {

inline constexpr int64_t kMaxMultiSplits = 100'000;

// One split's bound at `level` from the split's seed.
using SplitBound = std::function<Result<double>(uint64_t split_seed, double level)>;

struct MultiSplitOptions {
  double alpha = 0.05;       // in (0, 1): confidence 1 - alpha
  int64_t num_splits = 100;  // B, in [1, kMaxMultiSplits]
  uint64_t seed = 0;
};
struct MultiSplitResult {
  double bound = 0.0;        // the median of split_bounds
  double level_alpha = 0.0;  // alpha / 2, each split's level
  std::vector<double> split_bounds;
};
// Errors name alpha and num_splits; a split's error (or a bound that is not
// finite) is returned with the split's index.
Result<MultiSplitResult> MultiSplit(const SplitBound& bound, const MultiSplitOptions& options);

// Several bounds on the same splits (a split prepared once for all of
// them, as the score auditor's methods share one): `bounds` returns, for
// one split's seed and level, exactly `count` values, bound k at index k.
// One MultiSplitResult per bound, each the MultiSplit of that bound alone
// (the same seeds, levels and median). MultiSplit is this with count 1.
// Errors as MultiSplit's; a value that is not finite names the split and
// the bound's index k; a call returning another number of values is an
// error naming the split.
using SplitBounds = std::function<Result<std::vector<double>>(uint64_t split_seed, double level)>;
Result<std::vector<MultiSplitResult>> MultiSplitEach(const SplitBounds& bounds, size_t count,
                                                     const MultiSplitOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_MULTI_SPLIT_H_
