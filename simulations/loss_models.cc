#include "simulations/loss_models.h"

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>

#include "core/format.h"
#include "core/validate.h"

namespace privbench {

std::string NormalLossText(const NormalLoss& g) {
  return "N(" + FormatDouble(g.mean) + ", " + FormatDouble(g.sd) + "^2)";
}

Status CheckNormalLoss(const std::string& name, const NormalLoss& g) {
  PB_RETURN_IF_ERROR(CheckFinite(name + "_mean", g.mean));
  return CheckPositive(name + "_sd", g.sd);
}

Result<KnownLossDistribution> KnownNormalLoss(const NormalLoss& g) {
  return NormalLossDistribution(g.mean, g.sd);
}

std::vector<double> DrawNormalLosses(const NormalLoss& g, int64_t n, Rng& rng) {
  boost::random::normal_distribution<double> dist(g.mean, g.sd);
  std::vector<double> x(static_cast<size_t>(n));
  for (double& v : x) v = dist(rng);
  return x;
}

std::string GammaLossText(const GammaLoss& g) {
  std::string s = "Gamma(shape " + FormatDouble(g.shape) + ", scale " + FormatDouble(g.scale) + ")";
  if (g.offset != 0.0) s += " + " + FormatDouble(g.offset);
  return s;
}

Status CheckGammaLoss(const std::string& name, const GammaLoss& g) {
  PB_RETURN_IF_ERROR(CheckPositive(name + "_shape", g.shape));
  PB_RETURN_IF_ERROR(CheckPositive(name + "_scale", g.scale));
  return CheckFinite(name + "_offset", g.offset);
}

Result<KnownLossDistribution> KnownGammaLoss(const GammaLoss& g) {
  PB_ASSIGN_OR_RETURN(KnownLossDistribution base, GammaLossDistribution(g.shape, g.scale));
  if (g.offset == 0.0) return base;
  const double off = g.offset;
  KnownLossDistribution d;
  d.cdf = [base, off](double x) { return base.cdf(x - off); };
  d.survival = [base, off](double x) { return base.survival(x - off); };
  d.quantile = [base, off](double p) { return base.quantile(p) + off; };
  return d;
}

std::vector<double> DrawGammaLosses(const GammaLoss& g, int64_t n, Rng& rng) {
  boost::random::gamma_distribution<double> dist(g.shape, g.scale);
  std::vector<double> x(static_cast<size_t>(n));
  for (double& v : x) v = dist(rng) + g.offset;
  return x;
}

Result<double> ExactGammaEpsilonStar(const GammaLoss& train, const GammaLoss& population,
                                     const EpsilonStarOptions& options) {
  PB_RETURN_IF_ERROR(CheckGammaLoss("train", train));
  PB_RETURN_IF_ERROR(CheckGammaLoss("population", population));
  PB_ASSIGN_OR_RETURN(KnownLossDistribution t, KnownGammaLoss(train));
  PB_ASSIGN_OR_RETURN(KnownLossDistribution p, KnownGammaLoss(population));
  return ExactEpsilonStar(t, p, options);
}

}  // namespace privbench
