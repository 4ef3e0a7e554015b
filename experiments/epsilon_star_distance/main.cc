// Study B3 epsilon_star_distance: Epsilon* as the train and population loss
// distributions move apart. Negoescu et al., "Epsilon*: Privacy Metric for
// Machine Learning Models" (PPAI-24), App. B.1 "Increasing the distance
// between training and non-training distributions", Fig. 5; README.md
// (B3).
//
//   bazel run //experiments/epsilon_star_distance [-- --scale=paper]
//
// Every registered loss-sample estimator on `repetitions` pairs of samples
// of n losses, train Gamma(1, 1) against a population moved by each
// distance d, in a primary and a common-window analysis, with the exact
// Epsilon* on each window as the reference (compute.h). Output and claims:
// report.h.
#include <string>
#include <utility>

#include "core/format.h"
#include "experiments/epsilon_star_distance/compute.h"
#include "experiments/epsilon_star_distance/config.h"
#include "experiments/epsilon_star_distance/report.h"
#include "experiments/lib/epsilon_star_sim/estimation_config.h"
#include "experiments/lib/framework/study.h"

namespace privbench::epsilon_star_distance {
namespace {

Config Defaults(Scale scale) {
  Config c;
  c.est = DefaultEstimationConfig(scale);
  c.distances = DefaultDistances(scale);
  // d0_empirical_overshoots_more is judged by sign tests over the
  // repetitions (report.h): at 10 it is inconclusive or significant
  // depending on the seed; 40 give the same verdicts at seeds 20231121 and 1
  // (more than the paper's 10, so quick scale does not reduce them here).
  if (scale == Scale::kQuick) c.est.repetitions = 40;
  return c;
}

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddDouble("train_shape", &c.train_shape, "Gamma shape of the train losses (lost; ours 1)")
      .Above(0)
      .Finite();
  f.AddDouble("train_scale", &c.train_scale, "Gamma scale of the train losses (lost; ours 1)")
      .Above(0)
      .Finite();
  f.AddDouble("population_shape", &c.population_shape,
              "Gamma shape of the population losses at d = 0 (lost; ours 1)")
      .Above(0)
      .Finite();
  f.AddDouble("population_scale", &c.population_scale,
              "Gamma scale of the population losses (lost; ours 1)")
      .Above(0)
      .Finite();
  f.AddDoubleList("distances", &c.distances,
                  "distances d, strictly increasing (paper: 0,1,2,3,4,5)")
      .NonEmpty()
      .Range(0, 1e6);
  f.AddString("shift", &c.shift,
              "how d moves the population: shape (Gamma(population_shape + d, scale)) or "
              "location (Gamma(population_shape, scale) + d)")
      .OneOf({"shape", "location"});
  RegisterEstimationFlags(f, c.est);
}

// The rules across fields: distances and n strictly increasing.
Status Validate(const Config& c) {
  for (size_t i = 1; i < c.distances.size(); ++i) {
    if (!(c.distances[i] > c.distances[i - 1])) {
      return Error("distances must be strictly increasing, got " +
                   FormatDouble(c.distances[i - 1]) + " before " + FormatDouble(c.distances[i]));
    }
  }
  return ValidateEstimationConfig(c.est);
}

Status Run(const Config& c, StudyContext& ctx) {
  PB_ASSIGN_OR_RETURN(DistanceResults sim,
                      ComputeDistance(c, ctx.seed(), ctx.threads(), ctx.quiet()));
  return WriteReport(c, Results{std::move(sim), ctx.scale()}, ctx.out());
}

}  // namespace
}  // namespace privbench::epsilon_star_distance

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::epsilon_star_distance;
  Study<Config> study;
  study.info = {"epsilon_star_distance",
                "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
                "App. B.1 (Increasing the distance between training and non-training "
                "distributions), Fig. 5; experiments/epsilon_star_distance/README.md",
                "Empirical vs parametric vs exact Epsilon* as the population loss distribution "
                "moves away from the train loss distribution, against the sample size"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
