// Differentially private random forest with data-independent structure,
// Fletcher & Islam, "Differentially private random decision forests using
// smooth sensitivity", Expert Syst. Appl. 78 (2017), as implemented in IBM
// diffprivlib 0.5.2 and audited by ML-Audit (Lu et al., NeurIPS 2022, Sec.
// 5; experiments/ml_audit/README.md).
//
// Adjacency: ADD_REMOVE. `trees` trees (10); row i goes to tree
// SplitMix64(partition_seed, i) mod trees, an assignment fixed before seeing
// the data and shared by D and D' (the library dealt contiguous blocks of
// unshuffled rows and dropped the last n mod trees; experiments/ml_audit/README.md), so
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
#include <vector>

#include "mechanisms/classical/mechanism.h"

namespace privbench {

// The library's balls-in-bins depth for d continuous features (at most 15).
int64_t BallsInBinsDepth(int64_t d, int64_t max_depth = 15);

// The tree row i is assigned to.
int64_t TreeOfRow(uint64_t partition_seed, int64_t row, int64_t trees);

// Monotonic permute-and-flip on two counts with privacy eps (sensitivity
// 1): the chosen class.
int PermuteAndFlip(Rng& rng, double count0, double count1, double eps);

// The class counts of each tree's rows inside a cell of the data bounds: the
// leaf counts of the forest's draw, computed exactly and fast. A row r of
// tree t is in the cell (lo, hi) on the features split on iff for each such
// j, lo[j] <= r[j] < hi[j] (r[j] <= hi[j] where hi[j] is the data's upper
// bound): the cells are [lo, hi) except at the upper bound, and rows lie
// within the bounds, so the other features cannot exclude them.
//
// How: per tree, its rows are bit positions of 64-bit words. A feature with
// few distinct values (at most kMaskValues, or more while their sets take at
// most kMaskWords words per tree: every one-hot column, every column of a
// small dataset) keeps, for each rank k of its sorted distinct values, the
// set of the tree's rows of rank < k; a cell's rows on it are one rank
// interval, the AND-NOT of two such sets. The other features keep the
// tree's column of values, tested only on the rows left after the sets. The result is the same
// integer count as testing every row, so draws are unchanged.
class ForestCells {
 public:
  static constexpr int64_t kMaskValues = 128;
  static constexpr int64_t kMaskWords = 8192;

  // `data` finite, within `bounds`; rows are assigned by TreeOfRow.
  ForestCells(const BinaryData& data, const DataBounds& bounds, int64_t trees,
              uint64_t partition_seed);
  int64_t trees() const { return static_cast<int64_t>(trees_.size()); }
  // counts[c] = tree t's rows of class c in the cell on `features` (repeats
  // allowed; lo and hi have d entries, only those of `features` are read).
  void Count(int64_t t, const std::vector<double>& lo, const std::vector<double>& hi,
             const std::vector<int64_t>& features, double counts[2]);

 private:
  struct Column {
    std::vector<uint64_t> below;  // mask column: (K + 1) x words, rows of rank < k
    std::vector<double> by_row;   // other columns: the tree's values in row order
  };
  struct Tree {
    int64_t rows = 0, words = 0;
    std::vector<uint64_t> label1;  // rows of class 1
    std::vector<Column> columns;   // d
  };
  void Scan(const Tree& tree, const std::vector<double>& lo, const std::vector<double>& hi);

  std::vector<double> upper_;                // the data's upper bounds
  std::vector<std::vector<double>> values_;  // per feature: distinct values if <= kMaskValues
  std::vector<Tree> trees_;
  std::vector<uint64_t> alive_;  // scratch: the rows still in the cell
  std::vector<char> seen_;       // scratch: features already applied
  std::vector<int64_t> scan_;    // scratch: value-tested features
};

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_CLASSICAL_RANDOM_FOREST_H_
