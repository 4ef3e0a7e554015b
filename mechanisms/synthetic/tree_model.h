// A tree-structured model of a categorical table fitted to (possibly noisy)
// 1- and 2-way marginals, and ancestral sampling from it: the inference and
// sampling step shared by Chow-Liu, MST and PrivBayes (degree 1).
//
// Input: a spanning tree over the d attributes, for each edge a noisy 2-way
// count table on it, and for some attributes a noisy 1-way count vector;
// every measurement carries the variance of its (independent, zero-mean)
// per-cell noise. Method:
//  1. Marginals. Each attribute's counts are estimated by inverse-variance
//     weighting of its 1-way measurement (variance v1 per cell) and the
//     row / column sums of each incident edge table (variance v2 times the
//     other attribute's size per cell): the minimum-variance unbiased
//     combination of those unbiased estimates, if the noises are
//     independent. The common total N is the inverse-variance weighted mean
//     of every measurement's total. Each marginal is then clamped at 0,
//     restricted to the value support and renormalised to a common total
//     (stored as probabilities; N is kept in `total`). A marginal with
//     nothing left is uniform over the support.
//  2. Edge tables. Each edge table is clamped at 0 and restricted to the
//     support, then made consistent with both endpoint marginals by
//     iterative proportional fitting (Deming & Stephan 1940): alternate row
//     and column scaling, at most kIpfSweeps sweeps or until, after a
//     sweep, no row sum is more than kIpfTolerance (in probability) from its
//     target (the column sums are then exact). Cells whose row or column
//     target is 0 are zeroed first; a row (column) with positive target but
//     no mass is filled with the independence product first, so a fit
//     exists unless the zero pattern forbids it. If the sweeps reach the
//     cap without converging (the zero pattern left by clamping forbids a
//     fit, or nearly), the table is mixed with the independence product of
//     the two marginals, with weight 1e-3, then 1e-2, 0.1 and 1, and
//     fitted again; the first mixture that converges is kept (weight 1 is
//     the product itself, which fits at once). So every edge table fits
//     both marginals to within the tolerance.
//  3. Conditionals. P(child | parent) is each parent row of the edge table,
//     normalised; a parent value with no mass gives the uniform distribution
//     over the child's support.
// Orientation: the tree is rooted at `root` and oriented away from it
// (breadth-first order, which is also the sampling order).
//
// This is post-processing of the noisy measurements, so it leaves any
// privacy guarantee unchanged. It stands in for the general graphical-model
// inference of McKenna, Sheldon & Miklau's Private-PGM ("Graphical-model
// based estimation and inference for differential privacy", ICML 2019),
// which fits a maximum-entropy model to all measurements by mirror descent;
// on a tree with consistent inputs both give the same model, on noisy
// inputs they differ (this one is a heuristic, not the least-squares fit).
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_TREE_MODEL_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_TREE_MODEL_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"
#include "data_scripts/categorical.h"
#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {

struct TreeMeasurements {
  // Per attribute: its noisy 1-way counts, or empty when not measured.
  std::vector<std::vector<double>> one_way;
  // Per attribute: the per-cell noise variance of one_way (> 0 where
  // measured; exact counts may pass any positive value).
  std::vector<double> one_way_variance;
  struct Edge {
    int64_t a = 0, b = 0;        // the attributes; counts are a's value major
    std::vector<double> counts;  // sizes[a] x sizes[b] noisy counts
    double variance = 1.0;       // per-cell noise variance, > 0
  };
  std::vector<Edge> edges;  // d - 1 edges forming a spanning tree

  // Appends the edge (a, b) with its counts (a's value major) and variance.
  void AddEdge(int64_t a, int64_t b, std::vector<double> counts, double variance);
};

struct TreeModel {
  static constexpr int kIpfSweeps = 200;
  static constexpr double kIpfTolerance = 1e-9;

  std::vector<int32_t> sizes;
  int64_t root = 0;
  std::vector<int64_t> order;   // ancestral (breadth-first) order, root first
  std::vector<int64_t> parent;  // per attribute; -1 for the root
  // Per attribute: its distribution (sums to 1).
  std::vector<std::vector<double>> marginal;
  // Per non-root attribute c: P(parent(c) = p, c = v) at p * sizes[c] + v,
  // consistent with both marginals after fitting; empty for the root.
  std::vector<std::vector<double>> joint;
  // Per non-root attribute c: P(c = v | parent(c) = p), same layout.
  std::vector<std::vector<double>> conditional;
  double total = 0.0;  // estimated number of records (may be <= 0 when noisy)

  // The edges (parent, child) in ancestral order.
  std::vector<std::pair<int64_t, int64_t>> Edges() const;
};

// Fits the model (steps 1-3 above). support[j][v] = 1 for the values that
// may be produced (see ValueSupport); an empty support allows every value.
// Errors name `measurements` when the edges do not form a spanning tree, a
// table has the wrong size, a variance is not positive, or an attribute has
// no measurement at all.
Result<TreeModel> FitTreeModel(const std::vector<int32_t>& sizes,
                               const std::vector<std::vector<char>>& support,
                               const TreeMeasurements& measurements, int64_t root);

// Makes the nonnegative kp x kc table `joint` (row major) consistent with
// the row marginal `row` and column marginal `col` (each summing to 1) by
// iterative proportional fitting as in step 2 (with the mixture fallback);
// returns the sweeps used in all (0 when the table had no mass and the
// independence product was taken).
int FitToMarginals(std::vector<double>& joint, const std::vector<double>& row,
                   const std::vector<double>& col);

// n rows drawn by ancestral sampling: the root from its marginal, then each
// attribute in `order` from its conditional given its parent's value.
CategoricalTable SampleTreeModel(const TreeModel& model, int64_t n, Rng& rng);

// The last step of the tree synthesizers: fits the model to `measurements`
// (FitTreeModel, rooted at `root`), draws n rows from it into out.synthetic
// (SampleTreeModel) and sets out.structure to the model's edges (ancestral
// order). Errors are FitTreeModel's.
Status SampleFittedTree(const std::vector<int32_t>& sizes,
                        const std::vector<std::vector<char>>& support,
                        const TreeMeasurements& measurements, int64_t root, int64_t n, Rng& rng,
                        SynthesisOutput& out);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_TREE_MODEL_H_
