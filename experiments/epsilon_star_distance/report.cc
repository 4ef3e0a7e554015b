#include "experiments/epsilon_star_distance/report.h"

#include <cmath>
#include <vector>
#include <xtensor/xarray.hpp>
#include <xtensor/xview.hpp>

#include "core/format.h"
#include "results/h5_array.h"

namespace privbench::epsilon_star_distance {
namespace {

std::string Suffix(size_t a) { return a == 0 ? "" : "_common_window"; }

std::string WindowNote(const DistanceResults& r, size_t a) {
  const EpsilonStarOptions& o = r.analyses[a].options;
  if (a == 0) {
    return " [primary: each bias against the exact value on the estimator's own window, "
           "empirical " +
           WindowText(o, EpsilonStarWindow::kRate) + ", parametric " +
           WindowText(o, EpsilonStarWindow::kClip) + "]";
  }
  return " [secondary: both estimators and the exact value on " +
         WindowText(o, EpsilonStarWindow::kClip) + "]";
}

// "d=1,n=1000"
std::string CaseText(const DistanceConfig& c, size_t i, size_t k) {
  return "d=" + FormatDouble(c.distances[i]) + ",n=" + std::to_string(c.est.n[k]);
}

std::string Join(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

// Appends `item` to a comma- or semicolon-separated list.
void Append(std::string& list, const std::string& sep, const std::string& item) {
  list += (list.empty() ? "" : sep) + item;
}

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
Status WriteValues(const DistanceConfig& c, const DistanceResults& r, ResultWriter& out) {
  const size_t D = c.distances.size(), N = r.N;
  for (size_t a = 0; a < r.analyses.size(); ++a) {
    const SimAnalysis& an = r.analyses[a];
    for (size_t e = 0; e < r.names.size(); ++e) {
      const std::string g = "/" + an.name + "/" + r.names[e];
      const auto of_setting = [&](const xt::xtensor<double, 3>& x) {
        return ByDistance(xt::view(x, xt::all(), a, e), D, N);
      };
      PB_RETURN_IF_ERROR(
          WriteArray(out, g + "/values", ByDistance(ValuesOf(r.values, a, e), D, N)));
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/mean", of_setting(r.moments.mean)));
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/sd", of_setting(r.moments.sd)));
      PB_RETURN_IF_ERROR(WriteArray(out, g + "/bias", of_setting(r.bias)));
      PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/exact_reference", r.Reference(a, e)));
      PB_RETURN_IF_ERROR(
          out.SetAttribute(g, "window", WindowText(an.options, AnalysisWindow(a, r.names[e]))));
      PB_RETURN_IF_ERROR(out.SetAttribute(g, "exact_reference_window",
                                          r.windows.names[ReferenceWindow(a, r.names[e])]));
      PB_RETURN_IF_ERROR(out.SetAttribute(g, "options", EpsilonStarOptionsText(an.options)));
    }
  }
  return Status::Ok();
}

std::vector<double> PopulationShapes(const DistanceConfig& c) {
  std::vector<double> v;
  for (double d : c.distances) v.push_back(DistancePopulation(c, d).shape);
  return v;
}

std::vector<double> PopulationOffsets(const DistanceConfig& c) {
  std::vector<double> v;
  for (double d : c.distances) v.push_back(DistancePopulation(c, d).offset);
  return v;
}

// /settings, /estimators, /analyses, /exact and its /numbers.
Status WriteSettings(const DistanceConfig& c, const DistanceResults& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/d", c.distances));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/n", c.est.n));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/population_shape", PopulationShapes(c)));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/population_offset", PopulationOffsets(c)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "train", GammaLossText(DistanceTrain(c))));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "population", DistancePopulationText(c)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "shift", c.shift));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "repetitions", c.est.repetitions));
  PB_RETURN_IF_ERROR(out.WriteStrings("/estimators", r.names));
  PB_RETURN_IF_ERROR(out.WriteStrings(
      "/analyses", std::vector<std::string>{r.analyses[0].name, r.analyses[1].name}));
  for (size_t w = 0; w < r.windows.names.size(); ++w) {
    const std::string& wn = r.windows.names[w];
    PB_RETURN_IF_ERROR(out.WriteDoubles("/exact/" + wn, r.exact[w]));
    PB_RETURN_IF_ERROR(out.SetAttribute(
        "/exact/" + wn, "window", WindowText(r.windows.options[w], EpsilonStarWindow::kRate)));
    for (size_t i = 0; i < c.distances.size(); ++i) {
      PB_RETURN_IF_ERROR(out.WriteScalar(
          "/numbers/distance_exact_" + wn + "_d" + FormatDouble(c.distances[i]), r.exact[w][i]));
    }
  }
  return Status::Ok();
}

}  // namespace

SummaryTable DistanceExactTable(const DistanceConfig& c, const DistanceResults& r) {
  std::vector<std::string> wtext;
  for (const EpsilonStarOptions& o : r.windows.options) {
    wtext.push_back(WindowText(o, EpsilonStarWindow::kRate));
  }
  return {
      "distance_exact",
      "Exact Epsilon* of the known distributions on each window (Fig. 5)",
      "Train " + GammaLossText(DistanceTrain(c)) + "; population shifted by d (shift = " + c.shift +
          "). The window is where FPR and FNR must lie: rate " + wtext[0] +
          " (paper's empirical window), clip " + wtext[1] +
          " (parametric window, lost in the paper; ours), common " + wtext[2] +
          " (secondary analysis). For separated "
          "distributions the supremum sits on the window boundary, so the wider window "
          "gives the larger value.",
      {Column::Doubles("d", c.distances), Column::Doubles("population_shape", PopulationShapes(c)),
       Column::Doubles("population_offset", PopulationOffsets(c)),
       Column::Doubles("exact_rate_window", r.exact[0]),
       Column::Doubles("exact_clip_window", r.exact[1]),
       Column::Doubles("exact_common_window", r.exact[2])}};
}

SummaryTable DistanceTable(const DistanceConfig& c, const DistanceResults& r, size_t a) {
  const bool primary = a == 0;
  const EpsilonStarOptions& o = r.analyses[a].options;
  std::vector<double> col_d, col_exact, col_mean, col_sd, col_bias;
  std::vector<int64_t> col_n;
  std::vector<std::string> col_est, col_win;
  for (size_t i = 0; i < c.distances.size(); ++i) {
    for (size_t k = 0; k < r.N; ++k) {
      for (size_t e = 0; e < r.names.size(); ++e) {
        const size_t s = i * r.N + k;
        col_d.push_back(c.distances[i]);
        col_n.push_back(c.est.n[k]);
        col_est.push_back(r.names[e]);
        col_win.push_back(WindowText(o, AnalysisWindow(a, r.names[e])));
        col_exact.push_back(r.Reference(a, e)[i]);
        col_mean.push_back(r.moments.mean(s, a, e));
        col_sd.push_back(r.moments.sd(s, a, e));
        col_bias.push_back(r.bias(s, a, e));
      }
    }
  }
  return {
      "distance_" + r.analyses[a].name,
      std::string("Epsilon* as the distributions move apart (Fig. 5), ") +
          (primary ? "each estimator on its own window" : "every estimator on a common window"),
      "Train " + GammaLossText(DistanceTrain(c)) + ", population shifted by d (shift = " + c.shift +
          "); n losses per sample; mean and sample sd over " + std::to_string(c.est.repetitions) +
          " repetitions; exact = Epsilon* of the known distributions on the row's window; "
          "bias = mean - exact. " +
          (primary ? "Empirical on the paper's (rate_floor, rate_ceiling); parametric on "
                     "[clip_lo, clip_hi] (lost in the paper; ours), so the two rows of one "
                     "(d, n) have different exact references."
                   : "Secondary analysis: rate and clip windows both [common_lo, common_hi].") +
          " Options: " + EpsilonStarOptionsText(o) + ".",
      {Column::Doubles("d", col_d), Column::Ints("n", col_n), Column::Strings("estimator", col_est),
       Column::Strings("window", col_win), Column::Doubles("exact", col_exact),
       Column::Doubles("mean", col_mean), Column::Doubles("sd", col_sd),
       Column::Doubles("bias", col_bias)}};
}

JudgedClaim D0OvershootsClaim(const DistanceConfig& c, const DistanceResults& r, size_t a) {
  const size_t D = c.distances.size(), N = r.N, emp = r.claim.empirical, par = r.claim.parametric;
  size_t i0 = D;
  for (size_t i = 0; i < D; ++i) {
    if (c.distances[i] == 0.0) i0 = i;
  }
  JudgedClaim j;
  std::string ev;
  std::vector<SignTest> tests;
  if (i0 == D) {
    ev = "not evaluated: distances has no d = 0";
  } else {
    ev = "criterion: at d = 0 (exact " + FormatSignificant(r.exact[0][i0]) +
         "), empirical > parametric, by an exact one-sided sign test over the paired "
         "repetitions at every n, each at level 0.05/" +
         std::to_string(N) +
         " (error probability of either definite verdict <= 5%; else inconclusive); ";
    const auto mean = xt::view(r.moments.mean, xt::all(), a, xt::all());  // (s, estimator)
    for (size_t k = 0; k < N; ++k) {
      const size_t s = i0 * N + k;
      const auto e = Repetitions(r.values, s, a, emp), p = Repetitions(r.values, s, a, par);
      tests.push_back(PairedSignTest({e.begin(), e.end()}, {p.begin(), p.end()}));
      const PairedDifference pd = Paired(e, p);
      ev += (k ? "; " : "") + std::string("n=") + std::to_string(c.est.n[k]) +
            ": empirical > parametric in " + SignTestText(tests.back()) + "; means " +
            FormatSignificant(mean(s, emp)) + " vs " + FormatSignificant(mean(s, par)) +
            ", paired t " + FormatSignificant(pd.t, 2);
    }
  }
  const SignVerdict v = JudgeAllGreater(tests, 0.05);
  j.holds_fraction = v.holds_fraction;
  j.inconclusive = v.inconclusive;
  if (j.inconclusive) {
    ev += "; INCONCLUSIVE at " + std::to_string(c.est.repetitions) + " repetitions: holds in " +
          FormatSignificant(100 * j.holds_fraction, 3) + "% of the (n, repetition) pairs";
  }
  j.claim = {"epsilon_star_distance_d0_empirical_overshoots_more" + Suffix(a),
             "At d = 0 (identical distributions, true value 0) the empirical-CDF implementation "
             "overshoots 0 more than the parametric implementation" +
                 WindowNote(r, a),
             "Epsilon* paper App. B.1, Fig. 5", v.holds, ev};
  return j;
}

namespace {

// The sign tests of one (d > 0, n) case: empirical below its exact value
// (undershoot), and empirical below parametric, over the paired repetitions.
std::vector<SignTest> UndershootTests(const DistanceResults& r, size_t a, size_t i, size_t k) {
  const size_t emp = r.claim.empirical, par = r.claim.parametric, s = i * r.N + k;
  const auto e = Repetitions(r.values, s, a, emp), p = Repetitions(r.values, s, a, par);
  const std::vector<double> ev(e.begin(), e.end()), pv(p.begin(), p.end());
  const std::vector<double> exact(ev.size(), r.Reference(a, emp)[i]);
  return {PairedSignTest(exact, ev), PairedSignTest(pv, ev)};
}

}  // namespace

JudgedClaim UndershootsClaim(const DistanceConfig& c, const DistanceResults& r, size_t a) {
  const size_t emp = r.claim.empirical, par = r.claim.parametric;
  int cases = 0, par_over = 0, par_larger = 0;
  std::vector<SignTest> tests;
  std::string rows;
  for (size_t i = 0; i < c.distances.size(); ++i) {
    if (!(c.distances[i] > 0.0)) continue;
    for (size_t k = 0; k < r.N; ++k) {
      ++cases;
      const double be = r.Bias(a, emp, i, k), bp = r.Bias(a, par, i, k);
      const std::vector<SignTest> t = UndershootTests(r, a, i, k);
      tests.insert(tests.end(), t.begin(), t.end());
      Append(rows, "; ",
             CaseText(c, i, k) + ": bias " + FormatSignificant(be) + " vs " +
                 FormatSignificant(bp) + ", empirical below exact in " + SignTestText(t[0]) +
                 ", below parametric in " + SignTestText(t[1]));
      if (bp > 0.0) ++par_over;
      if (std::abs(bp) > std::abs(be)) ++par_larger;
    }
  }
  const SignVerdict v = JudgeAllGreater(tests, 0.05);
  std::string ev =
      "criterion: at every d > 0 and every n, the empirical value is below the exact value "
      "on its window (undershoot) and below the parametric value, each by an exact one-sided "
      "sign test over the paired repetitions at level 0.05/" +
      std::to_string(tests.size()) +
      " (error probability of either definite verdict <= 5%; else inconclusive); " +
      std::to_string(cases) + " (d, n) cases";
  if (v.inconclusive) {
    ev += "; INCONCLUSIVE at " + std::to_string(c.est.repetitions) + " repetitions: holds in " +
          FormatSignificant(100 * v.holds_fraction, 3) + "% of the paired comparisons";
  }
  ev += "; note: the parametric bias (mean - exact) is positive (overshoot) in " +
        std::to_string(par_over) + " of " + std::to_string(cases) +
        " cases and larger in absolute value than the empirical bias in " +
        std::to_string(par_larger) + " of " + std::to_string(cases) + "; " + rows;
  JudgedClaim j;
  j.inconclusive = v.inconclusive;
  j.holds_fraction = v.holds_fraction;
  j.claim = {"epsilon_star_distance_empirical_undershoots_more" + Suffix(a),
             "As the distance between the loss distributions grows, the empirical-CDF "
             "implementation undershoots the true Epsilon* more than the parametric "
             "implementation" +
                 WindowNote(r, a),
             "Epsilon* paper App. B.1, Fig. 5", cases > 0 && v.holds, ev};
  return j;
}

Claim MoreAccurateClaim(const DistanceConfig& c, const DistanceResults& r, size_t a) {
  const size_t emp = r.claim.empirical, par = r.claim.parametric;
  int cases = 0, failures = 0;
  std::string fails, rows;
  for (size_t i = 0; i < c.distances.size(); ++i) {
    for (size_t k = 0; k < r.N; ++k) {
      const size_t s = i * r.N + k;
      const double re = Rmse(Repetitions(r.values, s, a, emp), r.Reference(a, emp)[i]);
      const double rp = Rmse(Repetitions(r.values, s, a, par), r.Reference(a, par)[i]);
      ++cases;
      if (!(rp < re)) {
        ++failures;
        Append(fails, ", ", CaseText(c, i, k));
      }
      Append(rows, "; ",
             CaseText(c, i, k) + ": " + FormatSignificant(re) + " vs " + FormatSignificant(rp));
    }
  }
  std::string ev = "criterion: at every (d, n), root mean squared error over the " +
                   std::to_string(c.est.repetitions) +
                   " repetitions against the exact value on the window "
                   "used, parametric < empirical; " +
                   std::to_string(cases - failures) + " of " + std::to_string(cases) +
                   " cases hold";
  if (!fails.empty()) ev += "; fails at " + fails;
  ev += "; RMSE empirical vs parametric: " + rows;
  return {"epsilon_star_distance_parametric_more_accurate" + Suffix(a),
          "Fitting parametric distributions to the losses gives more accurate Epsilon* values "
          "than the empirical CDFs" +
              WindowNote(r, a),
          "Epsilon* paper App. B.1, conclusion of the simulation (Figs. 4-5)",
          cases > 0 && failures == 0, ev};
}

Claim BiasesShrinkClaim(const DistanceConfig& c, const DistanceResults& r, size_t a) {
  int cases = 0, failures = 0;
  std::string fails, rows;
  for (size_t e : {r.claim.empirical, r.claim.parametric}) {
    for (size_t i = 0; i < c.distances.size(); ++i) {
      ++cases;
      bool mono = true;
      std::string seq;
      for (size_t k = 0; k < r.N; ++k) {
        seq += (k ? " -> " : "") + FormatSignificant(r.Bias(a, e, i, k));
        if (k > 0 && !(std::abs(r.Bias(a, e, i, k)) < std::abs(r.Bias(a, e, i, k - 1)))) {
          mono = false;
        }
      }
      const std::string which = r.names[e] + " d=" + FormatDouble(c.distances[i]);
      if (!mono) {
        ++failures;
        Append(fails, ", ", which);
      }
      Append(rows, "; ", which + ": " + seq);
    }
  }
  std::string ev =
      "criterion: for empirical and parametric at every d, |bias| strictly "
      "decreases from each n to the next (n = " +
      Join(c.est.n) + "); " + std::to_string(cases - failures) + " of " + std::to_string(cases) +
      " (estimator, d) sequences decrease";
  if (!fails.empty()) ev += "; not decreasing: " + fails;
  ev += "; biases along n: " + rows;
  return {"epsilon_star_distance_biases_shrink_with_n" + Suffix(a),
          "The bias of both implementations is larger for smaller loss samples and is "
          "mitigated by increasing the sample size" +
              WindowNote(r, a),
          "Epsilon* paper App. B.1, Fig. 5", r.N >= 2 && failures == 0, ev};
}

std::string DistanceLostParameters(const DistanceConfig& c, const DistanceResults& r, Scale scale) {
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

Status WriteDistanceResults(const DistanceConfig& c, const DistanceResults& r, Scale scale,
                            ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteValues(c, r, out));
  PB_RETURN_IF_ERROR(WriteSettings(c, r, out));
  PB_RETURN_IF_ERROR(out.WriteTable(DistanceExactTable(c, r)));
  for (size_t a = 0; a < r.analyses.size(); ++a) {
    PB_RETURN_IF_ERROR(out.WriteTable(DistanceTable(c, r, a)));
    PB_RETURN_IF_ERROR(WriteJudgedClaim(D0OvershootsClaim(c, r, a), out));
    PB_RETURN_IF_ERROR(WriteJudgedClaim(UndershootsClaim(c, r, a), out));
    PB_RETURN_IF_ERROR(out.WriteClaim(MoreAccurateClaim(c, r, a)));
    PB_RETURN_IF_ERROR(out.WriteClaim(BiasesShrinkClaim(c, r, a)));
  }
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "epsilon_star_options_primary",
                                      EpsilonStarOptionsText(r.analyses[0].options)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "epsilon_star_options_common_window",
                                      EpsilonStarOptionsText(r.analyses[1].options)));
  return out.SetAttribute("/meta", "lost_parameters", DistanceLostParameters(c, r, scale));
}

}  // namespace privbench::epsilon_star_distance
