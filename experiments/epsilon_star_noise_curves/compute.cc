#include "experiments/epsilon_star_noise_curves/compute.h"

#include <algorithm>
#include <exception>
#include <string>

#include "core/format.h"
#include "core/seeding.h"
#include "experiments/lib/framework/study.h"

namespace privbench::epsilon_star_noise_curves {

Result<ExactAtThresholds> ExactRatesAt(const KnownLossDistribution& train,
                                       const KnownLossDistribution& population, double delta,
                                       const std::vector<double>& tau) {
  const size_t K = tau.size();
  ExactAtThresholds x;
  x.fpr.resize(K);
  x.fnr.resize(K);
  x.term1.resize(K);
  x.term2.resize(K);
  try {
    for (size_t i = 0; i < K; ++i) {
      PB_ASSIGN_OR_RETURN(KnownTails p, EvaluateKnownTails(population, "population", tau[i]));
      PB_ASSIGN_OR_RETURN(KnownTails t, EvaluateKnownTails(train, "train", tau[i]));
      x.fpr[i] = p.cdf;
      x.fnr[i] = t.sf;
      x.term1[i] = (p.sf - delta) / t.sf;  // +inf if the exact FNR underflows
      x.term2[i] = (t.cdf - delta) / p.cdf;
    }
  } catch (const std::exception& e) {
    return Error(std::string("exact rates at the empirical thresholds failed: ") + e.what());
  }
  return x;
}

Result<NoiseCurves> ComputeNoiseCurves(const Config& c, uint64_t seed, int threads) {
  PB_ASSIGN_OR_RETURN(KnownLossDistribution train, KnownNormalLoss(c.train));
  PB_ASSIGN_OR_RETURN(KnownLossDistribution population, KnownNormalLoss(c.population));
  const EpsilonStarCurveOptions o = CurveOptions(c);
  NoiseCurves r;
  // Samples: train then population from one stream.
  Rng rng = MakeRng(seed, {1});
  r.train_losses = DrawNormalLosses(c.train, c.n, rng);
  r.population_losses = DrawNormalLosses(c.population, c.n, rng);
  PB_RETURN_IF_ERROR(ParallelFor(2, threads, [&](int64_t j) -> Status {
    if (j == 0) {
      PB_ASSIGN_OR_RETURN(r.exact, ExactEpsilonStarCurve(train, population, o));
    } else {
      PB_ASSIGN_OR_RETURN(r.empirical,
                          EmpiricalEpsilonStarCurve(r.train_losses, r.population_losses, o));
    }
    return Status::Ok();
  }));
  if (r.exact.size() == 0 || r.empirical.size() == 0) {
    return Error("no threshold has both rates >= rate_floor = " + FormatDouble(c.rate_floor) +
                 " (exact curve " + std::to_string(r.exact.size()) + " points, empirical " +
                 std::to_string(r.empirical.size()) + ")");
  }
  PB_ASSIGN_OR_RETURN(ExactAtThresholds x,
                      ExactRatesAt(train, population, c.delta, r.empirical.threshold));
  r.exact_fpr = std::move(x.fpr);
  r.exact_fnr = std::move(x.fnr);
  r.exact_term1 = std::move(x.term1);
  r.exact_term2 = std::move(x.term2);
  return r;
}

TermMax MaxOf(const EpsilonStarCurve& c, bool first) {
  TermMax m;
  const std::vector<double>& t = first ? c.term1 : c.term2;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] > m.value) {
      m.value = t[i];
      m.index = i;
    }
  }
  if (!t.empty()) {
    m.threshold = c.threshold[m.index];
    m.denominator_rate = first ? c.fnr[m.index] : c.fpr[m.index];
  }
  return m;
}

LogErrorsByRegion LogErrors(const NoiseCurves& r, bool first) {
  LogErrorsByRegion out;
  for (size_t i = 0; i < r.empirical.size(); ++i) {
    const double e = first ? r.empirical.term1[i] : r.empirical.term2[i];
    const double x = first ? r.exact_term1[i] : r.exact_term2[i];
    const double rate = first ? r.exact_fnr[i] : r.exact_fpr[i];
    if (!(e > 0.0 && x > 0.0 && std::isfinite(e) && std::isfinite(x))) continue;
    const double err = std::abs(std::log(e / x));
    if (rate < kEndRate) out.ends.push_back(err);
    if (rate >= kCentreLo && rate <= kCentreHi) out.centre.push_back(err);
  }
  return out;
}

double LowerP90(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(0.9 * static_cast<double>(v.size() - 1))];
}

}  // namespace privbench::epsilon_star_noise_curves
