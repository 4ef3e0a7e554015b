// Study epsilon_star_identical: the verdicts of its claims (statements and
// criteria in claims.json) on identical loss distributions (Fig. 4), per
// analysis: parametric closer to the truth 0 than empirical, judged by exact
// sign tests, and both means shrinking with n.
#include <string>
#include <vector>
#include <xtensor/xview.hpp>

#include "experiments/epsilon_star_identical/report.h"
#include "results/evidence.h"

namespace privbench::epsilon_star_identical {

JudgedClaim ParametricCloserClaim(const Config& c, const IdenticalResults& r, size_t a) {
  const size_t emp = r.claim.empirical, par = r.claim.parametric, N = c.est.n.size();
  const auto mean = xt::view(r.moments.mean, xt::all(), a, xt::all());  // (n, estimator)
  const auto sd = xt::view(r.moments.sd, xt::all(), a, xt::all());
  Evidence rows;
  std::vector<SignTest> tests;
  for (size_t i = 0; i < N; ++i) {
    // Epsilon* >= 0 and the truth is 0: closer = smaller, replicate by replicate.
    const auto e = Repetitions(r.values, i, a, emp), p = Repetitions(r.values, i, a, par);
    tests.push_back(PairedSignTest({e.begin(), e.end()}, {p.begin(), p.end()}));
    const PairedDifference pd = Paired(e, p);
    rows << (i ? "; " : "") << "n=" << c.est.n[i] << ": empirical " << mean(i, emp) << " +- ";
    rows.Digits(sd(i, emp), 2) << " vs parametric " << mean(i, par) << " +- ";
    rows.Digits(sd(i, par), 2) << "; parametric smaller in " << SignTestText(tests.back())
                               << "; paired difference " << pd.mean << ", t = ";
    rows.Digits(pd.t, 2);
  }
  return SignTestClaim("epsilon_star_identical_parametric_closer" + AnalysisSuffix(a), tests, true,
                       Evidence() << "sign tests over " << c.est.repetitions
                                  << " paired repetitions, each at level 0.05/" << N,
                       "(n, repetition) pairs", "; mean +- sd: " + rows.str());
}

Claim BothShrinkClaim(const Config& c, const IdenticalResults& r, size_t a) {
  const size_t N = c.est.n.size();
  bool shrink = true;
  Evidence ev;
  ev << "means at n = ";
  for (size_t i = 0; i < N; ++i) ev << (i ? "," : "") << c.est.n[i];
  ev << ": ";
  for (size_t e : {r.claim.empirical, r.claim.parametric}) {
    const xt::xtensor<double, 1> mean = xt::view(r.moments.mean, xt::all(), a, e);
    ev << (e == r.claim.empirical ? "" : "; ") << r.names[e] << " ";
    bool mono = true;
    for (size_t i = 0; i < N; ++i) {
      ev << (i ? " -> " : "") << mean[i];
      if (i > 0 && !(mean[i] < mean[i - 1])) mono = false;
    }
    ev << (mono ? " (decreasing)" : " (NOT strictly decreasing)");
    shrink = shrink && mono;
  }
  return ClaimEvidence("epsilon_star_identical_both_shrink" + AnalysisSuffix(a), shrink, ev);
}

}  // namespace privbench::epsilon_star_identical
