#include "experiments/bayes_width_grid/report.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "core/stats.h"
#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench::bayes_width_grid {
namespace {

// Numbers in table cells, captions and /meta (4 decimals); claim evidence
// uses Evidence instead.
std::string Fmt(double x) { return FormatRounded(x, 4); }
// A percentage for evidence; non-finite values without the sign.
std::string Pct(double x) { return (Evidence() << x).str() + (std::isfinite(x) ? "%" : ""); }

std::vector<uint64_t> Shape(const WidthGrid& w) { return {w.grid.fpr.size(), w.grid.fnr.size()}; }

Status WriteRawData(const WidthGrid& w, ResultWriter& out) {
  const std::vector<uint64_t> shape = Shape(w);
  PB_RETURN_IF_ERROR(out.WriteDoubles("/fpr", w.grid.fpr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/fnr", w.grid.fnr));
  PB_RETURN_IF_ERROR(out.WriteInts("/counts/fp", w.fp_axis));
  PB_RETURN_IF_ERROR(out.WriteInts("/counts/fn", w.fn_axis));
  std::vector<int64_t> valid(w.grid.valid.begin(), w.grid.valid.end());
  PB_RETURN_IF_ERROR(out.WriteInts("/valid", valid, shape));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/true_eps", w.true_eps, shape));
  std::vector<std::string> names;
  for (const WidthMethod& m : w.methods) names.push_back(m.name);
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods", names));
  for (size_t m = 0; m < w.methods.size(); ++m) {
    const std::string grp = "/intervals/" + w.methods[m].name;
    PB_RETURN_IF_ERROR(out.WriteDoubles(grp + "/eps_lo", w.lower[m], shape));
    PB_RETURN_IF_ERROR(out.WriteDoubles(grp + "/eps_hi", w.upper[m], shape));
    PB_RETURN_IF_ERROR(out.WriteDoubles(grp + "/width", w.width[m], shape));
    PB_RETURN_IF_ERROR(SetAttributes(out, grp,
                                     {{"label", w.methods[m].label},
                                      {"delta", w.methods[m].delta},
                                      {"one_sided", int64_t{w.methods[m].one_sided}}}));
  }
  return Status::Ok();
}

Status WriteReductions(const WidthGrid& w, ResultWriter& out) {
  const FiniteRange ratio = RangeOfFinite(w.jeffreys_over_cp);
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/jeffreys_to_cp_width_ratio_min", ratio.min));
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/jeffreys_to_cp_width_ratio_max", ratio.max));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/reduction/vs_clopper_pearson", w.reduction_cp, Shape(w)));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/reduction/vs_jeffreys", w.reduction_jf, Shape(w)));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/reduction/vs_clopper_pearson_half_alpha",
                                      w.reduction_cp_half_alpha, Shape(w)));
  return SetAttributes(out, "/reduction",
                       {{"units", "percent: 100 (1 - W_bayesian / W_reference)"}});
}

// /numbers/[subgrid<b>_]reduction_vs_... and /subgrids/...
Status WriteBoxes(const std::vector<Box>& boxes, const std::vector<BoxSummary>& summaries,
                  ResultWriter& out) {
  std::vector<std::string> names;
  std::vector<double> fpr_lo, fpr_hi, fnr_lo, fnr_hi;
  for (size_t b = 0; b < boxes.size(); ++b) {
    const BoxSummary& s = summaries[b];
    const std::string prefix = b == 0 ? "/numbers/" : "/numbers/subgrid" + std::to_string(b) + "_";
    PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "reduction_vs_jeffreys_min", s.vs_jeffreys.min));
    PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "reduction_vs_jeffreys_max", s.vs_jeffreys.max));
    PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "reduction_vs_clopper_pearson_min", s.vs_cp.min));
    PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "reduction_vs_clopper_pearson_max", s.vs_cp.max));
    PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "reduction_vs_clopper_pearson_half_alpha_min",
                                       s.vs_cp_half_alpha.min));
    PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "reduction_vs_clopper_pearson_half_alpha_max",
                                       s.vs_cp_half_alpha.max));
    names.push_back(boxes[b].name);
    fpr_lo.push_back(boxes[b].fpr_lo);
    fpr_hi.push_back(boxes[b].fpr_hi);
    fnr_lo.push_back(boxes[b].fnr_lo);
    fnr_hi.push_back(boxes[b].fnr_hi);
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/subgrids/name", names));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/subgrids/fpr_lo", fpr_lo));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/subgrids/fpr_hi", fpr_hi));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/subgrids/fnr_lo", fnr_lo));
  return out.WriteDoubles("/subgrids/fnr_hi", fnr_hi);
}

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

Claim NarrowestClaim(const Config& c, const WidthGrid& w, const BoxSummary& all) {
  Evidence e;
  e << all.violations << " of " << w.grid.points.size()
    << " grid points where the Bayesian width is not strictly below both CP and Jeffreys";
  if (all.violations) {
    const int64_t p = all.first_violation;
    e << " (e.g. " << PointText(w, p) << ": Bayesian " << w.width[w.paper.bayesian][p] << ", CP "
      << w.width[w.paper.clopper_pearson][p] << ", Jeffreys " << w.width[w.paper.jeffreys][p]
      << ")";
  }
  e << "; reductions vs CP " << Pct(all.vs_cp.min) << " to " << Pct(all.vs_cp.max)
    << ", vs Jeffreys " << Pct(all.vs_jeffreys.min) << " to " << Pct(all.vs_jeffreys.max) << " ("
    << GridText(c, w.grid.points.size()) << ")";
  return ClaimEvidence("bayes_width_grid_bayesian_narrowest", all.violations == 0, e);
}

Claim CornersClaim(const WidthGrid& w, const BoxSummary& all, const CornerAnalysis& corners) {
  auto describe = [&](const char* what, const FiniteRange& r, const std::string& corner) {
    return Evidence() << what << " largest " << r.max << " at " << PointText(w, r.argmax) << " ("
                      << (corner.empty() ? "not at a corner" : "corner: " + corner) << ")";
  };
  return ClaimEvidence(
      "bayes_width_grid_corners", !corners.corner_cp.empty() && !corners.corner_jeffreys.empty(),
      Evidence()
          << describe("CP - Bayesian width difference", corners.diff_cp, corners.corner_cp).str()
          << "; "
          << describe("Jeffreys - Bayesian", corners.diff_jeffreys, corners.corner_jeffreys).str()
          << "; largest relative reduction vs CP " << Pct(all.vs_cp.max) << " at "
          << PointText(w, all.vs_cp.argmax) << ", vs Jeffreys " << Pct(all.vs_jeffreys.max)
          << " at " << PointText(w, all.vs_jeffreys.argmax)
          << "; criterion: both largest absolute differences within 0.1 (in FPR and FNR) "
             "of a vertex of the evaluated region. With n/2 trials per class the widths "
             "are symmetric under FPR <-> FNR (to solver accuracy), so high FPR / low FNR "
             "is the mirror of the paper's low FPR / high FNR");
}

namespace {

bool RangeMatches(const FiniteRange& r, double lo, double hi) {
  return r.count > 0 && std::abs(r.min - lo) <= kRangeTolerancePct &&
         std::abs(r.max - hi) <= kRangeTolerancePct;
}

// "all 12.3% to 45.6%; fpr_0-0.5_fnr_0-0.5 ...": every box's range of one
// reduction; `matching` gets the boxes whose range reproduces [lo, hi].
std::string BoxRanges(const std::vector<Box>& boxes, const std::vector<BoxSummary>& summaries,
                      FiniteRange BoxSummary::*range, double lo, double hi,
                      std::vector<std::string>* matching) {
  Evidence text;
  for (size_t b = 0; b < boxes.size(); ++b) {
    const FiniteRange& r = summaries[b].*range;
    text << (b ? "; " : "") << boxes[b].name << " " << Pct(r.min) << " to " << Pct(r.max);
    if (RangeMatches(r, lo, hi)) matching->push_back(boxes[b].name);
  }
  return text;
}

std::string Joined(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string t;
  for (const std::string& n : names) t += (t.empty() ? "" : ", ") + n;
  return t;
}

}  // namespace

std::vector<Claim> ReadingClaims(const WidthGrid& w, const std::vector<Box>& boxes,
                                 const std::vector<BoxSummary>& summaries) {
  const std::string tol = Evidence() << "reproduces = both ends within " << kRangeTolerancePct
                                     << " percentage points of the published ends; ";
  std::vector<std::string> jf_match, cp_match, cph_match;
  const std::string jf = BoxRanges(boxes, summaries, &BoxSummary::vs_jeffreys, 20, 32, &jf_match);
  const std::string cp = BoxRanges(boxes, summaries, &BoxSummary::vs_cp, 36, 52, &cp_match);
  const std::string cph =
      BoxRanges(boxes, summaries, &BoxSummary::vs_cp_half_alpha, 36, 52, &cph_match);
  const std::string low = BoxName(0.0, 0.1, 0.0, 0.5);
  const bool low_holds = std::find(jf_match.begin(), jf_match.end(), low) != jf_match.end();
  const FiniteRange ratio = RangeOfFinite(w.jeffreys_over_cp);
  return {
      ClaimEvidence("bayes_width_grid_jeffreys_range_low_fpr", low_holds,
                    Evidence() << tol << "reduction vs Jeffreys per box: " << jf
                               << "; boxes that reproduce 20-32%: " << Joined(jf_match)),
      ClaimEvidence("bayes_width_grid_cp_range_same_confidence", !cp_match.empty(),
                    Evidence() << tol << "reduction vs CP per box: " << cp
                               << "; boxes that reproduce 36-52%: " << Joined(cp_match)
                               << "; Jeffreys / CP width ratio over the grid " << ratio.min
                               << " to " << ratio.max
                               << " (20-32% vs Jeffreys together with 36-52% vs CP needs "
                                  "Jeffreys about 20% narrower than CP, against the paper's own "
                                  "'marginal' Jeffreys gain in Fig. 4)"),
      ClaimEvidence("bayes_width_grid_cp_range_cp_at_half_alpha", !cph_match.empty(),
                    Evidence() << tol << "reduction vs CP at 95% per box: " << cph
                               << "; boxes that reproduce 36-52%: " << Joined(cph_match)
                               << " (an inconsistent convention: it compares intervals of "
                                  "different confidence)"),
  };
}

std::string WidthGridLostParameters(const Config& c, size_t evaluated_points) {
  return "Fig. 5's grid (FPR and FNR ranges and resolution), alpha and delta are not in the "
         "paper's text. Chosen: alpha = 0.1 and delta = 1e-5 as in Fig. 4; FPR and FNR each "
         "evenly spaced over [0.01, 0.99] (quick 50 points = step 0.02, paper 99 points = step "
         "0.01), only better-than-chance attacks FPR + FNR < 1; counts = round(rate * 500) half "
         "away from zero. This run: " +
         GridText(c, evaluated_points);
}

Status WriteReport(const Config& c, const Results& w, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteRawData(w, out));
  PB_RETURN_IF_ERROR(WriteReductions(w, out));
  const std::vector<Box> boxes = ReportedBoxes(c, w.grid);
  std::vector<BoxSummary> summaries;
  for (const Box& box : boxes) summaries.push_back(SummarizeBox(w, box));
  PB_RETURN_IF_ERROR(WriteBoxes(boxes, summaries, out));
  PB_ASSIGN_OR_RETURN(const SummaryTable ranges, ReductionRangesTable(c, w, boxes, summaries));
  PB_RETURN_IF_ERROR(out.WriteTable(ranges));
  PB_ASSIGN_OR_RETURN(const SummaryTable widths, WidthsTable(c, w));
  PB_RETURN_IF_ERROR(out.WriteTable(widths));
  PB_RETURN_IF_ERROR(out.WriteClaim(NarrowestClaim(c, w, summaries[0])));
  PB_ASSIGN_OR_RETURN(const CornerAnalysis corners, AnalyzeCorners(w));
  PB_RETURN_IF_ERROR(out.WriteClaim(CornersClaim(w, summaries[0], corners)));
  for (const Claim& claim : ReadingClaims(w, boxes, summaries)) {
    PB_RETURN_IF_ERROR(out.WriteClaim(claim));
  }
  return SetAttributes(out, "/meta",
                       {{"lost_parameters", WidthGridLostParameters(c, w.grid.points.size())}});
}

}  // namespace privbench::bayes_width_grid
