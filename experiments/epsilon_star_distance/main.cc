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

// The range in which the exact reference and the samplers are accurate for
// every pair of train and population models (checked at the corners):
//  - shape in [0.1, 1000]: at shape 1e12 Boost's incomplete gamma (the exact
//    reference) stops converging ("Series evaluation exceeded 10^6
//    iterations"); a shape of 1e4 against one of 0.1 already overflows its
//    tgamma (the CDF of one model taken far in the other's tail); below 0.1
//    the draws reach the subnormal doubles (Gamma(1e-5) draws are all 0);
//  - scale in [1e-3, 1e3]: the parametric variant min-max normalises both
//    samples together, so the two scales' ratio sets how many digits of the
//    smaller sample survive (at 1e100 against 1 none do: "fitted sd is 0").
constexpr double kMinShape = 0.1;
constexpr double kMaxShape = 1000;
constexpr double kMinScale = 1e-3;
constexpr double kMaxScale = 1e3;

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddDouble("train_shape", &c.train_shape,
              "Gamma shape of the train losses (lost; ours 1); in [0.1, 1000], where the exact "
              "reference is accurate")
      .Range(kMinShape, kMaxShape);
  f.AddDouble("train_scale", &c.train_scale,
              "Gamma scale of the train losses (lost; ours 1); in [1e-3, 1e3], where the "
              "parametric variant keeps both samples' digits")
      .Range(kMinScale, kMaxScale);
  f.AddDouble("population_shape", &c.population_shape,
              "Gamma shape of the population losses at d = 0 (lost; ours 1); in [0.1, 1000], "
              "and with shift = shape population_shape + max distance <= 1000")
      .Range(kMinShape, kMaxShape);
  f.AddDouble("population_scale", &c.population_scale,
              "Gamma scale of the population losses (lost; ours 1); in [1e-3, 1e3]")
      .Range(kMinScale, kMaxScale);
  f.AddDoubleList("distances", &c.distances,
                  "distances d, strictly increasing, in [0, 1000] (paper: 0,1,2,3,4,5)")
      .NonEmpty()
      .Range(0, kMaxShape);
  f.AddString("shift", &c.shift,
              "how d moves the population: shape (Gamma(population_shape + d, scale)) or "
              "location (Gamma(population_shape, scale) + d)")
      .OneOf({"shape", "location"});
  RegisterEstimationFlags(f, c.est);
}

// The rules across fields: distances and n strictly increasing; with
// shift = shape the farthest population's shape stays in the accurate range.
Status Validate(const Config& c) {
  if (c.shift == "shape" && !c.distances.empty() &&
      !(c.population_shape + c.distances.back() <= kMaxShape)) {
    return Error(
        "population_shape + the largest of distances must be <= " + FormatDouble(kMaxShape) +
        " with shift = shape (the exact reference's accurate range), got " +
        FormatDouble(c.population_shape) + " + " + FormatDouble(c.distances.back()));
  }
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
