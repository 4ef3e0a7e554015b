#include "mechanisms/classical/mechanism.h"

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <string>

#include "core/format.h"
#include "mechanisms/classical/lr_objective_diffprivlib.h"

namespace privbench {

std::string AdjacencyName(Adjacency adjacency) {
  return adjacency == Adjacency::kReplaceOne ? "replace_one" : "add_remove";
}

Status SummarySampler::DrawMany(Rng& rng, int64_t k, double* out) {
  if (k <= 0) return Error("DrawMany: k must be >= 1, got " + std::to_string(k));
  if (out == nullptr) return Error("DrawMany: out must not be null");
  return DrawManyChecked(rng, k, out);
}

Status SummarySampler::DrawManyChecked(Rng& rng, int64_t k, double* out) {
  const int64_t d = dim();
  for (int64_t i = 0; i < k; ++i) PB_RETURN_IF_ERROR(Draw(rng, out + i * d));
  return Status::Ok();
}

std::vector<std::string> ClassicalMechanismNames() {
  return {"lr_output", "lr_objective", "nb", "rf"};
}

Result<std::unique_ptr<ClassicalMechanism>> MakeClassicalMechanism(
    const std::string& name, const MechanismOptions& options) {
  if (!(options.eps > 0) || !std::isfinite(options.eps)) {
    return Error("eps must be > 0 and finite, got " + FormatDouble(options.eps));
  }
  if (!(options.noise_factor > 0) || !std::isfinite(options.noise_factor)) {
    return Error("noise_factor must be > 0, got " + FormatDouble(options.noise_factor));
  }
  if (!(options.lambda >= 0)) {
    return Error("lambda must be >= 0, got " + FormatDouble(options.lambda));
  }
  if (options.trees < 1) return Error("trees must be >= 1");
  const bool library_objective = name == "lr_objective" && options.variant == "diffprivlib_0_5";
  if (!options.variant.empty() && !(name == "nb" && options.variant == "expose_counts") &&
      !library_objective) {
    return Error("mechanism " + name + " has no variant '" + options.variant +
                 "' (nb: expose_counts; lr_objective: diffprivlib_0_5)");
  }
  if (name == "lr_output") return MakeLrOutput(options);
  if (library_objective) return MakeLrObjectiveDiffprivlib05(options);
  if (name == "lr_objective") return MakeLrObjective(options);
  if (name == "nb") return MakeNaiveBayes(options);
  if (name == "rf") return MakeRandomForest(options);
  return Error("mechanism must be one of lr_output, lr_objective, nb, rf; got '" + name + "'");
}

void DrawGammaNormVector(Rng& rng, int64_t m, double scale, double* out) {
  boost::random::normal_distribution<double> normal;
  double s = 0;
  for (int64_t j = 0; j < m; ++j) {
    out[j] = normal(rng);
    s += out[j] * out[j];
  }
  const double radius =
      boost::random::gamma_distribution<double>(static_cast<double>(m), scale)(rng);
  const double f = radius / std::sqrt(s);
  for (int64_t j = 0; j < m; ++j) out[j] *= f;
}

}  // namespace privbench
