#include "experiments/lib/epsilon_star_sim/estimation_config.h"

#include "core/format.h"
#include "estimators/loss_samples/loss_transform.h"

namespace privbench {

EstimationConfig DefaultEstimationConfig(Scale scale) {
  EstimationConfig c;
  c.repetitions = 10;
  switch (scale) {
    case Scale::kQuick:
      c.n = {1000, 10000};
      c.quantiles_per_distribution = 100000;
      break;
    case Scale::kPaper:
      c.n = {1000, 10000, 100000, 1000000};
      c.quantiles_per_distribution = 1000000;
      break;
    case Scale::kTest:
      c.n = {200, 3000};
      c.repetitions = 3;
      c.quantiles_per_distribution = 2000;
      break;
  }
  return c;
}

std::vector<double> DefaultDistances(Scale scale) {
  if (scale == Scale::kTest) return {0, 1, 5};
  return {0, 1, 2, 3, 4, 5};
}

void RegisterEstimationFlags(FlagSet& flags, EstimationConfig& c) {
  std::vector<std::string> transforms;
  for (LossTransform t : kAllLossTransforms) transforms.emplace_back(LossTransformName(t));
  flags
      .AddIntList("n", &c.n,
                  "losses per sample (train and population each), strictly increasing (the "
                  "parametric fit needs two losses)")
      .NonEmpty()
      .Range(2, 1e9);
  flags
      .AddInt("repetitions", &c.repetitions,
              "independent samples per setting (paper: 10; a standard deviation needs two)")
      .Range(2, 1e6);
  flags.AddDouble("delta", &c.delta, "delta of Epsilon* (paper's simulations: not stated)")
      .Min(0)
      .Below(1);
  flags
      .AddInt("quantiles_per_distribution", &c.quantiles_per_distribution,
              "m equally spaced quantile levels per distribution, 2m thresholds (paper: 1e6)")
      .Range(1, static_cast<double>(kMaxQuantilesPerDistribution));
  flags
      .AddDouble("rate_floor", &c.rate_floor,
                 "empirical and exact variants keep rates in (rate_floor, rate_ceiling) "
                 "(paper: 0.001)")
      .Min(0)
      .Below(0.5);
  flags.AddDouble("rate_ceiling", &c.rate_ceiling, "see rate_floor (paper: 0.999)")
      .Above(0.5)
      .Max(1);
  flags
      .AddDouble("clip_lo", &c.clip_lo,
                 "parametric variant keeps rates in [clip_lo, clip_hi] (paper: lost)")
      .OpenRange(0, 0.5);
  flags.AddDouble("clip_hi", &c.clip_hi, "see clip_lo").OpenRange(0.5, 1);
  flags
      .AddString("transform", &c.transform,
                 "parametric loss transform: epsilon_star_logit (App. B), carlini_logit or "
                 "identity")
      .OneOf(transforms);
  flags
      .AddDouble("common_lo", &c.common_lo,
                 "secondary analysis: every estimator on the window [common_lo, common_hi]")
      .OpenRange(0, 0.5);
  flags.AddDouble("common_hi", &c.common_hi, "see common_lo").OpenRange(0.5, 1);
}

Status ValidateEstimationConfig(const EstimationConfig& c) {
  for (size_t i = 1; i < c.n.size(); ++i) {
    if (c.n[i] <= c.n[i - 1]) {
      return Error("n must be strictly increasing, got " + std::to_string(c.n[i - 1]) + " before " +
                   std::to_string(c.n[i]));
    }
  }
  return Status::Ok();
}

std::string EstimationSizesText(const EstimationConfig& c, Scale scale) {
  std::string ns;
  for (size_t i = 0; i < c.n.size(); ++i) ns += (i ? "," : "") + std::to_string(c.n[i]);
  return "delta of the simulations (not stated): " + FormatDouble(c.delta) + "; n = {" + ns +
         "} at scale " + ScaleName(scale) + " (paper: 1e3..1e6), " + std::to_string(c.repetitions) +
         " repetitions; quantiles_per_distribution m = " +
         std::to_string(c.quantiles_per_distribution) +
         " (paper: 1e6; at n <= m the empirical value does not depend on m, and the "
         "exact and parametric variants evaluate the window ends, so m = 1e5 and 1e6 gave "
         "equal values at quick scale)";
}

EpsilonStarOptions PrimaryOptions(const EstimationConfig& c) {
  EpsilonStarOptions o;
  o.delta = c.delta;
  o.quantiles_per_distribution = c.quantiles_per_distribution;
  o.rate_floor = c.rate_floor;
  o.rate_ceiling = c.rate_ceiling;
  o.clip_lo = c.clip_lo;
  o.clip_hi = c.clip_hi;
  o.transform = ParseLossTransform(c.transform).value_or(LossTransform::kEpsilonStarLogit);
  return o;
}

EpsilonStarOptions CommonWindowOptions(const EstimationConfig& c) {
  EpsilonStarOptions o = PrimaryOptions(c);
  o.rate_floor = o.clip_lo = c.common_lo;
  o.rate_ceiling = o.clip_hi = c.common_hi;
  return o;
}

std::vector<SimAnalysis> PrimaryAndCommonAnalyses(const EstimationConfig& c) {
  return {{"primary", PrimaryOptions(c)}, {"common_window", CommonWindowOptions(c)}};
}

}  // namespace privbench
