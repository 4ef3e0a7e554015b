// What study B1 epsilon_star_noise_curves (Negoescu et al., PPAI-24, App. B,
// Fig. 3; README.md) writes into results/raw/epsilon_star_noise_curves.h5:
//   /exact/{threshold, fpr, fnr, term1, term2}         curve (a) (attributes
//     quantiles_per_distribution, rate_floor, delta)
//   /empirical/{threshold, fpr, fnr, term1, term2}     curve (b), plus the
//     exact rates and terms at the same thresholds (exact_fpr, exact_fnr,
//     exact_term1, exact_term2), for the noise comparison (attribute n)
//   /samples/{train, population}                       the simulated losses
//     (attributes train, population: their distributions)
//   /numbers/noise_curves_{exact,empirical}_{epsilon_star,points} (Epsilon*
//     = log max{1, terms}) and noise_curves_term{1,2}_median_log_error_{ends,
//     centre}
//   /summary/noise_curves_maxima (the largest ratio terms of each curve) and
//     /summary/noise_curves_noise (the log errors by term and region)
//   /claims: the verdict and evidence of each claim below (the statements
//     and criteria come from claims.json)
//   /meta attribute lost_parameters.
// Claims (App. B on Fig. 3, "most noise and most signal occurs at the very
// ends of the FNR/FPR arrays ... the maximum occurs in the noisiest part"):
//   max_at_ends: on both curves, each term's maximum is at a threshold
//     whose denominator rate (FNR for term1, FPR for term2) is < 0.01;
//   noise_at_ends: the median |ln(empirical term / exact term)| at the
//     same thresholds is larger where the (exact) denominator rate is
//     < 0.01 than where it is in [0.1, 0.9], for both terms.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_REPORT_H_

#include <string>

#include "core/result.h"
#include "experiments/epsilon_star_noise_curves/compute.h"
#include "experiments/epsilon_star_noise_curves/config.h"
#include "experiments/lib/epsilon_star_sim/sim_report.h"
#include "experiments/lib/framework/study.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_noise_curves {

// What the report is written from (experiments/lib/epsilon_star_sim/
// sim_report.h SimStudyResults): the curves (.sim) and the scale they were computed
// at (.scale, for /meta lost_parameters).
using Results = SimStudyResults<NoiseCurves>;

// Writes everything listed above into `out`.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// The parts WriteReport writes, for the unit tests: the two summary tables
// (tables.cc), the two claims (claims.cc) and the /meta lost_parameters text
// (report.cc).
Result<SummaryTable> MaximaTable(const Config& c, const NoiseCurves& r);
Result<SummaryTable> NoiseTable(const Config& c, const NoiseCurves& r);
Claim MaxAtEndsClaim(const NoiseCurves& r);
Claim NoiseAtEndsClaim(const Config& c, const NoiseCurves& r);
std::string NoiseCurvesLostParameters(const Config& c, Scale scale);

// What the tables, the claims and the numbers share (tables.cc).
// The names of the two curves, by index k: 0 exact, 1 empirical.
inline constexpr const char* kCurveNames[2] = {"exact", "empirical"};
// Curve k of `r`: 0 the exact curve, 1 the empirical one.
const EpsilonStarCurve& CurveOf(const NoiseCurves& r, int k);
// The name of a ratio term: "term1" (first) or "term2".
std::string TermName(bool first);

}  // namespace privbench::epsilon_star_noise_curves

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_REPORT_H_
