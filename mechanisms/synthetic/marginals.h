// Shared pieces of the synthesizers in mechanisms/synthetic/: exact counts of
// 1- and 2-way marginals, the noisy measurement of a marginal, the value
// support (the planted bug domain_from_data lives here, once), post-processing
// of a noisy count vector into a distribution, categorical draws, the
// exponential mechanism and mutual information.
//
// Every random draw uses Boost.Random distributions on the project's Rng, so
// the bytes do not depend on the standard library.
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_MARGINALS_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_MARGINALS_H_

#include <cstdint>
#include <vector>

#include "core/seeding.h"
#include "data_scripts/categorical.h"
#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {

// support[j][v] = 1 when the synthesizer may produce (and measures) value v
// of attribute j. Correct (from_data = false): every value of the PUBLIC
// domain. Planted bug domain_from_data (from_data = true): only the values
// that occur in the private `data`, i.e. the domain is replaced by the data's
// (the set of occurring values leaks: a value that occurs only in a target
// record appears in the output iff the target is in).
std::vector<std::vector<char>> ValueSupport(const CategoricalTable& data,
                                            const CategoricalDomain& domain, bool from_data);

// Exact counts of attribute j (sizes[j] entries).
std::vector<double> Counts1(const CategoricalTable& data, const std::vector<int32_t>& sizes,
                            int64_t j);

// Exact 2-way counts of every pair (a < b), a's value major (the Marginal2
// layout), in one flat buffer.
class PairCounts {
 public:
  PairCounts(const CategoricalTable& data, const std::vector<int32_t>& sizes);
  int64_t d() const { return d_; }
  // Index of the pair (a, b), a < b, in [0, d (d - 1) / 2), lexicographic.
  int64_t PairIndex(int64_t a, int64_t b) const;
  // The sizes[a] x sizes[b] table of the pair (a < b).
  const double* Table(int64_t a, int64_t b) const {
    return counts_.data() + offset_[PairIndex(a, b)];
  }
  // The table of (a, b) in either order, a's value major (a copy).
  std::vector<double> Oriented(int64_t a, int64_t b) const;

 private:
  int64_t d_;
  std::vector<int32_t> sizes_;
  std::vector<int64_t> offset_;
  std::vector<double> counts_;
};

// Releases `counts` (the marginal over `attributes`, 1 or 2 of them, first
// major) plus independent noise of the given kind and scale (Laplace b or
// Gaussian sigma) on every cell whose values are all in `support`. The
// other cells are not measured: they hold exact 0, which they are in the
// data since their values do not occur (only under domain_from_data).
NoisyMarginal MeasureMarginal(const std::vector<int64_t>& attributes,
                              const std::vector<double>& counts,
                              const std::vector<std::vector<char>>& support,
                              const std::vector<int32_t>& sizes, MarginalNoise noise, double scale,
                              Rng& rng);

// Post-processing of a (noisy) count vector: values outside `allowed`
// become 0, negatives are clamped to 0 and the rest normalised to sum 1; if
// nothing is left, uniform over the allowed values (over all values if none
// is allowed).
std::vector<double> ToDistribution(std::vector<double> counts, const std::vector<char>& allowed);

// Cumulative sums of p[0..k) into cdf[0..k).
void CumulativeSums(const double* p, int64_t k, double* cdf);

// The first i with cdf[i] > u * cdf[k - 1], u in [0, 1): index i is drawn
// with probability p_i / sum(p), and a zero-probability index never is.
// Requires cdf[k - 1] > 0.
int32_t DrawFromCdf(const double* cdf, int32_t k, double u);

// Uniform in [0, 1) (Boost.Random).
double Uniform01(Rng& rng);

// The exponential mechanism of McSherry & Talwar (FOCS 2007): index i with
// probability proportional to exp(epsilon * quality[i] / (2 sensitivity)),
// which is epsilon-DP (and epsilon^2 / 8-zCDP, Cesar & Rogers 2021) when
// every quality has the given sensitivity. Requires a non-empty quality.
int64_t ExponentialMechanism(const std::vector<double>& quality, double epsilon, double sensitivity,
                             Rng& rng);

// Mutual information in bits of the empirical distribution of a ka x kb
// table of nonnegative counts (a major); 0 when the table is empty.
double MutualInformationBits(const double* joint, int32_t ka, int32_t kb);

// The maximum-weight spanning tree of the complete graph on d vertices
// (Kruskal; weight[PairIndex(a, b)] for a < b, ties broken by the lower pair
// index): d - 1 edges (a, b) with a < b, in the order added.
std::vector<std::pair<int64_t, int64_t>> MaximumSpanningTree(int64_t d,
                                                             const std::vector<double>& weight);

// A union-find over d elements (path halving, union by index).
class DisjointSets {
 public:
  explicit DisjointSets(int64_t d);
  int64_t Find(int64_t x);
  bool Connected(int64_t a, int64_t b) { return Find(a) == Find(b); }
  void Merge(int64_t a, int64_t b);

 private:
  std::vector<int64_t> parent_;
};

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_MARGINALS_H_
