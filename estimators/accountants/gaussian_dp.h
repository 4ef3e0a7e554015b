// Gaussian differential privacy (mu-GDP): the exact (eps, delta) profile of
// the Gaussian mechanism, and of any composition of Gaussian mechanisms.
//
// WHAT: a mechanism is mu-GDP when distinguishing neighbours is no easier
// than telling N(0, 1) from N(mu, 1) (Dong, Roth & Su, "Gaussian
// Differential Privacy", JRSS B 84(1), 2022, Def. 2.6). It is then
// (eps, delta)-DP exactly for
//     delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
// (Dong, Roth & Su 2022, Cor. 2.13; Balle & Wang, "Improving the Gaussian
// Mechanism for Differential Privacy", ICML 2018, Thm. 8), and no smaller
// delta holds. The Gaussian mechanism with sensitivity 1 and noise sigma is
// (1/sigma)-GDP; T of them compose to (sqrt(T)/sigma)-GDP (Dong, Roth & Su
// 2022, Cor. 3.3): DP-SGD without subsampling (q = 1) at any number of steps.
//
// NUMERICS: the second term is formed as e^{eps + ln Phi(.)}, so eps in the
// thousands (mu in the hundreds) neither overflows nor loses the term.
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_GAUSSIAN_DP_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_GAUSSIAN_DP_H_

#include "core/result.h"

namespace privbench {

// delta(eps) of mu-GDP. mu > 0 and finite, eps >= 0 and finite (errors name
// the argument).
Result<double> GaussianDpDelta(double mu, double epsilon);

// The smallest eps >= 0 with delta(eps) <= delta, to a relative accuracy of
// 1e-12 (bisection on the exact, decreasing delta(eps); at most 2,100
// evaluations). mu > 0 and finite, delta in (0, 1).
Result<double> GaussianDpEpsilon(double mu, double delta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_GAUSSIAN_DP_H_
