#include "experiments/lib/bayes_width/bayes_width.h"

#include <cmath>
#include <limits>

#include "core/validate.h"
#include "estimators/interval_registry.h"

namespace privbench {

Result<std::vector<WidthMethod>> RegisteredWidthMethods(double delta) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  std::vector<WidthMethod> out;
  for (const std::string& name : AllIntervalEstimatorNames()) {
    PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(name));
    WidthMethod m;
    m.name = name;
    m.one_sided = est->one_sided();
    if (est->requires_zero_delta()) {
      m.delta = 0.0;
      m.label = name + " (delta=0)";
    } else {
      m.delta = delta;
      m.label = name;
    }
    out.push_back(m);
  }
  return out;
}

Result<PaperMethods> FindPaperMethods(const std::vector<WidthMethod>& methods) {
  auto index = [&](const std::string& name) {
    for (size_t i = 0; i < methods.size(); ++i) {
      if (methods[i].name == name) return static_cast<int64_t>(i);
    }
    return int64_t{-1};
  };
  const int64_t cp = index("clopper_pearson"), jf = index("jeffreys"), by = index("bayesian");
  if (cp < 0 || jf < 0 || by < 0) {
    return Error("the registry must contain clopper_pearson, jeffreys and bayesian");
  }
  PaperMethods out;
  out.clopper_pearson = static_cast<size_t>(cp);
  out.jeffreys = static_cast<size_t>(jf);
  out.bayesian = static_cast<size_t>(by);
  return out;
}

Result<ConfusionCounts> BalancedCounts(double fpr, double fnr, int64_t n) {
  PB_RETURN_IF_ERROR(CheckProbability("fpr", fpr));
  PB_RETURN_IF_ERROR(CheckProbability("fnr", fnr));
  if (n < 2 || n % 2 != 0) {
    return Error("n must be even and >= 2 (n/2 members, n/2 non-members), got " +
                 std::to_string(n));
  }
  const int64_t m = n / 2;
  ConfusionCounts c;
  c.fn = std::llround(fnr * static_cast<double>(m));
  c.tp = m - c.fn;
  c.fp = std::llround(fpr * static_cast<double>(m));
  c.tn = m - c.fp;
  return c;
}

Result<std::vector<MethodInterval>> EstimateAll(const std::vector<WidthMethod>& methods,
                                                const ConfusionCounts& counts, double alpha) {
  std::vector<MethodInterval> out;
  out.reserve(methods.size());
  for (const WidthMethod& m : methods) {
    PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(m.name));
    auto r = est->Estimate(counts, m.delta, alpha);
    if (!r.ok()) {
      return Error(m.label + " at " + counts.ToString() + ": " + r.message());
    }
    MethodInterval iv;
    iv.lower = r->lower;
    iv.upper = r->upper ? *r->upper : std::numeric_limits<double>::quiet_NaN();
    out.push_back(iv);
  }
  return out;
}

Result<SamplesNeeded> FindSamplesNeeded(const std::vector<int64_t>& n,
                                        const std::vector<double>& widths, double target) {
  if (n.empty() || n.size() != widths.size()) {
    return Error("n and widths must have equal, non-zero sizes, got " + std::to_string(n.size()) +
                 " and " + std::to_string(widths.size()));
  }
  for (size_t i = 1; i < n.size(); ++i) {
    if (n[i] <= n[i - 1])
      return Error("n must be strictly increasing, at index " + std::to_string(i));
  }
  PB_RETURN_IF_ERROR(CheckFinite("target", target));
  SamplesNeeded out;
  for (size_t i = 0; i < n.size(); ++i) {
    if (widths[i] <= target) {  // false for NaN
      out.first = n[i];
      break;
    }
  }
  // Walk back from the end while the width stays within the target.
  for (size_t i = n.size(); i-- > 0;) {
    if (!(widths[i] <= target)) break;
    out.stays = n[i];
  }
  return out;
}

double WidthReductionPercent(double width, double reference) {
  if (std::isnan(width) || std::isnan(reference) || !(reference > 0.0)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (std::isinf(reference)) {
    return std::isinf(width) ? std::numeric_limits<double>::quiet_NaN() : 100.0;
  }
  if (std::isinf(width)) return -std::numeric_limits<double>::infinity();
  return 100.0 * (1.0 - width / reference);
}

FiniteRange RangeOfFinite(const std::vector<double>& xs, const std::vector<bool>& mask) {
  FiniteRange r;
  r.min = r.max = std::numeric_limits<double>::quiet_NaN();
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!mask.empty() && !mask[i]) continue;
    if (!std::isfinite(xs[i])) continue;
    if (r.count == 0 || xs[i] < r.min) {
      r.min = xs[i];
      r.argmin = static_cast<int64_t>(i);
    }
    if (r.count == 0 || xs[i] > r.max) {
      r.max = xs[i];
      r.argmax = static_cast<int64_t>(i);
    }
    ++r.count;
  }
  return r;
}

}  // namespace privbench
