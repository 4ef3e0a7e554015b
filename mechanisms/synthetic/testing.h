// Test-only helpers for mechanisms/synthetic/: domains and tables drawn from
// a known tree-structured distribution.
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_TESTING_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_TESTING_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/seeding.h"
#include "data_scripts/categorical.h"
#include "data_scripts/categorical_testing.h"

namespace privbench {

// Attributes "a0", "a1", ... with the given sizes and labels "v0", "v1", ...
// (NumberedDomain with the label prefix "v").
CategoricalDomain TestDomain(const std::vector<int32_t>& sizes);

// n rows: attributes without a parent uniform; along each edge (parent,
// child), given in ancestral order, child = parent's value mod the child's
// size with probability `strength`, else uniform over the child's values.
CategoricalTable TreeData(const CategoricalDomain& domain,
                          const std::vector<std::pair<int64_t, int64_t>>& edges, int64_t n,
                          double strength, Rng& rng);

// The example of the tree synthesizers' tests: the domain TestDomain({4, 3,
// 5, 4, 3, 6}) and n rows of TreeData along kSixAttributeTree with the given
// strength (drawn from rng).
extern const std::vector<std::pair<int64_t, int64_t>> kSixAttributeTree;
struct SixAttributeTreeData {
  CategoricalDomain domain;
  CategoricalTable data;
};
SixAttributeTreeData SixAttributeTree(int64_t n, double strength, Rng& rng);

// The edges as sorted (min, max) pairs.
std::vector<std::pair<int64_t, int64_t>> Undirected(
    const std::vector<std::pair<int64_t, int64_t>>& edges);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_TESTING_H_
