// Parametric Epsilon* (Negoescu et al., PPAI-24, Sec. 3.1, footnote 2 and
// App. B; docs/studies.md A6).
//
// 1. Transform all losses with options.transform (default: the App. B
//    normalise / add 1 / exp(-x) / logit map, loss_transform.h), jointly
//    for train and population.
// 2. Fit a Normal by maximum likelihood (mean, sd with divisor n) to each
//    transformed sample (normal_fit.h). The App. B map is decreasing, so we
//    fit the NEGATED transformed values; then "member iff value <= tau"
//    holds in the fitted space for either transform.
// 3. With Phi the standard Normal CDF and fits N(mu_t, s_t), N(mu_p, s_p):
//      FPR(tau) = Phi((tau - mu_p)/s_p),   FNR(tau) = Phi((mu_t - tau)/s_t),
//    and Epsilon* = sup over tau with FPR, FNR in [clip_lo, clip_hi] of
//      log max{1, (1-delta-FPR)/FNR, (1-delta-FNR)/FPR}     (Sec. 3.1, Eq. 9).
//
// Evaluation of the supremum ("a dense grid of alpha"): the 2m grid
// thresholds of epsilon_star_options.h (population quantiles
// mu_p + s_p z_k and train quantiles mu_t + s_t z_k, z_k = Phi^-1(k/(m+1)),
// sharing one inverse per k) PLUS the two end thresholds of the window.
// Because both rates are continuous and monotone in tau, the kept set is an
// interval [tau_a, tau_b] with
//   tau_a = max(mu_p + s_p Phi^-1(clip_lo), mu_t - s_t Phi^-1(clip_hi)),
//   tau_b = min(mu_p + s_p Phi^-1(clip_hi), mu_t - s_t Phi^-1(clip_lo)),
// and for separated distributions the supremum sits at one of its ends
// (the ratio terms of Normal tails grow without bound, so the true
// Epsilon* of two Normals with different means is infinite: the window
// DEFINES the value). Evaluating the ends makes the result the supremum
// over the window up to the grid density in the interior; with the grid
// alone the result would depend on how the grid meets the window (for
// m = 10^6 and clip_lo = 10^-6 the smallest grid FNR inside the window is
// 2/(m+1), which changes the value by up to log 2).
//
// Keep vs clip (the paper lost its interval and says only "remove FNR and
// FPR values outside the interval" / "considering FNR and FPR values
// between"): thresholds whose rates leave the window are DROPPED, never
// clamped. Clamping a rate up (rate < clip_lo) yields a pair dominated by
// the window's end threshold, which we evaluate anyway, so it would change
// nothing; clamping a rate down (rate > clip_hi) yields a pair that is on
// no ROC curve and can beat every real pair (e.g. [1e-6, 0.999] would
// manufacture up to log(0.001/1e-6) = 6.9). At the two end thresholds the
// rates are clamped into the window only to undo rounding.
//
// Numerics: each Normal tail is computed directly with Boost's erfc (the
// smaller of CDF and survival function; the other is 1 minus it), so the
// numerators 1-delta-FPR and 1-delta-FNR carry no cancellation; z_k uses
// the smaller of k/(m+1) and (m+1-k)/(m+1).
//
// Assumptions: each transformed sample is roughly Normal (App. B.2 checks
// this with KS tests); the transformed samples must not be constant.
// Options rate_floor and rate_ceiling are validated but not used.
// Cost: one pass over the data for min/max and one for the moments (no
// copy), then O(m) with one inverse and two erfc per grid level.
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_PARAMETRIC_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_PARAMETRIC_H_

#include "core/result.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "estimators/loss_samples/normal_fit.h"

namespace privbench {

// Step 3 alone: Epsilon* of two Normal score distributions in the
// increasing orientation (member iff score <= tau), over the window
// [clip_lo, clip_hi]. Validates options and that both sd are finite and
// > 0 (messages name "train_fit.sd" / "population_fit.sd").
Result<double> EpsilonStarOfNormals(const NormalFit& train_fit, const NormalFit& population_fit,
                                    const EpsilonStarOptions& options);

// Steps 1-2: the Normal fits of the transformed samples, in the increasing
// orientation used by step 3 (negated values for a decreasing transform).
// Validates samples and transform; sd may be 0.
struct ParametricFits {
  NormalFit train;
  NormalFit population;
};
Result<ParametricFits> FitParametricEpsilonStar(const std::vector<double>& train_losses,
                                                const std::vector<double>& population_losses,
                                                LossTransform transform);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_PARAMETRIC_H_
