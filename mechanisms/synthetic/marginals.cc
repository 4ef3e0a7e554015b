#include "mechanisms/synthetic/marginals.h"

#include <algorithm>
#include <boost/random/laplace_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <numeric>

namespace privbench {

std::vector<std::vector<char>> ValueSupport(const CategoricalTable& data,
                                            const CategoricalDomain& domain, bool from_data) {
  const int64_t d = domain.attributes();
  std::vector<std::vector<char>> support(static_cast<size_t>(d));
  for (int64_t j = 0; j < d; ++j) {
    support[j].assign(static_cast<size_t>(domain.sizes[j]), from_data ? 0 : 1);
  }
  if (!from_data) return support;
  for (int64_t i = 0; i < data.n(); ++i) {
    const int32_t* row = data.row(i);
    for (int64_t j = 0; j < d; ++j) support[j][row[j]] = 1;
  }
  return support;
}

std::vector<double> Counts1(const CategoricalTable& data, const std::vector<int32_t>& sizes,
                            int64_t j) {
  std::vector<double> counts(static_cast<size_t>(sizes[j]), 0.0);
  const int64_t d = data.d;
  const int32_t* v = data.values.data();
  for (int64_t i = 0; i < data.n(); ++i) counts[v[i * d + j]] += 1.0;
  return counts;
}

PairCounts::PairCounts(const CategoricalTable& data, const std::vector<int32_t>& sizes)
    : d_(static_cast<int64_t>(sizes.size())), sizes_(sizes) {
  const int64_t n = data.n();
  int64_t total = 0;
  for (int64_t a = 0; a < d_; ++a) {
    for (int64_t b = a + 1; b < d_; ++b) {
      offset_.push_back(total);
      total += static_cast<int64_t>(sizes[a]) * sizes[b];
    }
  }
  counts_.assign(static_cast<size_t>(total), 0.0);
  // Column-major copy: each pair then streams two contiguous columns.
  std::vector<int32_t> columns(static_cast<size_t>(n * d_));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < d_; ++j) columns[j * n + i] = data.values[i * d_ + j];
  }
  int64_t pair = 0;
  for (int64_t a = 0; a < d_; ++a) {
    const int32_t* ca = columns.data() + a * n;
    for (int64_t b = a + 1; b < d_; ++b, ++pair) {
      const int32_t* cb = columns.data() + b * n;
      double* t = counts_.data() + offset_[pair];
      const int32_t kb = sizes[b];
      for (int64_t i = 0; i < n; ++i) t[ca[i] * kb + cb[i]] += 1.0;
    }
  }
}

int64_t PairCounts::PairIndex(int64_t a, int64_t b) const {
  return a * d_ - a * (a + 1) / 2 + (b - a - 1);
}

std::vector<double> PairCounts::Oriented(int64_t a, int64_t b) const {
  const int64_t lo = std::min(a, b), hi = std::max(a, b);
  const double* t = Table(lo, hi);
  const int32_t klo = sizes_[lo], khi = sizes_[hi];
  std::vector<double> out(t, t + static_cast<int64_t>(klo) * khi);
  if (a < b) return out;
  // Transpose: b's (the lower index's) values were major.
  for (int32_t u = 0; u < klo; ++u) {
    for (int32_t v = 0; v < khi; ++v) out[v * klo + u] = t[u * khi + v];
  }
  return out;
}

NoisyMarginal MeasureMarginal(const std::vector<int64_t>& attributes,
                              const std::vector<double>& counts,
                              const std::vector<std::vector<char>>& support,
                              const std::vector<int32_t>& sizes, MarginalNoise noise, double scale,
                              Rng& rng) {
  NoisyMarginal m;
  m.attributes = attributes;
  m.noisy_counts = counts;
  m.noise = noise;
  m.scale = scale;
  const std::vector<char>& first = support[attributes[0]];
  const int32_t k_second = attributes.size() > 1 ? sizes[attributes[1]] : 1;
  const std::vector<char>* second = attributes.size() > 1 ? &support[attributes[1]] : nullptr;
  boost::random::laplace_distribution<double> laplace(
      0.0, noise == MarginalNoise::kLaplace ? scale : 1.0);
  boost::random::normal_distribution<double> normal(
      0.0, noise == MarginalNoise::kGaussian ? scale : 1.0);
  for (size_t cell = 0; cell < counts.size(); ++cell) {
    const bool allowed =
        first[cell / k_second] && (second == nullptr || (*second)[cell % k_second]);
    if (!allowed) {
      m.noisy_counts[cell] = 0.0;
      continue;
    }
    if (noise == MarginalNoise::kLaplace) m.noisy_counts[cell] += laplace(rng);
    if (noise == MarginalNoise::kGaussian) m.noisy_counts[cell] += normal(rng);
  }
  return m;
}

std::vector<double> ToDistribution(std::vector<double> counts, const std::vector<char>& allowed) {
  double sum = 0.0;
  int64_t n_allowed = 0;
  for (size_t v = 0; v < counts.size(); ++v) {
    n_allowed += allowed[v] ? 1 : 0;
    counts[v] = allowed[v] ? std::max(counts[v], 0.0) : 0.0;
    sum += counts[v];
  }
  if (sum > 0.0 && std::isfinite(sum)) {
    for (double& c : counts) c /= sum;
    return counts;
  }
  for (size_t v = 0; v < counts.size(); ++v) {
    counts[v] = n_allowed == 0 ? 1.0 / static_cast<double>(counts.size())
                               : (allowed[v] ? 1.0 / static_cast<double>(n_allowed) : 0.0);
  }
  return counts;
}

void CumulativeSums(const double* p, int64_t k, double* cdf) {
  double s = 0.0;
  for (int64_t i = 0; i < k; ++i) {
    s += p[i];
    cdf[i] = s;
  }
}

int32_t DrawFromCdf(const double* cdf, int32_t k, double u) {
  const double x = u * cdf[k - 1];
  for (int32_t i = 0; i < k; ++i) {
    if (cdf[i] > x) return i;
  }
  // Unreachable for u in [0, 1); the last index with positive probability.
  int32_t i = k - 1;
  while (i > 0 && cdf[i] == cdf[i - 1]) --i;
  return i;
}

double Uniform01(Rng& rng) { return boost::random::uniform_01<double>()(rng); }

int64_t ExponentialMechanism(const std::vector<double>& quality, double epsilon, double sensitivity,
                             Rng& rng) {
  const double coef = epsilon / (2.0 * sensitivity);
  const double top = *std::max_element(quality.begin(), quality.end());
  std::vector<double> cdf(quality.size());
  double s = 0.0;
  for (size_t i = 0; i < quality.size(); ++i) {
    s += std::exp(coef * (quality[i] - top));
    cdf[i] = s;
  }
  return DrawFromCdf(cdf.data(), static_cast<int32_t>(cdf.size()), Uniform01(rng));
}

double MutualInformationBits(const double* joint, int32_t ka, int32_t kb) {
  std::vector<double> pa(static_cast<size_t>(ka), 0.0), pb(static_cast<size_t>(kb), 0.0);
  double n = 0.0;
  for (int32_t u = 0; u < ka; ++u) {
    for (int32_t v = 0; v < kb; ++v) {
      const double c = joint[u * kb + v];
      pa[u] += c;
      pb[v] += c;
      n += c;
    }
  }
  if (n <= 0.0) return 0.0;
  // I = sum c/n log2(c n / (c_a c_b)).
  double mi = 0.0;
  for (int32_t u = 0; u < ka; ++u) {
    for (int32_t v = 0; v < kb; ++v) {
      const double c = joint[u * kb + v];
      if (c > 0.0) mi += c * std::log2(c * n / (pa[u] * pb[v]));
    }
  }
  return std::max(mi / n, 0.0);
}

std::vector<std::pair<int64_t, int64_t>> MaximumSpanningTree(int64_t d,
                                                             const std::vector<double>& weight) {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int64_t a = 0; a < d; ++a) {
    for (int64_t b = a + 1; b < d; ++b) pairs.emplace_back(a, b);
  }
  std::vector<int64_t> order(pairs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t x, int64_t y) { return weight[x] > weight[y]; });
  DisjointSets sets(d);
  std::vector<std::pair<int64_t, int64_t>> tree;
  for (int64_t idx : order) {
    const auto [a, b] = pairs[idx];
    if (sets.Connected(a, b)) continue;
    sets.Merge(a, b);
    tree.emplace_back(a, b);
    if (static_cast<int64_t>(tree.size()) == d - 1) break;
  }
  return tree;
}

DisjointSets::DisjointSets(int64_t d) : parent_(static_cast<size_t>(d)) {
  std::iota(parent_.begin(), parent_.end(), 0);
}

int64_t DisjointSets::Find(int64_t x) {
  while (parent_[x] != x) {
    parent_[x] = parent_[parent_[x]];
    x = parent_[x];
  }
  return x;
}

void DisjointSets::Merge(int64_t a, int64_t b) {
  const int64_t ra = Find(a), rb = Find(b);
  if (ra == rb) return;
  if (ra < rb) {
    parent_[rb] = ra;
  } else {
    parent_[ra] = rb;
  }
}

}  // namespace privbench
