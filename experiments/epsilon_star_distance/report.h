// The output of study B3 epsilon_star_distance (Negoescu et al., PPAI-24,
// App. B.1, Fig. 5; README.md). Tables, claims and the
// lost-parameter text are pure functions of the computed results.
//
// Output results/raw/epsilon_star_distance.h5:
//   /settings/{d [D], n [N], population_shape [D], population_offset [D]}
//   /exact/{rate_window, clip_window, common_window} [D]
//   /<analysis>/<estimator>/{values [D x N x R], mean, sd, bias [D x N],
//                            exact_reference [D]}
//   /numbers/distance_exact_<window>_d<d>, /summary tables, /claims.
// Claims (App. B.1 on Fig. 5), criteria on the means over repetitions:
//   d0_empirical_overshoots_more: at d = 0 (true value 0) the empirical
//     mean exceeds the parametric mean at every n;
//   empirical_undershoots_more: at every d > 0 and every n the empirical
//     bias is negative and below the parametric bias;
//   biases_shrink_with_n: for empirical and parametric, at every d, |bias|
//     strictly decreases from each n to the next;
//   parametric_more_accurate (the paper's conclusion of App. B.1): at
//     every (d, n) the parametric root mean squared error against its exact
//     reference is below the empirical one.
// Each for the primary analysis and (suffix _common_window) the secondary.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_REPORT_H_

#include <string>

#include "core/result.h"
#include "experiments/epsilon_star_distance/compute.h"
#include "experiments/epsilon_star_distance/config.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/lib/framework/study.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_distance {

// The exact Epsilon* of every d on each window.
SummaryTable DistanceExactTable(const DistanceConfig& c, const DistanceResults& r);
// Mean, sd, exact reference and bias of every (d, n, estimator) in analysis
// `a` (0 primary, 1 common window).
SummaryTable DistanceTable(const DistanceConfig& c, const DistanceResults& r, size_t a);

// The four claims above for analysis `a`. d0_empirical_overshoots_more is
// judged per n by exact sign tests of "empirical > parametric" over the
// paired repetitions at family level 0.05 (experiments/lib/framework/
// judged_claim.h: reproduced or not reproduced each with error probability
// <= 5%, else inconclusive). empirical_undershoots_more likewise, by two
// sign tests per (d > 0, n) case (empirical below its exact value, and
// below parametric) at family level 0.05.
JudgedClaim D0OvershootsClaim(const DistanceConfig& c, const DistanceResults& r, size_t a);
JudgedClaim UndershootsClaim(const DistanceConfig& c, const DistanceResults& r, size_t a);
Claim MoreAccurateClaim(const DistanceConfig& c, const DistanceResults& r, size_t a);
Claim BiasesShrinkClaim(const DistanceConfig& c, const DistanceResults& r, size_t a);

// What the paper does not state and this study chose (/meta lost_parameters).
std::string DistanceLostParameters(const DistanceConfig& c, const DistanceResults& r, Scale scale);

// Writes everything listed above into `out`.
Status WriteDistanceResults(const DistanceConfig& c, const DistanceResults& r, Scale scale,
                            ResultWriter& out);

}  // namespace privbench::epsilon_star_distance

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_REPORT_H_
