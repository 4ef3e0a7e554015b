// Differentially private random forest with data-independent structure,
// Fletcher & Islam, "Differentially private random decision forests using
// smooth sensitivity", Expert Syst. Appl. 78 (2017), as implemented in IBM
// diffprivlib 0.5.2 and audited by ML-Audit (Lu et al., NeurIPS 2022, Sec.
// 5; docs/studies.md D1).
//
// Adjacency: ADD_REMOVE. `trees` trees (10); row i goes to tree
// SplitMix64(partition_seed, i) mod trees, an assignment fixed before seeing
// the data and shared by D and D' (the library dealt contiguous blocks of
// unshuffled rows and dropped the last n mod trees; docs/studies.md D1), so
// one row touches one tree (parallel composition) and each tree spends the
// full eps. Structure: every internal node splits on a uniformly random
// feature at a uniform value within the node's cell of the data bounds
// (data.h), independent of the data, to depth h given by the library's
// balls-in-bins rule on d continuous features (the depth at which half of
// the features are expected to be used, halved; at most 15). Leaf label:
// permute-and-flip (McKenna & Sheldon, NeurIPS 2020) on the leaf's two class
// counts, quality = count, sensitivity 1, in its MONOTONIC form as the
// library calls it: class c is accepted with probability exp(eps (q_c -
// q_max)) (not eps / 2), which is eps-DP when a neighbour moves every
// quality in the same direction, as adding or removing one row does (one
// count changes by 1) (McKenna & Sheldon, Theorem 1 with monotonic
// qualities).
//
// A replace-one label flip moves one count up and the other down: the
// qualities are no longer monotonic and the guarantee is 2 eps (e.g. counts
// (a, a) -> (a - 1, a + 1): P[label 0] falls from 1/2 to exp(-2 eps) / 2).
// That is the library's bug 2 when its eps is read as replace-one.
//
// Summary tau: each tree's predicted label at the audit point x* (`trees`
// values in {0, 1}). Only the path to x*'s leaf is drawn: the other
// branches' splits do not change x*'s leaf, so the draw is exact.
#ifndef PRIVBENCH_MECHANISMS_CLASSICAL_RANDOM_FOREST_H_
#define PRIVBENCH_MECHANISMS_CLASSICAL_RANDOM_FOREST_H_

#include <cstdint>

#include "mechanisms/classical/mechanism.h"

namespace privbench {

// The library's balls-in-bins depth for d continuous features (at most 15).
int64_t BallsInBinsDepth(int64_t d, int64_t max_depth = 15);

// The tree row i is assigned to.
int64_t TreeOfRow(uint64_t partition_seed, int64_t row, int64_t trees);

// Monotonic permute-and-flip on two counts with privacy eps (sensitivity
// 1): the chosen class.
int PermuteAndFlip(Rng& rng, double count0, double count1, double eps);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_CLASSICAL_RANDOM_FOREST_H_
