// Study epsilon_star_noise_curves: the verdicts of its claims (statements
// and criteria in claims.json) on Fig. 3: each term's maximum at the ends of
// the rate arrays, and the empirical terms noisier at the ends than in the
// centre.
#include "core/stats.h"
#include "experiments/epsilon_star_noise_curves/report.h"
#include "results/evidence.h"

namespace privbench::epsilon_star_noise_curves {

Claim MaxAtEndsClaim(const NoiseCurves& r) {
  bool holds = true;
  Evidence ev;
  ev << "ends: FNR (term1) or FPR (term2) < " << kEndRate;
  for (int k = 0; k < 2; ++k) {
    for (bool first : {true, false}) {
      const TermMax m = MaxOf(CurveOf(r, k), first);
      const bool at_end = m.denominator_rate < kEndRate;
      holds = holds && at_end;
      ev << "; " << kCurveNames[k] << " " << TermName(first) << " max " << m.value << " at tau "
         << m.threshold << " (" << (first ? "FNR " : "FPR ") << m.denominator_rate
         << (at_end ? ")" : ", NOT at an end)");
    }
  }
  return ClaimEvidence("epsilon_star_noise_curves_max_at_ends", holds, ev);
}

Claim NoiseAtEndsClaim(const Config& c, const NoiseCurves& r) {
  bool holds = true;
  Evidence ev;
  ev << "n = " << c.n << "; median |ln(empirical term / exact term)| at the ends (exact "
     << "denominator rate < " << kEndRate << ") vs the centre (in [" << kCentreLo << ", "
     << kCentreHi << "])";
  for (bool first : {true, false}) {
    const LogErrorsByRegion e = LogErrors(r, first);
    const double me = Median(e.ends), mc = Median(e.centre);
    const bool ok = !e.ends.empty() && !e.centre.empty() && me > mc;
    holds = holds && ok;
    ev << "; " << TermName(first) << ": ends " << me << " (" << e.ends.size()
       << " points) vs centre " << mc << " (" << e.centre.size() << " points)"
       << (ok ? "" : " NOT larger at the ends");
  }
  return ClaimEvidence("epsilon_star_noise_curves_noise_at_ends", holds, ev);
}

}  // namespace privbench::epsilon_star_noise_curves
