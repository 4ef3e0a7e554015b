#include "estimators/intervals/bayesian.h"

#include <algorithm>
#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/tools/roots.hpp>
#include <boost/random/beta_distribution.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/validate.h"
#include "estimators/interval_estimator.h"
#include "estimators/intervals/factories.h"

namespace privbench {

namespace {

constexpr double kTail = 1e-15;      // posterior mass ignored on each side
constexpr double kCoarseTol = 1e-6;  // F accuracy while Newton is far away
constexpr double kFineTol = 1e-9;    // F accuracy for the final steps
constexpr int kMaxIntervals = 200;   // Gauss-Kronrod panels per piece, at most
constexpr double kMaxEps = 700.0;    // e^eps stays finite
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kGuessSamples = 1000;  // posterior draws for Newton's start

// Boost evaluates double-precision special functions in long double by
// default (x87 code, ~3x slower here); in double they are still accurate to
// a few tens of ulps, far below the 1e-9 quadrature budget.
using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
const DoublePolicy kPol;

// The integrand's value type: F and dF/deps integrated on the same nodes.
struct Pair {
  double f = 0.0, d = 0.0;
  Pair& operator+=(const Pair& o) {
    f += o.f;
    d += o.d;
    return *this;
  }
  friend Pair operator+(Pair a, const Pair& b) { return a += b; }
  friend Pair operator*(const Pair& a, double s) { return {a.f * s, a.d * s}; }
};

using Kronrod = boost::math::quadrature::gauss_kronrod<double, 21>;
using Gauss = boost::math::quadrature::gauss<double, 10>;

struct Panel {
  double a, b;
  Pair value;
  double error;  // of the CDF component
  bool operator<(const Panel& o) const { return error < o.error; }
};

// One 21-point Gauss-Kronrod panel on [a, b] with Boost's nodes and
// weights, and QUADPACK's error estimate (qk21): the raw |K21 - G10| is
// scaled by min{1, (200 |K - G| / resasc)^1.5}, which for smooth integrands
// is far closer to the true error than |K - G| itself (Boost's estimate),
// and floored at 50 machine epsilons times the integral of |f|.
template <typename F>
Panel Gk21(const F& f, double a, double b) {
  const auto& x = Kronrod::abscissa();  // x[0] = 0; the Gauss nodes are odd i
  const auto& wk = Kronrod::weights();
  const auto& wg = Gauss::weights();
  const double c = 0.5 * (a + b), h = 0.5 * (b - a);
  Pair fv[21];
  fv[0] = f(c);
  for (size_t i = 1; i < x.size(); ++i) {
    fv[2 * i - 1] = f(c - h * x[i]);
    fv[2 * i] = f(c + h * x[i]);
  }
  Pair kronrod = fv[0] * wk[0];
  double gauss = 0.0, abs_int = std::abs(fv[0].f) * wk[0];
  for (size_t i = 1; i < x.size(); ++i) {
    const Pair sum = fv[2 * i - 1] + fv[2 * i];
    kronrod += sum * wk[i];
    abs_int += (std::abs(fv[2 * i - 1].f) + std::abs(fv[2 * i].f)) * wk[i];
    if (i % 2 == 1) gauss += sum.f * wg[i / 2];
  }
  const double mean = 0.5 * kronrod.f;
  double asc = std::abs(fv[0].f - mean) * wk[0];
  for (size_t i = 1; i < x.size(); ++i) {
    asc += (std::abs(fv[2 * i - 1].f - mean) + std::abs(fv[2 * i].f - mean)) * wk[i];
  }
  double err = std::abs((kronrod.f - gauss) * h);
  asc *= h;
  abs_int *= h;
  if (asc != 0.0 && err != 0.0) err = asc * std::min(1.0, std::pow(200.0 * err / asc, 1.5));
  err = std::max(err, 50.0 * std::numeric_limits<double>::epsilon() * abs_int);
  return {a, b, kronrod * h, err};
}

// Globally adaptive Gauss-Kronrod with an absolute error budget, as
// QUADPACK's qag: split the panel with the largest error estimate until the
// summed estimate is below `tol` or kMaxIntervals panels exist. (Boost's
// adaptive driver refines each panel to a tolerance relative to its own
// integral, which over-refines negligible tails.) Adds its final error
// estimate to *err_out.
template <typename F>
Pair AdaptiveGk(const F& f, double a, double b, double tol, double* err_out) {
  std::priority_queue<Panel> heap;
  heap.push(Gk21(f, a, b));
  double total_error = heap.top().error;
  while (total_error > tol && static_cast<int>(heap.size()) < kMaxIntervals) {
    const Panel worst = heap.top();
    const double m = 0.5 * (worst.a + worst.b);
    if (!(m > worst.a && m < worst.b)) break;  // cannot split further
    heap.pop();
    const Panel left = Gk21(f, worst.a, m), right = Gk21(f, m, worst.b);
    total_error += left.error + right.error - worst.error;
    heap.push(left);
    heap.push(right);
  }
  Pair value;
  total_error = 0.0;
  for (; !heap.empty(); heap.pop()) {
    value += heap.top().value;
    total_error += heap.top().error;
  }
  *err_out += total_error;
  return value;
}

double LogBeta(double a, double b) {
  return boost::math::lgamma(a, kPol) + boost::math::lgamma(b, kPol) -
         boost::math::lgamma(a + b, kPol);
}

}  // namespace

BayesianEpsPosterior::BayesianEpsPosterior(double ax, double bx, double ay, double by, double delta)
    : ax_(ax),
      bx_(bx),
      ay_(ay),
      by_(by),
      delta_(delta),
      fnr_a_orig_(ax),
      fnr_b_orig_(bx),
      fpr_a_orig_(ay),
      fpr_b_orig_(by) {
  if (ax_ > bx_) {  // mirror (x, y) -> (1-x, 1-y): R is invariant
    std::swap(ax_, bx_);
    std::swap(ay_, by_);
  }
  using boost::math::ibeta_inv;
  using boost::math::ibetac_inv;
  x_lo_ = ibeta_inv(ax_, bx_, kTail, kPol);
  x_hi_ = ibetac_inv(ax_, bx_, kTail, kPol);
  y_lo_ = ibeta_inv(ay_, by_, kTail, kPol);
  ybar_lo_ = ibeta_inv(by_, ay_, kTail, kPol);
  log_beta_x_ = LogBeta(ax_, bx_);
  log_beta_y_ = LogBeta(ay_, by_);
}

Result<BayesianEpsPosterior> BayesianEpsPosterior::Create(const ConfusionCounts& c, double delta) {
  PB_RETURN_IF_ERROR(c.Validate());
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  // Beyond the validated range (see kBayesianMaxTrials) the interval loses
  // its FPR/FNR symmetry (1.9% at 1e9-1e12 trials) and its monotonicity in
  // alpha. Refused, never guessed.
  for (const auto& [sum, trials, name] :
       {std::tuple{"tp + fn", c.positives(), "positive"}, {"fp + tn", c.negatives(), "negative"}}) {
    if (trials > kBayesianMaxTrials) {
      return Error(std::string("bayesian: ") + sum + " (" + name +
                   " trials) must be <= " + std::to_string(kBayesianMaxTrials) +
                   ", the range over which its accuracy is validated (use clopper_pearson or "
                   "jeffreys beyond it), got " +
                   std::to_string(trials));
    }
  }
  try {
    return BayesianEpsPosterior(0.5 + c.fn, 0.5 + c.tp, 0.5 + c.fp, 0.5 + c.tn, delta);
  } catch (const std::exception& e) {
    return Error(std::string("bayesian posterior at ") + c.ToString() + ": " + e.what());
  }
}

double BayesianEpsPosterior::FprBelow(const Unit& u) const {
  if (u.t <= y_lo_) return 0.0;
  if (u.tbar <= ybar_lo_) return 1.0;
  if (u.t <= 0.5) return boost::math::ibeta(ay_, by_, u.t, kPol);
  return 1.0 - boost::math::ibeta(by_, ay_, u.tbar, kPol);
}

double BayesianEpsPosterior::FprAbove(const Unit& u) const {
  if (u.tbar <= ybar_lo_) return 0.0;
  if (u.t <= y_lo_) return 1.0;
  if (u.tbar <= 0.5) return boost::math::ibeta(by_, ay_, u.tbar, kPol);
  return 1.0 - boost::math::ibeta(ay_, by_, u.t, kPol);
}

double BayesianEpsPosterior::FprBetween(const Unit& lo, const Unit& hi) const {
  // Subtract the two tails on whichever side keeps the result accurate.
  if (hi.t <= 0.5) return std::max(0.0, FprBelow(hi) - FprBelow(lo));
  if (lo.tbar <= 0.5) return std::max(0.0, FprAbove(lo) - FprAbove(hi));
  return std::max(0.0, 1.0 - FprBelow(lo) - FprAbove(hi));
}

// The Beta densities are evaluated from their definition in log space,
// (a-1) log x + (b-1) log(1-x) - log B(a, b), with Boost's lgamma for the
// normaliser: ~20x cheaper than ibeta_derivative, and for counts up to 1e6
// the cancellation in log B costs at most ~1e-9 relative accuracy.
double BayesianEpsPosterior::FprPdf(const Unit& u) const {
  if (u.t <= y_lo_ || u.tbar <= ybar_lo_) return 0.0;
  return std::exp((ay_ - 1.0) * std::log(u.t) + (by_ - 1.0) * std::log(u.tbar) - log_beta_y_);
}

double BayesianEpsPosterior::FnrPdf(double x) const {
  return std::exp((ax_ - 1.0) * std::log(x) + (bx_ - 1.0) * std::log1p(-x) - log_beta_x_);
}

double BayesianEpsPosterior::FnrMass(double p, double q) const {
  if (!(q > p)) return 0.0;
  // Difference of lower tails below the mean, of upper tails above it.
  const double mean = ax_ / (ax_ + bx_);
  if (p >= mean) {
    return boost::math::ibetac(ax_, bx_, p, kPol) - boost::math::ibetac(ax_, bx_, q, kPol);
  }
  return boost::math::ibeta(ax_, bx_, q, kPol) - boost::math::ibeta(ax_, bx_, p, kPol);
}

double BayesianEpsPosterior::BoxMass(const RateBox& box) const {
  using boost::math::ibeta;
  const double px = ibeta(fnr_a_orig_, fnr_b_orig_, box.fnr_hi, kPol) -
                    ibeta(fnr_a_orig_, fnr_b_orig_, box.fnr_lo, kPol);
  const double py = ibeta(fpr_a_orig_, fpr_b_orig_, box.fpr_hi, kPol) -
                    ibeta(fpr_a_orig_, fpr_b_orig_, box.fpr_lo, kPol);
  return px * py;
}

BayesianEpsPosterior::Value BayesianEpsPosterior::Evaluate(double eps, double tol) const {
  if (eps >= kInf) return {1.0, 0.0};
  const double e = std::min(std::max(eps, 0.0), kMaxEps);
  const double E = std::exp(e), Em1 = std::expm1(e);
  const double d = delta_;

  // The region's boundary at x, as accurate (value, complement) pairs:
  //   lo = max{0, L1 = 1-d-Ex, L2 = (1-x-d)/E}
  //   hi = min{1, H1 = E(1-x)+d, H2 = 1-(x-d)/E}
  // with d lo/d eps and d hi/d eps of the active branch.
  struct Boundary {
    Unit lo, hi;
    double dlo, dhi;
  };
  auto boundary = [&](double x) {
    const double xbar = 1.0 - x;
    Boundary b{{0.0, 1.0}, {1.0, 0.0}, 0.0, 0.0};
    const double l1 = 1.0 - d - E * x, l2 = (xbar - d) / E;
    if (l1 >= l2 && l1 > 0.0) {
      b.lo = {l1, d + E * x};
      b.dlo = -E * x;
    } else if (l2 > 0.0) {
      b.lo = {l2, (Em1 + x + d) / E};
      b.dlo = -l2;
    }
    const double h1 = E * xbar + d, h2 = 1.0 - (x - d) / E;
    if (h1 <= h2 && h1 < 1.0) {
      b.hi = {h1, E * x - Em1 - d};
      b.dhi = E * xbar;
    } else if (h2 < 1.0) {
      b.hi = {h2, (x - d) / E};
      b.dhi = (x - d) / E;
    }
    return b;
  };

  // Breakpoints: kinks of lo/hi, and where lo/hi cross the FPR bulk ends
  // (lo(x) >= t iff x <= max{(1-t-d)/E, 1-d-tE}; hi(x) >= t iff
  // x <= min{1-(t-d)/E, d+(1-t)E}).
  std::vector<double> cuts = {x_lo_, x_hi_, d, (1.0 - d) / (1.0 + E), (E + d) / (1.0 + E), 1.0 - d};
  for (const Unit& t : {Unit{y_lo_, 1.0 - y_lo_}, Unit{1.0 - ybar_lo_, ybar_lo_}}) {
    cuts.push_back(std::max((t.tbar - d) / E, 1.0 - d - t.t * E));
    cuts.push_back(std::min(1.0 - (t.t - d) / E, d + t.tbar * E));
  }
  std::vector<double> pts;
  for (double c : cuts) {
    if (c >= x_lo_ && c <= x_hi_) pts.push_back(c);
  }
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());

  // Integrand at x: f_X(x) P[lo < Y < hi] and its eps-derivative
  // f_X(x) [g(hi) dhi/deps - g(lo) dlo/deps] (App. A.2, Eq. 12).
  auto integrand = [&](double x) -> Pair {
    const Boundary b = boundary(x);
    const double fx = FnrPdf(x);
    return {fx * FprBetween(b.lo, b.hi), fx * (FprPdf(b.hi) * b.dhi - FprPdf(b.lo) * b.dlo)};
  };

  const size_t pieces = pts.size() > 1 ? pts.size() - 1 : 1;
  const double piece_tol = tol / static_cast<double>(pieces);
  Pair total;
  double err = 0.0;
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    const double p = pts[i], q = pts[i + 1];
    if (!(q > p)) continue;
    const Boundary mid = boundary(0.5 * (p + q));
    const double below_lo = FprBelow(mid.lo), above_hi = FprAbove(mid.hi);
    if ((below_lo == 0.0 || below_lo == 1.0) && (above_hi == 0.0 || above_hi == 1.0)) {
      // lo and hi are monotone and the piece crosses no bulk end, so the
      // FPR tails are constant (0 or 1) on it and the densities vanish.
      const double between = std::max(0.0, 1.0 - below_lo - above_hi);
      if (between != 0.0) total.f += between * FnrMass(p, q);
      continue;
    }
    const double w = q - p;
    auto smoothed = [&](double u) -> Pair {
      const double s = u * u * (3.0 - 2.0 * u), ds = 6.0 * u * (1.0 - u);
      return integrand(p + w * s) * (w * ds);
    };
    total += AdaptiveGk(smoothed, 0.0, 1.0, piece_tol, &err);
  }
  max_error_ = std::max(max_error_, err - tol);  // excess over the request
  return {std::min(1.0, std::max(0.0, total.f)), std::max(0.0, total.d)};
}

std::vector<double> BayesianEpsPosterior::MonteCarloQuantiles(const std::vector<double>& ps) const {
  // Deterministic: a fixed seed, so the same counts give the same guesses.
  std::mt19937_64 rng(0x5EED5EEDULL);
  boost::random::beta_distribution<double> fnr(fnr_a_orig_, fnr_b_orig_);
  boost::random::beta_distribution<double> fpr(fpr_a_orig_, fpr_b_orig_);
  std::vector<double> eps(kGuessSamples);
  for (double& e : eps) {
    const double x = fnr(rng), y = fpr(rng);
    e = EpsFromRatesUnchecked(x, y, delta_);
  }
  std::vector<double> out;
  for (double p : ps) {
    const size_t k = std::min(eps.size() - 1, static_cast<size_t>(p * eps.size()));
    std::nth_element(eps.begin(), eps.begin() + k, eps.end());
    out.push_back(eps[k]);
  }
  return out;
}

namespace {

// The one range check of the posterior's tail masses: `name` (a tail mass p,
// or an alpha whose tails are alpha/2) must leave at least kBayesianMinAlpha/2
// on each side.
Status CheckResolvedTail(const std::string& name, double x, double lo, double hi) {
  if (x >= lo && x <= hi) return Status::Ok();
  return Error(name + " must be in [" + FormatDouble(lo) + ", " + FormatDouble(hi) +
               "] for the Bayesian posterior (its CDF is computed to ~1e-9, so tail masses "
               "below " +
               FormatDouble(kBayesianMinAlpha / 2) + " are not resolved), got " + FormatDouble(x));
}

constexpr double kMinTail = kBayesianMinAlpha / 2;

}  // namespace

Result<double> BayesianEpsPosterior::Quantile(double p) const {
  PB_RETURN_IF_ERROR(CheckResolvedTail("p", p, kMinTail, 1.0 - kMinTail));
  return QuantileFrom(p, MonteCarloQuantiles({p})[0]);
}

Result<std::pair<double, double>> BayesianEpsPosterior::EqualTailedInterval(double alpha) const {
  if (!(alpha < 1.0)) return Error("alpha must be in (0, 1), got " + FormatDouble(alpha));
  PB_RETURN_IF_ERROR(CheckResolvedTail("alpha", alpha, kBayesianMinAlpha, 1.0));
  const std::vector<double> guesses = MonteCarloQuantiles({alpha / 2, 1.0 - alpha / 2});
  PB_ASSIGN_OR_RETURN(double lower, QuantileFrom(alpha / 2, guesses[0]));
  PB_ASSIGN_OR_RETURN(double upper, QuantileFrom(1.0 - alpha / 2, guesses[1]));
  return std::make_pair(lower, std::max(lower, upper));
}

Result<double> BayesianEpsPosterior::QuantileFrom(double p, double guess) const {
  using boost::math::ibeta_inv;
  using boost::math::ibetac_inv;
  // The box of posterior rate quantiles [tail, 1 - tail] in each marginal.
  auto box = [&](double tail) {
    return RateBox{ibeta_inv(fnr_a_orig_, fnr_b_orig_, tail, kPol),
                   ibetac_inv(fnr_a_orig_, fnr_b_orig_, tail, kPol),
                   ibeta_inv(fpr_a_orig_, fpr_b_orig_, tail, kPol),
                   ibetac_inv(fpr_a_orig_, fpr_b_orig_, tail, kPol)};
  };
  // Bracket (no evaluation needed): a box of mass >= 1 - p, here
  // (1 - p/2)^2, lies outside R(a) so F(a) <= p; one of mass >= p lies
  // inside R(b) so F(b) >= p.
  double a = std::min(MinEpsOverBox(box(p / 4), delta_), kMaxEps);
  double b = MaxEpsOverBox(box((1.0 - p) / 4), delta_);
  if (a == 0.0) {
    // The posterior has an atom at eps = 0 of mass F(0) (the band
    // 1-delta <= x+y <= 1+delta); the quantile is 0 if it reaches p.
    const Value v0 = Evaluate(0.0, kCoarseTol);
    if (v0.cdf >= p - 10 * kCoarseTol && Evaluate(0.0, kFineTol).cdf >= p) return 0.0;
  }
  if (!(b < kMaxEps)) {
    b = std::max(2.0 * a, 1.0);
    while (Evaluate(b, kCoarseTol).cdf < p) {
      if (b >= kMaxEps) return kInf;
      a = b;
      b = std::min(2.0 * b, kMaxEps);
    }
  }
  if (!(b > a)) return a;
  if (!(guess > a && guess < b)) guess = 0.5 * (a + b);
  // Inexact Newton: safeguarded Newton on coarse CDF evaluations until a
  // step is below 2^-10 relative, then one Newton step on an accurate
  // evaluation. Convergence is quadratic, so that last step leaves an error
  // of order (1e-3)^2 relative, far inside the 1e-4 absolute target, at the
  // cost of one accurate evaluation instead of two.
  std::uintmax_t max_iter = 100;
  auto coarse_f = [&](double e) {
    const Value v = Evaluate(e, kCoarseTol);
    return std::make_pair(v.cdf - p, v.density);
  };
  const double coarse =
      boost::math::tools::newton_raphson_iterate(coarse_f, guess, a, b, 11, max_iter);
  const Value v = Evaluate(coarse, kFineTol);
  if (!(v.density > 0.0)) return coarse;
  return std::min(b, std::max(a, coarse - (v.cdf - p) / v.density));
}

namespace {

class Bayesian final : public IntervalEstimator {
 public:
  explicit Bayesian(bool one_sided) : one_sided_(one_sided) {}
  std::string_view name() const override { return one_sided_ ? "bayesian_one_sided" : "bayesian"; }
  bool one_sided() const override { return one_sided_; }
  std::string_view description() const override {
    return one_sided_ ? "Joint Beta posterior of (FNR, FPR); lower bound F^-1(alpha) "
                        "(Bayesian paper Sec. 3.3)"
                      : "Joint Beta posterior of (FNR, FPR); equal-tailed credible "
                        "interval, Eq. 4-5 (Bayesian paper Sec. 3.2)";
  }

 protected:
  // alpha is a tail mass of the posterior (one-sided: alpha; two-sided:
  // alpha/2 each side), resolved only down to kBayesianMinAlpha / 2.
  Status ValidateMethodArguments(const ConfusionCounts& c, double delta,
                                 double alpha) const override {
    return CheckResolvedTail("alpha (" + std::string(name()) + ")", alpha, kBayesianMinAlpha,
                             one_sided_ ? 1.0 - kMinTail : 1.0);
  }
  Result<EpsInterval> EstimateImpl(const ConfusionCounts& c, double delta,
                                   double alpha) const override {
    PB_ASSIGN_OR_RETURN(BayesianEpsPosterior post, BayesianEpsPosterior::Create(c, delta));
    EpsInterval out;
    if (one_sided_) {
      PB_ASSIGN_OR_RETURN(out.lower, post.Quantile(alpha));
    } else {
      PB_ASSIGN_OR_RETURN(auto interval, post.EqualTailedInterval(alpha));
      out.lower = interval.first;
      out.upper = interval.second;
    }
    if (post.max_quadrature_error() > 1e-7) {  // an evaluation missed its budget
      return Error(std::string(name()) + ": quadrature did not converge at " + c.ToString() +
                   " (error estimate " + FormatDouble(post.max_quadrature_error()) + ")");
    }
    return out;
  }

 private:
  bool one_sided_;
};

}  // namespace

std::unique_ptr<IntervalEstimator> MakeBayesian() { return std::make_unique<Bayesian>(false); }
std::unique_ptr<IntervalEstimator> MakeBayesianOneSided() {
  return std::make_unique<Bayesian>(true);
}

}  // namespace privbench
