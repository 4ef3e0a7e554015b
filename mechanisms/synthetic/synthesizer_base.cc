#include "mechanisms/synthetic/synthesizer_base.h"

#include <cmath>

namespace privbench {

SynthesizerGuarantee PureDpGuarantee(const SynthesizerOptions& options) {
  SynthesizerGuarantee g;
  g.epsilon = options.epsilon;
  return g;
}

SynthesizerGuarantee ZcdpGuarantee(const SynthesizerOptions& options, bool gaussian_mechanism) {
  SynthesizerGuarantee g;
  g.epsilon = options.epsilon;
  g.delta = options.delta;
  g.rho = options.rho;
  if (gaussian_mechanism) g.mu = std::sqrt(2.0 * options.rho);
  return g;
}

FitInputs::FitInputs(const CategoricalTable& data, const CategoricalDomain& domain,
                     bool domain_from_data)
    : d(domain.attributes()),
      sizes(domain.sizes),
      support(ValueSupport(data, domain, domain_from_data)) {}

PairFitInputs::PairFitInputs(const CategoricalTable& data, const CategoricalDomain& domain,
                             bool domain_from_data)
    : FitInputs(data, domain, domain_from_data), pairs(data, domain.sizes) {}

}  // namespace privbench
