// One DP-SGD step as an (eps_s, q delta0)-DP mechanism: the per-step model
// behind the naive and advanced composition accountants (docs/studies.md,
// Accounting reference; that_which_we_call_private Table 1).
//
// WHAT: a step adds N(0, sigma^2) noise to a sum of sensitivity-1 (clipped)
// gradients, which is (eps0, delta0)-DP with the classical Gaussian
// mechanism calibration
//   eps0 = sqrt(2 ln(1.25/delta0)) / sigma        (Dwork & Roth 2014, Thm A.1);
// Poisson sampling at rate q amplifies it to (eps_s, q delta0)-DP with
//   eps_s = ln(1 + q (e^eps0 - 1))                 (Poisson subsampling: Li, Qardaji & Su 2012;
//                                                   Balle, Barthe & Gaboardi 2018).
// ASSUMPTIONS: Thm A.1 is proved for eps0 < 1 only; Table 1's model (and
// this library, to reproduce it) applies the formula at every sigma. For
// delta0 >= 1 a step is trivially (0, 1)-DP and eps_s = 0 is returned.
// NUMERICS: eps_s is formed in log space, so huge eps0 does not overflow.
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_GAUSSIAN_STEP_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_GAUSSIAN_STEP_H_

namespace privbench {

// eps0 = sqrt(2 ln(1.25/delta0)) / sigma; 0 for delta0 >= 1.
// Preconditions (unchecked): sigma > 0, delta0 > 0.
double GaussianMechanismEpsilon(double sigma, double delta0);
// The same from ln(delta0), for per-step deltas below the double range.
double GaussianMechanismEpsilonFromLogDelta(double sigma, double log_delta0);

// ln(1 + q (e^eps0 - 1)) without overflow or cancellation.
// Preconditions (unchecked): q in (0, 1], eps0 >= 0.
double AmplifyBySampling(double eps0, double q);

// eps_s of one sampled Gaussian step: AmplifyBySampling(GaussianMechanismEpsilon(sigma, delta0),
// q).
double SampledGaussianStepEpsilon(double sigma, double q, double delta0);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_GAUSSIAN_STEP_H_
