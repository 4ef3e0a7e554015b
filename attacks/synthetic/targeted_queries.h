// Targeted counting queries (TAPAS: Houssiau, Jordon, Cohen, Daniel, Elliott,
// Geddes, Mole, Rangel-Smith & Szpruch, "TAPAS: a Toolbox for Adversarial
// Privacy Auditing of Synthetic Data", NeurIPS 2022 SyntheticData4ML
// workshop; their attacks/set_classifiers.py, RandomTargetedQueryFeature):
// features of a synthetic table that count the synthetic records matching
// the target record on a subset S of attributes,
//   q_S(D) = (1 / n) sum_{s in D} prod_{j in S} 1{s_j = x_j},
// i.e. the target's cell of the |S|-way marginal of the synthetic table, as
// a FRACTION of the n synthetic rows (TAPAS returns the count; the two
// differ by the constant n when every synthetic table has n rows). The
// vector of q_S over chosen subsets is fed to a classifier (classifier.h)
// trained on shadow synthetic tables. Assumptions: black box (the synthetic
// table only), the adversary knows the target record and the public domain.
//
// Subsets: TAPAS draws, for one order k, `number` subsets uniformly without
// replacement from all C(d, k) subsets when C(d, k) < 10^6 (all of them when
// number >= C(d, k)), else independently (possibly repeated). Here, for each
// requested order k (e.g. {1, 2, 3}, one TAPAS feature per order, added
// together), `count` subsets are drawn the same way, except that above 10^6
// the independent draws are de-duplicated by rejection. Every subset is
// sorted increasingly; the subsets of an order come in draw order (all of
// them in lexicographic order when count >= C(d, k)), the orders as given.
// Draws use Boost.Random's uniform_int_distribution on the study's Rng.
//
// Cost: TargetedQueryEvaluator builds, per synthetic row, a bit mask of the
// attributes on which the row agrees with the target (ceil(d / 64) words)
// and tests each subset's mask against it: O(n (d + Q ceil(d / 64))) per
// table for Q subsets, no allocation per row. With d <= 64 the row masks are
// sorted and each distinct mask tested once: O(n d + n log n + Q u) for u
// distinct masks (u <= min(n, 2^d)).
#ifndef PRIVBENCH_ATTACKS_SYNTHETIC_TARGETED_QUERIES_H_
#define PRIVBENCH_ATTACKS_SYNTHETIC_TARGETED_QUERIES_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"
#include "data_scripts/categorical.h"

namespace privbench {

// Attribute indices, sorted increasingly, distinct, in [0, d).
using AttributeSubset = std::vector<int64_t>;

// Above this many subsets of an order, draws are independent (TAPAS's 1e6).
inline constexpr int64_t kMaxEnumeratedSubsets = 1000000;
// The most subsets drawn per order.
inline constexpr int64_t kMaxQueryCount = 100000;

// For each order k in `orders` (each in [1, d], no repeats; errors name
// "orders"), min(count, C(d, k)) distinct subsets of k attributes drawn
// uniformly without replacement. count in [1, kMaxQueryCount] (errors name
// "count").
Result<std::vector<AttributeSubset>> DrawQuerySubsets(const CategoricalDomain& domain,
                                                      const std::vector<int64_t>& orders,
                                                      int64_t count, Rng& rng);

// Every subset of `order` attributes in lexicographic order (order in
// [1, d] and C(d, order) <= kMaxEnumeratedSubsets; errors name "order").
// AllQuerySubsets(domain, 1) = {{0}, {1}, ..., {d - 1}}.
Result<std::vector<AttributeSubset>> AllQuerySubsets(const CategoricalDomain& domain,
                                                     int64_t order);

class TargetedQueryEvaluator {
 public:
  // Validates the domain, the target (its width and codes; errors name
  // "target") and the subsets (non-empty list; each non-empty, sorted,
  // distinct, in range; errors name "subsets[i]").
  static Result<TargetedQueryEvaluator> Make(const CategoricalDomain& domain,
                                             const std::vector<int32_t>& target,
                                             const std::vector<AttributeSubset>& subsets);

  int64_t size() const { return queries_; }

  // Appends q_S(table) for every subset, in order, to *out. The table is
  // validated (width, codes, at least one row; errors name "synthetic").
  Status Evaluate(const CategoricalTable& table, std::vector<double>* out);

 private:
  TargetedQueryEvaluator() = default;

  CategoricalDomain domain_;
  std::vector<int32_t> target_;
  int64_t words_ = 0;  // 64-bit words per mask
  int64_t queries_ = 0;
  std::vector<uint64_t> masks_;      // queries_ x words_: each subset's attributes
  std::vector<int64_t> hits_;        // scratch: matches per query
  std::vector<uint64_t> row_mask_;   // scratch: one row's agreeing attributes
  std::vector<uint64_t> row_masks_;  // scratch (d <= 64): every row's mask
};

// One-off convenience: q_S(synthetic) for every subset.
Result<std::vector<double>> TargetedQueryFractions(const std::vector<int32_t>& target,
                                                   const std::vector<AttributeSubset>& subsets,
                                                   const CategoricalTable& synthetic,
                                                   const CategoricalDomain& domain);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_SYNTHETIC_TARGETED_QUERIES_H_
