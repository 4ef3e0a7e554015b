// Bayesian estimation of eps from the joint posterior of (FNR, FPR)
// (Zanella-Béguelin et al., ICML 2023, §3.2; docs/studies.md A3).
//
// Model (Eq. 2, 6): independent Jeffreys posteriors
//   FNR | counts ~ Beta(1/2 + FN, 1/2 + TP),  FPR | counts ~ Beta(1/2 + FP, 1/2 + TN).
// The posterior CDF of eps (Def. 3.1, Eq. 3) is the posterior mass of the
// privacy region R(eps, delta). R is bounded by straight lines, so
//   F(eps) = ∫ f_FNR(x) [G_FPR(hi(x)) - G_FPR(lo(x))] dx
// with lo(x) = max{0, 1-delta-e^eps x, (1-delta-x) e^-eps} and
// hi(x) = 1 - lo(1-x) (App. A.2's R_LO and R_HI), f/G the Beta pdf/CDF.
//
// Numerics: R is invariant under (x, y) -> (1-x, 1-y) (a test and its
// complement), so counts whose FNR posterior lies above 1/2 are mirrored and
// the integration variable x always has its mass in the lower half, where
// doubles resolve it. Every FPR probability is computed from the side where
// it is small (lower tail ibeta(a, b, t) or upper tail ibeta(b, a, 1-t)),
// with 1-lo and 1-hi formed without cancellation. The x-range is cut at the kinks of lo and hi and
// at the points where lo(x) or hi(x) leaves the bulk of the FPR posterior (posterior tail mass <
// 1e-15 each side). On pieces where G is constant (0 or 1) the integral is a difference of Beta
// CDFs (Boost ibeta); elsewhere it is globally adaptive Gauss-Kronrod (Boost's 21-point rule) to an
// absolute tolerance, after the substitution x = p + (q-p)(3u^2 - 2u^3), which smooths the
// x^(+-1/2) behaviour Beta(1/2, .) densities and CDFs have at piece ends. dF/deps is integrated on
// the same nodes (Reynolds transport, App. A.2 Eq. 12), and credible bounds solve F(eps) = p by
// safeguarded Newton (Boost newton_raphson_iterate) inside a bracket guaranteed by the rate-box
// argument: a box of posterior mass >= 1 - p lies outside R(min over the box), so that eps has F <=
// p; one of mass >= p lies inside R(max over the box), so that eps has F >= p. Newton starts from
// the empirical quantile of 2000 posterior draws (fixed seed), runs on coarse CDF evaluations
// (1e-6) and finishes with one step on an accurate one (1e-9).
#ifndef PRIVBENCH_ESTIMATORS_INTERVALS_BAYESIAN_H_
#define PRIVBENCH_ESTIMATORS_INTERVALS_BAYESIAN_H_

#include <utility>
#include <vector>

#include "core/result.h"
#include "estimators/confusion_counts.h"
#include "estimators/eps_from_rates.h"

namespace privbench {

// Largest number of positive (tp + fn) or negative (fp + tn) trials the
// posterior accepts: its accuracy (|error| <= 1e-4 in eps, symmetric under
// the privacy region's swaps) is validated up to here
// (tests/interval_metamorphic_test.cc). Beyond it the interval drifts: its
// FPR/FNR swap asymmetry at alpha = 0.001 is 1.1e-5 at 1e5 trials per side,
// 9.8e-5 at 2e5, 3.1e-4 at 5e5 and 1.9% at 1e9-1e12, where it is also
// non-monotone in alpha.
inline constexpr int64_t kBayesianMaxTrials = 100000;

// Smallest alpha (significance) the Bayesian methods accept. The posterior
// CDF F is computed to ~1e-9 absolute (quadrature) after ignoring 1e-15 of
// each rate's posterior mass, so a quantile F^-1(p) is resolved only for
// tail masses p well above 1e-9: at alpha/2 = 5e-7 the CDF error is 0.2% of
// p. Below it Boost's quantile iterations failed outright (alpha = 1e-100
// at tp=2 fn=3 fp=3 tn=2) or the answer would be quadrature noise.
inline constexpr double kBayesianMinAlpha = 1e-6;

class BayesianEpsPosterior {
 public:
  // Validates counts (each side at most kBayesianMaxTrials) and delta.
  static Result<BayesianEpsPosterior> Create(const ConfusionCounts& counts, double delta);

  // F(eps) = P[(FNR, FPR) in R(eps, delta) | counts], eps >= 0 (Eq. 3).
  double Cdf(double eps) const { return Evaluate(eps, 1e-10).cdf; }
  // dF/deps, the posterior density of eps away from its atom at 0 (Eq. 12).
  double Density(double eps) const { return Evaluate(eps, 1e-10).density; }

  struct Value {
    double cdf = 0.0;
    double density = 0.0;
  };
  // F and dF/deps with absolute quadrature error about `tol` on F.
  Value Evaluate(double eps, double tol) const;

  // inf{eps >= 0 : F(eps) >= p}: 0 when F(0) >= p, else the root of F = p
  // (Eq. 4-5 coincide for a continuous F). p must be in (0, 1). Accurate to
  // 1e-9 in eps; +inf if the root lies beyond eps = 700. p within
  // kBayesianMinAlpha / 2 of 0 or 1 is refused (not resolved; see there).
  Result<double> Quantile(double p) const;

  // [F^-1(alpha/2), F^-1(1 - alpha/2)] (Eq. 4-5), alpha in
  // [kBayesianMinAlpha, 1).
  Result<std::pair<double, double>> EqualTailedInterval(double alpha) const;

  // Posterior mass of a box of rates, P[FNR in box, FPR in box].
  double BoxMass(const RateBox& box) const;

  // Largest amount by which a quadrature error estimate exceeded the
  // requested tolerance so far (0 when every evaluation converged).
  double max_quadrature_error() const { return max_error_; }

 private:
  BayesianEpsPosterior(double ax, double bx, double ay, double by, double delta);

  Result<double> QuantileFrom(double p, double guess) const;
  // Empirical quantiles of eps over 2000 posterior draws (fixed seed):
  // Newton's starting points only; the answer is the root of F = p.
  std::vector<double> MonteCarloQuantiles(const std::vector<double>& ps) const;

  // A number in [0, 1] with its complement, each accurate on its own.
  struct Unit {
    double t, tbar;
  };
  double FprBelow(const Unit& t) const;                     // P[FPR <= t], bulk-clipped
  double FprAbove(const Unit& t) const;                     // P[FPR >= t], bulk-clipped
  double FprBetween(const Unit& lo, const Unit& hi) const;  // P[lo < FPR < hi]
  double FprPdf(const Unit& t) const;                       // 0 outside the bulk
  double FnrMass(double p, double q) const;                 // P[p < FNR < q]
  double FnrPdf(double x) const;

  // Posterior parameters after mirroring (see above): FNR ~ Beta(ax, bx)
  // with ax <= bx, FPR ~ Beta(ay, by).
  double ax_, bx_, ay_, by_, delta_;
  double fnr_a_orig_, fnr_b_orig_, fpr_a_orig_, fpr_b_orig_;  // unmirrored
  double log_beta_x_, log_beta_y_;                            // log B(a, b) of each posterior
  double x_lo_, x_hi_;                                        // FNR bulk (tails < 1e-15)
  double y_lo_, ybar_lo_;  // FPR bulk: FPR > y_lo_, 1 - FPR > ybar_lo_
  mutable double max_error_ = 0.0;
};

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_INTERVALS_BAYESIAN_H_
