#include "attacks/rmia.h"

#include <cmath>
#include <string>

namespace privbench {
namespace {

Status CheckOptions(const RmiaOptions& o) {
  if (!(o.offline_a >= 0.0 && o.offline_a <= 1.0)) {
    return Error("offline_a must be in [0, 1], got " + std::to_string(o.offline_a));
  }
  if (!(o.gamma > 0.0 && std::isfinite(o.gamma))) {
    return Error("gamma must be positive and finite, got " + std::to_string(o.gamma));
  }
  return Status::Ok();
}

Status CheckProbs(const std::vector<double>& v, size_t n, const char* name) {
  if (v.size() != n) {
    return Error(std::string(name) + " must have " + std::to_string(n) + " entries, got " +
                 std::to_string(v.size()));
  }
  for (size_t i = 0; i < n; ++i) {
    if (!(v[i] >= 0.0 && v[i] <= 1.0)) {
      return Error(std::string(name) + "[" + std::to_string(i) + "] must be a probability in " +
                   "[0, 1], got " + std::to_string(v[i]));
    }
  }
  return Status::Ok();
}

Status CheckFlags(const std::vector<uint8_t>& v, size_t n, const char* name) {
  if (v.size() != n) {
    return Error(std::string(name) + " must have " + std::to_string(n) + " entries, got " +
                 std::to_string(v.size()));
  }
  for (size_t i = 0; i < n; ++i) {
    if (v[i] > 1) return Error(std::string(name) + "[" + std::to_string(i) + "] must be 0 or 1");
  }
  return Status::Ok();
}

// ((1 + a) m + (1 - a)) / 2: the offline marginal from the OUT mean m.
double OfflineMarginal(double mean_out, double a) {
  return 0.5 * ((1.0 + a) * mean_out + (1.0 - a));
}

// Pr(z_k) for every population point over the references r with use[r].
std::vector<double> PopulationMarginals(const RmiaData& d, const std::vector<uint8_t>& use,
                                        double a) {
  std::vector<double> pz(static_cast<size_t>(d.population), 0.0);
  double n = 0.0;
  for (int64_t r = 0; r < d.references; ++r) {
    if (!use[static_cast<size_t>(r)]) continue;
    n += 1.0;
    const double* row = &d.ref_z_prob[static_cast<size_t>(r * d.population)];
    for (int64_t k = 0; k < d.population; ++k) pz[static_cast<size_t>(k)] += row[k];
  }
  for (double& v : pz) v = OfflineMarginal(v / n, a);
  return pz;
}

// The references serving target t (all when ref_use is empty).
std::vector<uint8_t> UseRow(const RmiaData& d, int64_t t) {
  if (d.ref_use.empty()) return std::vector<uint8_t>(static_cast<size_t>(d.references), 1);
  const auto b = d.ref_use.begin() + t * d.references;
  return std::vector<uint8_t>(b, b + d.references);
}

// One target's score; `pz` are the population marginals of its references.
Result<double> ScoreOne(const RmiaData& d, int64_t t, const std::vector<uint8_t>& use,
                        const std::vector<double>& pz, const RmiaOptions& o) {
  std::vector<double> prob;
  std::vector<uint8_t> in;
  for (int64_t r = 0; r < d.references; ++r) {
    const size_t i = static_cast<size_t>(t * d.references + r);
    if (!use[static_cast<size_t>(r)]) continue;
    prob.push_back(d.ref_prob[i]);
    in.push_back(d.ref_in[i]);
  }
  Result<double> px = RmiaMarginal(prob, in, o);
  if (!px.ok()) return Error("target " + std::to_string(t) + ": " + px.status().message());
  std::vector<double> ratio_z(static_cast<size_t>(d.population));
  for (int64_t k = 0; k < d.population; ++k) {
    const size_t i = static_cast<size_t>(k);
    if (!(pz[i] > 0.0)) {
      return Error("ref_z_prob: population point " + std::to_string(k) +
                   " has marginal Pr(z) = 0 (every reference gives it probability 0 and "
                   "offline_a = 1)");
    }
    ratio_z[i] = d.target_z_prob[static_cast<size_t>(t * d.population + k)] / pz[i];
  }
  return RmiaFraction(d.target_prob[static_cast<size_t>(t)] / *px, ratio_z, o.gamma);
}

}  // namespace

Status RmiaData::Validate() const {
  if (targets < 1) return Error("targets must be >= 1, got " + std::to_string(targets));
  if (references < 1) return Error("references must be >= 1, got " + std::to_string(references));
  if (population < 1) return Error("population must be >= 1, got " + std::to_string(population));
  const size_t t = static_cast<size_t>(targets), r = static_cast<size_t>(references),
               z = static_cast<size_t>(population);
  PB_RETURN_IF_ERROR(CheckProbs(target_prob, t, "target_prob"));
  PB_RETURN_IF_ERROR(CheckProbs(ref_prob, t * r, "ref_prob"));
  PB_RETURN_IF_ERROR(CheckFlags(ref_in, t * r, "ref_in"));
  PB_RETURN_IF_ERROR(CheckProbs(target_z_prob, t * z, "target_z_prob"));
  PB_RETURN_IF_ERROR(CheckProbs(ref_z_prob, r * z, "ref_z_prob"));
  if (!ref_use.empty()) {
    PB_RETURN_IF_ERROR(CheckFlags(ref_use, t * r, "ref_use"));
    for (size_t i = 0; i < t; ++i) {
      bool any = false;
      for (size_t j = 0; j < r; ++j) any = any || ref_use[i * r + j];
      if (!any) return Error("ref_use: target " + std::to_string(i) + " has no reference");
    }
  }
  return Status::Ok();
}

Result<double> RmiaMarginal(const std::vector<double>& ref_prob, const std::vector<uint8_t>& ref_in,
                            const RmiaOptions& o) {
  PB_RETURN_IF_ERROR(CheckOptions(o));
  if (ref_in.size() != ref_prob.size()) {
    return Error("ref_in must have one flag per ref_prob entry (" +
                 std::to_string(ref_prob.size()) + "), got " + std::to_string(ref_in.size()));
  }
  double sum = 0.0, n = 0.0;
  for (size_t i = 0; i < ref_prob.size(); ++i) {
    if (!o.online && ref_in[i]) continue;
    sum += ref_prob[i];
    n += 1.0;
  }
  if (n == 0.0) {
    return Error(o.online ? "ref_prob: no reference model"
                          : "ref_prob: no OUT reference model (offline RMIA needs one)");
  }
  const double px = o.online ? sum / n : OfflineMarginal(sum / n, o.offline_a);
  if (!(px > 0.0)) return Error("ref_prob: the marginal Pr(x) is 0 (every reference gives 0)");
  return px;
}

double RmiaFraction(double ratio_x, const std::vector<double>& ratio_z, double gamma) {
  int64_t above = 0;
  for (double rz : ratio_z) above += ratio_x > gamma * rz ? 1 : 0;
  return static_cast<double>(above) / static_cast<double>(ratio_z.size());
}

Result<std::vector<double>> RmiaScores(const RmiaData& d, const RmiaOptions& o) {
  PB_RETURN_IF_ERROR(CheckOptions(o));
  PB_RETURN_IF_ERROR(d.Validate());
  std::vector<double> scores(static_cast<size_t>(d.targets));
  std::vector<uint8_t> last_use;
  std::vector<double> pz;
  for (int64_t t = 0; t < d.targets; ++t) {
    const std::vector<uint8_t> use = UseRow(d, t);
    if (use != last_use) {  // the population marginals depend on the reference set only
      pz = PopulationMarginals(d, use, o.offline_a);
      last_use = use;
    }
    PB_ASSIGN_OR_RETURN(scores[static_cast<size_t>(t)], ScoreOne(d, t, use, pz, o));
  }
  return scores;
}

}  // namespace privbench
