#include "estimators/loss_samples/parametric.h"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <memory>
#include <string>

#include "core/validate.h"
#include "estimators/loss_samples/factories.h"
#include "estimators/loss_samples/loss_sample_estimator.h"
#include "estimators/loss_samples/loss_transform.h"

namespace privbench {

namespace {

// Double precision throughout (Boost's default promotes double to long
// double, about 2x slower; double is accurate to a few ulp here).
using FastPolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;

constexpr double kSqrt2 = 1.41421356237309504880;

// Phi(u) and 1 - Phi(u), the smaller computed with erfc, the larger as one
// minus the smaller (no cancellation in either).
struct Tails {
  double cdf, sf;
};
Tails StdNormalTails(double u) {
  if (u < 0.0) {
    const double small = 0.5 * boost::math::erfc(-u / kSqrt2, FastPolicy());
    return {small, 1.0 - small};
  }
  const double small = 0.5 * boost::math::erfc(u / kSqrt2, FastPolicy());
  return {1.0 - small, small};
}

// Phi^-1(p) given p and q = 1 - p (both in (0, 1)), from the smaller one.
double StdNormalQuantile(double p, double q) {
  if (p <= q) return -kSqrt2 * boost::math::erfc_inv(2.0 * p, FastPolicy());
  return kSqrt2 * boost::math::erfc_inv(2.0 * q, FastPolicy());
}

bool InWindow(double rate, double lo, double hi) { return rate >= lo && rate <= hi; }

// Clamps (rate, 1 - rate) into the window (used at the window's ends only,
// where leaving it can only be rounding).
void ClampToWindow(double lo, double hi, double* rate, double* complement) {
  if (*rate < lo) {
    *rate = lo;
    *complement = 1.0 - lo;
  } else if (*rate > hi) {
    *rate = hi;
    *complement = 1.0 - hi;
  }
}

}  // namespace

Result<double> EpsilonStarOfNormals(const NormalFit& train_fit, const NormalFit& population_fit,
                                    const EpsilonStarOptions& options) {
  PB_RETURN_IF_ERROR(ValidateEpsilonStarOptions(options));
  if (options.quantiles_per_distribution > kMaxParametricQuantilesPerDistribution) {
    return Error("quantiles_per_distribution must be in [1, " +
                 std::to_string(kMaxParametricQuantilesPerDistribution) +
                 "] for the parametric variant (its work bound), got " +
                 std::to_string(options.quantiles_per_distribution));
  }
  PB_RETURN_IF_ERROR(CheckFinite("train_fit.mean", train_fit.mean));
  PB_RETURN_IF_ERROR(CheckPositive("train_fit.sd", train_fit.sd));
  PB_RETURN_IF_ERROR(CheckFinite("population_fit.mean", population_fit.mean));
  PB_RETURN_IF_ERROR(CheckPositive("population_fit.sd", population_fit.sd));

  const double mu_t = train_fit.mean, s_t = train_fit.sd;
  const double mu_p = population_fit.mean, s_p = population_fit.sd;
  const double lo = options.clip_lo, hi = options.clip_hi;
  const int64_t m = options.quantiles_per_distribution;
  EpsilonStarMax best(options.delta);

  // Window ends. FPR in [lo, hi] <=> tau in [mu_p + s_p z_lo, mu_p + s_p z_hi];
  // FNR in [lo, hi] <=> tau in [mu_t - s_t z_hi, mu_t - s_t z_lo].
  const double z_lo = StdNormalQuantile(lo, 1.0 - lo);
  const double z_hi = StdNormalQuantile(hi, 1.0 - hi);
  const double tau_a = std::max(mu_p + s_p * z_lo, mu_t - s_t * z_hi);
  const double tau_b = std::min(mu_p + s_p * z_hi, mu_t - s_t * z_lo);
  // No threshold has both rates in the window (e.g. a worse-than-chance
  // test with a narrow window): every grid point would be dropped.
  if (!(tau_a <= tau_b)) return best.Value();
  for (double tau : {tau_a, tau_b}) {
    Tails pop = StdNormalTails((tau - mu_p) / s_p);
    Tails train = StdNormalTails((tau - mu_t) / s_t);
    ClampToWindow(lo, hi, &pop.cdf, &pop.sf);      // FPR, 1 - FPR
    ClampToWindow(lo, hi, &train.sf, &train.cdf);  // FNR, 1 - FNR
    best.Add(pop.cdf, pop.sf, train.sf, train.cdf);
  }

  // The grid. Level a = k/(m+1), ac = 1 - a.
  for (int64_t k = 1; k <= m; ++k) {
    const double a = QuantileLevel(k, m), ac = QuantileLevelComplement(k, m);
    const bool pop_level_ok = InWindow(a, lo, hi);     // population threshold: FPR = a
    const bool train_level_ok = InWindow(ac, lo, hi);  // train threshold: FNR = ac
    if (!pop_level_ok && !train_level_ok) continue;
    const double z = StdNormalQuantile(a, ac);
    if (pop_level_ok) {
      const Tails train = StdNormalTails((mu_p + s_p * z - mu_t) / s_t);
      if (InWindow(train.sf, lo, hi)) best.Add(a, ac, train.sf, train.cdf);
    }
    if (train_level_ok) {
      const Tails pop = StdNormalTails((mu_t + s_t * z - mu_p) / s_p);
      if (InWindow(pop.cdf, lo, hi)) best.Add(pop.cdf, pop.sf, ac, a);
    }
  }
  return best.Value();
}

Result<ParametricFits> FitParametricEpsilonStar(const std::vector<double>& train_losses,
                                                const std::vector<double>& population_losses,
                                                LossTransform transform) {
  PB_ASSIGN_OR_RETURN(LossTransformMap map,
                      LossTransformMap::Fit(transform, train_losses, population_losses));
  const double sign = map.decreasing() ? -1.0 : 1.0;
  RunningMoments train, population;
  for (double l : train_losses) train.Add(sign * map.Apply(l));
  for (double l : population_losses) population.Add(sign * map.Apply(l));
  ParametricFits fits{train.Fit(), population.Fit()};
  if (!std::isfinite(fits.train.mean) || !std::isfinite(fits.train.sd)) {
    return Error("train_losses: Normal fit of the transformed losses overflowed (sd " +
                 FormatDouble(fits.train.sd) + "); rescale the losses");
  }
  if (!std::isfinite(fits.population.mean) || !std::isfinite(fits.population.sd)) {
    return Error("population_losses: Normal fit of the transformed losses overflowed (sd " +
                 FormatDouble(fits.population.sd) + "); rescale the losses");
  }
  return fits;
}

namespace {

class ParametricEpsilonStar final : public LossSampleEstimator {
 public:
  std::string_view name() const override { return "parametric"; }
  std::string_view description() const override {
    return "Epsilon* from Normal fits to transformed train and population losses, supremum "
           "over thresholds with rates in [clip_lo, clip_hi] (Epsilon* Sec. 3.1, App. B)";
  }

 protected:
  Result<double> EstimateImpl(const std::vector<double>& train_losses,
                              const std::vector<double>& population_losses,
                              const EpsilonStarOptions& options) const override {
    PB_ASSIGN_OR_RETURN(
        ParametricFits fits,
        FitParametricEpsilonStar(train_losses, population_losses, options.transform));
    if (!(fits.train.sd > 0.0)) {
      return Error(
          "train_losses: the parametric variant needs transformed losses that are "
          "not all equal (fitted sd is 0)");
    }
    if (!(fits.population.sd > 0.0)) {
      return Error(
          "population_losses: the parametric variant needs transformed losses that "
          "are not all equal (fitted sd is 0)");
    }
    return EpsilonStarOfNormals(fits.train, fits.population, options);
  }
};

}  // namespace

std::unique_ptr<LossSampleEstimator> MakeParametricEpsilonStar() {
  return std::make_unique<ParametricEpsilonStar>();
}

}  // namespace privbench
