// Rényi DP of the sampled Gaussian mechanism and its conversion to
// (eps, delta)-DP: the computation shared by the `rdp` and `rdp_improved`
// accountants (docs/studies.md, Accounting reference).
//
// WHAT: one DP-SGD step with Poisson sampling rate q and noise multiplier
// sigma is (alpha, rdp(alpha))-RDP with
//   rdp(alpha) = ln A_alpha / (alpha - 1),
//   A_alpha = E_{z ~ mu0} [((1 - q) + q mu1(z)/mu0(z))^alpha],
// mu0 = N(0, sigma^2), mu1 = N(1, sigma^2) (Mironov, Talwar & Zhang 2019,
// "Rényi Differential Privacy of the Sampled Gaussian Mechanism", Thm 4 and
// Sec. 3.3), and T steps are (alpha, T rdp(alpha))-RDP (Mironov 2017,
// Prop. 1). q = 1 is the plain Gaussian mechanism: rdp = alpha/(2 sigma^2).
//
// HOW (all in log space):
//  - integer alpha: the exact binomial sum (MTZ Sec. 3.3)
//      A = sum_{i=0}^{alpha} C(alpha,i) (1-q)^{alpha-i} q^i e^{(i^2-i)/(2 sigma^2)},
//    summed as A - 1 = sum_{i>=2} C(alpha,i) (1-q)^{alpha-i} q^i (e^{(i^2-i)/(2 sigma^2)} - 1)
//    (nonnegative terms, no cancellation when A is 1 + 1e-13), skipping
//    blocks of terms that a concavity bound proves negligible (< e^-60 of
//    the largest term);
//  - fractional alpha: the two-sided series of MTZ Sec. 3.3 (TF Privacy's
//    _compute_log_a_frac), split at z0 = sigma^2 ln(1/q - 1) + 1/2 where the
//    two mixture components are equal:
//      A = sum_i C(alpha,i) [ (1-q)^{alpha-i} q^i e^{(i^2-i)/(2s^2)} erfc((i - z0)/(sqrt2 s))/2
//                            + q^{alpha-i} (1-q)^i e^{(j^2-j)/(2s^2)} erfc((z0 - j)/(sqrt2 s))/2 ],
//    j = alpha - i, with SIGNED binomial coefficients C(alpha, i). For
//    i > alpha the coefficients alternate in sign; summing absolute values
//    (a known trap) overstates A - 1, e.g. 130x at q = 0.02, sigma = 136.67, alpha = 1.5.
//    Once the erfc argument is >= 0 a term is evaluated in the equivalent
//    form C(alpha,i) (1-q)^alpha e^{-z0^2/(2 s^2)} erfcx(x)/2 (the Gaussian
//    factors cancel exactly), so no large exponents cancel numerically.
//    The head terms sum to ~1, so when A - 1 is tiny (large sigma, small q)
//    ln A keeps only its absolute precision of ~1e-16 (TF Privacy has the
//    same limit); such orders are never the minimising ones there.
//    Summation (default kAccelerated): terms i < ceil(alpha) (positive) are
//    added directly; the tail i >= ceil(alpha) is an alternating series whose
//    magnitudes are a Hausdorff moment sequence in i (|C(alpha,i)| is a Beta
//    moment for i > alpha, each bracket is a moment of the ratio of the two
//    mixture components on its side of z0, and products and sums of moment
//    sequences are moment sequences), so the Cohen-Rodriguez Villegas-
//    Zagier acceleration (Exp. Math. 9, 2000, Algorithm 1) with n = 30 terms
//    sums it with error <= 2 a0 / 5.8^30 = 2e-23 a0 (a0 = first tail magnitude). TF
//    Privacy's term-by-term loop (kPlain here) needs hundreds to thousands of
//    terms at small sigma, where the tail decays only polynomially.
//
// Conversions to (eps, delta) for total RDP r = T rdp(alpha):
//  - classic (Mironov 2017, Prop. 3):  eps = r + ln(1/delta)/(alpha - 1);
//  - improved (Canonne, Kamath & Steinke 2020, Prop. 12; Balle et al. 2020,
//    Thm 21): eps = r + ln(1 - 1/alpha) - (ln delta + ln alpha)/(alpha - 1),
//    clamped at 0; never larger than the classic value.
// eps is minimised over the order list, with exact pruning: rdp is
// nondecreasing in alpha (monotonicity of Rényi divergence), so once
// r = T rdp(alpha) is known, every larger order has eps >= r (classic) or
// >= r + ln(1 - 1/alpha) - ln(alpha)/(alpha - 1) (improved), and every
// larger order alpha' has eps >= conversion(r, alpha'). A doubling
// subsequence of the integer orders (2, 4, 8, ...) is computed first, then
// only the orders these bounds do not rule out; nothing that could be the
// minimum is skipped (a test compares with the brute-force minimum).
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_SAMPLED_GAUSSIAN_RDP_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_SAMPLED_GAUSSIAN_RDP_H_

#include "core/result.h"
#include "estimators/accountants/accountant.h"

namespace privbench {

// Largest order accepted (the integer sum costs O(alpha)).
inline constexpr double kMaxRdpOrder = 1 << 20;

// How the fractional-order series is summed.
enum class RdpSeriesSummation {
  kAccelerated,     // default: direct head + CRVZ-accelerated alternating tail
  kPlain,           // term by term until a term is < e^-36 of the partial sum (TF Privacy style)
  kAbsoluteValues,  // WRONG on purpose: sums |terms|; shows the overstatement trap (tests)
};

// ln A_alpha (see above) for q in (0, 1], sigma > 0 finite, alpha in
// (1, kMaxRdpOrder]; errors name the argument. Integer alpha (alpha ==
// floor(alpha)) always uses the exact binomial sum, and `summation` only
// affects fractional alpha.
Result<double> SampledGaussianLogA(double q, double sigma, double alpha,
                                   RdpSeriesSummation summation = RdpSeriesSummation::kAccelerated);

// Per-step RDP: ln A_alpha / (alpha - 1); alpha / (2 sigma^2) for q = 1.
Result<double> SampledGaussianRdp(double q, double sigma, double alpha,
                                  RdpSeriesSummation summation = RdpSeriesSummation::kAccelerated);

enum class RdpConversion { kClassic, kImproved };

// eps for total RDP `rdp_total` at order alpha > 1 and delta in (0, 1)
// (unchecked); the improved conversion is clamped at 0.
double RdpToEpsilon(double rdp_total, double alpha, double delta, RdpConversion conversion);

// min over the setting's orders (DefaultRdpOrders() if empty) of
// RdpToEpsilon(T * rdp(alpha)), with the minimising order. Validates the
// setting (ValidateDpSgdAccounting) and the order limit.
Result<AccountantResult> SampledGaussianRdpEpsilon(const DpSgdAccounting& setting,
                                                   RdpConversion conversion);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_SAMPLED_GAUSSIAN_RDP_H_
