// The output of study B1 epsilon_star_noise_curves (Negoescu et al.,
// PPAI-24, App. B, Fig. 3; README.md). Tables, claims and the
// lost-parameter text are pure functions of the computed curves.
//
// Output results/raw/epsilon_star_noise_curves.h5:
//   /exact/{threshold, fpr, fnr, term1, term2}         curve (a)
//   /empirical/{threshold, fpr, fnr, term1, term2}     curve (b), plus the
//     exact rates and terms at the same thresholds (exact_fpr, exact_fnr,
//     exact_term1, exact_term2), for the noise comparison
//   /samples/{train, population}                       the simulated losses
//   /numbers/noise_curves_{exact,empirical}_epsilon_star (log max{1, terms})
//   /summary tables, /claims.
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
#include "experiments/lib/framework/study.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_noise_curves {

// Largest ratio terms of each curve (one row per curve and term).
SummaryTable MaximaTable(const NoiseCurvesConfig& c, const NoiseCurves& r);
// Median and 90th percentile of the log errors by term and region.
SummaryTable NoiseTable(const NoiseCurvesConfig& c, const NoiseCurves& r);

// The two claims above.
Claim MaxAtEndsClaim(const NoiseCurves& r);
Claim NoiseAtEndsClaim(const NoiseCurvesConfig& c, const NoiseCurves& r);

// What the paper does not state and this study chose (/meta lost_parameters).
std::string NoiseCurvesLostParameters(const NoiseCurvesConfig& c, Scale scale);

// Writes everything listed above into `out`.
Status WriteNoiseCurvesResults(const NoiseCurvesConfig& c, const NoiseCurves& r, Scale scale,
                               ResultWriter& out);

}  // namespace privbench::epsilon_star_noise_curves

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_REPORT_H_
