// Study bayes_width_grid: interval width over a grid of (FPR, FNR)
// (Zanella-Béguelin et al., "Bayesian Estimation of Differential Privacy",
// ICML 2023, Sec. 3.4 "Varying Attack Accuracy", Fig. 5; README.md
// (B5)).
//
//   bazel run //experiments/bayes_width_grid [-- --scale=paper --fpr_points=99 ...]
//
// Every registered interval estimator at n = 1000 trials over a grid of
// better-than-chance attacks, and the Bayesian width reduction against
// Clopper-Pearson and Jeffreys (compute.h). Output: report.h.
//
// The paper's text lost Fig. 5's grid (ranges and resolution), alpha and
// delta. Our choice (all overridable, recorded in /meta lost_parameters):
// alpha = 0.1 and delta = 1e-5 as in Fig. 4; FPR and FNR each on an evenly
// spaced grid over [0.01, 0.99] (quick: 50 points, step 0.02; paper: 99
// points, step 0.01), keeping only FPR + FNR < 1. This triangle has the
// corners the paper names (low FPR with high FNR is the target area of
// LiRA-style attacks).
#include <string>

#include "core/format.h"
#include "core/progress.h"
#include "experiments/bayes_width_grid/compute.h"
#include "experiments/bayes_width_grid/config.h"
#include "experiments/bayes_width_grid/report.h"
#include "experiments/lib/framework/study.h"

namespace privbench::bayes_width_grid {
namespace {

Config Defaults(Scale scale) {
  Config c;
  if (scale == Scale::kPaper) {
    c.fpr_points = c.fnr_points = 99;  // step 0.01
  } else if (scale == Scale::kTest) {
    c.fpr_points = c.fnr_points = 8;  // step 0.14: 0.01, 0.15, ..., 0.99
  }
  return c;
}

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddInt("n", &c.n, "total samples per grid point (even; n/2 members, n/2 non-members)").Min(2);
  f.AddDouble("alpha", &c.alpha, "significance: intervals at confidence 1 - alpha").OpenRange(0, 1);
  f.AddDouble("delta", &c.delta, "DP delta (methods defined only at delta = 0 run at 0)")
      .Min(0)
      .Below(1);
  f.AddDouble("fpr_min", &c.fpr_min, "smallest FPR of the grid").Probability();
  f.AddDouble("fpr_max", &c.fpr_max, "largest FPR of the grid").Probability();
  f.AddInt("fpr_points", &c.fpr_points, "number of evenly spaced FPR values (1: fpr_min only)")
      .Range(1, 10000);
  f.AddDouble("fnr_min", &c.fnr_min, "smallest FNR of the grid").Probability();
  f.AddDouble("fnr_max", &c.fnr_max, "largest FNR of the grid").Probability();
  f.AddInt("fnr_points", &c.fnr_points, "number of evenly spaced FNR values (1: fnr_min only)")
      .Range(1, 10000);
  f.AddBool("below_chance_only", &c.below_chance_only,
            "evaluate only better-than-chance attacks, FPR + FNR < 1");
  f.AddDoubleList("subgrids", &c.subgrids,
                  "extra sub-grids: groups of fpr_lo,fpr_hi,fnr_lo,fnr_hi (inclusive)")
      .Probability()
      .DistinctGroupsOf(4);
}

Status CheckAxisOrder(const std::string& name, double lo, double hi) {
  if (hi < lo) {
    return Error(name + "_max must be >= " + name + "_min (" + FormatDouble(lo) + "), got " +
                 FormatDouble(hi));
  }
  return Status::Ok();
}

// Evenness of n (not expressible as a flag constraint) and the rules across
// fields: ordered axes, a non-empty grid, whole sub-grid boxes.
Status Validate(const Config& c) {
  if (c.n % 2 != 0) return Error("n must be even (n/2 per class), got " + std::to_string(c.n));
  PB_RETURN_IF_ERROR(CheckAxisOrder("fpr", c.fpr_min, c.fpr_max));
  PB_RETURN_IF_ERROR(CheckAxisOrder("fnr", c.fnr_min, c.fnr_max));
  if (c.below_chance_only && c.fpr_min + c.fnr_min >= 1.0 - kGridTolerance) {
    return Error(
        "fpr_min + fnr_min must be < 1 when below_chance_only (the grid would have no "
        "better-than-chance point), got " +
        FormatDouble(c.fpr_min + c.fnr_min));
  }
  if (c.subgrids.size() % 4 != 0) {
    return Error("subgrids must hold groups of four numbers (fpr_lo,fpr_hi,fnr_lo,fnr_hi), got " +
                 std::to_string(c.subgrids.size()) + " numbers");
  }
  for (size_t k = 0; k < c.subgrids.size(); k += 4) {
    const double* s = &c.subgrids[k];
    if (s[1] < s[0] || s[3] < s[2]) {
      return Error("subgrids box " + std::to_string(k / 4) + " must have lo <= hi, got " +
                   FormatDouble(s[0]) + "," + FormatDouble(s[1]) + "," + FormatDouble(s[2]) + "," +
                   FormatDouble(s[3]));
    }
  }
  return Status::Ok();
}

Status Run(const Config& c, StudyContext& ctx) {
  PB_ASSIGN_OR_RETURN(GridLayout grid, MakeGridLayout(c));
  ProgressReporter progress("bayes_width_grid", static_cast<int64_t>(grid.points.size()),
                            ctx.quiet());
  PB_ASSIGN_OR_RETURN(WidthGrid w, ComputeWidthGrid(c, std::move(grid), ctx.threads(), &progress));
  progress.Finish();
  return WriteReport(c, w, ctx.out());
}

}  // namespace
}  // namespace privbench::bayes_width_grid

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::bayes_width_grid;
  Study<Config> study;
  study.info = {"bayes_width_grid",
                "Zanella-Beguelin et al., Bayesian Estimation of Differential Privacy (ICML 2023)",
                "Sec. 3.4, Fig. 5",
                "Interval width of every registered estimator over a grid of (FPR, FNR) at "
                "n = 1000, and the Bayesian width reduction vs Clopper-Pearson and Jeffreys"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
