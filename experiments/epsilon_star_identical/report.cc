// Study epsilon_star_identical: WriteReport wires the raw values, settings
// and numbers, the tables (tables.cc) and the claims (claims.cc) into the
// result file (layout: report.h).
#include "experiments/epsilon_star_identical/report.h"

#include <string>
#include <xtensor/xview.hpp>

#include "results/h5_array.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_identical {
namespace {

// /<analysis>/<estimator>/{values, mean, sd} with their attributes, and the
// means as /numbers.
Status WriteValues(const Config& c, const IdenticalResults& r, ResultWriter& out) {
  const size_t N = c.est.n.size();
  for (size_t a = 0; a < r.analyses.size(); ++a) {
    const SimAnalysis& an = r.analyses[a];
    for (size_t e = 0; e < r.names.size(); ++e) {
      const xt::xtensor<double, 1> mean = xt::view(r.moments.mean, xt::all(), a, e);
      const std::string g = EstimatorGroup(an, r.names[e]);
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/values", ValuesOf(r.values, a, e)));  // [N x R]
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/mean", mean));
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/sd", xt::view(r.moments.sd, xt::all(), a, e)));
      PB_RETURN_IF_ERROR(SetEstimatorAttributes(a, an, r.names[e], {"exact", r.Exact(a, e)}, out));
      for (size_t i = 0; i < N; ++i) {
        PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/identical_" + an.name + "_" + r.names[e] +
                                               "_mean_n" + std::to_string(c.est.n[i]),
                                           mean[i]));
      }
    }
  }
  return Status::Ok();
}

// /settings, /estimators, /analyses and /exact.
Status WriteSettings(const Config& c, const IdenticalResults& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/n", c.est.n));
  PB_RETURN_IF_ERROR(WriteEstimatorsAndAnalyses(r.names, r.analyses, out));
  PB_RETURN_IF_ERROR(SetAttributes(out, "/settings",
                                   {{"distribution", GammaLossText(IdenticalDistribution(c))},
                                    {"repetitions", c.est.repetitions}}));
  PB_RETURN_IF_ERROR(WriteExactWindows(r.windows, r.exact, out));
  for (size_t w = 0; w < r.windows.names.size(); ++w) {
    PB_RETURN_IF_ERROR(
        out.WriteScalar("/numbers/identical_exact_" + r.windows.names[w], r.exact[w]));
  }
  return Status::Ok();
}

// What the paper does not state and this study chose (/meta lost_parameters).
std::string LostParameters(const Config& c, const IdenticalResults& r, Scale scale) {
  const EpsilonStarOptions& prim = r.analyses[0].options;
  return "Gamma parameters of the identical distributions (lost): " +
         GammaLossText(IdenticalDistribution(c)) +
         "; parametric rate window (lost): [clip_lo, clip_hi] = " +
         WindowText(prim, EpsilonStarWindow::kClip) +
         " (library default; the empirical and exact variants use the paper's " +
         WindowText(prim, EpsilonStarWindow::kRate) + "); secondary analysis on a common window " +
         WindowText(r.analyses[1].options, EpsilonStarWindow::kClip) + "; " +
         EstimationSizesText(c.est, scale);
}

}  // namespace

Status WriteReport(const Config& c, const Results& results, ResultWriter& out) {
  const IdenticalResults& r = results.sim;
  PB_RETURN_IF_ERROR(WriteValues(c, r, out));
  PB_RETURN_IF_ERROR(WriteSettings(c, r, out));
  for (size_t a = 0; a < r.analyses.size(); ++a) {
    PB_ASSIGN_OR_RETURN(const SummaryTable table, IdenticalTable(c, r, a));
    PB_RETURN_IF_ERROR(out.WriteTable(table));
    PB_RETURN_IF_ERROR(WriteJudgedClaim(ParametricCloserClaim(c, r, a), out));
    PB_RETURN_IF_ERROR(out.WriteClaim(BothShrinkClaim(c, r, a)));
  }
  return WriteAnalysesMeta(r.analyses, LostParameters(c, r, results.scale), out);
}

}  // namespace privbench::epsilon_star_identical
