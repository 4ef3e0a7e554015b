// Stadler, Oprisanu & Troncoso's feature sets ("Synthetic Data -
// Anonymisation Groundhog Day", USENIX Security 2022, Sec. 4.2; their code
// spring-epfl/synthetic_data_release, feature_sets/): a whole synthetic
// table projected onto a fixed-length vector, on which a classifier
// (classifier.h) is trained with shadow synthetic tables labelled by whether
// the target was in the private table (the review's "Shadow modeling and
// attack logic"). Categorical attributes only (the domain's codes); the
// length depends on the public domain only, never on the table.
//
//  - kNaive (their NaiveFeatureSet, categorical branch): per attribute j the
//    most frequent code, the least frequent code among the codes that occur,
//    and the number of distinct codes that occur; laid out as their 3 x d
//    frame flattened row-major: [mode_0..mode_{d-1}, least_0..least_{d-1},
//    distinct_0..distinct_{d-1}]. 3 d values. Ties: the mode is the
//    smallest code of maximal count and the least frequent the largest code
//    of minimal positive count (a stable sort by count, descending, of the
//    codes in increasing order, first and last; pandas' value_counts leaves
//    the order of ties unspecified). Their codes are pandas category codes
//    of the labels seen in the first table (sorted, new labels appended);
//    ours are the domain's codes, the same for every table.
//  - kHistogram (their HistogramFeatureSet for categoricals): every 1-way
//    marginal, the attributes in order and each attribute's codes in order,
//    as RELATIVE frequencies count / n (TAPAS's HistSetFeature; Stadler et
//    al. use raw counts, which differ by the factor n, constant when every
//    synthetic table has the same size). sum_j sizes[j] values.
//  - kCorrelations (their CorrelationsFeatureSet): one-hot columns with the
//    first value of every attribute dropped (pandas get_dummies(drop_first=
//    True)): K = sum_j (sizes[j] - 1) 0/1 columns, attribute major, codes
//    1..sizes[j]-1 in order; the Pearson correlation of every pair of
//    columns, the strict upper triangle read row-major (numpy
//    triu_indices(K, 1)); a correlation with a constant column (NaN in
//    pandas) is 0 (their fillna(0)). Pairs of columns of one attribute are
//    included (as theirs are: mutually exclusive indicators, correlation
//    -sqrt(p_a p_b / ((1 - p_a)(1 - p_b))) when both occur). K (K - 1) / 2
//    values. Computed from exact integer counts: with c_a the rows having
//    column a and c_ab those having both, corr = (n c_ab - c_a c_b) /
//    sqrt(c_a (n - c_a) c_b (n - c_b)).
//
// Cost per table: O(n d) for kNaive and kHistogram, O(n d^2 + K^2) for
// kCorrelations (pair counts from each row's at most d active columns). A
// TableFeatureExtractor validates the domain once and reuses its buffers
// (no allocation per row or per table once warm); the free functions make
// one per call.
#ifndef PRIVBENCH_ATTACKS_SYNTHETIC_FEATURE_SETS_H_
#define PRIVBENCH_ATTACKS_SYNTHETIC_FEATURE_SETS_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "data_scripts/categorical.h"

namespace privbench {

enum class TableFeatureSet { kNaive, kHistogram, kCorrelations };

class TableFeatureExtractor {
 public:
  // Errors name the domain (CheckDomain).
  static Result<TableFeatureExtractor> Make(const CategoricalDomain& domain);

  // Length of a feature set's vector for this domain.
  int64_t Size(TableFeatureSet set) const;

  // Appends the features of `table` (validated against the domain: width,
  // codes, at least one row; errors name "synthetic") to *out.
  Status Extract(TableFeatureSet set, const CategoricalTable& table, std::vector<double>* out);

 private:
  TableFeatureExtractor() = default;
  void Counts(const CategoricalTable& table);
  void Naive(std::vector<double>* out) const;
  void Histogram(int64_t n, std::vector<double>* out) const;
  void Correlations(const CategoricalTable& table, std::vector<double>* out);

  CategoricalDomain domain_;
  std::vector<int64_t> value_offset_;    // d + 1: start of attribute j's codes
  std::vector<int64_t> column_offset_;   // d + 1: start of j's dropped-first columns
  std::vector<int64_t> counts_;          // scratch: 1-way counts, value_offset_ layout
  std::vector<int32_t> pairs_;           // scratch: K x K pair counts, upper triangle
  std::vector<int32_t> active_;          // scratch: one row's active columns
  std::vector<double> scratch_columns_;  // scratch: each column's row count
};

// One-off conveniences (a fresh extractor per call).
int64_t TableFeatureSize(const CategoricalDomain& domain, TableFeatureSet set);
Result<std::vector<double>> NaiveFeatures(const CategoricalTable& table,
                                          const CategoricalDomain& domain);
Result<std::vector<double>> HistogramFeatures(const CategoricalTable& table,
                                              const CategoricalDomain& domain);
Result<std::vector<double>> CorrelationFeatures(const CategoricalTable& table,
                                                const CategoricalDomain& domain);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_SYNTHETIC_FEATURE_SETS_H_
