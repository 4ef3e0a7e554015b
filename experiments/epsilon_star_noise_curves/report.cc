#include "experiments/epsilon_star_noise_curves/report.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/format.h"
#include "core/stats.h"

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
Status WriteData(const NoiseCurvesConfig& c, const NoiseCurves& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteCurve(out, "/exact", r.exact));
  PB_RETURN_IF_ERROR(WriteCurve(out, "/empirical", r.empirical));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_fpr", r.exact_fpr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_fnr", r.exact_fnr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_term1", r.exact_term1));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/empirical/exact_term2", r.exact_term2));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/samples/train", r.train_losses));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/samples/population", r.population_losses));
  PB_RETURN_IF_ERROR(out.SetAttribute("/samples", "train", NormalLossText(c.train)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/samples", "population", NormalLossText(c.population)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/empirical", "n", c.n));
  PB_RETURN_IF_ERROR(
      out.SetAttribute("/exact", "quantiles_per_distribution", c.quantiles_per_distribution));
  PB_RETURN_IF_ERROR(out.SetAttribute("/exact", "rate_floor", c.rate_floor));
  return out.SetAttribute("/exact", "delta", c.delta);
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

SummaryTable MaximaTable(const NoiseCurvesConfig& c, const NoiseCurves& r) {
  std::vector<std::string> col_curve, col_term;
  std::vector<int64_t> col_points;
  std::vector<double> col_max, col_tau, col_rate, col_lo, col_hi;
  for (int k = 0; k < 2; ++k) {
    const EpsilonStarCurve& cv = CurveOf(r, k);
    for (bool first : {true, false}) {
      const TermMax m = MaxOf(cv, first);
      col_curve.push_back(kCurveNames[k]);
      col_term.push_back(first ? "term1 = (1-delta-FPR)/FNR" : "term2 = (1-delta-FNR)/FPR");
      col_points.push_back(static_cast<int64_t>(cv.size()));
      col_max.push_back(m.value);
      col_tau.push_back(m.threshold);
      col_rate.push_back(m.denominator_rate);
      col_lo.push_back(cv.threshold.front());
      col_hi.push_back(cv.threshold.back());
    }
  }
  return {
      "noise_curves_maxima",
      "Largest ratio terms of Epsilon* on each curve (Fig. 3)",
      "Train " + NormalLossText(c.train) + ", population " + NormalLossText(c.population) +
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
       Column::Doubles("lowest_threshold", col_lo), Column::Doubles("highest_threshold", col_hi)}};
}

SummaryTable NoiseTable(const NoiseCurvesConfig& c, const NoiseCurves& r) {
  std::vector<std::string> col_term, col_region;
  std::vector<int64_t> col_points;
  std::vector<double> col_median, col_p90;
  for (bool first : {true, false}) {
    const LogErrorsByRegion e = LogErrors(r, first);
    for (int region = 0; region < 2; ++region) {
      const std::vector<double>& v = region == 0 ? e.ends : e.centre;
      col_term.push_back(TermName(first));
      col_region.push_back(RegionText(region));
      col_points.push_back(static_cast<int64_t>(v.size()));
      col_median.push_back(Median(v));
      col_p90.push_back(LowerP90(v));
    }
  }
  return {"noise_curves_noise",
          "Noise of the empirical ratio terms, ends vs centre (Fig. 3b)",
          "|ln(empirical term / exact term)| at the thresholds of the empirical curve (n = " +
              std::to_string(c.n) +
              " losses per distribution), grouped by the exact denominator "
              "rate (FNR for term1, FPR for term2); points with a term <= 0 are left out.",
          {Column::Strings("term", col_term), Column::Strings("region", col_region),
           Column::Ints("points", col_points), Column::Doubles("median_abs_log_error", col_median),
           Column::Doubles("p90_abs_log_error", col_p90)}};
}

Claim MaxAtEndsClaim(const NoiseCurves& r) {
  bool holds = true;
  std::string ev =
      "criterion: each term's maximum lies at a threshold whose denominator "
      "rate (FNR for term1, FPR for term2) is < " +
      FormatSignificant(kEndRate) + "; ";
  for (int k = 0; k < 2; ++k) {
    for (bool first : {true, false}) {
      const TermMax m = MaxOf(CurveOf(r, k), first);
      const bool at_end = m.denominator_rate < kEndRate;
      holds = holds && at_end;
      ev += std::string(k || !first ? "; " : "") + kCurveNames[k] + " " + TermName(first) +
            " max " + FormatSignificant(m.value) + " at tau " + FormatSignificant(m.threshold) +
            " (" + (first ? "FNR " : "FPR ") + FormatSignificant(m.denominator_rate) +
            (at_end ? ")" : ", NOT at an end)");
    }
  }
  return {"epsilon_star_noise_curves_max_at_ends",
          "Most signal occurs at the very ends of the FNR/FPR arrays: the maximum of the ratio "
          "terms (which sets Epsilon*) is at the ends of the curves",
          "Epsilon* paper App. B, Fig. 3", holds, ev};
}

Claim NoiseAtEndsClaim(const NoiseCurvesConfig& c, const NoiseCurves& r) {
  bool holds = true;
  std::string ev =
      "criterion: median |ln(empirical term / exact term)| at the empirical "
      "thresholds (terms > 0 and finite) is larger where the exact "
      "denominator rate is < " +
      FormatSignificant(kEndRate) + " than where it is in [" + FormatSignificant(kCentreLo) + ", " +
      FormatSignificant(kCentreHi) + "], for both terms; n = " + std::to_string(c.n) + "; ";
  for (bool first : {true, false}) {
    const LogErrorsByRegion e = LogErrors(r, first);
    const double me = Median(e.ends), mc = Median(e.centre);
    const bool ok = !e.ends.empty() && !e.centre.empty() && me > mc;
    holds = holds && ok;
    ev += std::string(first ? "" : "; ") + TermName(first) + ": ends " + FormatSignificant(me) +
          " (" + std::to_string(e.ends.size()) + " points) vs centre " + FormatSignificant(mc) +
          " (" + std::to_string(e.centre.size()) + " points)" +
          (ok ? "" : " NOT larger at the ends");
  }
  return {"epsilon_star_noise_curves_noise_at_ends",
          "Most noise occurs at the very ends of the FNR/FPR arrays, so the maximum occurs in the "
          "noisiest part of the curves",
          "Epsilon* paper App. B, Fig. 3", holds, ev};
}

std::string NoiseCurvesLostParameters(const NoiseCurvesConfig& c, Scale scale) {
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

Status WriteNoiseCurvesResults(const NoiseCurvesConfig& c, const NoiseCurves& r, Scale scale,
                               ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteData(c, r, out));
  PB_RETURN_IF_ERROR(WriteNumbers(r, out));
  PB_RETURN_IF_ERROR(out.WriteTable(MaximaTable(c, r)));
  PB_RETURN_IF_ERROR(out.WriteTable(NoiseTable(c, r)));
  PB_RETURN_IF_ERROR(out.WriteClaim(MaxAtEndsClaim(r)));
  PB_RETURN_IF_ERROR(out.WriteClaim(NoiseAtEndsClaim(c, r)));
  return out.SetAttribute("/meta", "lost_parameters", NoiseCurvesLostParameters(c, scale));
}

}  // namespace privbench::epsilon_star_noise_curves
