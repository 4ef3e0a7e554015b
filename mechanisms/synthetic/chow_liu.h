// Chow-Liu tree (non-private): the maximum-weight spanning tree of the
// complete graph on the attributes weighted by the empirical mutual
// information of each pair, which is the maximum-likelihood tree-structured
// distribution (Chow & Liu, "Approximating discrete probability
// distributions with dependence trees", IEEE Trans. Inf. Theory 14(3),
// 1968). The tree is rooted at attribute 0; the model's conditionals are
// the exact empirical P(child | parent) (a parent value that never occurs
// gets a uniform conditional, never used since it has probability 0), and
// rows are drawn by ancestral sampling (tree_model.h, with exact counts, so
// its fitting step changes nothing).
//
// Non-private: guarantee epsilon = +inf, no measurements reported.
// structure: the tree edges (parent, child) in ancestral order. Ties in
// mutual information are broken by the lower pair index (a, b), a < b,
// lexicographic. Planted bug domain_from_data: no effect on the output (the
// exact model already only produces occurring values).
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_CHOW_LIU_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_CHOW_LIU_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {

// The Chow-Liu tree's d - 1 undirected edges (a, b), a < b, in the order
// Kruskal's algorithm adds them. `data` must be valid for `domain`.
std::vector<std::pair<int64_t, int64_t>> ChowLiuTree(const CategoricalTable& data,
                                                     const CategoricalDomain& domain);

// "chow_liu".
std::unique_ptr<Synthesizer> MakeChowLiuSynthesizer(const SynthesizerOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_CHOW_LIU_H_
