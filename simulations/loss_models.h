// Loss models with a known truth: Normal and (shifted) Gamma loss
// distributions with exact CDFs, survival functions and quantiles
// (Boost.Math, estimators/loss_samples/exact.h), and samplers that draw
// from them with Boost.Random (bytes fixed by Boost, not by the standard
// library). They are the synthetic training and population losses of the
// Epsilon* simulations (Negoescu et al., PPAI-24, App. B and B.1, Figs. 3-5;
// experiments/epsilon_star_*/README.md, B1-B3): Fig. 3 uses N(0, 1) against N(3, 1), Figs. 4-5
// Gamma distributions, whose exact Epsilon* is the truth the estimators are
// measured against.
#ifndef PRIVBENCH_SIMULATIONS_LOSS_MODELS_H_
#define PRIVBENCH_SIMULATIONS_LOSS_MODELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "estimators/loss_samples/exact.h"

namespace privbench {

// N(mean, sd^2).
struct NormalLoss {
  double mean = 0.0;
  double sd = 1.0;
};
// "N(0, 1^2)".
std::string NormalLossText(const NormalLoss& g);
// Validates mean finite, sd > 0; messages start with `name` ("train_sd ...").
Status CheckNormalLoss(const std::string& name, const NormalLoss& g);
// The known distribution (Boost.Math CDF, survival, quantile).
Result<KnownLossDistribution> KnownNormalLoss(const NormalLoss& g);
// n draws (Boost.Random normal_distribution). Precondition: g validated,
// n >= 0.
std::vector<double> DrawNormalLosses(const NormalLoss& g, int64_t n, Rng& rng);

// Gamma(shape, scale) shifted by `offset` (support [offset, inf)).
struct GammaLoss {
  double shape = 1.0;
  double scale = 1.0;
  double offset = 0.0;
};
// "Gamma(shape 1, scale 1)" or "Gamma(shape 1, scale 1) + 2".
std::string GammaLossText(const GammaLoss& g);
// Validates shape > 0, scale > 0, offset finite; messages start with `name`
// (e.g. "train_shape must be > 0 ..." for name "train").
Status CheckGammaLoss(const std::string& name, const GammaLoss& g);
// The known distribution (Boost.Math CDF, survival, quantile; shifted).
Result<KnownLossDistribution> KnownGammaLoss(const GammaLoss& g);
// n draws (Boost.Random gamma_distribution). Precondition: g validated,
// n >= 0.
std::vector<double> DrawGammaLosses(const GammaLoss& g, int64_t n, Rng& rng);

// The true Epsilon* of two Gamma loss models (ExactEpsilonStar of their
// known distributions on the options' (rate_floor, rate_ceiling) window).
// Validates both models (messages name "train_..." / "population_...").
Result<double> ExactGammaEpsilonStar(const GammaLoss& train, const GammaLoss& population,
                                     const EpsilonStarOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_SIMULATIONS_LOSS_MODELS_H_
