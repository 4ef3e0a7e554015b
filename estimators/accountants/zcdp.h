// zCDP accounting as Jayaraman & Evans (USENIX Security 2019) apply it to
// DP-SGD (docs/studies.md, Accounting reference).
//
// WHAT: rho = E / (2 sigma^2) with E = T q epochs, i.e. each epoch is
// counted as one Gaussian mechanism of sensitivity 1 (rho = 1/(2 sigma^2),
// Bun & Steinke 2016, Prop. 1.6) composed E times (Lemma 1.7), with NO
// amplification by sampling; converted by
//   eps = rho + 2 sqrt(rho ln(1/delta))            (Bun & Steinke 2016, Prop. 1.3).
// ASSUMPTIONS: J&E's model, reproduced as is; that_which_we_call_private
// Sec. 4 notes that it ignores sampling and is therefore weaker than RDP.
// E = T q need not be an integer.
//
// THE OPTIMAL CONVERSION (CdpDelta, CdpEpsilon, CdpRho; the zcdp_optimal
// accountant): Canonne, Kamath & Steinke, "The Discrete Gaussian for
// Differential Privacy", NeurIPS 2020 (arXiv:2004.00010v3, p. 13, the
// zCDP-to-approximate-DP conversion): rho-zCDP implies (eps, delta)-DP for
//   delta(eps) = inf_{alpha > 1} exp((alpha-1)(alpha rho - eps)) / alpha
//                                * (1 - 1/alpha)^(alpha-1),
// every alpha > 1 giving a valid (if larger) delta. The same expression
// without the factor (1 - 1/alpha)^(alpha-1) / alpha <= 1 gives Bun &
// Steinke's rho + 2 sqrt(rho ln(1/delta)), so the conversion is never
// worse than ZcdpToEpsilon. (It is the conversion of ryan112358/
// private-pgm's mechanisms/cdp2adp.py, cdp_delta / cdp_eps / cdp_rho,
// computed here without its iteration-count and alpha >= 1.01 hacks.)
// HOW: ln delta(alpha) is strictly convex in alpha (second derivative
// 2 rho + 1/(alpha(alpha-1)) > 0), so its minimiser is the unique root of
// its derivative (2 alpha - 1) rho - eps + ln(1 - 1/alpha), found by Boost's
// TOMS 748 in u = ln(alpha - 1) (the optimum sits at alpha - 1 ~ e^-(rho -
// eps) when rho >> eps, where delta ~ 1, and at alpha ~ eps/(2 rho) when
// rho << eps). All in log space: no overflow for any finite rho. alpha - 1
// is capped at e^700, which loosens delta only for rho below ~1e-300.
// CdpEpsilon and CdpRho invert the continuous, strictly monotone ln delta by
// TOMS 748 to ~1e-15 relative (~1e-12 at rho ~ 1e300, where delta drops from
// ~1 to ~0 within a few ulps of eps), returning the end of the final bracket
// on the valid side (delta <= target).
// ASSUMPTIONS: the mechanism is rho-zCDP (Renyi divergence of order alpha
// at most alpha rho for every alpha > 1); the bound is for add/remove or
// replace neighbours alike, whichever the zCDP statement was for.
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ZCDP_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ZCDP_H_

#include <cstdint>

#include "core/result.h"

namespace privbench {

// rho = T q / (2 sigma^2). Preconditions (unchecked): a valid setting.
double JayaramanEvansZcdpRho(double sigma, double q, int64_t steps);

// rho + 2 sqrt(rho ln(1/delta)). Preconditions (unchecked): rho >= 0, delta in (0, 1).
double ZcdpToEpsilon(double rho, double delta);

// delta(eps) of the optimal conversion above (in [0, 1]; 0 at rho = 0).
// rho finite and >= 0, eps finite and >= 0 (errors name the argument).
Result<double> CdpDelta(double rho, double eps);

// The smallest eps >= 0 with CdpDelta(rho, eps) <= delta (0 at rho = 0).
// rho finite and >= 0, delta in (0, 1). Never above ZcdpToEpsilon(rho, delta).
Result<double> CdpEpsilon(double rho, double delta);

// The largest rho with CdpDelta(rho, eps) <= delta: the zCDP budget that
// guarantees (eps, delta)-DP. eps finite and >= 0, delta in (0, 1).
Result<double> CdpRho(double eps, double delta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ZCDP_H_
