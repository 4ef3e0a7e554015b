#include "experiments/bayes_width_grid/compute.h"

#include <cmath>
#include <limits>

#include "core/format.h"
#include "estimators/eps_from_rates.h"
#include "experiments/lib/framework/study.h"

namespace privbench::bayes_width_grid {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Every method's interval at every valid point, [A * B][M] (NaN elsewhere).
Result<std::vector<std::vector<MethodInterval>>> IntervalsOnGrid(const Config& c, WidthGrid& w,
                                                                 int threads,
                                                                 ProgressReporter* progress) {
  const size_t P = w.grid.valid.size();
  std::vector<std::vector<MethodInterval>> results(
      P, std::vector<MethodInterval>(w.methods.size(), MethodInterval{kNan, kNan}));
  w.counts.assign(P, ConfusionCounts{});
  w.width_cp_half_alpha.assign(P, kNan);
  const std::vector<WidthMethod> cp = {w.methods[w.paper.clopper_pearson]};
  const std::vector<int64_t>& points = w.grid.points;
  PB_RETURN_IF_ERROR(
      ParallelFor(static_cast<int64_t>(points.size()), threads, [&](int64_t k) -> Status {
        const int64_t p = points[k];
        PB_ASSIGN_OR_RETURN(w.counts[p], BalancedCounts(w.fpr_at(p), w.fnr_at(p), c.n));
        PB_ASSIGN_OR_RETURN(results[p], EstimateAll(w.methods, w.counts[p], c.alpha));
        PB_ASSIGN_OR_RETURN(auto cp_half, EstimateAll(cp, w.counts[p], c.alpha / 2));
        w.width_cp_half_alpha[p] = cp_half[0].width();
        if (progress != nullptr) progress->Advance();
        return Status::Ok();
      }));
  return results;
}

// The rounded counts of each axis value: FP of each FPR, FN of each FNR.
Status AxisCounts(const Config& c, WidthGrid& w) {
  for (double fpr : w.grid.fpr) {
    PB_ASSIGN_OR_RETURN(ConfusionCounts cc, BalancedCounts(fpr, 0.0, c.n));
    w.fp_axis.push_back(cc.fp);
  }
  for (double fnr : w.grid.fnr) {
    PB_ASSIGN_OR_RETURN(ConfusionCounts cc, BalancedCounts(0.0, fnr, c.n));
    w.fn_axis.push_back(cc.fn);
  }
  return Status::Ok();
}

// Reductions of the Bayesian width, and the Jeffreys / CP width ratio.
void Reductions(WidthGrid& w) {
  const size_t P = w.grid.valid.size();
  const std::vector<double>& w_cp = w.width[w.paper.clopper_pearson];
  const std::vector<double>& w_jf = w.width[w.paper.jeffreys];
  const std::vector<double>& w_by = w.width[w.paper.bayesian];
  w.reduction_cp.assign(P, kNan);
  w.reduction_jf.assign(P, kNan);
  w.jeffreys_over_cp.assign(P, kNan);
  w.reduction_cp_half_alpha.assign(P, kNan);
  for (size_t p = 0; p < P; ++p) {
    if (!w.grid.valid[p]) continue;
    w.reduction_cp_half_alpha[p] = WidthReductionPercent(w_by[p], w.width_cp_half_alpha[p]);
    w.reduction_cp[p] = WidthReductionPercent(w_by[p], w_cp[p]);
    w.reduction_jf[p] = WidthReductionPercent(w_by[p], w_jf[p]);
    w.undefined_cp += !std::isfinite(w.reduction_cp[p]);
    w.undefined_jf += !std::isfinite(w.reduction_jf[p]);
    // The published ranges (<= 32% vs Jeffreys where the CP reduction
    // reaches 52%) need W_J / W_CP <= 0.71 at that point; this ratio shows
    // how far apart the two rate boxes are here.
    if (std::isfinite(w_cp[p]) && w_cp[p] > 0) w.jeffreys_over_cp[p] = w_jf[p] / w_cp[p];
  }
}

std::vector<double> DifferenceToBayesian(const WidthGrid& w, size_t method) {
  std::vector<double> diff(w.grid.valid.size(), kNan);
  for (size_t p = 0; p < diff.size(); ++p) {
    if (w.grid.valid[p]) diff[p] = w.width[method][p] - w.width[w.paper.bayesian][p];
  }
  return diff;
}

}  // namespace

std::vector<double> RateAxis(double lo, double hi, int64_t points) {
  std::vector<double> v(points);
  for (int64_t i = 0; i < points; ++i) {
    v[i] = points == 1 ? lo : lo + (hi - lo) * static_cast<double>(i) / (points - 1);
    v[i] = std::round(v[i] * 1e12) / 1e12;
  }
  return v;
}

Result<GridLayout> MakeGridLayout(const Config& c) {
  GridLayout g;
  g.fpr = RateAxis(c.fpr_min, c.fpr_max, c.fpr_points);
  g.fnr = RateAxis(c.fnr_min, c.fnr_max, c.fnr_points);
  const size_t A = g.fpr.size(), B = g.fnr.size();
  g.valid.assign(A * B, false);
  for (size_t i = 0; i < A; ++i) {
    for (size_t j = 0; j < B; ++j) {
      g.valid[i * B + j] = !c.below_chance_only || g.fpr[i] + g.fnr[j] < 1.0 - kGridTolerance;
      if (g.valid[i * B + j]) g.points.push_back(static_cast<int64_t>(i * B + j));
    }
  }
  if (g.points.empty()) {
    return Error(
        "the grid has no better-than-chance point (FPR + FNR < 1); widen it or pass "
        "--below_chance_only=false");
  }
  return g;
}

Result<WidthGrid> ComputeWidthGrid(const Config& c, GridLayout grid, int threads,
                                   ProgressReporter* progress) {
  WidthGrid w;
  w.grid = std::move(grid);
  PB_ASSIGN_OR_RETURN(w.methods, RegisteredWidthMethods(c.delta));
  PB_ASSIGN_OR_RETURN(w.paper, FindPaperMethods(w.methods));
  PB_ASSIGN_OR_RETURN(auto results, IntervalsOnGrid(c, w, threads, progress));
  PB_RETURN_IF_ERROR(AxisCounts(c, w));
  const size_t P = w.grid.valid.size(), M = w.methods.size();
  w.true_eps.assign(P, kNan);
  w.lower.assign(M, std::vector<double>(P, kNan));
  w.upper.assign(M, std::vector<double>(P, kNan));
  w.width.assign(M, std::vector<double>(P, kNan));
  for (size_t p = 0; p < P; ++p) {
    if (!w.grid.valid[p]) continue;
    w.true_eps[p] = EpsFromRatesUnchecked(w.counts[p].fnr(), w.counts[p].fpr(), c.delta);
    for (size_t m = 0; m < M; ++m) {
      w.lower[m][p] = results[p][m].lower;
      w.upper[m][p] = results[p][m].upper;
      w.width[m][p] = results[p][m].width();
    }
  }
  Reductions(w);
  return w;
}

std::string BoxName(double fpr_lo, double fpr_hi, double fnr_lo, double fnr_hi) {
  return "fpr_" + FormatDouble(fpr_lo) + "-" + FormatDouble(fpr_hi) + "_fnr_" +
         FormatDouble(fnr_lo) + "-" + FormatDouble(fnr_hi);
}

std::vector<Box> ReportedBoxes(const Config& c, const GridLayout& grid) {
  std::vector<Box> boxes = {
      {"all", grid.fpr.front(), grid.fpr.back(), grid.fnr.front(), grid.fnr.back()}};
  for (size_t k = 0; k + 3 < c.subgrids.size(); k += 4) {
    const double* s = &c.subgrids[k];
    boxes.push_back({BoxName(s[0], s[1], s[2], s[3]), s[0], s[1], s[2], s[3]});
  }
  return boxes;
}

BoxSummary SummarizeBox(const WidthGrid& w, const Box& box) {
  const size_t P = w.grid.valid.size();
  const std::vector<double>& w_cp = w.width[w.paper.clopper_pearson];
  const std::vector<double>& w_jf = w.width[w.paper.jeffreys];
  const std::vector<double>& w_by = w.width[w.paper.bayesian];
  BoxSummary s;
  std::vector<bool> mask(P);
  for (size_t p = 0; p < P; ++p) {
    const double x = w.fpr_at(p), y = w.fnr_at(p);
    mask[p] = w.grid.valid[p] && x >= box.fpr_lo - kGridTolerance &&
              x <= box.fpr_hi + kGridTolerance && y >= box.fnr_lo - kGridTolerance &&
              y <= box.fnr_hi + kGridTolerance;
    if (!mask[p]) continue;
    ++s.points;
    if (!(w_by[p] < w_cp[p] && w_by[p] < w_jf[p])) {
      if (s.violations++ == 0) s.first_violation = static_cast<int64_t>(p);
    }
  }
  s.vs_cp = RangeOfFinite(w.reduction_cp, mask);
  s.vs_jeffreys = RangeOfFinite(w.reduction_jf, mask);
  s.vs_cp_half_alpha = RangeOfFinite(w.reduction_cp_half_alpha, mask);
  return s;
}

Result<CornerAnalysis> AnalyzeCorners(const WidthGrid& w) {
  const GridLayout& g = w.grid;
  const size_t A = g.fpr.size(), B = g.fnr.size();
  int64_t top_fnr_at_min_fpr = -1, top_fpr_at_min_fnr = -1;
  for (size_t j = 0; j < B; ++j) {
    if (g.valid[0 * B + j]) top_fnr_at_min_fpr = static_cast<int64_t>(j);
  }
  for (size_t i = 0; i < A; ++i) {
    if (g.valid[i * B + 0]) top_fpr_at_min_fnr = static_cast<int64_t>(i);
  }
  struct Vertex {
    double x, y;
    std::string name;
  };
  std::vector<Vertex> vertices = {{g.fpr[0], g.fnr[0], "low FPR, low FNR"}};
  if (top_fnr_at_min_fpr >= 0) {
    vertices.push_back({g.fpr[0], g.fnr[top_fnr_at_min_fpr], "low FPR, high FNR"});
  }
  if (top_fpr_at_min_fnr >= 0) {
    vertices.push_back({g.fpr[top_fpr_at_min_fnr], g.fnr[0], "high FPR, low FNR"});
  }
  auto corner_of = [&](int64_t p) -> std::string {
    for (const Vertex& v : vertices) {
      if (std::abs(w.fpr_at(p) - v.x) <= 0.1 + kGridTolerance &&
          std::abs(w.fnr_at(p) - v.y) <= 0.1 + kGridTolerance)
        return v.name;
    }
    return "";
  };
  CornerAnalysis out;
  out.diff_cp = RangeOfFinite(DifferenceToBayesian(w, w.paper.clopper_pearson));
  out.diff_jeffreys = RangeOfFinite(DifferenceToBayesian(w, w.paper.jeffreys));
  if (out.diff_cp.count == 0 || out.diff_jeffreys.count == 0) {
    return Error("no finite width difference on the grid");
  }
  out.corner_cp = corner_of(out.diff_cp.argmax);
  out.corner_jeffreys = corner_of(out.diff_jeffreys.argmax);
  return out;
}

}  // namespace privbench::bayes_width_grid
