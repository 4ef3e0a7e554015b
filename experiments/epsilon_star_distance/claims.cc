// The study's claims (report.h): Fig. 5's overshoot at d = 0, the
// undershoot for d > 0, the parametric estimate's accuracy and shrinking
// biases, judged by exact sign tests.
#include <cmath>
#include <string>
#include <vector>
#include <xtensor/xarray.hpp>
#include <xtensor/xview.hpp>

#include "core/format.h"
#include "experiments/epsilon_star_distance/report.h"
#include "results/evidence.h"
#include "results/h5_array.h"

namespace privbench::epsilon_star_distance {
namespace {

// "d=1,n=1000"
std::string CaseText(const Config& c, size_t i, size_t k) {
  return Evidence() << "d=" << c.distances[i] << ",n=" << c.est.n[k];
}

// `list`, followed by `sep` unless it is empty: the place of the next item.
Evidence& Next(Evidence& list, const char* sep) { return list << (list.str().empty() ? "" : sep); }

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

JudgedClaim D0OvershootsClaim(const Config& c, const DistanceResults& r, size_t a) {
  const size_t D = c.distances.size(), N = r.N, emp = r.claim.empirical, par = r.claim.parametric;
  size_t i0 = D;
  for (size_t i = 0; i < D; ++i) {
    if (c.distances[i] == 0.0) i0 = i;
  }
  Evidence ev;
  std::vector<SignTest> tests;
  if (i0 == D) {
    ev << "not evaluated: distances has no d = 0";
  } else {
    ev << "d = 0 (exact " << r.exact[0][i0] << "), sign tests over " << c.est.repetitions
       << " paired repetitions, each at level 0.05/" << N;
    const auto mean = xt::view(r.moments.mean, xt::all(), a, xt::all());  // (s, estimator)
    for (size_t k = 0; k < N; ++k) {
      const size_t s = i0 * N + k;
      const auto e = Repetitions(r.values, s, a, emp), p = Repetitions(r.values, s, a, par);
      tests.push_back(PairedSignTest({e.begin(), e.end()}, {p.begin(), p.end()}));
      ev << "; n=" << c.est.n[k] << ": empirical > parametric in " << SignTestText(tests.back())
         << "; means " << mean(s, emp) << " vs " << mean(s, par) << ", paired t ";
      ev.Digits(Paired(e, p).t, 2);
    }
  }
  return SignTestClaim("epsilon_star_distance_d0_empirical_overshoots_more" + AnalysisSuffix(a),
                       tests, true, ev, "(n, repetition) pairs", "");
}

JudgedClaim UndershootsClaim(const Config& c, const DistanceResults& r, size_t a) {
  const size_t emp = r.claim.empirical, par = r.claim.parametric;
  int cases = 0, par_over = 0, par_larger = 0;
  std::vector<SignTest> tests;
  Evidence rows;
  for (size_t i = 0; i < c.distances.size(); ++i) {
    if (!(c.distances[i] > 0.0)) continue;
    for (size_t k = 0; k < r.N; ++k) {
      ++cases;
      const double be = r.Bias(a, emp, i, k), bp = r.Bias(a, par, i, k);
      const std::vector<SignTest> t = UndershootTests(r, a, i, k);
      tests.insert(tests.end(), t.begin(), t.end());
      Next(rows, "; ") << CaseText(c, i, k) << ": bias " << be << " vs " << bp
                       << ", empirical below exact in " << SignTestText(t[0])
                       << ", below parametric in " << SignTestText(t[1]);
      if (bp > 0.0) ++par_over;
      if (std::abs(bp) > std::abs(be)) ++par_larger;
    }
  }
  Evidence head, tail;
  head << cases << " (d, n) cases, two sign tests each over " << c.est.repetitions
       << " paired repetitions, each at level 0.05/" << tests.size();
  tail << "; the parametric bias (mean - exact) is positive (overshoot) in " << par_over << " of "
       << cases << " cases and larger in absolute value than the empirical bias in " << par_larger
       << " of " << cases << "; " << rows.str();
  return SignTestClaim("epsilon_star_distance_empirical_undershoots_more" + AnalysisSuffix(a),
                       tests, cases > 0, head, "paired comparisons", tail);
}

Claim MoreAccurateClaim(const Config& c, const DistanceResults& r, size_t a) {
  const size_t emp = r.claim.empirical, par = r.claim.parametric;
  int cases = 0, failures = 0;
  Evidence fails, rows;
  for (size_t i = 0; i < c.distances.size(); ++i) {
    for (size_t k = 0; k < r.N; ++k) {
      const size_t s = i * r.N + k;
      const double re = Rmse(Repetitions(r.values, s, a, emp), r.Reference(a, emp)[i]);
      const double rp = Rmse(Repetitions(r.values, s, a, par), r.Reference(a, par)[i]);
      ++cases;
      if (!(rp < re)) {
        ++failures;
        Next(fails, ", ") << CaseText(c, i, k);
      }
      Next(rows, "; ") << CaseText(c, i, k) << ": " << re << " vs " << rp;
    }
  }
  Evidence ev;
  ev << "RMSE over " << c.est.repetitions
     << " repetitions against the exact value on the window used: parametric below empirical in "
     << cases - failures << " of " << cases << " (d, n) cases";
  if (failures > 0) ev << "; fails at " << fails.str();
  ev << "; RMSE empirical vs parametric: " << rows.str();
  return ClaimEvidence("epsilon_star_distance_parametric_more_accurate" + AnalysisSuffix(a),
                       cases > 0 && failures == 0, ev);
}

Claim BiasesShrinkClaim(const Config& c, const DistanceResults& r, size_t a) {
  int cases = 0, failures = 0;
  Evidence fails, rows;
  for (size_t e : {r.claim.empirical, r.claim.parametric}) {
    for (size_t i = 0; i < c.distances.size(); ++i) {
      ++cases;
      const std::string which = Evidence() << r.names[e] << " d=" << c.distances[i];
      Next(rows, "; ") << which << ": ";
      bool mono = true;
      for (size_t k = 0; k < r.N; ++k) {
        rows << (k ? " -> " : "") << r.Bias(a, e, i, k);
        if (k > 0 && !(std::abs(r.Bias(a, e, i, k)) < std::abs(r.Bias(a, e, i, k - 1)))) {
          mono = false;
        }
      }
      if (!mono) {
        ++failures;
        Next(fails, ", ") << which;
      }
    }
  }
  Evidence ev;
  ev << "|bias| strictly decreasing along n = ";
  for (size_t k = 0; k < c.est.n.size(); ++k) ev << (k ? "," : "") << c.est.n[k];
  ev << " in " << cases - failures << " of " << cases << " (estimator, d) sequences";
  if (failures > 0) ev << "; not decreasing: " << fails.str();
  ev << "; biases along n: " << rows.str();
  return ClaimEvidence("epsilon_star_distance_biases_shrink_with_n" + AnalysisSuffix(a),
                       r.N >= 2 && failures == 0, ev);
}

}  // namespace privbench::epsilon_star_distance
