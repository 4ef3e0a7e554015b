// Study bayes_width_grid: WriteReport wires the raw grid and intervals, the
// reductions, the boxes and their numbers, the tables (tables.cc) and the
// claims (claims.cc) into the result file (layout: report.h).
#include "experiments/bayes_width_grid/report.h"

#include "results/table_builder.h"

namespace privbench::bayes_width_grid {
namespace {

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

}  // namespace

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
