#include "attacks/synthetic/targeted_queries.h"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <set>
#include <string>

#include "attacks/synthetic/checks.h"

namespace privbench {
namespace {

// C(d, k), saturated at kMaxEnumeratedSubsets + 1.
int64_t CappedBinomial(int64_t d, int64_t k) {
  if (k < 0 || k > d) return 0;
  k = std::min(k, d - k);
  int64_t c = 1;
  for (int64_t i = 1; i <= k; ++i) {
    // c * (d - k + i) / i is exact (c = C(d - k + i - 1, i - 1)); cap first.
    c = c * (d - k + i) / i;
    if (c > kMaxEnumeratedSubsets) return kMaxEnumeratedSubsets + 1;
  }
  return c;
}

// The r-th (0-based) k-subset of {0..d-1} in lexicographic order.
AttributeSubset UnrankSubset(int64_t d, int64_t k, int64_t r) {
  AttributeSubset s;
  s.reserve(k);
  int64_t next = 0;
  for (int64_t slot = 0; slot < k; ++slot) {
    for (;; ++next) {
      // Subsets starting with `next` at this slot: C(d - next - 1, k - slot - 1).
      const int64_t block = CappedBinomial(d - next - 1, k - slot - 1);
      if (r < block) break;
      r -= block;
    }
    s.push_back(next++);
  }
  return s;
}

// count subsets of order k of d attributes drawn without replacement from
// all `total` <= kMaxEnumeratedSubsets (partial Fisher-Yates on the ranks).
void DrawEnumerated(int64_t d, int64_t k, int64_t total, int64_t count, Rng& rng,
                    std::vector<AttributeSubset>* out) {
  if (count >= total) {
    for (int64_t r = 0; r < total; ++r) out->push_back(UnrankSubset(d, k, r));
    return;
  }
  std::vector<int64_t> rank(total);
  for (int64_t r = 0; r < total; ++r) rank[r] = r;
  for (int64_t i = 0; i < count; ++i) {
    boost::random::uniform_int_distribution<int64_t> pick(i, total - 1);
    std::swap(rank[i], rank[pick(rng)]);
    out->push_back(UnrankSubset(d, k, rank[i]));
  }
}

// count distinct subsets drawn independently (k distinct attributes by a
// partial Fisher-Yates), repeats rejected.
void DrawIndependent(int64_t d, int64_t k, int64_t count, Rng& rng,
                     std::vector<AttributeSubset>* out) {
  std::vector<int64_t> perm(d);
  std::set<AttributeSubset> seen;
  while (static_cast<int64_t>(seen.size()) < count) {
    for (int64_t j = 0; j < d; ++j) perm[j] = j;
    for (int64_t i = 0; i < k; ++i) {
      boost::random::uniform_int_distribution<int64_t> pick(i, d - 1);
      std::swap(perm[i], perm[pick(rng)]);
    }
    AttributeSubset s(perm.begin(), perm.begin() + k);
    std::sort(s.begin(), s.end());
    if (seen.insert(s).second) out->push_back(std::move(s));
  }
}

}  // namespace

Result<std::vector<AttributeSubset>> DrawQuerySubsets(const CategoricalDomain& domain,
                                                      const std::vector<int64_t>& orders,
                                                      int64_t count, Rng& rng) {
  PB_RETURN_IF_ERROR(CheckDomain(domain));
  const int64_t d = domain.attributes();
  if (count < 1 || count > kMaxQueryCount) {
    return Error("count must be in [1, " + std::to_string(kMaxQueryCount) + "], got " +
                 std::to_string(count));
  }
  if (orders.empty()) return Error("orders is empty");
  for (size_t i = 0; i < orders.size(); ++i) {
    if (orders[i] < 1 || orders[i] > d) {
      return Error("orders[" + std::to_string(i) + "] = " + std::to_string(orders[i]) +
                   " outside [1, " + std::to_string(d) + "] (the domain's attributes)");
    }
    if (std::find(orders.begin(), orders.begin() + i, orders[i]) != orders.begin() + i) {
      return Error("orders repeats " + std::to_string(orders[i]));
    }
  }
  std::vector<AttributeSubset> out;
  for (int64_t k : orders) {
    const int64_t total = CappedBinomial(d, k);
    if (total <= kMaxEnumeratedSubsets) {
      DrawEnumerated(d, k, total, count, rng, &out);
    } else {
      DrawIndependent(d, k, count, rng, &out);
    }
  }
  return out;
}

Result<std::vector<AttributeSubset>> AllQuerySubsets(const CategoricalDomain& domain,
                                                     int64_t order) {
  PB_RETURN_IF_ERROR(CheckDomain(domain));
  const int64_t d = domain.attributes();
  if (order < 1 || order > d) {
    return Error("order must be in [1, " + std::to_string(d) + "], got " + std::to_string(order));
  }
  const int64_t total = CappedBinomial(d, order);
  if (total > kMaxEnumeratedSubsets) {
    return Error("order " + std::to_string(order) + " gives more than " +
                 std::to_string(kMaxEnumeratedSubsets) + " subsets of " + std::to_string(d) +
                 " attributes");
  }
  std::vector<AttributeSubset> out;
  out.reserve(total);
  for (int64_t r = 0; r < total; ++r) out.push_back(UnrankSubset(d, order, r));
  return out;
}

Result<TargetedQueryEvaluator> TargetedQueryEvaluator::Make(
    const CategoricalDomain& domain, const std::vector<int32_t>& target,
    const std::vector<AttributeSubset>& subsets) {
  PB_RETURN_IF_ERROR(CheckDomain(domain));
  PB_RETURN_IF_ERROR(CheckTargetRecord(target, domain));
  if (subsets.empty()) return Error("subsets is empty");
  const int64_t d = domain.attributes();
  TargetedQueryEvaluator e;
  e.domain_ = domain;
  e.target_ = target;
  e.words_ = (d + 63) / 64;
  e.queries_ = static_cast<int64_t>(subsets.size());
  e.masks_.assign(e.queries_ * e.words_, 0);
  for (int64_t q = 0; q < e.queries_; ++q) {
    const AttributeSubset& s = subsets[q];
    const std::string name = "subsets[" + std::to_string(q) + "]";
    if (s.empty()) return Error(name + " is empty");
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] < 0 || s[i] >= d) {
        return Error(name + " holds attribute " + std::to_string(s[i]) + " outside [0, " +
                     std::to_string(d) + ")");
      }
      if (i > 0 && s[i] <= s[i - 1]) return Error(name + " is not sorted and distinct");
      e.masks_[q * e.words_ + s[i] / 64] |= uint64_t{1} << (s[i] % 64);
    }
  }
  e.hits_.assign(e.queries_, 0);
  e.row_mask_.assign(e.words_, 0);
  return e;
}

Status TargetedQueryEvaluator::Evaluate(const CategoricalTable& table, std::vector<double>* out) {
  if (out == nullptr) return Error("out must not be null");
  PB_RETURN_IF_ERROR(CheckNonEmptyTable(table, domain_, "synthetic"));
  const int64_t d = table.d, n = table.n();
  const int32_t* target = target_.data();
  std::fill(hits_.begin(), hits_.end(), 0);
  if (words_ == 1) {
    // At most 64 attributes: the rows' agreement masks, sorted and counted,
    // so each query is tested once per distinct mask (rows share masks).
    row_masks_.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      const int32_t* row = table.row(i);
      uint64_t mask = 0;
      for (int64_t j = 0; j < d; ++j) mask |= static_cast<uint64_t>(row[j] == target[j]) << j;
      row_masks_[i] = mask;
    }
    std::sort(row_masks_.begin(), row_masks_.end());
    const uint64_t* queries = masks_.data();
    for (int64_t i = 0; i < n;) {
      const uint64_t mask = row_masks_[i];
      int64_t run = 1;
      while (i + run < n && row_masks_[i + run] == mask) ++run;
      for (int64_t q = 0; q < queries_; ++q) {
        hits_[q] += ((mask & queries[q]) == queries[q]) ? run : 0;
      }
      i += run;
    }
  } else {
    uint64_t* row_mask = row_mask_.data();
    for (int64_t i = 0; i < n; ++i) {
      const int32_t* row = table.row(i);
      std::fill(row_mask_.begin(), row_mask_.end(), 0);
      for (int64_t j = 0; j < d; ++j) {
        row_mask[j / 64] |= static_cast<uint64_t>(row[j] == target[j]) << (j % 64);
      }
      const uint64_t* mask = masks_.data();
      for (int64_t q = 0; q < queries_; ++q, mask += words_) {
        bool all = true;
        for (int64_t w = 0; w < words_ && all; ++w) all = (row_mask[w] & mask[w]) == mask[w];
        hits_[q] += all;
      }
    }
  }
  const double inv_n = 1.0 / static_cast<double>(n);
  for (int64_t q = 0; q < queries_; ++q) out->push_back(static_cast<double>(hits_[q]) * inv_n);
  return Status::Ok();
}

Result<std::vector<double>> TargetedQueryFractions(const std::vector<int32_t>& target,
                                                   const std::vector<AttributeSubset>& subsets,
                                                   const CategoricalTable& synthetic,
                                                   const CategoricalDomain& domain) {
  PB_ASSIGN_OR_RETURN(TargetedQueryEvaluator e,
                      TargetedQueryEvaluator::Make(domain, target, subsets));
  std::vector<double> out;
  out.reserve(e.size());
  PB_RETURN_IF_ERROR(e.Evaluate(synthetic, &out));
  return out;
}

}  // namespace privbench
