#include "attacks/synthetic/distance_to_closest.h"

#include <cmath>

#include "attacks/synthetic/checks.h"

namespace privbench {
namespace {

// Minimum Hamming distance of `target` (d codes) to the rows of `table`.
int64_t MinHamming(const int32_t* target, const CategoricalTable& table) {
  const int64_t d = table.d;
  int64_t best = d + 1;
  for (int64_t i = 0; i < table.n() && best > 0; ++i) {
    const int32_t* row = table.row(i);
    int64_t differ = 0;
    for (int64_t j = 0; j < d && differ < best; ++j) differ += row[j] != target[j];
    if (differ < best) best = differ;
  }
  return best;
}

// The metric's distance for a minimal Hamming distance h. One-hot L2: each
// one-hot code has d ones, so ||a - b||^2 = ||a||^2 + ||b||^2 - 2 a.b with
// a.b = d - h matching attributes.
double MetricDistance(int64_t h, int64_t d, DcrMetric metric) {
  if (metric == DcrMetric::kHamming) return static_cast<double>(h);
  const int64_t matches = d - h;
  return std::sqrt(static_cast<double>(d + d - 2 * matches));
}

Status CheckMetric(DcrMetric metric) {
  if (metric != DcrMetric::kHamming && metric != DcrMetric::kOneHotL2) {
    return Error("metric must be kHamming or kOneHotL2");
  }
  return Status::Ok();
}

}  // namespace

Result<double> DistanceToClosest(const std::vector<int32_t>& target,
                                 const CategoricalTable& synthetic, const CategoricalDomain& domain,
                                 DcrMetric metric) {
  PB_RETURN_IF_ERROR(CheckMetric(metric));
  PB_RETURN_IF_ERROR(CheckDomain(domain));
  PB_RETURN_IF_ERROR(CheckNonEmptyTable(synthetic, domain, "synthetic"));
  PB_RETURN_IF_ERROR(CheckTargetRecord(target, domain));
  return MetricDistance(MinHamming(target.data(), synthetic), synthetic.d, metric);
}

Result<double> DcrScore(const std::vector<int32_t>& target, const CategoricalTable& synthetic,
                        const CategoricalDomain& domain, DcrMetric metric) {
  PB_ASSIGN_OR_RETURN(const double distance, DistanceToClosest(target, synthetic, domain, metric));
  return -distance;
}

Result<std::vector<double>> DcrScores(const CategoricalTable& targets,
                                      const CategoricalTable& synthetic,
                                      const CategoricalDomain& domain, DcrMetric metric) {
  PB_RETURN_IF_ERROR(CheckMetric(metric));
  PB_RETURN_IF_ERROR(CheckDomain(domain));
  PB_RETURN_IF_ERROR(CheckNonEmptyTable(synthetic, domain, "synthetic"));
  PB_RETURN_IF_ERROR(CheckNonEmptyTable(targets, domain, "targets"));
  std::vector<double> scores(targets.n());
  for (int64_t t = 0; t < targets.n(); ++t) {
    scores[t] = -MetricDistance(MinHamming(targets.row(t), synthetic), synthetic.d, metric);
  }
  return scores;
}

}  // namespace privbench
