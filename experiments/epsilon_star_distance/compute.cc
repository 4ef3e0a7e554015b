#include "experiments/epsilon_star_distance/compute.h"

#include <cmath>
#include <xtensor/xmath.hpp>

#include "core/seeding.h"
#include "estimators/loss_samples/loss_sample_registry.h"

namespace privbench::epsilon_star_distance {

Result<DistanceResults> ComputeDistance(const Config& c, uint64_t seed, int threads, bool quiet) {
  DistanceResults r;
  const GammaLoss train = DistanceTrain(c);
  r.N = c.est.n.size();
  r.names = AllLossSampleEstimatorNames();
  PB_ASSIGN_OR_RETURN(r.claim, FindClaimEstimators(r.names));
  r.analyses = PrimaryAndCommonAnalyses(c.est);
  r.windows = MakeExactWindows(r.analyses[0].options, r.analyses[1].options);
  std::vector<GammaLoss> populations;
  for (double d : c.distances) populations.push_back(DistancePopulation(c, d));
  PB_ASSIGN_OR_RETURN(r.exact, ExactReferences(train, populations, r.windows, threads, quiet,
                                               "exact Epsilon* (d x window)"));

  std::vector<SimSetting> settings;  // index i * N + k
  for (const GammaLoss& pop : populations) {
    for (int64_t n : c.est.n) settings.push_back({train, pop, n});
  }
  PB_ASSIGN_OR_RETURN(
      r.values, RunReplicates(settings, c.est.repetitions, DeriveSeed(seed, {kDistanceSeedStream}),
                              r.names, r.analyses, threads, quiet, "samples (d x n x repetition)"));
  r.moments = Moments(r.values);
  r.bias = r.moments.mean;
  for (size_t a = 0; a < r.analyses.size(); ++a) {
    for (size_t e = 0; e < r.names.size(); ++e) {
      for (size_t s = 0; s < settings.size(); ++s) r.bias(s, a, e) -= r.Reference(a, e)[s / r.N];
    }
  }
  return r;
}

double Rmse(const xt::xtensor<double, 1>& x, double reference) {
  const xt::xtensor<double, 1> error = x - reference;
  return std::sqrt(xt::sum(error * error)() / static_cast<double>(x.size()));
}

}  // namespace privbench::epsilon_star_distance
