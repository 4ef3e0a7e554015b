// What study bayes_width_grid (Bayesian paper, Sec. 3.4, Fig. 5; README.md)
// writes, all through WriteReport. 2-D arrays are [fpr, fnr] (row i =
// fpr[i], column j = fnr[j]), NaN outside the evaluated region:
//   /fpr [A], /fnr [B]            grid values
//   /counts/fp [A], /counts/fn [B]  rounded counts (of n/2 each)
//   /valid int64 [A, B]           1 where evaluated (FPR + FNR < 1 if below_chance_only)
//   /true_eps [A, B]              Eq. 1 (A1) at the rounded rates
//   /methods                      strings: registry names
//   /intervals/<name>/{eps_lo,eps_hi,width} [A, B]  (attributes label, delta, one_sided)
//   /reduction/vs_clopper_pearson, /reduction/vs_jeffreys [A, B]  percent
//   /reduction/vs_clopper_pearson_half_alpha [A, B]  percent, CP at 1 - alpha/2
//   /subgrids/{name, fpr_lo, fpr_hi, fnr_lo, fnr_hi}
//   /numbers/...                  scalars checked by verify
//   /summary/{reduction_ranges,widths}
//   /claims/...                   the verdict and evidence of the five claims of
//                                 claims.json
//   /meta lost_parameters
// The tables and claims are pure functions of the computed grid, declared
// here for the unit test. Published (Sec. 3.4): the Bayesian interval is the
// narrowest for all combinations of FPR and FNR; over Fig. 5's ranges it is
// 20-32% narrower than Jeffreys and 36-52% narrower than Clopper-Pearson.
// The published values live in experiments/bayes_width_grid/claims.json.
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_WIDTH_GRID_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_WIDTH_GRID_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/bayes_width_grid/compute.h"
#include "experiments/bayes_width_grid/config.h"
#include "results/h5_file.h"

namespace privbench::bayes_width_grid {

// What the computation hands the report: every method's interval over the
// grid.
using Results = WidthGrid;

// Writes everything listed above into `out`.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// tables.cc: the tables and the grid and point texts the claims and /meta
// share.

// "n = 1000 (500 + 500), alpha = 0.1, ...; 1275 grid points evaluated":
// the grid as tables, claims and /meta describe it.
std::string GridText(const Config& c, size_t evaluated_points);

// "(FPR 0.01, FNR 0.99)" for grid point p.
std::string PointText(const WidthGrid& w, int64_t p);

// One row per box: points, reduction ranges, whether the Bayesian interval
// is the narrowest at every point.
Result<SummaryTable> ReductionRangesTable(const Config& c, const WidthGrid& w,
                                          const std::vector<Box>& boxes,
                                          const std::vector<BoxSummary>& summaries);
// One row per two-sided method: min, median and max width over the grid.
Result<SummaryTable> WidthsTable(const Config& c, const WidthGrid& w);

// claims.cc: the claims (verdict and evidence). The Bayesian interval is
// the narrowest at every point (`all` summarises the whole grid).
Claim NarrowestClaim(const Config& c, const WidthGrid& w, const BoxSummary& all);
// The largest differences lie at the corners of the region.
Claim CornersClaim(const WidthGrid& w, const BoxSummary& all, const CornerAnalysis& corners);

// The readings of the published ranges (named analyses; README.md
// (B5)). A range "reproduces" on a box when both ends of the box's range of
// reductions lie within kRangeTolerancePct percentage points of the
// published ends (20-32% vs Jeffreys, 36-52% vs CP):
//   bayes_width_grid_jeffreys_range_low_fpr: 20-32% vs Jeffreys on the
//     low-FPR box FPR <= 0.1, FNR <= 0.5 (the fourth default sub-grid);
//   bayes_width_grid_cp_range_same_confidence: 36-52% vs CP on some box
//     with every interval at 1 - alpha (one consistent convention);
//   bayes_width_grid_cp_range_cp_at_half_alpha: 36-52% vs CP on some box
//     when CP alone is taken at 1 - alpha/2 (95% against the others' 90%).
// Each evidence lists every box's range and which boxes reproduce.
inline constexpr double kRangeTolerancePct = 3.0;
std::vector<Claim> ReadingClaims(const WidthGrid& w, const std::vector<Box>& boxes,
                                 const std::vector<BoxSummary>& summaries);

// What the paper's text lost and this study chose (report.cc: /meta
// lost_parameters).
std::string WidthGridLostParameters(const Config& c, size_t evaluated_points);

}  // namespace privbench::bayes_width_grid

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_WIDTH_GRID_REPORT_H_
