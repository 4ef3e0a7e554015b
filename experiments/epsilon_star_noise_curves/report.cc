#include "experiments/epsilon_star_noise_curves/report.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/format.h"
#include "core/stats.h"
#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_noise_curves {
namespace {

const char* const kCurveNames[2] = {"exact", "empirical"};

const EpsilonStarCurve& CurveOf(const NoiseCurves& r, int k) {
  return k == 0 ? r.exact : r.empirical;
}

std::string TermName(bool first) { return first ? "term1" : "term2"; }

std::string RegionText(int region) {
  return region == 0 ? "ends: denominator rate < " + FormatSignificant(kEndRate)
                     : "centre: denominator rate in [" + FormatSignificant(kCentreLo) + ", " +
                           FormatSignificant(kCentreHi) + "]";
}

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

std::string MaximaCaption(const Config& c) {
  return "Train " + NormalLossText(c.train) + ", population " + NormalLossText(c.population) +
         "; exact: known CDFs at the 2m = " + std::to_string(2 * c.quantiles_per_distribution) +
         " quantile thresholds; empirical: eCDFs of n = " + std::to_string(c.n) +
         " simulated losses per distribution. Thresholds with FPR or FNR < rate_floor = " +
         FormatDouble(c.rate_floor) +
         " dropped (the paper's floor was lost; ours). "
         "denominator_rate = FNR for term1, FPR for term2, at the maximum. Epsilon* = "
         "log max{1, max term1, max term2} over the kept points; for separated Normals it "
         "is set by the floor (the terms grow without bound in the tails).";
}

}  // namespace

Result<SummaryTable> MaximaTable(const Config& c, const NoiseCurves& r) {
  TableBuilder t("noise_curves_maxima", "Largest ratio terms of Epsilon* on each curve (Fig. 3)",
                 MaximaCaption(c),
                 {{"curve", Column::Type::kString},
                  {"term", Column::Type::kString},
                  {"points", Column::Type::kInt},
                  {"max_term", Column::Type::kDouble},
                  {"threshold_at_max", Column::Type::kDouble},
                  {"denominator_rate_at_max", Column::Type::kDouble},
                  {"lowest_threshold", Column::Type::kDouble},
                  {"highest_threshold", Column::Type::kDouble}});
  for (int k = 0; k < 2; ++k) {
    const EpsilonStarCurve& cv = CurveOf(r, k);
    for (bool first : {true, false}) {
      const TermMax m = MaxOf(cv, first);
      t.Row({kCurveNames[k], first ? "term1 = (1-delta-FPR)/FNR" : "term2 = (1-delta-FNR)/FPR",
             cv.size(), m.value, m.threshold, m.denominator_rate, cv.threshold.front(),
             cv.threshold.back()});
    }
  }
  return t.Build();
}

Result<SummaryTable> NoiseTable(const Config& c, const NoiseCurves& r) {
  TableBuilder t(
      "noise_curves_noise", "Noise of the empirical ratio terms, ends vs centre (Fig. 3b)",
      "|ln(empirical term / exact term)| at the thresholds of the empirical curve (n = " +
          std::to_string(c.n) +
          " losses per distribution), grouped by the exact denominator "
          "rate (FNR for term1, FPR for term2); points with a term <= 0 are left out.",
      {{"term", Column::Type::kString},
       {"region", Column::Type::kString},
       {"points", Column::Type::kInt},
       {"median_abs_log_error", Column::Type::kDouble},
       {"p90_abs_log_error", Column::Type::kDouble}});
  for (bool first : {true, false}) {
    const LogErrorsByRegion e = LogErrors(r, first);
    for (int region = 0; region < 2; ++region) {
      const std::vector<double>& v = region == 0 ? e.ends : e.centre;
      t.Row({TermName(first), RegionText(region), v.size(), Median(v), LowerP90(v)});
    }
  }
  return t.Build();
}

Claim MaxAtEndsClaim(const NoiseCurves& r) {
  bool holds = true;
  Evidence ev;
  ev << "ends: FNR (term1) or FPR (term2) < " << kEndRate;
  for (int k = 0; k < 2; ++k) {
    for (bool first : {true, false}) {
      const TermMax m = MaxOf(CurveOf(r, k), first);
      const bool at_end = m.denominator_rate < kEndRate;
      holds = holds && at_end;
      ev << "; " << kCurveNames[k] << " " << TermName(first) << " max " << m.value << " at tau "
         << m.threshold << " (" << (first ? "FNR " : "FPR ") << m.denominator_rate
         << (at_end ? ")" : ", NOT at an end)");
    }
  }
  return ClaimEvidence("epsilon_star_noise_curves_max_at_ends", holds, ev);
}

Claim NoiseAtEndsClaim(const Config& c, const NoiseCurves& r) {
  bool holds = true;
  Evidence ev;
  ev << "n = " << c.n << "; median |ln(empirical term / exact term)| at the ends (exact "
     << "denominator rate < " << kEndRate << ") vs the centre (in [" << kCentreLo << ", "
     << kCentreHi << "])";
  for (bool first : {true, false}) {
    const LogErrorsByRegion e = LogErrors(r, first);
    const double me = Median(e.ends), mc = Median(e.centre);
    const bool ok = !e.ends.empty() && !e.centre.empty() && me > mc;
    holds = holds && ok;
    ev << "; " << TermName(first) << ": ends " << me << " (" << e.ends.size()
       << " points) vs centre " << mc << " (" << e.centre.size() << " points)"
       << (ok ? "" : " NOT larger at the ends");
  }
  return ClaimEvidence("epsilon_star_noise_curves_noise_at_ends", holds, ev);
}

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
