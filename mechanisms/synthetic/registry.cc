// The synthesizer registry: an explicit static table {name, the options it
// reads, factory}. MakeSynthesizer validates only the options the named
// synthesizer reads (the non-private ones read none but domain_from_data).
#include <cmath>
#include <string>

#include "core/format.h"
#include "mechanisms/synthetic/chow_liu.h"
#include "mechanisms/synthetic/independent.h"
#include "mechanisms/synthetic/mst.h"
#include "mechanisms/synthetic/privbayes.h"
#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {
namespace {

using Factory = std::unique_ptr<Synthesizer> (*)(const SynthesizerOptions&);

struct Entry {
  const char* name;
  bool reads_epsilon;        // epsilon: the budget, or recorded in the guarantee
  bool reads_rho;            // rho (and delta, recorded)
  bool reads_share;          // privbayes_structure_share
  bool reads_marginal_bugs;  // first_marginal_noise_fraction (double_spent_marginal: a bool)
  Factory make;
};

std::unique_ptr<Synthesizer> MakeIndependent(const SynthesizerOptions& o) {
  return MakeIndependentSynthesizer(MarginalNoise::kNone, o);
}
std::unique_ptr<Synthesizer> MakeIndependentLaplace(const SynthesizerOptions& o) {
  return MakeIndependentSynthesizer(MarginalNoise::kLaplace, o);
}
std::unique_ptr<Synthesizer> MakeIndependentGaussian(const SynthesizerOptions& o) {
  return MakeIndependentSynthesizer(MarginalNoise::kGaussian, o);
}

constexpr Entry kRegistry[] = {
    {"independent", false, false, false, false, &MakeIndependent},
    {"chow_liu", false, false, false, false, &MakeChowLiuSynthesizer},
    {"independent_laplace", true, false, false, true, &MakeIndependentLaplace},
    {"independent_gaussian", true, true, false, true, &MakeIndependentGaussian},
    {"privbayes", true, false, true, false, &MakePrivBayesSynthesizer},
    {"mst", true, true, false, false, &MakeMstSynthesizer},
};

Status CheckOptions(const Entry& e, const SynthesizerOptions& o) {
  if (e.reads_epsilon && !(o.epsilon > 0.0 && std::isfinite(o.epsilon))) {
    return Error("epsilon must be finite and > 0 for " + std::string(e.name) + ", got " +
                 FormatDouble(o.epsilon));
  }
  if (e.reads_rho) {
    if (!(o.rho > 0.0 && std::isfinite(o.rho))) {
      return Error("rho must be finite and > 0 for " + std::string(e.name) + ", got " +
                   FormatDouble(o.rho));
    }
    if (!(o.delta >= 0.0 && o.delta < 1.0)) {
      return Error("delta must be in [0, 1) for " + std::string(e.name) + ", got " +
                   FormatDouble(o.delta));
    }
  }
  if (e.reads_share && !(o.privbayes_structure_share > 0.0 && o.privbayes_structure_share < 1.0)) {
    return Error("privbayes_structure_share must be in (0, 1), got " +
                 FormatDouble(o.privbayes_structure_share));
  }
  if (e.reads_marginal_bugs &&
      !(o.first_marginal_noise_fraction > 0.0 && o.first_marginal_noise_fraction <= 1.0)) {
    return Error("first_marginal_noise_fraction must be in (0, 1] for " + std::string(e.name) +
                 ", got " + FormatDouble(o.first_marginal_noise_fraction));
  }
  return Status::Ok();
}

}  // namespace

std::vector<std::string> AllSynthesizerNames() {
  std::vector<std::string> names;
  for (const Entry& e : kRegistry) names.emplace_back(e.name);
  return names;
}

Result<std::unique_ptr<Synthesizer>> MakeSynthesizer(const std::string& name,
                                                     const SynthesizerOptions& options) {
  for (const Entry& e : kRegistry) {
    if (name != e.name) continue;
    PB_RETURN_IF_ERROR(CheckOptions(e, options));
    return e.make(options);
  }
  std::string known;
  for (const Entry& e : kRegistry) known += (known.empty() ? "" : ", ") + std::string(e.name);
  return Error("synthesizer '" + name + "' is unknown; known: " + known);
}

}  // namespace privbench
