// Study bayes_sample_size: the verdicts of its four claims (statements and
// sources in claims.json) on the samples each interval needs to reach the
// target width (Bayesian paper Sec. 3.4, Fig. 4).
#include <algorithm>
#include <cmath>
#include <limits>

#include "experiments/bayes_sample_size/report.h"
#include "results/evidence.h"

namespace privbench::bayes_sample_size {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// "samples needed (width stays <= 0.3): Clopper-Pearson ..., ..."
Evidence NeededLine(const Config& c, const Results& r, const PaperMethods& p) {
  return Evidence() << "samples needed (width stays <= " << r.target_width << "): Clopper-Pearson "
                    << NeededText(r.needed[p.clopper_pearson].stays, c.n_max) << ", Jeffreys "
                    << NeededText(r.needed[p.jeffreys].stays, c.n_max) << ", Bayesian "
                    << NeededText(r.needed[p.bayesian].stays, c.n_max);
}

Claim FewestClaim(const Config& c, const Results& r, const PaperMethods& p) {
  const int64_t n_cp = r.needed[p.clopper_pearson].stays, n_jf = r.needed[p.jeffreys].stays,
                n_by = r.needed[p.bayesian].stays;
  const bool holds = n_by > 0 && (n_cp < 0 || n_by < n_cp) && (n_jf < 0 || n_by < n_jf);
  return ClaimEvidence("bayes_sample_size_bayesian_fewest", holds,
                       NeededLine(c, r, p)
                           << "; criterion: Bayesian reaches the target and needs strictly fewer "
                              "than Clopper-Pearson and Jeffreys");
}

Claim JeffreysMarginalClaim(const Config& c, const Results& r, const PaperMethods& p) {
  const int64_t n_cp = r.needed[p.clopper_pearson].stays, n_jf = r.needed[p.jeffreys].stays;
  const double rel = (n_cp > 0 && n_jf > 0) ? 1.0 - static_cast<double>(n_jf) / n_cp : kNan;
  const bool holds = n_cp > 0 && n_jf > 0 && n_jf < n_cp && rel <= 0.2;
  Evidence e = NeededLine(c, r, p) << "; Jeffreys saves ";
  if (std::isnan(rel)) {
    e << "n/a";
  } else {
    e << 100 * rel << "%";
  }
  e << " of CP's samples; criterion: Jeffreys needs fewer than CP, and at most 20% fewer "
       "('marginally')";
  return ClaimEvidence("bayes_sample_size_jeffreys_marginal", holds, e);
}

Claim OverFiveHundredClaim(const Config& c, const Results& r, const PaperMethods& p) {
  const int64_t n_by = r.needed[p.bayesian].stays;
  return ClaimEvidence("bayes_sample_size_bayesian_over_500", n_by > 500,
                       Evidence() << "Bayesian samples needed " << NeededText(n_by, c.n_max)
                                  << "; criterion: more than 500 (the 'over' part; the number "
                                     "itself is checked against 500 with a tolerance)");
}

// Narrowest at every n among the paper's three methods.
Claim NarrowestClaim(const Results& r, const PaperMethods& p) {
  const std::vector<double>& w_cp = r.width[p.clopper_pearson];
  const std::vector<double>& w_jf = r.width[p.jeffreys];
  const std::vector<double>& w_by = r.width[p.bayesian];
  int64_t violations = 0;
  int64_t first_violation = -1;
  double min_gap = std::numeric_limits<double>::infinity();
  for (size_t g = 0; g < r.n.size(); ++g) {
    const double other = std::min(w_cp[g], w_jf[g]);
    min_gap = std::min(min_gap, other - w_by[g]);
    if (!(w_by[g] < other)) {
      ++violations;
      if (first_violation < 0) first_violation = r.n[g];
    }
  }
  Evidence e;
  e << violations << " of " << r.n.size()
    << " grid n where the Bayesian width is not strictly smaller than both";
  if (first_violation >= 0) e << " (first at n = " << first_violation << ")";
  e << "; smallest margin min(CP, Jeffreys) - Bayesian = " << min_gap
    << "; widths at n = " << r.n.back() << ": CP " << w_cp.back() << ", Jeffreys " << w_jf.back()
    << ", Bayesian " << w_by.back();
  return ClaimEvidence("bayes_sample_size_bayesian_narrowest", violations == 0, e);
}

}  // namespace

std::vector<Claim> SampleSizeClaims(const Config& c, const Results& r, const PaperMethods& paper) {
  return {FewestClaim(c, r, paper), JeffreysMarginalClaim(c, r, paper),
          OverFiveHundredClaim(c, r, paper), NarrowestClaim(r, paper)};
}

}  // namespace privbench::bayes_sample_size
