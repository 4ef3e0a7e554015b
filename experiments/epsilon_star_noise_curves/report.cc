// Study epsilon_star_noise_curves: WriteReport wires the curves, samples and
// numbers, the tables (tables.cc) and the claims (claims.cc) into the result
// file (layout: report.h).
#include "experiments/epsilon_star_noise_curves/report.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "core/stats.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_noise_curves {
namespace {

Status WriteCurve(ResultWriter& out, const std::string& g, const EpsilonStarCurve& curve) {
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/threshold", curve.threshold));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/fpr", curve.fpr));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/fnr", curve.fnr));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/term1", curve.term1));
  return out.WriteDoubles(g + "/term2", curve.term2);
}

// The curves, the samples and their attributes.
Status WriteData(const Config& c, const NoiseCurves& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteCurve(out, "/exact", r.exact));
  PB_RETURN_IF_ERROR(WriteCurve(out, "/empirical", r.empirical));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_fpr", r.exact_fpr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_fnr", r.exact_fnr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_term1", r.exact_term1));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_term2", r.exact_term2));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/samples/train", r.train_losses));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/samples/population", r.population_losses));
  PB_RETURN_IF_ERROR(SetAttributes(
      out, "/samples",
      {{"train", NormalLossText(c.train)}, {"population", NormalLossText(c.population)}}));
  PB_RETURN_IF_ERROR(out.SetAttribute("/empirical", "n", c.n));
  return SetAttributes(out, "/exact",
                       {{"quantiles_per_distribution", c.quantiles_per_distribution},
                        {"rate_floor", c.rate_floor},
                        {"delta", c.delta}});
}

// Epsilon* and point count of each curve; median log errors of each term.
Status WriteNumbers(const NoiseCurves& r, ResultWriter& out) {
  for (int k = 0; k < 2; ++k) {
    const EpsilonStarCurve& cv = CurveOf(r, k);
    const double best = std::max({1.0, MaxOf(cv, true).value, MaxOf(cv, false).value});
    const std::string p = std::string("/numbers/noise_curves_") + kCurveNames[k];
    PB_RETURN_IF_ERROR(out.WriteScalar(p + "_epsilon_star", std::log(best)));
    PB_RETURN_IF_ERROR(out.WriteScalar(p + "_points", static_cast<double>(cv.size())));
  }
  for (bool first : {true, false}) {
    const LogErrorsByRegion e = LogErrors(r, first);
    const std::string p = "/numbers/noise_curves_" + TermName(first);
    PB_RETURN_IF_ERROR(out.WriteScalar(p + "_median_log_error_ends", Median(e.ends)));
    PB_RETURN_IF_ERROR(out.WriteScalar(p + "_median_log_error_centre", Median(e.centre)));
  }
  return Status::Ok();
}

}  // namespace

std::string NoiseCurvesLostParameters(const Config& c, Scale scale) {
  return "rate floor below which FNR/FPR are removed (lost): " + FormatDouble(c.rate_floor) +
         " (library default, = the parametric clip default); simulated sample size (not "
         "stated): n = " +
         std::to_string(c.n) + " per distribution at scale " + ScaleName(scale) +
         " (paper scale: 1e6); thresholds: m = " + std::to_string(c.quantiles_per_distribution) +
         " quantiles per distribution (App. B.1 uses 1e6 for Figs. 4-5; Fig. 3's is not "
         "stated); delta (not stated): " +
         FormatDouble(c.delta) + "; distributions as published: train " + NormalLossText(c.train) +
         ", population " + NormalLossText(c.population);
}

Status WriteReport(const Config& c, const Results& results, ResultWriter& out) {
  const NoiseCurves& r = results.sim;
  PB_RETURN_IF_ERROR(WriteData(c, r, out));
  PB_RETURN_IF_ERROR(WriteNumbers(r, out));
  PB_ASSIGN_OR_RETURN(const SummaryTable maxima, MaximaTable(c, r));
  PB_RETURN_IF_ERROR(out.WriteTable(maxima));
  PB_ASSIGN_OR_RETURN(const SummaryTable noise, NoiseTable(c, r));
  PB_RETURN_IF_ERROR(out.WriteTable(noise));
  PB_RETURN_IF_ERROR(out.WriteClaim(MaxAtEndsClaim(r)));
  PB_RETURN_IF_ERROR(out.WriteClaim(NoiseAtEndsClaim(c, r)));
  return out.SetAttribute("/meta", "lost_parameters", NoiseCurvesLostParameters(c, results.scale));
}

}  // namespace privbench::epsilon_star_noise_curves
