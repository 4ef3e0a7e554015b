// Study bayes_width_grid: its summary tables (/summary/*): the Bayesian width
// reduction ranges per box and the widths per two-sided method over the grid
// (Bayesian paper Fig. 5), and the grid and point texts the claims and /meta
// share.
#include <algorithm>

#include "core/format.h"
#include "core/stats.h"
#include "experiments/bayes_width_grid/report.h"
#include "results/table_builder.h"

namespace privbench::bayes_width_grid {
namespace {

// Numbers in table cells, captions and /meta (4 decimals); claim evidence
// uses Evidence instead.
std::string Fmt(double x) { return FormatRounded(x, 4); }

// The reduction_ranges cell of a box: "yes", "no points", or "no: 3 points,
// e.g. (FPR .., FNR ..): Bayesian .., CP .., Jeffreys .." at its first
// violation.
std::string NarrowestCell(const WidthGrid& w, const BoxSummary& s) {
  if (s.points == 0) return "no points";
  if (s.violations == 0) return "yes";
  const int64_t p = s.first_violation;
  return "no: " + std::to_string(s.violations) + " points, e.g. " + PointText(w, p) +
         ": Bayesian " + Fmt(w.width[w.paper.bayesian][p]) + ", CP " +
         Fmt(w.width[w.paper.clopper_pearson][p]) + ", Jeffreys " +
         Fmt(w.width[w.paper.jeffreys][p]);
}

}  // namespace

std::string GridText(const Config& c, size_t evaluated_points) {
  return "n = " + std::to_string(c.n) + " (" + std::to_string(c.n / 2) + " + " +
         std::to_string(c.n / 2) + "), alpha = " + Fmt(c.alpha) +
         ", delta = " + FormatDouble(c.delta) + "; FPR " + Fmt(c.fpr_min) + ".." + Fmt(c.fpr_max) +
         " (" + std::to_string(c.fpr_points) + " points), FNR " + Fmt(c.fnr_min) + ".." +
         Fmt(c.fnr_max) + " (" + std::to_string(c.fnr_points) + " points)" +
         (c.below_chance_only ? ", only FPR + FNR < 1" : "") + "; " +
         std::to_string(evaluated_points) + " grid points evaluated";
}

std::string PointText(const WidthGrid& w, int64_t p) {
  return "(FPR " + Fmt(w.fpr_at(p)) + ", FNR " + Fmt(w.fnr_at(p)) + ")";
}

Result<SummaryTable> ReductionRangesTable(const Config& c, const WidthGrid& w,
                                          const std::vector<Box>& boxes,
                                          const std::vector<BoxSummary>& summaries) {
  const FiniteRange ratio = RangeOfFinite(w.jeffreys_over_cp);
  TableBuilder t(
      "reduction_ranges",
      "Bayesian width reduction vs Jeffreys and Clopper-Pearson (Bayesian paper Fig. 5)",
      GridText(c, w.grid.points.size()) +
          ". Reduction = 100 (1 - W_bayesian / W_ref) in percent, W = upper - lower "
          "of the 90% intervals; range over the grid points inside each box (row 'all' "
          "= the whole grid; the published 20-32% vs Jeffreys and 36-52% vs CP are "
          "'for the FPR and FNR ranges in Figure 5', which the paper's text lost). "
          "Jeffreys / CP width ratio over the grid: " +
          Fmt(ratio.min) + " to " + Fmt(ratio.max) +
          ". vs_cp_95_*: the convention test, CP at confidence 1 - alpha/2 (95%) against "
          "the Bayesian interval at 1 - alpha. Points where a reduction is not finite (an "
          "infinite width): vs CP " +
          std::to_string(w.undefined_cp) + ", vs Jeffreys " + std::to_string(w.undefined_jf) + ".",
      {{"subgrid", Column::Type::kString},
       {"fpr_range", Column::Type::kString},
       {"fnr_range", Column::Type::kString},
       {"points", Column::Type::kInt},
       {"vs_jeffreys_min_pct", Column::Type::kDouble},
       {"vs_jeffreys_max_pct", Column::Type::kDouble},
       {"vs_cp_min_pct", Column::Type::kDouble},
       {"vs_cp_max_pct", Column::Type::kDouble},
       {"vs_cp_95_min_pct", Column::Type::kDouble},
       {"vs_cp_95_max_pct", Column::Type::kDouble},
       {"bayesian_narrowest_everywhere", Column::Type::kString}});
  for (size_t b = 0; b < boxes.size(); ++b) {
    const Box& box = boxes[b];
    const BoxSummary& s = summaries[b];
    t.Row({box.name, "[" + Fmt(box.fpr_lo) + ", " + Fmt(box.fpr_hi) + "]",
           "[" + Fmt(box.fnr_lo) + ", " + Fmt(box.fnr_hi) + "]", s.points, s.vs_jeffreys.min,
           s.vs_jeffreys.max, s.vs_cp.min, s.vs_cp.max, s.vs_cp_half_alpha.min,
           s.vs_cp_half_alpha.max, NarrowestCell(w, s)});
  }
  return t.Build();
}

Result<SummaryTable> WidthsTable(const Config& c, const WidthGrid& w) {
  TableBuilder t("widths",
                 "Interval width over the grid per two-sided method (Bayesian paper Fig. 5)",
                 GridText(c, w.grid.points.size()) +
                     ". Width = upper - lower in eps units (nats); one-sided methods have no "
                     "width. 'points narrower than bayesian' counts grid points where the method "
                     "is strictly narrower than the Bayesian interval.",
                 {{"method", Column::Type::kString},
                  {"min_width", Column::Type::kDouble},
                  {"median_width", Column::Type::kDouble},
                  {"max_width", Column::Type::kDouble},
                  {"points_narrower_than_bayesian", Column::Type::kInt}});
  const std::vector<double>& w_by = w.width[w.paper.bayesian];
  for (size_t m = 0; m < w.methods.size(); ++m) {
    if (w.methods[m].one_sided) continue;
    std::vector<double> widths;
    int64_t narrower = 0;
    for (int64_t p : w.grid.points) {
      widths.push_back(w.width[m][p]);
      narrower += w.width[m][p] < w_by[p];
    }
    std::sort(widths.begin(), widths.end());
    t.Row({w.methods[m].label, widths.front(), Median(widths), widths.back(), narrower});
  }
  return t.Build();
}

}  // namespace privbench::bayes_width_grid
