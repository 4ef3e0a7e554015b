#include "attacks/synthetic/marginal_white_box.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attacks/synthetic/checks.h"

namespace privbench {
namespace {

std::string Name(size_t t) { return "measurements[" + std::to_string(t) + "]"; }

Status CheckMeasurements(const std::vector<NoisyMarginal>& measurements,
                         const CategoricalDomain& domain) {
  if (measurements.empty()) return Error("measurements is empty");
  const int64_t d = domain.attributes();
  for (size_t t = 0; t < measurements.size(); ++t) {
    const NoisyMarginal& m = measurements[t];
    if (m.attributes.size() != 1 && m.attributes.size() != 2) {
      return Error(Name(t) + " has " + std::to_string(m.attributes.size()) +
                   " attributes, not 1 or 2");
    }
    int64_t cells = 1;
    for (int64_t a : m.attributes) {
      if (a < 0 || a >= d) {
        return Error(Name(t) + " attribute " + std::to_string(a) + " outside [0, " +
                     std::to_string(d) + ")");
      }
      cells *= domain.sizes[a];
    }
    if (m.attributes.size() == 2 && m.attributes[0] == m.attributes[1]) {
      return Error(Name(t) + " repeats attribute " + std::to_string(m.attributes[0]));
    }
    if (static_cast<int64_t>(m.noisy_counts.size()) != cells) {
      return Error(Name(t) + " has " + std::to_string(m.noisy_counts.size()) +
                   " noisy counts, its attributes' domain " + std::to_string(cells) + " cells");
    }
    if (m.noise != MarginalNoise::kNone && m.noise != MarginalNoise::kLaplace &&
        m.noise != MarginalNoise::kGaussian) {
      return Error(Name(t) + " has an unknown noise kind");
    }
    if (m.noise != MarginalNoise::kNone && !(m.scale > 0.0 && std::isfinite(m.scale))) {
      return Error(Name(t) + " scale must be finite and > 0, got " + std::to_string(m.scale));
    }
  }
  return Status::Ok();
}

// Index of the target's cell in m.noisy_counts (first attribute major).
int64_t TargetCell(const NoisyMarginal& m, const std::vector<int32_t>& target,
                   const CategoricalDomain& domain) {
  int64_t cell = 0;
  for (int64_t a : m.attributes) cell = cell * domain.sizes[a] + target[a];
  return cell;
}

// Rows of `table` agreeing with `target` on every attribute of m.
int64_t CountMatches(const NoisyMarginal& m, const std::vector<int32_t>& target,
                     const CategoricalTable& table) {
  int64_t count = 0;
  for (int64_t i = 0; i < table.n(); ++i) {
    const int32_t* row = table.row(i);
    bool all = true;
    for (int64_t a : m.attributes) all = all && row[a] == target[a];
    count += all;
  }
  return count;
}

Status CheckCommon(const std::vector<NoisyMarginal>& measurements,
                   const std::vector<int32_t>& target, const CategoricalDomain& domain) {
  PB_RETURN_IF_ERROR(CheckDomain(domain));
  PB_RETURN_IF_ERROR(CheckMeasurements(measurements, domain));
  return CheckTargetRecord(target, domain);
}

}  // namespace

Result<TargetCellReference> KnownDMinusReference(const std::vector<NoisyMarginal>& measurements,
                                                 const std::vector<int32_t>& target,
                                                 const CategoricalDomain& domain,
                                                 const CategoricalTable& d_minus) {
  PB_RETURN_IF_ERROR(CheckCommon(measurements, target, domain));
  PB_RETURN_IF_ERROR(CheckTable(d_minus, domain, "d_minus"));
  TargetCellReference r;
  for (const NoisyMarginal& m : measurements) {
    r.count.push_back(static_cast<double>(CountMatches(m, target, d_minus)));
    r.variance.push_back(0.0);
  }
  return r;
}

Result<TargetCellReference> AuxiliaryReference(const std::vector<NoisyMarginal>& measurements,
                                               const std::vector<int32_t>& target,
                                               const CategoricalDomain& domain,
                                               const CategoricalTable& auxiliary, int64_t n_minus) {
  PB_RETURN_IF_ERROR(CheckCommon(measurements, target, domain));
  PB_RETURN_IF_ERROR(CheckNonEmptyTable(auxiliary, domain, "auxiliary"));
  if (n_minus < 0) return Error("n_minus must be >= 0, got " + std::to_string(n_minus));
  TargetCellReference r;
  const double n = static_cast<double>(n_minus);
  for (const NoisyMarginal& m : measurements) {
    const double p = static_cast<double>(CountMatches(m, target, auxiliary)) /
                     static_cast<double>(auxiliary.n());
    r.count.push_back(n * p);
    r.variance.push_back(n * p * (1.0 - p));
  }
  return r;
}

Result<double> MarginalWhiteBoxLlr(const std::vector<NoisyMarginal>& measurements,
                                   const std::vector<int32_t>& target,
                                   const CategoricalDomain& domain,
                                   const TargetCellReference& reference) {
  PB_RETURN_IF_ERROR(CheckCommon(measurements, target, domain));
  const size_t k = measurements.size();
  if (reference.count.size() != k || reference.variance.size() != k) {
    return Error("reference has " + std::to_string(reference.count.size()) + " counts and " +
                 std::to_string(reference.variance.size()) + " variances for " + std::to_string(k) +
                 " measurements");
  }
  double llr = 0.0;
  bool exact_in = false, exact_out = false;
  for (size_t t = 0; t < k; ++t) {
    const NoisyMarginal& m = measurements[t];
    const double c = reference.count[t], v = reference.variance[t];
    if (!std::isfinite(c)) return Error("reference.count[" + std::to_string(t) + "] not finite");
    if (!(v >= 0.0) || !std::isfinite(v)) {
      return Error("reference.variance[" + std::to_string(t) + "] must be finite and >= 0");
    }
    const double y = m.noisy_counts[TargetCell(m, target, domain)];
    if (!std::isfinite(y)) return Error(Name(t) + " noisy count at the target's cell not finite");
    const double diff = y - c;
    const double noise_var = m.noise == MarginalNoise::kGaussian  ? m.scale * m.scale
                             : m.noise == MarginalNoise::kLaplace ? 2.0 * m.scale * m.scale
                                                                  : 0.0;
    if (v > 0.0) {
      llr += (diff - 0.5) / (noise_var + v);  // Gaussian approximation
    } else if (m.noise == MarginalNoise::kGaussian) {
      llr += (diff - 0.5) / noise_var;
    } else if (m.noise == MarginalNoise::kLaplace) {
      // |diff| - |diff - 1| written piecewise so that its two flat ends are
      // exactly -1 and +1: the subtraction form rounds there, and those
      // rounding differences (which differ between diff = L and diff = 1 + L)
      // would let a test separate in from out by floating-point artefacts.
      llr += std::clamp(2.0 * diff - 1.0, -1.0, 1.0) / m.scale;
    } else if (std::fabs(diff - 1.0) < 1e-9) {
      exact_in = true;
    } else if (std::fabs(diff) < 1e-9) {
      exact_out = true;
    } else {
      return Error(Name(t) + " is exact (no noise) and its target cell count " + std::to_string(y) +
                   " is neither the reference " + std::to_string(c) + " nor one more");
    }
  }
  if (exact_in && exact_out) {
    return Error("measurements disagree: exact counts say both in and out");
  }
  if (exact_in) return std::numeric_limits<double>::infinity();
  if (exact_out) return -std::numeric_limits<double>::infinity();
  return llr;
}

Result<double> GaussianWhiteBoxMu(const std::vector<NoisyMarginal>& measurements) {
  if (measurements.empty()) return Error("measurements is empty");
  double precision = 0.0;
  for (size_t t = 0; t < measurements.size(); ++t) {
    const NoisyMarginal& m = measurements[t];
    if (m.noise != MarginalNoise::kGaussian || !(m.scale > 0.0) || !std::isfinite(m.scale)) {
      return Error(Name(t) + " is not Gaussian with a finite sigma > 0");
    }
    precision += 1.0 / (m.scale * m.scale);
  }
  return std::sqrt(precision);
}

}  // namespace privbench
