#include "estimators/loss_samples/exact.h"

#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <exception>
#include <string>
#include <utility>

#include "core/validate.h"

namespace privbench {

Status CheckKnownLossDistribution(const KnownLossDistribution& d, const char* which) {
  if (!d.cdf) return Error(std::string(which) + ".cdf must be set");
  if (!d.quantile) return Error(std::string(which) + ".quantile must be set");
  return Status::Ok();
}

Result<KnownTails> EvaluateKnownTails(const KnownLossDistribution& d, const char* which, double x) {
  KnownTails t;
  t.cdf = d.cdf(x);
  if (!(t.cdf >= 0.0 && t.cdf <= 1.0)) {
    return Error(std::string(which) + ".cdf(" + FormatDouble(x) + ") must be in [0, 1], got " +
                 FormatDouble(t.cdf));
  }
  if (d.survival && t.cdf > 0.5) {
    t.sf = d.survival(x);
    if (!(t.sf >= 0.0 && t.sf <= 1.0)) {
      return Error(std::string(which) + ".survival(" + FormatDouble(x) +
                   ") must be in [0, 1], got " + FormatDouble(t.sf));
    }
  } else {
    t.sf = 1.0 - t.cdf;
  }
  return t;
}

Result<double> EvaluateKnownQuantile(const KnownLossDistribution& d, const char* which, double p) {
  const double x = d.quantile(p);
  if (!std::isfinite(x)) {
    return Error(std::string(which) + ".quantile(" + FormatDouble(p) + ") must be finite, got " +
                 FormatDouble(x));
  }
  return x;
}

Result<KnownLossDistribution> NormalLossDistribution(double mean, double sd) {
  PB_RETURN_IF_ERROR(CheckFinite("mean", mean));
  PB_RETURN_IF_ERROR(CheckPositive("sd", sd));
  const boost::math::normal dist(mean, sd);
  KnownLossDistribution d;
  d.cdf = [dist](double x) { return boost::math::cdf(dist, x); };
  d.survival = [dist](double x) { return boost::math::cdf(boost::math::complement(dist, x)); };
  d.quantile = [dist](double p) { return boost::math::quantile(dist, p); };
  return d;
}

Result<KnownLossDistribution> GammaLossDistribution(double shape, double scale) {
  PB_RETURN_IF_ERROR(CheckPositive("shape", shape));
  PB_RETURN_IF_ERROR(CheckPositive("scale", scale));
  const boost::math::gamma_distribution<double> dist(shape, scale);
  KnownLossDistribution d;
  d.cdf = [dist](double x) { return x <= 0.0 ? 0.0 : boost::math::cdf(dist, x); };
  d.survival = [dist](double x) {
    return x <= 0.0 ? 1.0 : boost::math::cdf(boost::math::complement(dist, x));
  };
  d.quantile = [dist](double p) { return boost::math::quantile(dist, p); };
  return d;
}

namespace {

Result<double> ExactImpl(const KnownLossDistribution& train,
                         const KnownLossDistribution& population,
                         const EpsilonStarOptions& options) {
  const double lo = options.rate_floor, hi = options.rate_ceiling;
  const int64_t m = options.quantiles_per_distribution;
  auto open = [lo, hi](double r) { return r > lo && r < hi; };
  auto closed = [lo, hi](double r) { return r >= lo && r <= hi; };
  EpsilonStarMax best(options.delta);

  // Population threshold at level a (FPR = a exactly); keep if FNR passes.
  auto pop_threshold = [&](double a, double ac, bool closed_window) -> Status {
    PB_ASSIGN_OR_RETURN(double tau, EvaluateKnownQuantile(population, "population", a));
    PB_ASSIGN_OR_RETURN(KnownTails t, EvaluateKnownTails(train, "train", tau));
    if (closed_window ? closed(t.sf) : open(t.sf)) best.Add(a, ac, t.sf, t.cdf);
    return Status::Ok();
  };
  // Train threshold at level a (FNR = 1 - a = ac exactly); keep if FPR passes.
  auto train_threshold = [&](double a, double ac, bool closed_window) -> Status {
    PB_ASSIGN_OR_RETURN(double tau, EvaluateKnownQuantile(train, "train", a));
    PB_ASSIGN_OR_RETURN(KnownTails p, EvaluateKnownTails(population, "population", tau));
    if (closed_window ? closed(p.cdf) : open(p.cdf)) best.Add(p.cdf, p.sf, ac, a);
    return Status::Ok();
  };

  // Window ends (levels strictly inside (0, 1) only).
  if (lo > 0.0) {
    PB_RETURN_IF_ERROR(pop_threshold(lo, 1.0 - lo, true));    // FPR = floor
    PB_RETURN_IF_ERROR(train_threshold(1.0 - lo, lo, true));  // FNR = floor
  }
  if (hi < 1.0) {
    PB_RETURN_IF_ERROR(pop_threshold(hi, 1.0 - hi, true));    // FPR = ceiling
    PB_RETURN_IF_ERROR(train_threshold(1.0 - hi, hi, true));  // FNR = ceiling
  }
  for (int64_t k = 1; k <= m; ++k) {
    const double a = QuantileLevel(k, m), ac = QuantileLevelComplement(k, m);
    if (open(a)) PB_RETURN_IF_ERROR(pop_threshold(a, ac, false));
    if (open(ac)) PB_RETURN_IF_ERROR(train_threshold(a, ac, false));
  }
  return best.Value();
}

}  // namespace

Result<double> ExactEpsilonStar(const KnownLossDistribution& train,
                                const KnownLossDistribution& population,
                                const EpsilonStarOptions& options) {
  PB_RETURN_IF_ERROR(CheckKnownLossDistribution(train, "train"));
  PB_RETURN_IF_ERROR(CheckKnownLossDistribution(population, "population"));
  PB_RETURN_IF_ERROR(ValidateEpsilonStarOptions(options));
  Result<double> result = Error("");
  try {
    result = ExactImpl(train, population, options);
  } catch (const std::exception& e) {
    return Error("exact Epsilon* failed (" + EpsilonStarOptionsText(options) + "): " + e.what());
  }
  PB_ASSIGN_OR_RETURN(double eps, std::move(result));
  if (!std::isfinite(eps) || eps < 0.0) {
    return Error("internal error in exact Epsilon* (" + EpsilonStarOptionsText(options) +
                 "): Epsilon* = " + FormatDouble(eps));
  }
  return eps;
}

Result<double> ExactEpsilonStar(std::function<double(double)> train_cdf,
                                std::function<double(double)> population_cdf,
                                std::function<double(double)> population_quantile,
                                std::function<double(double)> train_quantile,
                                const EpsilonStarOptions& options) {
  KnownLossDistribution train{std::move(train_cdf), std::move(train_quantile), nullptr};
  KnownLossDistribution population{std::move(population_cdf), std::move(population_quantile),
                                   nullptr};
  return ExactEpsilonStar(train, population, options);
}

}  // namespace privbench
