// Advanced composition of T sampled Gaussian steps with an optimised delta
// split (docs/studies.md, Accounting reference; that_which_we_call_private
// Table 1, "Advanced").
//
// WHAT: each step is (eps_s, q delta0)-DP (gaussian_step.h); the advanced
// composition theorem (Dwork, Rothblum & Vadhan 2010, Thm III.3; Dwork &
// Roth 2014, Thm 3.20) makes T of them (eps, T q delta0 + delta')-DP with
//   eps = sqrt(2 T ln(1/delta')) eps_s + T eps_s (e^eps_s - 1).
// The total delta is split as delta' = f delta, T q delta0 = (1 - f) delta,
// and eps is minimised over the fraction f: u = ln(f/(1-f)) (log-odds) is
// scanned on the integer grid [-745, 40] and refined by Boost's
// brent_find_minima within +-1 of the best grid point (the objective is
// unimodal in the settings we examined; the grid makes the search robust if
// it is not). Everything is in log space, so f far below 1e-300 is fine.
//
// Optima found (J&E Purchase-100: q = 0.02, T = 5000, delta = 1e-5), fraction
// f of delta given to delta':
//   sigma 136.67: eps 0.30831, f = 0.5766     sigma 13.76: eps 4.2271, f = 0.4653
//   sigma 6.99:   eps 12.315,  f = 0.3465     sigma 1.06:  eps 37557,  f = 2.19e-3
//   sigma 0.44:   eps 3.989e8, f = 5.06e-7
// At small sigma the second (T eps_s^2) term dominates and the optimum
// gives nearly all of delta to the per-step deltas. A fixed even split
// (f = 1/2) gives 0.30855 / 4.2278 / 12.363 / 44179 / 5.397e8.
// ASSUMPTIONS: as gaussian_step.h (Poisson sampling; the classical Gaussian
// calibration at every sigma). eps is +inf when T eps_s e^eps_s overflows.
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ADVANCED_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ADVANCED_H_

#include <cstdint>

namespace privbench {

struct AdvancedCompositionBound {
  double epsilon = 0.0;
  double delta_prime_fraction = 0.0;  // f = delta'/delta at the optimum
  double log_delta_prime = 0.0;       // ln delta'
  double log_step_delta = 0.0;        // ln delta0 (per-step delta before amplification)
  double step_epsilon = 0.0;          // eps_s at the optimum
};

// The DRV bound at a fixed log-odds split u = ln(f/(1-f)).
// Preconditions (unchecked): a setting that ValidateDpSgdAccounting accepts.
AdvancedCompositionBound AdvancedCompositionAtSplit(double sigma, double q, int64_t steps,
                                                    double delta, double log_odds_split);

// The DRV bound minimised over the split (see above). Preconditions as above.
AdvancedCompositionBound AdvancedCompositionEpsilon(double sigma, double q, int64_t steps,
                                                    double delta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ADVANCED_H_
