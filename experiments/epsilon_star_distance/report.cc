#include "experiments/epsilon_star_distance/report.h"

#include <cmath>
#include <string>
#include <vector>
#include <xtensor/xarray.hpp>
#include <xtensor/xview.hpp>

#include "core/format.h"
#include "results/h5_array.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_distance {
namespace {

// An array over the settings s = i * N + k (first axis) as (distance i,
// sample size k, the other axes).
template <class E>
xt::xarray<double> ByDistance(const E& by_setting, size_t D, size_t N) {
  xt::xarray<double> grid = by_setting;
  std::vector<size_t> shape = {D, N};
  shape.insert(shape.end(), grid.shape().begin() + 1, grid.shape().end());
  grid.reshape(shape);
  return grid;
}

// /<analysis>/<estimator>/{values, mean, sd, bias, exact_reference}.
Status WriteValues(const Config& c, const DistanceResults& r, ResultWriter& out) {
  const size_t D = c.distances.size(), N = r.N;
  for (size_t a = 0; a < r.analyses.size(); ++a) {
    const SimAnalysis& an = r.analyses[a];
    for (size_t e = 0; e < r.names.size(); ++e) {
      const std::string g = EstimatorGroup(an, r.names[e]);
      const auto of_setting = [&](const xt::xtensor<double, 3>& x) {
        return ByDistance(xt::view(x, xt::all(), a, e), D, N);
      };
      PB_RETURN_IF_ERROR(
          WriteArray(out, g + "/values", ByDistance(ValuesOf(r.values, a, e), D, N)));
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/mean", of_setting(r.moments.mean)));
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/sd", of_setting(r.moments.sd)));
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/bias", of_setting(r.bias)));
      PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/exact_reference", r.Reference(a, e)));
      PB_RETURN_IF_ERROR(SetEstimatorAttributes(
          a, an, r.names[e],
          {"exact_reference_window", r.windows.names[ReferenceWindow(a, r.names[e])]}, out));
    }
  }
  return Status::Ok();
}

std::vector<double> PopulationShapes(const Config& c) {
  std::vector<double> v;
  for (double d : c.distances) v.push_back(DistancePopulation(c, d).shape);
  return v;
}

std::vector<double> PopulationOffsets(const Config& c) {
  std::vector<double> v;
  for (double d : c.distances) v.push_back(DistancePopulation(c, d).offset);
  return v;
}

// /settings, /estimators, /analyses, /exact and its /numbers.
Status WriteSettings(const Config& c, const DistanceResults& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/d", c.distances));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/n", c.est.n));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/population_shape", PopulationShapes(c)));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/population_offset", PopulationOffsets(c)));
  PB_RETURN_IF_ERROR(SetAttributes(out, "/settings",
                                   {{"train", GammaLossText(DistanceTrain(c))},
                                    {"population", DistancePopulationText(c)},
                                    {"shift", c.shift},
                                    {"repetitions", c.est.repetitions}}));
  PB_RETURN_IF_ERROR(WriteEstimatorsAndAnalyses(r.names, r.analyses, out));
  PB_RETURN_IF_ERROR(WriteExactWindows(r.windows, r.exact, out));
  for (size_t w = 0; w < r.windows.names.size(); ++w) {
    const std::string& wn = r.windows.names[w];
    for (size_t i = 0; i < c.distances.size(); ++i) {
      PB_RETURN_IF_ERROR(out.WriteScalar(
          "/numbers/distance_exact_" + wn + "_d" + FormatDouble(c.distances[i]), r.exact[w][i]));
    }
  }
  return Status::Ok();
}

// What the paper does not state and this study chose (/meta lost_parameters).
std::string LostParameters(const Config& c, const DistanceResults& r, Scale scale) {
  const EpsilonStarOptions& prim = r.analyses[0].options;
  std::string ds;
  for (size_t i = 0; i < c.distances.size(); ++i) {
    ds += (i ? "," : "") + FormatDouble(c.distances[i]);
  }
  return "Gamma parameterisation (lost): train " + GammaLossText(DistanceTrain(c)) +
         ", population " + DistancePopulationText(c) + ", d = {" + ds +
         "}; parametric rate window (lost): [clip_lo, clip_hi] = " +
         WindowText(prim, EpsilonStarWindow::kClip) +
         " (library default), empirical and exact on the paper's " +
         WindowText(prim, EpsilonStarWindow::kRate) +
         "; PRIMARY analysis: each estimator's bias against the exact value on its own window; "
         "SECONDARY: every estimator and the exact value on the common window " +
         WindowText(r.analyses[1].options, EpsilonStarWindow::kClip) + "; " +
         EstimationSizesText(c.est, scale);
}

}  // namespace

Status WriteReport(const Config& c, const Results& results, ResultWriter& out) {
  const DistanceResults& r = results.sim;
  PB_RETURN_IF_ERROR(WriteValues(c, r, out));
  PB_RETURN_IF_ERROR(WriteSettings(c, r, out));
  PB_ASSIGN_OR_RETURN(const SummaryTable exact, DistanceExactTable(c, r));
  PB_RETURN_IF_ERROR(out.WriteTable(exact));
  for (size_t a = 0; a < r.analyses.size(); ++a) {
    PB_ASSIGN_OR_RETURN(const SummaryTable table, DistanceTable(c, r, a));
    PB_RETURN_IF_ERROR(out.WriteTable(table));
    PB_RETURN_IF_ERROR(WriteJudgedClaim(D0OvershootsClaim(c, r, a), out));
    PB_RETURN_IF_ERROR(WriteJudgedClaim(UndershootsClaim(c, r, a), out));
    PB_RETURN_IF_ERROR(out.WriteClaim(MoreAccurateClaim(c, r, a)));
    PB_RETURN_IF_ERROR(out.WriteClaim(BiasesShrinkClaim(c, r, a)));
  }
  return WriteAnalysesMeta(r.analyses, LostParameters(c, r, results.scale), out);
}

}  // namespace privbench::epsilon_star_distance
