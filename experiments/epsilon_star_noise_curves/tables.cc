// Study epsilon_star_noise_curves: its summary tables (/summary/*): the
// largest ratio terms of each curve and the noise of the empirical terms,
// ends vs centre (Fig. 3), and the curve and term lookups the claims and
// numbers share.
#include <vector>

#include "core/format.h"
#include "core/stats.h"
#include "experiments/epsilon_star_noise_curves/report.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_noise_curves {

const EpsilonStarCurve& CurveOf(const NoiseCurves& r, int k) {
  return k == 0 ? r.exact : r.empirical;
}

std::string TermName(bool first) { return first ? "term1" : "term2"; }

namespace {

std::string RegionText(int region) {
  return region == 0 ? "ends: denominator rate < " + FormatSignificant(kEndRate)
                     : "centre: denominator rate in [" + FormatSignificant(kCentreLo) + ", " +
                           FormatSignificant(kCentreHi) + "]";
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

}  // namespace privbench::epsilon_star_noise_curves
