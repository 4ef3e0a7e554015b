#include "experiments/epsilon_star_identical/compute.h"

#include "core/seeding.h"
#include "estimators/loss_samples/loss_sample_registry.h"

namespace privbench::epsilon_star_identical {

Result<IdenticalResults> ComputeIdentical(const Config& c, uint64_t seed, int threads, bool quiet) {
  IdenticalResults r;
  const GammaLoss dist = IdenticalDistribution(c);
  r.names = AllLossSampleEstimatorNames();
  PB_ASSIGN_OR_RETURN(r.claim, FindClaimEstimators(r.names));
  r.analyses = PrimaryAndCommonAnalyses(c.est);
  r.windows = MakeExactWindows(r.analyses[0].options, r.analyses[1].options);
  PB_ASSIGN_OR_RETURN(std::vector<std::vector<double>> exact,
                      ExactReferences(dist, {dist}, r.windows, threads, quiet, "exact Epsilon*"));
  for (const std::vector<double>& window : exact) r.exact.push_back(window[0]);

  std::vector<SimSetting> settings;
  for (int64_t n : c.est.n) settings.push_back({dist, dist, n});
  PB_ASSIGN_OR_RETURN(
      r.values, RunReplicates(settings, c.est.repetitions, DeriveSeed(seed, {kIdenticalSeedStream}),
                              r.names, r.analyses, threads, quiet, "samples (n x repetition)"));
  r.moments = Moments(r.values);
  return r;
}

}  // namespace privbench::epsilon_star_identical
