// Study C4 epsilon_star_gof: goodness of fit of Gaussian mixtures to the
// transformed losses of Adult models trained with and without DP.
// Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning Models"
// (PPAI-24), App. B.2 "Goodness-of-fit for Parametric Distributions Fitted
// to Loss Data", Fig. 6; README.md.
//
// Per repetition r and model type m in {no_dp, dp} (one sweep unit each,
// experiments/lib/framework/sweep.h: sharded with --shard=i/n, resumable,
// --merge_only; parts keyed by the configuration):
//  1. train an Adult MLP (models.h): non-private for baseline_epochs, or
//     DP-SGD to (dp_epsilon, delta = 1/n) for dp_epochs;
//  2. per-example cross-entropy losses on the training rows and on the
//     population rows; the App. B transform (normalise with the JOINT min and
//     max of both sets, add 1, p = exp(-x), logit) fitted on both sets, as
//     the parametric Epsilon* does (estimators/loss_samples/loss_transform.h);
//  3. App. B.2 on the transformed TRAINING losses (the paper's Fig. 6) and,
//     as an extra, on the transformed POPULATION losses: for every n_eval and
//     k = 1..max_components, split into fit / evaluation sets, fit a
//     k-component mixture by EM, draw n_eval values from the fit, two-sample
//     KS p-value against the evaluation set (compute.h);
//  4. extra (--carlini_analysis): step 3 again on Carlini et al.'s logit of
//     the confidence, logit(exp(-loss)), WITHOUT the App. B normalisation
//     (the paper calls its transform "similar to" Carlini's), at the primary
//     variance floor, on the same splits and sampling streams.
// Seeds: model m, repetition r trains from DeriveSeed(seed, {1, m, r}); the
// GOF of loss set s uses DeriveSeed(seed, {2, m, r, s}).
//
// Output results/raw/epsilon_star_gof.h5:
//   /settings/{n_eval [I], components [K], models [M], loss_sets [S],
//              variance_floors, analyses [A], analysis_transform [A],
//              analysis_variance_floor [A], analysis_label [A],
//              analysis_claim_suffix [A]}
//   /gof/<field> [M x R x S x A x I x K] (A = analyses: App. B transform at
//       each variance floor, then the Carlini logit): p_value (by the
//       primary --ks_method), p_exact, p_asymptotic, ks_statistic,
//       p_one_sample, d_one_sample,
//       heldout_log_likelihood, log_likelihood, bic, iterations, converged,
//       active_components, floored_components; /gof/fit_size [M x R x S x I]
//   /models/<field> [M x R] (accuracies, AUROC, membership AUC, eps, noise,
//       transform min/max, timings); /models/<model>/loss_per_epoch [R x E]
//   /losses/<model>/{train,population}[_transformed] [1 x n]: per-example
//       cross-entropy losses and their App. B transform, of the first
//       repetition (the figures' histograms; no claim reads them)
//   /numbers, /summary/{gof_by_n_eval, gof_by_components, models}, /claims
//       (report.h).
// Variance floors: EM needs a lower bound on component variances; its value
// (scikit-learn's reg_covar, 1e-6 by default) is lost in the paper and
// decides whether a component can follow the narrow spike that the App. B
// transform makes of the many near-zero training losses of a well-fit model
// (the joint min-max normalisation squeezes them next to logit(e^-1)). The
// first floor of --variance_floors is the primary analysis, the others are
// sensitivity analyses on the same splits and sampling streams.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_RUN_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_RUN_H_

#include "core/result.h"
#include "experiments/epsilon_star_gof/config.h"
#include "experiments/lib/framework/study.h"

namespace privbench::epsilon_star_gof {

// Runs this shard's units (training + goodness of fit) and, once every part
// exists, merges them into ctx.out() with the tables and claims.
Status RunGofStudy(const Config& config, StudyContext& ctx);

}  // namespace privbench::epsilon_star_gof

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_RUN_H_
