// What the synthesizers of mechanisms/synthetic/ share around their
// algorithms: the base class that stores the name, the guarantee and the
// options, the guarantees of the two accountings, and the inputs every fit
// reads off (data, domain) before its first random draw.
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_SYNTHESIZER_BASE_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_SYNTHESIZER_BASE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "data_scripts/categorical.h"
#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {

// Pure epsilon-DP: options.epsilon, delta = 0 (rho and mu unset).
SynthesizerGuarantee PureDpGuarantee(const SynthesizerOptions& options);

// rho-zCDP with the study's (epsilon, delta) as given; mu = sqrt(2 rho) when
// the whole mechanism is one Gaussian mechanism (gaussian_mechanism), else 0.
SynthesizerGuarantee ZcdpGuarantee(const SynthesizerOptions& options, bool gaussian_mechanism);

// Deterministic functions of (data, domain): building them uses no Rng.
struct FitInputs {
  FitInputs(const CategoricalTable& data, const CategoricalDomain& domain, bool domain_from_data);
  int64_t d;                               // domain.attributes()
  const std::vector<int32_t>& sizes;       // domain.sizes (public)
  std::vector<std::vector<char>> support;  // ValueSupport(data, domain, domain_from_data)
};

// FitInputs plus the exact 2-way counts of every pair (the tree synthesizers).
struct PairFitInputs : FitInputs {
  PairFitInputs(const CategoricalTable& data, const CategoricalDomain& domain,
                bool domain_from_data);
  PairCounts pairs;  // PairCounts(data, sizes)
};

// A synthesizer whose name and guarantee are fixed when it is made from its
// options. `name` must outlive it (a string literal).
class SynthesizerBase : public Synthesizer {
 public:
  SynthesizerBase(std::string_view name, const SynthesizerGuarantee& guarantee,
                  const SynthesizerOptions& options)
      : name_(name), guarantee_(guarantee), options_(options) {}
  std::string_view name() const final { return name_; }
  SynthesizerGuarantee guarantee() const final { return guarantee_; }

 protected:
  const SynthesizerOptions& options() const { return options_; }
  // The inputs of one fit, with the support of options().domain_from_data.
  FitInputs Inputs(const CategoricalTable& data, const CategoricalDomain& domain) const {
    return FitInputs(data, domain, options_.domain_from_data);
  }
  PairFitInputs PairInputs(const CategoricalTable& data, const CategoricalDomain& domain) const {
    return PairFitInputs(data, domain, options_.domain_from_data);
  }

 private:
  std::string_view name_;
  SynthesizerGuarantee guarantee_;
  SynthesizerOptions options_;
};

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_SYNTHESIZER_BASE_H_
