// Study B1 epsilon_star_noise_curves: the two ratio terms of Epsilon*
// against the threshold, from exact CDFs and from eCDFs of simulated
// losses. Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning
// Models" (PPAI-24), App. B, Fig. 3; README.md.
//
//   bazel run //experiments/epsilon_star_noise_curves [-- --scale=paper]
//
// Train losses N(0, 1), population losses N(3, 1) (the paper's); the exact
// curve at the 2m quantile thresholds and the eCDF curve of n simulated
// losses per distribution, thresholds with a rate below rate_floor dropped
// (compute.h). Output and claims: report.h.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "core/format.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "experiments/epsilon_star_noise_curves/compute.h"
#include "experiments/epsilon_star_noise_curves/config.h"
#include "experiments/epsilon_star_noise_curves/report.h"
#include "experiments/lib/framework/study.h"
#include "simulations/loss_models.h"

namespace privbench::epsilon_star_noise_curves {
namespace {

Config Defaults(Scale scale) {
  Config c;
  switch (scale) {
    case Scale::kQuick:
      c.n = 10000;
      c.quantiles_per_distribution = 10000;
      break;
    case Scale::kPaper:
      c.n = 1000000;
      c.quantiles_per_distribution = 1000000;
      break;
    case Scale::kTest:
      c.n = 500;
      c.quantiles_per_distribution = 500;
      break;
  }
  return c;
}

// Each model's mean within kMaxMeanOverSd standard deviations of 0: beyond
// it the standardised losses (x - mean) / sd keep fewer than ~7 digits.
constexpr double kMaxMeanOverSd = 1e9;

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddDouble("train_mean", &c.train.mean,
              "mean of the train losses (paper: 0); |train_mean| <= 1e9 * train_sd")
      .Finite();
  f.AddDouble("train_sd", &c.train.sd, "sd of the train losses (paper: 1); in [1e-100, 1e100]")
      .Range(1e-100, 1e100);
  f.AddDouble("population_mean", &c.population.mean,
              "mean of the population losses (paper: 3); |population_mean| <= 1e9 * "
              "population_sd, and the models must overlap: some threshold has both exact "
              "rates >= max(rate_floor, min(0.25, 20 / n))")
      .Finite();
  f.AddDouble("population_sd", &c.population.sd,
              "sd of the population losses (paper: 1); in [1e-100, 1e100]")
      .Range(1e-100, 1e100);
  f.AddInt("n", &c.n, "simulated losses per distribution for the eCDF curve (lost)").Range(1, 1e8);
  f.AddInt("quantiles_per_distribution", &c.quantiles_per_distribution,
           "m quantile levels per distribution, 2m thresholds")
      .Range(1, static_cast<double>(kMaxQuantilesPerDistribution));
  f.AddDouble("rate_floor", &c.rate_floor,
              "drop thresholds with FPR or FNR below it (paper: lost; ours 1e-6)")
      .OpenRange(0, 1);
  f.AddDouble("delta", &c.delta, "delta of Epsilon* (not stated; ours 0)").Min(0).Below(1);
}

// Every rule is a single parameter's (declared with its flag).
Status CheckMeanOverSd(const std::string& name, const NormalLoss& g) {
  if (std::fabs(g.mean) <= kMaxMeanOverSd * g.sd) return Status::Ok();
  return Error("|" + name + "_mean| must be <= 1e9 * " + name + "_sd (the standardised losses " +
               "keep ~7 digits there), got " + name + "_mean = " + FormatDouble(g.mean) + ", " +
               name + "_sd = " + FormatDouble(g.sd));
}

// The rules across fields: means within the accurate range of their sds, and
// the two models close enough that both curves have points. A threshold t
// has exact FPR = P(population <= t) >= q and FNR = P(train > t) >= q iff
// population quantile(q) <= train quantile(1 - q); q is the larger of
// rate_floor and min(0.25, 20 / n), so the n draws hold ~20 such losses and
// the empirical curve has points too.
Status Validate(const Config& c) {
  PB_RETURN_IF_ERROR(CheckMeanOverSd("train", c.train));
  PB_RETURN_IF_ERROR(CheckMeanOverSd("population", c.population));
  PB_ASSIGN_OR_RETURN(KnownLossDistribution train, KnownNormalLoss(c.train));
  PB_ASSIGN_OR_RETURN(KnownLossDistribution population, KnownNormalLoss(c.population));
  const double q = std::max(c.rate_floor, std::min(0.25, 20.0 / static_cast<double>(c.n)));
  if (q >= 1.0) return Status::Ok();  // rate_floor's own range refuses it
  const double lo = population.quantile(q);
  const double hi = train.quantile(1.0 - q);
  if (lo <= hi) return Status::Ok();
  return Error(
      "population_mean, population_sd, train_mean and train_sd must leave the models "
      "overlapping: no threshold has both exact rates >= " +
      FormatDouble(q) + " (population quantile " + FormatDouble(lo) + " > train quantile " +
      FormatDouble(hi) + "; population_mean = " + FormatDouble(c.population.mean) +
      ", train_mean = " + FormatDouble(c.train.mean) + ")");
}

Status Run(const Config& c, StudyContext& ctx) {
  PB_ASSIGN_OR_RETURN(NoiseCurves curves, ComputeNoiseCurves(c, ctx.seed(), ctx.threads()));
  return WriteReport(c, Results{std::move(curves), ctx.scale()}, ctx.out());
}

}  // namespace
}  // namespace privbench::epsilon_star_noise_curves

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::epsilon_star_noise_curves;
  Study<Config> study;
  study.info = {"epsilon_star_noise_curves",
                "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
                "App. B, Fig. 3; experiments/epsilon_star_noise_curves/README.md",
                "The two ratio terms of Epsilon* against the threshold, from exact CDFs and "
                "from eCDFs of simulated N(0,1) / N(3,1) losses"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
