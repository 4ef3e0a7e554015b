#include "estimators/roc/roc.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <string>

#include "core/validate.h"

namespace privbench {

namespace {

// The order-preserving map of a double's bits to an unsigned key, reversed:
// ascending keys are descending scores.
uint64_t DescendingKey(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  const uint64_t ascending = (b >> 63) != 0 ? ~b : (b | (uint64_t{1} << 63));
  return ~ascending;
}

double FromDescendingKey(uint64_t key) {
  const uint64_t ascending = ~key;
  const uint64_t b = (ascending >> 63) != 0 ? (ascending & ~(uint64_t{1} << 63)) : ~ascending;
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// Stable LSD radix sort of `keys` (ascending) with kBits-bit digits, moving
// `idx` along when not null; a pass is skipped where every key shares its
// digit.
template <int kBits>
void RadixSortKeys(std::vector<uint64_t>* keys, std::vector<uint64_t>* idx) {
  constexpr int kPasses = (64 + kBits - 1) / kBits;
  constexpr size_t kBuckets = size_t{1} << kBits;
  const size_t n = keys->size();
  if (n == 0) return;
  std::vector<std::array<size_t, kBuckets>> counts(kPasses);
  for (auto& c : counts) c.fill(0);
  for (uint64_t k : *keys) {
    for (int p = 0; p < kPasses; ++p) ++counts[p][(k >> (kBits * p)) & (kBuckets - 1)];
  }
  std::vector<uint64_t> keys_tmp(n), idx_tmp(idx != nullptr ? n : 0);
  for (int p = 0; p < kPasses; ++p) {
    std::array<size_t, kBuckets>& c = counts[p];
    if (*std::max_element(c.begin(), c.end()) == n) continue;  // one digit value
    size_t sum = 0;
    for (size_t& x : c) {
      const size_t here = x;
      x = sum;
      sum += here;
    }
    const int shift = kBits * p;
    for (size_t i = 0; i < n; ++i) {
      const size_t to = c[((*keys)[i] >> shift) & (kBuckets - 1)]++;
      keys_tmp[to] = (*keys)[i];
      if (idx != nullptr) idx_tmp[to] = (*idx)[i];
    }
    keys->swap(keys_tmp);
    if (idx != nullptr) idx->swap(idx_tmp);
  }
}

// Above this many keys, 11-bit digits (six passes, counts in 96 KiB) beat
// 8-bit ones (eight passes); below, clearing the larger counts dominates.
constexpr size_t kWideDigitsFrom = 1 << 16;

void SortKeys(std::vector<uint64_t>* keys, std::vector<uint64_t>* idx) {
  if (keys->size() >= kWideDigitsFrom) {
    RadixSortKeys<11>(keys, idx);
  } else {
    RadixSortKeys<8>(keys, idx);
  }
}

std::vector<uint64_t> DescendingKeys(const std::vector<double>& scores) {
  std::vector<uint64_t> keys(scores.size());
  for (size_t i = 0; i < scores.size(); ++i) keys[i] = DescendingKey(scores[i]);
  return keys;
}

void ScoresOfKeys(const std::vector<uint64_t>& keys, std::vector<double>* scores) {
  scores->resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) (*scores)[i] = FromDescendingKey(keys[i]);
}

}  // namespace

void SortDescending(const std::vector<double>& scores, std::vector<double>* sorted,
                    std::vector<uint64_t>* origin) {
  std::vector<uint64_t> keys = DescendingKeys(scores);
  std::vector<uint64_t> idx;
  if (origin != nullptr) {
    idx.resize(scores.size());
    std::iota(idx.begin(), idx.end(), uint64_t{0});
  }
  SortKeys(&keys, origin != nullptr ? &idx : nullptr);
  ScoresOfKeys(keys, sorted);
  if (origin != nullptr) *origin = std::move(idx);
}

void SortHalvesDescending(const std::vector<double>& scores, const std::vector<uint8_t>& in_first,
                          std::vector<double>* first, std::vector<double>* second,
                          std::vector<double>* all) {
  std::vector<uint64_t> a, b;
  a.reserve(scores.size() / 2 + 1);
  b.reserve(scores.size() / 2 + 1);
  for (size_t i = 0; i < scores.size(); ++i) {
    (in_first[i] != 0 ? a : b).push_back(DescendingKey(scores[i]));
  }
  SortKeys(&a, nullptr);
  SortKeys(&b, nullptr);
  std::vector<uint64_t> merged(scores.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin());
  ScoresOfKeys(a, first);
  ScoresOfKeys(b, second);
  ScoresOfKeys(merged, all);
}

RocCurve RocOfDescending(const std::vector<double>& m, const std::vector<double>& n) {
  const int64_t P = static_cast<int64_t>(m.size()), N = static_cast<int64_t>(n.size());
  RocCurve roc;
  roc.points.reserve(m.size() + n.size() + 1);
  roc.points.push_back({std::numeric_limits<double>::infinity(), {0, P, 0, N}});
  size_t i = 0, j = 0;
  double auc_sum = 0.0;  // sum over steps of (TPR gain) * (FPR before) ... via trapezoids
  while (i < m.size() || j < n.size()) {
    // Next threshold: the largest remaining score.
    double t = -std::numeric_limits<double>::infinity();
    if (i < m.size()) t = m[i];
    if (j < n.size()) t = std::max(t, n[j]);
    const ConfusionCounts prev = roc.points.back().counts;
    while (i < m.size() && m[i] == t) ++i;
    while (j < n.size() && n[j] == t) ++j;
    OperatingPoint p{t,
                     {static_cast<int64_t>(i), P - static_cast<int64_t>(i), static_cast<int64_t>(j),
                      N - static_cast<int64_t>(j)}};
    // Trapezoid between consecutive points: exact Mann-Whitney with ties.
    auc_sum += static_cast<double>(p.counts.fp - prev.fp) *
               static_cast<double>(p.counts.tp + prev.tp) / 2.0;
    roc.points.push_back(p);
  }
  roc.points.shrink_to_fit();
  roc.auc = auc_sum / (static_cast<double>(P) * static_cast<double>(N));
  return roc;
}

Result<RocCurve> ComputeRoc(const std::vector<double>& member_scores,
                            const std::vector<double>& nonmember_scores) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  std::vector<double> m, n;
  SortDescending(member_scores, &m, nullptr);
  SortDescending(nonmember_scores, &n, nullptr);
  return RocOfDescending(m, n);
}

Result<OperatingPoint> BestTprAtFpr(const RocCurve& roc, double max_fpr) {
  PB_RETURN_IF_ERROR(CheckProbability("max_fpr", max_fpr));
  if (roc.points.empty()) return Error("roc must have at least one point");
  // FPR and TPR are non-decreasing along a RocCurve: the points with FPR <=
  // max_fpr are a prefix, the largest TPR among them is the prefix's last
  // point's, and the first point with that TPR is the one with the smallest
  // FPR (the linear scan's choice, found by two binary searches).
  const auto& points = roc.points;
  const auto prefix_end =
      std::partition_point(points.begin() + 1, points.end(),
                           [max_fpr](const OperatingPoint& p) { return p.fpr() <= max_fpr; });
  const double best_tpr = std::prev(prefix_end)->tpr();
  return *std::partition_point(points.begin(), prefix_end,
                               [best_tpr](const OperatingPoint& p) { return p.tpr() < best_tpr; });
}

OperatingPoint BestAdvantage(const RocCurve& roc) {
  const OperatingPoint* best = &roc.points.front();
  for (const OperatingPoint& p : roc.points) {
    if (p.advantage() > best->advantage()) best = &p;
  }
  return *best;
}

Result<OperatingPoint> AtThreshold(const std::vector<double>& member_scores,
                                   const std::vector<double>& nonmember_scores, double threshold) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  if (std::isnan(threshold)) return Error("threshold must not be NaN");
  OperatingPoint p{threshold, {}};
  for (double s : member_scores) (s >= threshold ? p.counts.tp : p.counts.fn) += 1;
  for (double s : nonmember_scores) (s >= threshold ? p.counts.fp : p.counts.tn) += 1;
  return p;
}

}  // namespace privbench
