#include "estimators/roc/roc.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/validate.h"

namespace privbench {

Result<RocCurve> ComputeRoc(const std::vector<double>& member_scores,
                            const std::vector<double>& nonmember_scores) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  std::vector<double> m = member_scores, n = nonmember_scores;
  std::sort(m.begin(), m.end(), std::greater<double>());
  std::sort(n.begin(), n.end(), std::greater<double>());
  const int64_t P = static_cast<int64_t>(m.size()), N = static_cast<int64_t>(n.size());
  RocCurve roc;
  roc.points.push_back({std::numeric_limits<double>::infinity(), {0, P, 0, N}});
  size_t i = 0, j = 0;
  double auc_sum = 0.0;  // sum over steps of (TPR gain) * (FPR before) ... via trapezoids
  while (i < m.size() || j < n.size()) {
    // Next threshold: the largest remaining score.
    double t = -std::numeric_limits<double>::infinity();
    if (i < m.size()) t = m[i];
    if (j < n.size()) t = std::max(t, n[j]);
    const OperatingPoint& prev = roc.points.back();
    while (i < m.size() && m[i] == t) ++i;
    while (j < n.size() && n[j] == t) ++j;
    OperatingPoint p{t,
                     {static_cast<int64_t>(i), P - static_cast<int64_t>(i), static_cast<int64_t>(j),
                      N - static_cast<int64_t>(j)}};
    // Trapezoid between consecutive points: exact Mann-Whitney with ties.
    auc_sum += static_cast<double>(p.counts.fp - prev.counts.fp) *
               static_cast<double>(p.counts.tp + prev.counts.tp) / 2.0;
    roc.points.push_back(p);
  }
  roc.auc = auc_sum / (static_cast<double>(P) * static_cast<double>(N));
  return roc;
}

Result<OperatingPoint> BestTprAtFpr(const RocCurve& roc, double max_fpr) {
  PB_RETURN_IF_ERROR(CheckProbability("max_fpr", max_fpr));
  if (roc.points.empty()) return Error("roc must have at least one point");
  const OperatingPoint* best = &roc.points.front();
  for (const OperatingPoint& p : roc.points) {
    if (p.fpr() <= max_fpr && p.tpr() > best->tpr()) best = &p;
  }
  return *best;
}

OperatingPoint BestAdvantage(const RocCurve& roc) {
  const OperatingPoint* best = &roc.points.front();
  for (const OperatingPoint& p : roc.points) {
    if (p.advantage() > best->advantage()) best = &p;
  }
  return *best;
}

Result<OperatingPoint> AtThreshold(const std::vector<double>& member_scores,
                                   const std::vector<double>& nonmember_scores, double threshold) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  if (std::isnan(threshold)) return Error("threshold must not be NaN");
  OperatingPoint p{threshold, {}};
  for (double s : member_scores) (s >= threshold ? p.counts.tp : p.counts.fn) += 1;
  for (double s : nonmember_scores) (s >= threshold ? p.counts.fp : p.counts.tn) += 1;
  return p;
}

}  // namespace privbench
