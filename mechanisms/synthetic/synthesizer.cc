#include "mechanisms/synthetic/synthesizer.h"

#include <string>

namespace privbench {

Result<SynthesisOutput> Synthesizer::Generate(const CategoricalTable& data,
                                              const CategoricalDomain& domain, int64_t n_synthetic,
                                              Rng& rng) const {
  PB_RETURN_IF_ERROR(CheckDomain(domain, "domain"));
  PB_RETURN_IF_ERROR(CheckTable(data, domain, "data"));
  if (data.n() < 1) return Error("data must have at least one row, got 0");
  if (n_synthetic < 1) {
    return Error("n_synthetic must be >= 1, got " + std::to_string(n_synthetic));
  }
  return GenerateImpl(data, domain, n_synthetic, rng);
}

}  // namespace privbench
