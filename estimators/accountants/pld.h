// Privacy-loss-distribution (PLD) accountant for DP-SGD: the registry's
// `pld` (docs/studies.md, Accounting reference").
//
// WHAT: an UPPER BOUND on the smallest eps such that T steps of the
// Poisson-subsampled Gaussian mechanism (rate q, noise multiplier sigma,
// sensitivity 1) are (eps, delta)-DP under add/remove-one adjacency, and
// the matching delta(eps). Both directions are accounted (remove: P = (1-q)
// N(0,s^2) + q N(1,s^2) against Q = N(0,s^2); add: the roles swapped) and the
// worse is reported.
//
// HOW:
//  1. One step's privacy loss L = ln(P/Q)(X), X ~ P, is discretised on the
//     grid {i h} (h = the `discretization` interval, default 1e-4) by the
//     pessimistic "connect the dots" rule (Doroshenko, Ghazi, Kamath, Kumar &
//     Manurangsi, "Connect the Dots", PETS 2022, Alg. 1 and Thm 4.4): the
//     mass of each loss interval (i h, (i+1) h] is split between its two
//     ends so that both its P-mass and its Q-mass (P-mass times e^-L) are
//     kept. Its hockey-stick curve delta(eps) is the chord, in e^eps, of the
//     true (convex) curve, so it lies above it: the discretised PLD
//     dominates the true one, and domination survives composition. Mass of
//     losses above the grid's top (P-mass < 1e-30 per step) goes to a
//     point at +inf; mass below its bottom is moved up to the bottom.
//  2. T steps compose by one FFT (FFTW, real-to-complex), an elementwise
//     T-th power by repeated squaring, and one inverse FFT (Koskela, Jälkö &
//     Honkela, AISTATS 2020). The FFT is cyclic, so the result is read on a
//     window [A, B] of composed losses chosen by Chernoff bounds on the
//     discretised step PLD (P(L_T > B) <= e^{-lambda B} M(lambda)^T, min over
//     a grid of lambda, target 1e-25; the same below A). Mass wrapping from
//     below A lands at higher losses (pessimistic); mass above B may wrap to
//     lower losses, so the rigorous Chernoff bound on it is added to the mass
//     at +inf (the tail handling of Meiser & Mohammadi, CCS 2018).
//  3. delta(eps) = m_inf + sum_j p_j (1 - e^{eps - l_j})_+ and its inverse
//     eps(delta) are read exactly off the composed discrete PLD (delta is
//     piecewise of the form S - W e^eps between grid losses).
//
// UPPER BOUND AND DISCRETISATION ERROR (derivation): rounding each interval's
// mass up to its right end dominates the connect-the-dots split (on every
// interval the split's chord lies below the rounded-up atom's line), and
// rounding up raises every step's loss by less than h, so coupled over T
// steps the composed loss rises by less than T h: delta_rounded(eps) <=
// delta_true(eps - T h). Hence, with m_inf the mass at +inf (reported tails,
// < 1e-20 in practice),
//     eps_true(delta) <= eps_pld(delta) <= eps_true(delta - m_inf) + T h.
// That worst case is loose: the connect-the-dots error is second order in
// h, and refining the grid can only lower the answer (the chord of a convex
// curve on a refined grid lies below the coarse chord), so eps(h/2) <=
// eps(h) and the answers converge as h -> 0 (tested in pld_test.cc: at T =
// 14,063 the change from h = 1e-4 to 5e-5 is < 1e-3 while T h = 1.4).
// Floating point: the FFT adds ~1e-16 of the largest mass per entry.
//
// FULL BATCH (q = 1): T Gaussian steps are exactly (sqrt(T)/sigma)-GDP, so
// PldEpsilon and PldDelta answer with that closed form (gaussian_dp.h) at any
// number of steps, with no grid (`interval` 0); DpSgdPld still builds the
// grid (the tests check the grid against the closed form there).
//
// WORK BOUND (q < 1): the composed grid indices T i must stay below 2^62 in
// magnitude, and a coarsened grid must keep at least 3 points per step;
// beyond either, the request is refused naming steps (in well under a
// second). In practice steps up to ~1e9 are answered; the rdp accountants
// answer any steps in time independent of T.
//
// SIZE: the grid has at most 2^21 points per step and per composed window;
// a setting that needs more (eps in the hundreds, or sigma < 0.3 with
// large T) uses the coarser interval h 2^k, which is still an upper bound
// (reported as `interval` below). delta below m_inf cannot be certified and
// is refused with a message naming delta.
//
// RANGE: sigma >= 1e-6 (validated by pld_sweep_test.cc over sigma in [1e-6,
// 100]: never below the exact one-step eps, monotone in sigma); smaller
// sigma is refused naming sigma. Losses reach ~1/(2 sigma^2) (1e4..1e11 for
// sigma 1e-2..1e-6), so every e^loss, e^h and ln(1 - q + q e^t) is taken in
// logs; a discretised or composed PLD whose masses are not finite or do not
// sum to 1 is refused, never read (overflow there once turned high-loss mass
// into NaN that was read as 0, giving eps ~1 where the truth is ~3000).
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_PLD_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_PLD_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "estimators/accountants/accountant.h"

namespace privbench {

inline constexpr double kDefaultPldDiscretization = 1e-4;

// The finest `discretization` the pld accountant accepts (its work bound;
// calibrate's is kMinCalibratedDiscretization). Finer requests were
// silently coarsened to 2^21 grid points per step anyway, and composing
// those took seconds per call (q=0.01 steps=1000: discretization 1e-300
// 6.4 s, 1e-5 2.5 s, the default 1e-4 0.2 s). DpSgdPld refuses finer ones,
// naming discretization.
inline constexpr double kMinPldDiscretization = 1e-5;

// A discrete privacy loss distribution: P-mass masses[i] at loss
// (first_index + i) * interval, and infinity_mass at loss +inf.
struct PrivacyLossDistribution {
  double interval = kDefaultPldDiscretization;
  int64_t first_index = 0;
  std::vector<double> masses;
  double infinity_mass = 0.0;

  // delta(eps) = infinity_mass + sum_j masses[j] (1 - e^{eps - l_j})_+.
  double DeltaForEpsilon(double epsilon) const;
  // The smallest eps >= 0 with DeltaForEpsilon(eps) <= delta (exact for this
  // discrete distribution); +inf when delta <= infinity_mass.
  double EpsilonForDelta(double delta) const;
};

// Which neighbour plays P (the distribution the loss is drawn under).
enum class PldDirection { kRemove, kAdd };

// One step's pessimistic connect-the-dots PLD on the grid of spacing
// `interval` (step 1 above). sigma > 0, q in (0, 1], interval > 0.
Result<PrivacyLossDistribution> SampledGaussianStepPld(double sigma, double q,
                                                       PldDirection direction, double interval);

// The T-fold composition of `step` by FFT, on a Chernoff window (step 2).
Result<PrivacyLossDistribution> ComposeSelf(const PrivacyLossDistribution& step, int64_t steps);

// The composed PLD of a DP-SGD setting in one direction, with the grid
// coarsened (h 2^k) when the window would exceed 2^21 points.
Result<PrivacyLossDistribution> DpSgdPld(const DpSgdAccounting& setting, PldDirection direction);

struct PldAccounting {
  double epsilon = 0.0;         // max of the two directions
  double remove_epsilon = 0.0;  // direction kRemove
  double add_epsilon = 0.0;     // direction kAdd
  double interval = 0.0;        // the grid interval actually used (largest of the two)
};

// eps(setting.delta); setting.discretization (0 = kDefaultPldDiscretization)
// is the requested interval. Errors name delta when it is below the mass
// at +inf.
Result<PldAccounting> PldEpsilon(const DpSgdAccounting& setting);

// delta(epsilon) for the setting (setting.delta is not used), the max of the
// two directions; epsilon must be finite and >= 0.
Result<double> PldDelta(const DpSgdAccounting& setting, double epsilon);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_PLD_H_
