// Study B1 epsilon_star_noise_curves: the two ratio terms of Epsilon*
// against the threshold, from exact CDFs and from eCDFs of simulated
// losses. Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning
// Models" (PPAI-24), App. B, Fig. 3; STUDIES.md A6, B1.
//
//   bazel run //experiments:epsilon_star_noise_curves [-- --scale=paper]
//
// Train losses N(train_mean, train_sd^2) = N(0, 1), population losses
// N(population_mean, population_sd^2) = N(3, 1) (the paper's Fig. 3). With
// "member iff loss <= tau", at each threshold tau of the 2m-point quantile
// grid (estimators/loss_samples/curves.h):
//   FPR = P_population(loss <= tau),  FNR = P_train(loss > tau),
//   term1 = (1 - delta - FPR) / FNR,  term2 = (1 - delta - FNR) / FPR,
// (a) from the known CDFs, (b) from the eCDFs of n simulated losses of each
// distribution. Thresholds where FPR or FNR is below rate_floor are dropped
// ("for numerical stability"; the paper's floor was lost: ours 1e-6, the
// library default, equal to the parametric clip default).
//
// Output results/raw/epsilon_star_noise_curves.h5:
//   /exact/{threshold, fpr, fnr, term1, term2}         curve (a)
//   /empirical/{threshold, fpr, fnr, term1, term2}     curve (b), plus the
//     exact rates and terms at the same thresholds (exact_fpr, exact_fnr,
//     exact_term1, exact_term2), for the noise comparison
//   /samples/{train, population}                       the simulated losses
//   /numbers/noise_curves_{exact,empirical}_epsilon_star (log max{1, terms})
//   /summary tables, /claims.
// Claims (App. B on Fig. 3, "most noise and most signal occurs at the very
// ends of the FNR/FPR arrays ... the maximum occurs in the noisiest part"):
//   max_at_ends: on both curves, each term's maximum is at a threshold
//     whose denominator rate (FNR for term1, FPR for term2) is < 0.01;
//   noise_at_ends: the median |ln(empirical term / exact term)| at the
//     same thresholds is larger where the (exact) denominator rate is
//     < 0.01 than where it is in [0.1, 0.9], for both terms.
#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "core/validate.h"
#include "estimators/loss_samples/curves.h"
#include "estimators/loss_samples/exact.h"
#include "experiments/epsilon_star_sim.h"
#include "experiments/framework/study.h"

namespace privbench {
namespace {

constexpr double kEndRate = 0.01;                   // "the ends": denominator rate below
constexpr double kCentreLo = 0.1, kCentreHi = 0.9;  // "the centre": denominator rate within

struct Config {
  double train_mean = 0.0;
  double train_sd = 1.0;
  double population_mean = 3.0;
  double population_sd = 1.0;
  int64_t n = 10000;                           // simulated losses per distribution (lost)
  int64_t quantiles_per_distribution = 10000;  // m (2m thresholds)
  double rate_floor = 1e-6;                    // lost in the paper; ours
  double delta = 0.0;                          // not stated for the simulations
};

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

Status Validate(const Config& c) {
  PB_RETURN_IF_ERROR(CheckFinite("train_mean", c.train_mean));
  PB_RETURN_IF_ERROR(CheckPositive("train_sd", c.train_sd));
  PB_RETURN_IF_ERROR(CheckFinite("population_mean", c.population_mean));
  PB_RETURN_IF_ERROR(CheckPositive("population_sd", c.population_sd));
  if (c.n < 1 || c.n > 100000000) {
    return Error("n must be in [1, 1e8], got " + std::to_string(c.n));
  }
  EpsilonStarCurveOptions o;
  o.delta = c.delta;
  o.quantiles_per_distribution = c.quantiles_per_distribution;
  o.rate_floor = c.rate_floor;
  return ValidateEpsilonStarCurveOptions(o);
}

Status WriteCurve(ResultWriter& out, const std::string& g, const EpsilonStarCurve& curve) {
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/threshold", curve.threshold));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/fpr", curve.fpr));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/fnr", curve.fnr));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/term1", curve.term1));
  return out.WriteDoubles(g + "/term2", curve.term2);
}

struct TermMax {
  double value = 0.0, threshold = NAN, denominator_rate = NAN;
  size_t index = 0;
};
// Largest term (term1 when first, else term2); its denominator rate.
TermMax MaxOf(const EpsilonStarCurve& c, bool first) {
  TermMax m;
  const std::vector<double>& t = first ? c.term1 : c.term2;
  m.value = -INFINITY;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] > m.value) {
      m.value = t[i];
      m.index = i;
    }
  }
  if (!t.empty()) {
    m.threshold = c.threshold[m.index];
    m.denominator_rate = first ? c.fnr[m.index] : c.fpr[m.index];
  }
  return m;
}

double Median(std::vector<double> x) {
  if (x.empty()) return NAN;
  std::sort(x.begin(), x.end());
  const size_t h = x.size() / 2;
  return x.size() % 2 ? x[h] : 0.5 * (x[h - 1] + x[h]);
}

Status Run(const Config& c, StudyContext& ctx) {
  ResultWriter& out = ctx.out();
  PB_ASSIGN_OR_RETURN(KnownLossDistribution train,
                      NormalLossDistribution(c.train_mean, c.train_sd));
  PB_ASSIGN_OR_RETURN(KnownLossDistribution population,
                      NormalLossDistribution(c.population_mean, c.population_sd));
  EpsilonStarCurveOptions o;
  o.delta = c.delta;
  o.quantiles_per_distribution = c.quantiles_per_distribution;
  o.rate_floor = c.rate_floor;

  // Samples: train then population from one stream.
  Rng rng = MakeRng(ctx.seed(), {1});
  std::vector<double> train_losses(static_cast<size_t>(c.n)),
      population_losses(static_cast<size_t>(c.n));
  {
    boost::random::normal_distribution<double> t(c.train_mean, c.train_sd);
    boost::random::normal_distribution<double> p(c.population_mean, c.population_sd);
    for (double& x : train_losses) x = t(rng);
    for (double& x : population_losses) x = p(rng);
  }

  EpsilonStarCurve exact, empirical;
  PB_RETURN_IF_ERROR(ParallelFor(2, ctx.threads(), [&](int64_t j) -> Status {
    if (j == 0) {
      PB_ASSIGN_OR_RETURN(exact, ExactEpsilonStarCurve(train, population, o));
    } else {
      PB_ASSIGN_OR_RETURN(empirical, EmpiricalEpsilonStarCurve(train_losses, population_losses, o));
    }
    return Status::Ok();
  }));
  if (exact.size() == 0 || empirical.size() == 0) {
    return Error("no threshold has both rates >= rate_floor = " + FormatDouble(c.rate_floor) +
                 " (exact curve " + std::to_string(exact.size()) + " points, empirical " +
                 std::to_string(empirical.size()) + ")");
  }

  // Exact rates and terms at the empirical thresholds.
  const size_t K = empirical.size();
  std::vector<double> ex_fpr(K), ex_fnr(K), ex_t1(K), ex_t2(K);
  try {
    for (size_t i = 0; i < K; ++i) {
      const double tau = empirical.threshold[i];
      PB_ASSIGN_OR_RETURN(KnownTails p, EvaluateKnownTails(population, "population", tau));
      PB_ASSIGN_OR_RETURN(KnownTails t, EvaluateKnownTails(train, "train", tau));
      ex_fpr[i] = p.cdf;
      ex_fnr[i] = t.sf;
      ex_t1[i] = (p.sf - c.delta) / t.sf;  // +inf if the exact FNR underflows
      ex_t2[i] = (t.cdf - c.delta) / p.cdf;
    }
  } catch (const std::exception& e) {
    return Error(std::string("exact rates at the empirical thresholds failed: ") + e.what());
  }

  PB_RETURN_IF_ERROR(WriteCurve(out, "/exact", exact));
  PB_RETURN_IF_ERROR(WriteCurve(out, "/empirical", empirical));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_fpr", ex_fpr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_fnr", ex_fnr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_term1", ex_t1));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_term2", ex_t2));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/samples/train", train_losses));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/samples/population", population_losses));
  const std::string train_text =
      "N(" + FormatDouble(c.train_mean) + ", " + FormatDouble(c.train_sd) + "^2)";
  const std::string pop_text =
      "N(" + FormatDouble(c.population_mean) + ", " + FormatDouble(c.population_sd) + "^2)";
  PB_RETURN_IF_ERROR(out.SetAttribute("/samples", "train", train_text));
  PB_RETURN_IF_ERROR(out.SetAttribute("/samples", "population", pop_text));
  PB_RETURN_IF_ERROR(out.SetAttribute("/empirical", "n", c.n));
  PB_RETURN_IF_ERROR(
      out.SetAttribute("/exact", "quantiles_per_distribution", c.quantiles_per_distribution));
  PB_RETURN_IF_ERROR(out.SetAttribute("/exact", "rate_floor", c.rate_floor));
  PB_RETURN_IF_ERROR(out.SetAttribute("/exact", "delta", c.delta));

  // Maxima per curve and term.
  const EpsilonStarCurve* curves[2] = {&exact, &empirical};
  const char* curve_names[2] = {"exact", "empirical"};
  std::vector<std::string> col_curve, col_term;
  std::vector<int64_t> col_points;
  std::vector<double> col_max, col_tau, col_rate, col_lo, col_hi;
  bool max_at_ends = true;
  std::string ev_max =
      "criterion: each term's maximum lies at a threshold whose denominator "
      "rate (FNR for term1, FPR for term2) is < " +
      Fmt(kEndRate) + "; ";
  for (int k = 0; k < 2; ++k) {
    const EpsilonStarCurve& cv = *curves[k];
    double best = 1.0;
    for (bool first : {true, false}) {
      const TermMax m = MaxOf(cv, first);
      best = std::max(best, m.value);
      const bool at_end = m.denominator_rate < kEndRate;
      max_at_ends = max_at_ends && at_end;
      ev_max += std::string(k || !first ? "; " : "") + curve_names[k] +
                (first ? " term1" : " term2") + " max " + Fmt(m.value) + " at tau " +
                Fmt(m.threshold) + " (" + (first ? "FNR " : "FPR ") + Fmt(m.denominator_rate) +
                (at_end ? ")" : ", NOT at an end)");
      col_curve.push_back(curve_names[k]);
      col_term.push_back(first ? "term1 = (1-delta-FPR)/FNR" : "term2 = (1-delta-FNR)/FPR");
      col_points.push_back(static_cast<int64_t>(cv.size()));
      col_max.push_back(m.value);
      col_tau.push_back(m.threshold);
      col_rate.push_back(m.denominator_rate);
      col_lo.push_back(cv.threshold.front());
      col_hi.push_back(cv.threshold.back());
    }
    PB_RETURN_IF_ERROR(out.WriteScalar(
        std::string("/numbers/noise_curves_") + curve_names[k] + "_epsilon_star", std::log(best)));
    PB_RETURN_IF_ERROR(
        out.WriteScalar(std::string("/numbers/noise_curves_") + curve_names[k] + "_points",
                        static_cast<double>(cv.size())));
  }
  PB_RETURN_IF_ERROR(out.WriteTable(
      {"noise_curves_maxima",
       "Largest ratio terms of Epsilon* on each curve (Fig. 3)",
       "Train " + train_text + ", population " + pop_text +
           "; exact: known CDFs at the 2m = " + std::to_string(2 * c.quantiles_per_distribution) +
           " quantile thresholds; empirical: eCDFs of n = " + std::to_string(c.n) +
           " simulated losses per distribution. Thresholds with FPR or FNR < rate_floor = " +
           FormatDouble(c.rate_floor) +
           " dropped (the paper's floor was lost; ours). "
           "denominator_rate = FNR for term1, FPR for term2, at the maximum. Epsilon* = "
           "log max{1, max term1, max term2} over the kept points; for separated Normals it "
           "is set by the floor (the terms grow without bound in the tails).",
       {Column::Strings("curve", col_curve), Column::Strings("term", col_term),
        Column::Ints("points", col_points), Column::Doubles("max_term", col_max),
        Column::Doubles("threshold_at_max", col_tau),
        Column::Doubles("denominator_rate_at_max", col_rate),
        Column::Doubles("lowest_threshold", col_lo),
        Column::Doubles("highest_threshold", col_hi)}}));

  // Noise: |ln(empirical / exact)| at the empirical thresholds, by region
  // of the exact denominator rate.
  std::vector<std::string> ncol_term, ncol_region;
  std::vector<int64_t> ncol_points;
  std::vector<double> ncol_median, ncol_p90;
  bool noise_at_ends = true;
  std::string ev_noise =
      "criterion: median |ln(empirical term / exact term)| at the empirical "
      "thresholds (terms > 0 and finite) is larger where the exact "
      "denominator rate is < " +
      Fmt(kEndRate) + " than where it is in [" + Fmt(kCentreLo) + ", " + Fmt(kCentreHi) +
      "], for both terms; n = " + std::to_string(c.n) + "; ";
  for (bool first : {true, false}) {
    std::vector<double> end, centre;
    for (size_t i = 0; i < K; ++i) {
      const double e = first ? empirical.term1[i] : empirical.term2[i];
      const double x = first ? ex_t1[i] : ex_t2[i];
      const double rate = first ? ex_fnr[i] : ex_fpr[i];
      if (!(e > 0.0 && x > 0.0 && std::isfinite(e) && std::isfinite(x))) continue;
      const double err = std::abs(std::log(e / x));
      if (rate < kEndRate) end.push_back(err);
      if (rate >= kCentreLo && rate <= kCentreHi) centre.push_back(err);
    }
    const double me = Median(end), mc = Median(centre);
    const bool ok = !end.empty() && !centre.empty() && me > mc;
    noise_at_ends = noise_at_ends && ok;
    const std::string tn = first ? "term1" : "term2";
    ev_noise += std::string(first ? "" : "; ") + tn + ": ends " + Fmt(me) + " (" +
                std::to_string(end.size()) + " points) vs centre " + Fmt(mc) + " (" +
                std::to_string(centre.size()) + " points)" + (ok ? "" : " NOT larger at the ends");
    for (int r = 0; r < 2; ++r) {
      std::vector<double> v = r == 0 ? end : centre;
      ncol_term.push_back(tn);
      ncol_region.push_back(r == 0 ? "ends: denominator rate < " + Fmt(kEndRate)
                                   : "centre: denominator rate in [" + Fmt(kCentreLo) + ", " +
                                         Fmt(kCentreHi) + "]");
      ncol_points.push_back(static_cast<int64_t>(v.size()));
      ncol_median.push_back(Median(v));
      std::sort(v.begin(), v.end());
      ncol_p90.push_back(
          v.empty() ? NAN : v[static_cast<size_t>(0.9 * static_cast<double>(v.size() - 1))]);
    }
    PB_RETURN_IF_ERROR(
        out.WriteScalar("/numbers/noise_curves_" + tn + "_median_log_error_ends", me));
    PB_RETURN_IF_ERROR(
        out.WriteScalar("/numbers/noise_curves_" + tn + "_median_log_error_centre", mc));
  }
  PB_RETURN_IF_ERROR(out.WriteTable(
      {"noise_curves_noise",
       "Noise of the empirical ratio terms, ends vs centre (Fig. 3b)",
       "|ln(empirical term / exact term)| at the thresholds of the empirical curve (n = " +
           std::to_string(c.n) +
           " losses per distribution), grouped by the exact denominator "
           "rate (FNR for term1, FPR for term2); points with a term <= 0 are left out.",
       {Column::Strings("term", ncol_term), Column::Strings("region", ncol_region),
        Column::Ints("points", ncol_points), Column::Doubles("median_abs_log_error", ncol_median),
        Column::Doubles("p90_abs_log_error", ncol_p90)}}));

  PB_RETURN_IF_ERROR(out.WriteClaim(
      {"epsilon_star_noise_curves_max_at_ends",
       "Most signal occurs at the very ends of the FNR/FPR arrays: the maximum of the ratio "
       "terms (which sets Epsilon*) is at the ends of the curves",
       "Epsilon* paper App. B, Fig. 3", max_at_ends, ev_max}));
  PB_RETURN_IF_ERROR(out.WriteClaim(
      {"epsilon_star_noise_curves_noise_at_ends",
       "Most noise occurs at the very ends of the FNR/FPR arrays, so the maximum occurs in the "
       "noisiest part of the curves",
       "Epsilon* paper App. B, Fig. 3", noise_at_ends, ev_noise}));

  return out.SetAttribute(
      "/meta", "lost_parameters",
      "rate floor below which FNR/FPR are removed (lost): " + FormatDouble(c.rate_floor) +
          " (library default, = the parametric clip default); simulated sample size (not "
          "stated): n = " +
          std::to_string(c.n) + " per distribution at scale " + ScaleName(ctx.scale()) +
          " (paper scale: 1e6); thresholds: m = " + std::to_string(c.quantiles_per_distribution) +
          " quantiles per distribution (App. B.1 uses 1e6 for Figs. 4-5; Fig. 3's is not "
          "stated); delta (not stated): " +
          FormatDouble(c.delta) +
          "; distributions as "
          "published: train " +
          train_text + ", population " + pop_text);
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  Study<Config> study;
  study.info = {"epsilon_star_noise_curves",
                "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
                "App. B, Fig. 3; STUDIES.md B1",
                "The two ratio terms of Epsilon* against the threshold, from exact CDFs and "
                "from eCDFs of simulated N(0,1) / N(3,1) losses"};
  study.defaults = Defaults;
  study.register_flags = [](FlagSet& flags, Config& c) {
    flags.AddDouble("train_mean", &c.train_mean, "mean of the train losses (paper: 0)");
    flags.AddDouble("train_sd", &c.train_sd, "sd of the train losses (paper: 1)");
    flags.AddDouble("population_mean", &c.population_mean,
                    "mean of the population losses (paper: 3)");
    flags.AddDouble("population_sd", &c.population_sd, "sd of the population losses (paper: 1)");
    flags.AddInt("n", &c.n, "simulated losses per distribution for the eCDF curve (lost)");
    flags.AddInt("quantiles_per_distribution", &c.quantiles_per_distribution,
                 "m quantile levels per distribution, 2m thresholds");
    flags.AddDouble("rate_floor", &c.rate_floor,
                    "drop thresholds with FPR or FNR below it (paper: lost; ours 1e-6)");
    flags.AddDouble("delta", &c.delta, "delta of Epsilon* (not stated; ours 0)");
  };
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
