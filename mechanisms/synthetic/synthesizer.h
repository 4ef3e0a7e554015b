// The synthesizer interface: a private categorical table in, a synthetic
// table out, plus what a white-box auditor sees (the released noisy
// measurements). Each implementation's header states its algorithm, the paper
// it follows, its adjacency and its privacy accounting.
//
// Adjacency everywhere in this package: ADD/REMOVE one record (D and D' differ
// by one row), the adjacency of the synthetic-data membership games of
// Stadler, Oprisanu & Troncoso (USENIX Security 2022), Houssiau et al.'s
// TAPAS (2022) and Annamalai, Ganev & De Cristofaro (USENIX Security 2024).
//
// The domain (sizes of every attribute) is public metadata and is read from
// the CategoricalDomain, never from the data, unless the planted bug
// `domain_from_data` is set (the synthesizer then only ever produces values
// that occur in the private table: the set of occurring values leaks).
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_SYNTHESIZER_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_SYNTHESIZER_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"
#include "data_scripts/categorical.h"

namespace privbench {

enum class MarginalNoise { kNone, kLaplace, kGaussian };

// One released measurement: the counts of a 1- or 2-way marginal plus noise.
struct NoisyMarginal {
  std::vector<int64_t> attributes;  // 1 or 2 attribute indices
  // prod(sizes of attributes) entries, the first attribute's value major
  // (Marginal1 / Marginal2 layout of data_scripts/categorical.h).
  std::vector<double> noisy_counts;
  MarginalNoise noise = MarginalNoise::kNone;
  double scale = 0.0;  // Laplace b or Gaussian sigma of each cell's noise
};

struct SynthesisOutput {
  CategoricalTable synthetic;
  // Every noisy statistic the synthesizer computed from the private data and
  // used (what a white-box auditor sees). Empty for the non-private ones,
  // which use exact counts.
  std::vector<NoisyMarginal> measurements;
  // Edges (parent, child) of a selected structure (Chow-Liu / MST tree,
  // PrivBayes network); empty for independent histograms.
  std::vector<std::pair<int64_t, int64_t>> structure;
};

// What the synthesizer guarantees (add/remove adjacency). Non-private:
// epsilon = +inf. Pure DP: delta = 0, rho unset (0). zCDP ones: rho > 0 and
// the (epsilon, delta) the study asked for; mu = sqrt(2 rho) where the whole
// mechanism is a Gaussian mechanism (Gaussian histograms), else 0.
struct SynthesizerGuarantee {
  double epsilon = std::numeric_limits<double>::infinity();
  double delta = 0.0;
  double rho = 0.0;
  double mu = 0.0;
  bool is_private() const { return epsilon < std::numeric_limits<double>::infinity(); }
};

struct SynthesizerOptions {
  // Pure-DP budget (independent_laplace, privbayes); > 0.
  double epsilon = 1.0;
  // zCDP budget (independent_gaussian, mst); > 0. The caller converts its
  // (epsilon, delta) with the optimal zCDP conversion (accountants).
  double rho = 0.1;
  double delta = 0.0;  // recorded in the guarantee of the zCDP ones
  // Planted bugs (recorded in a study's /meta; an audit must flag them).
  bool domain_from_data = false;    // any synthesizer: sizes from the data
  bool laplace_half_scale = false;  // independent_laplace: noise scale / 2
  bool mst_unscaled_noise = false;  // mst: sigma not scaled by sqrt(#marginals)
  // independent_laplace / independent_gaussian (independent.h): the first
  // attribute's marginal gets this fraction of its noise scale, in (0, 1]
  // (1: no bug).
  double first_marginal_noise_fraction = 1.0;
  // independent_laplace / independent_gaussian: the first marginal is
  // measured twice, each copy at its share of the budget (both released):
  // that step's share is spent twice.
  bool double_spent_marginal = false;
  // privbayes: share of epsilon spent on the structure search (Zhang et al.
  // use 0.3), in (0, 1).
  double privbayes_structure_share = 0.3;
};

class Synthesizer {
 public:
  virtual ~Synthesizer() = default;
  virtual std::string_view name() const = 0;
  virtual SynthesizerGuarantee guarantee() const = 0;

  // Validates (domain, data against it, n_synthetic >= 1) and synthesises
  // n_synthetic rows. Errors name the argument.
  Result<SynthesisOutput> Generate(const CategoricalTable& data, const CategoricalDomain& domain,
                                   int64_t n_synthetic, Rng& rng) const;

 protected:
  virtual Result<SynthesisOutput> GenerateImpl(const CategoricalTable& data,
                                               const CategoricalDomain& domain, int64_t n_synthetic,
                                               Rng& rng) const = 0;
};

// "independent", "chow_liu", "independent_laplace", "independent_gaussian",
// "privbayes", "mst".
std::vector<std::string> AllSynthesizerNames();

// An unknown name is an error naming `synthesizer` and listing the names;
// options out of range are errors naming the option. Only the options the
// named synthesizer reads are checked: epsilon (finite, > 0) for all but
// the non-private "independent" and "chow_liu" (the zCDP ones record it),
// rho (finite, > 0) and delta ([0, 1)) for "independent_gaussian" and
// "mst", privbayes_structure_share ((0, 1)) for "privbayes".
//
// Both are defined in registry.cc: link //mechanisms/synthetic:
// synthesizer_registry (which brings every method) to call them.
Result<std::unique_ptr<Synthesizer>> MakeSynthesizer(const std::string& name,
                                                     const SynthesizerOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_SYNTHESIZER_H_
