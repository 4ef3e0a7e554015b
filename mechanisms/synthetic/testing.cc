#include "mechanisms/synthetic/testing.h"

#include <algorithm>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>

namespace privbench {

CategoricalDomain TestDomain(const std::vector<int32_t>& sizes) {
  return NumberedDomain(sizes, "v");
}

CategoricalTable TreeData(const CategoricalDomain& domain,
                          const std::vector<std::pair<int64_t, int64_t>>& edges, int64_t n,
                          double strength, Rng& rng) {
  const int64_t d = domain.attributes();
  std::vector<char> has_parent(static_cast<size_t>(d), 0);
  for (const auto& e : edges) has_parent[e.second] = 1;
  CategoricalTable t = EmptyTable(domain);
  t.values.resize(static_cast<size_t>(n * d));
  boost::random::uniform_01<double> u;
  for (int64_t i = 0; i < n; ++i) {
    int32_t* row = t.row(i);
    for (int64_t j = 0; j < d; ++j) {
      if (!has_parent[j]) {
        row[j] = boost::random::uniform_int_distribution<int32_t>(0, domain.sizes[j] - 1)(rng);
      }
    }
    for (const auto& [p, c] : edges) {
      row[c] = u(rng) < strength
                   ? row[p] % domain.sizes[c]
                   : boost::random::uniform_int_distribution<int32_t>(0, domain.sizes[c] - 1)(rng);
    }
  }
  return t;
}

const std::vector<std::pair<int64_t, int64_t>> kSixAttributeTree = {
    {0, 1}, {1, 2}, {1, 3}, {3, 4}, {0, 5}};

SixAttributeTreeData SixAttributeTree(int64_t n, double strength, Rng& rng) {
  SixAttributeTreeData example;
  example.domain = TestDomain({4, 3, 5, 4, 3, 6});
  example.data = TreeData(example.domain, kSixAttributeTree, n, strength, rng);
  return example;
}

std::vector<std::pair<int64_t, int64_t>> Undirected(
    const std::vector<std::pair<int64_t, int64_t>>& edges) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& [a, b] : edges) out.emplace_back(std::min(a, b), std::max(a, b));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace privbench
