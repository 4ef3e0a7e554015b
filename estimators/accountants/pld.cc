// The PLD accountant (pld.h): discretisation, FFT composition, read-off.
#include "estimators/accountants/pld.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include "core/validate.h"
#include "estimators/accountants/factories.h"
#include "estimators/accountants/gaussian_dp.h"

namespace privbench {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Per step, the x-range [-kZ sigma, 1 + kZ sigma] leaves P-mass
// < Phi(-kZ) ~ 6e-31 on each side.
constexpr double kZ = 11.5;
// Target of the Chernoff bounds that choose the composed window.
constexpr double kWindowTail = 1e-25;
// Most grid points per step and per composed window.
constexpr int64_t kMaxPoints = int64_t{1} << 21;
// Below this sigma the answer is refused: one step's losses (~1/(2 sigma^2))
// exceed 5e11 and the x positions of the grid edges (0.5 + sigma^2 l) near
// x = 1 are not resolved to a small fraction of sigma any more; the
// regression sweep of pld_sweep_test.cc validates sigma in [1e-6, 100].
constexpr double kMinPldSigma = 1e-6;
// Largest |1 - total P-mass| accepted (FFT rounding is ~1e-16 per entry).
constexpr double kMassTolerance = 1e-6;

double NormalUpperTail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

// ln(1 - w + w e^t), stable for all t.
double LogMix(double w, double t) {
  if (w == 0.0) return 0.0;
  if (t <= 1.0) {
    const double m = w * std::expm1(t);
    if (m > -0.5) return std::log1p(m);
    // Near -1 (w ~ 1, t << 0) log1p loses everything (w = 1: -inf instead of
    // t): ln((1-w) + w e^t) as a log-sum-exp.
    const double a = std::log1p(-w), b = std::log(w) + t;
    const double top = std::max(a, b);
    return top + std::log(std::exp(a - top) + std::exp(b - top));
  }
  return t + std::log(w + (1.0 - w) * std::exp(-t));
}

// ln(e^e - 1 + q) for e^e > 1 - q, else -inf.
double LogShifted(double e, double q) {
  if (e > 1.0) return e + std::log1p(-(1.0 - q) * std::exp(-e));
  if (q == 1.0) return e;  // (expm1(e) + 1 is 0 below e ~ -37)
  const double v = e > -0.5 ? std::expm1(e) + q : std::exp(e) - (1.0 - q);
  return v > 0 ? std::log(v) : -kInf;
}

// One step of the sampled Gaussian in one direction: P = (1-wp) phi + wp psi,
// Q = (1-wq) phi + wq psi, phi = N(0, s^2), psi = N(1, s^2); the loss
// ln(P/Q)(x) is monotone in x (increasing for remove, decreasing for add).
struct StepPair {
  double sigma, q;
  bool remove;

  double Loss(double x) const {
    const double t = (2 * x - 1) / (2 * sigma * sigma);
    return remove ? LogMix(q, t) : -LogMix(q, t);
  }
  // The x at which the loss equals e (+-inf beyond the loss's range).
  double XAt(double e) const {
    const double l = LogShifted(remove ? e : -e, q);
    if (l == -kInf) return -kInf;
    return sigma * sigma * (l - std::log(q)) + 0.5;
  }
  // P- and Q-mass from the masses m0 of phi and m1 of psi.
  void Mix(double m0, double m1, double* p, double* qm) const {
    const double wp = remove ? q : 0.0, wq = remove ? 0.0 : q;
    *p = (1 - wp) * m0 + wp * m1;
    *qm = (1 - wq) * m0 + wq * m1;
  }
  // Loss range covering all but < 1e-30 of P on each side.
  void LossRange(double* lo, double* hi) const {
    const double a = Loss(-kZ * sigma), b = Loss(1 + kZ * sigma);
    *lo = std::min(a, b), *hi = std::max(a, b);
  }
};

// The standardised positions z = (x - mean)/sigma of one x for the means 0
// and 1, with the Gaussian tail beyond each, t = Phi(-|z|).
struct EdgeTails {
  double z0, t0, z1, t1;

  static EdgeTails At(const StepPair& pair, double x) {
    const double z0 = x / pair.sigma, z1 = (x - 1.0) / pair.sigma;
    return {z0, NormalUpperTail(std::abs(z0)), z1, NormalUpperTail(std::abs(z1))};
  }
  // Standard normal mass between za <= zb, accurate in both tails.
  static double Mass(double za, double ta, double zb, double tb) {
    if (!(zb > za)) return 0.0;
    if (za >= 0) return ta - tb;
    if (zb <= 0) return tb - ta;
    return 1.0 - ta - tb;
  }
};

// ---- FFTW, with planning serialised (the planner is not thread-safe).

std::mutex& FftwMutex() {
  static std::mutex m;
  return m;
}

struct FftwFree {
  void operator()(void* p) const { fftw_free(p); }
};

template <typename T>
std::unique_ptr<T[], FftwFree> FftwArray(size_t n) {
  void* p = fftw_malloc(sizeof(T) * n);
  if (p == nullptr) throw std::bad_alloc();
  return std::unique_ptr<T[], FftwFree>(static_cast<T*>(p));
}

// Smallest n >= needed of the form 2^k or 3 * 2^k.
int64_t FftSize(int64_t needed) {
  int64_t p = 1;
  while (p < needed) p *= 2;
  if (p % 4 == 0 && 3 * (p / 4) >= needed) return 3 * (p / 4);
  return p;
}

// z^n by repeated squaring.
std::complex<double> Power(std::complex<double> z, int64_t n) {
  std::complex<double> r(1.0, 0.0);
  while (n > 0) {
    if (n & 1) r *= z;
    z *= z;
    n >>= 1;
  }
  return r;
}

// masses (relative to `first`) folded mod n, composed T times cyclically.
std::vector<double> CyclicSelfConvolve(const std::vector<double>& masses, int64_t n,
                                       int64_t steps) {
  auto in = FftwArray<double>(static_cast<size_t>(n));
  auto spec = FftwArray<fftw_complex>(static_cast<size_t>(n / 2 + 1));
  std::fill(in.get(), in.get() + n, 0.0);
  for (size_t i = 0; i < masses.size(); ++i) in[static_cast<int64_t>(i) % n] += masses[i];
  fftw_plan fwd, inv;
  {
    std::lock_guard<std::mutex> lock(FftwMutex());
    fwd = fftw_plan_dft_r2c_1d(static_cast<int>(n), in.get(), spec.get(), FFTW_ESTIMATE);
    inv = fftw_plan_dft_c2r_1d(static_cast<int>(n), spec.get(), in.get(), FFTW_ESTIMATE);
  }
  fftw_execute(fwd);
  for (int64_t k = 0; k <= n / 2; ++k) {
    const std::complex<double> z = Power({spec[k][0], spec[k][1]}, steps);
    spec[k][0] = z.real();
    spec[k][1] = z.imag();
  }
  fftw_execute(inv);
  {
    std::lock_guard<std::mutex> lock(FftwMutex());
    fftw_destroy_plan(fwd);
    fftw_destroy_plan(inv);
  }
  std::vector<double> out(static_cast<size_t>(n));
  // Negative rounding noise is clamped to 0; a non-finite entry stays NaN
  // (std::max(0.0, NaN) would be 0, silently dropping mass) and is refused
  // by CheckMass.
  for (int64_t j = 0; j < n; ++j) {
    const double v = in[j] / static_cast<double>(n);
    out[j] = std::isfinite(v) ? std::max(0.0, v) : std::nan("");
  }
  return out;
}

// ---- Chernoff bounds on the T-fold composition of the finite part:
// P(L_T >= b) <= e^{-lambda b} M(lambda)^T and P(L_T <= a) <= e^{lambda a}
// M(-lambda)^T for lambda > 0, M(lambda) = sum_i p_i e^{lambda l_i} (the
// Markov inequality; valid for the sub-probability measure of finite losses).
class Chernoff {
 public:
  explicit Chernoff(const PrivacyLossDistribution& d) : d_(d) {
    for (int j = -14; j <= 10; ++j) {
      const double lambda = std::ldexp(1.0, j);
      lambdas_.push_back(lambda);
      log_pos_.push_back(LogMgf(lambda));
      log_neg_.push_back(LogMgf(-lambda));
    }
  }

  // [lo, hi] with P(L_T > hi), P(L_T < lo) <= kWindowTail, clamped to the
  // support [T l_min, T l_max].
  void Window(int64_t steps, double* lo, double* hi) const {
    const double t = static_cast<double>(steps), log_tail = std::log(kWindowTail);
    double best_hi = kInf, best_lo = -kInf;
    for (size_t j = 0; j < lambdas_.size(); ++j) {
      best_hi = std::min(best_hi, (t * log_pos_[j] - log_tail) / lambdas_[j]);
      best_lo = std::max(best_lo, -(t * log_neg_[j] - log_tail) / lambdas_[j]);
    }
    const double l_min = static_cast<double>(d_.first_index) * d_.interval;
    const double l_max =
        static_cast<double>(d_.first_index + static_cast<int64_t>(d_.masses.size()) - 1) *
        d_.interval;
    *hi = std::min(best_hi, t * l_max);
    *lo = std::max(best_lo, t * l_min);
    if (*lo > *hi) *lo = *hi;
  }

  // A rigorous bound on P(L_T >= level).
  double UpperTail(int64_t steps, double level) const {
    double best = 1.0;
    for (size_t j = 0; j < lambdas_.size(); ++j) {
      best =
          std::min(best, std::exp(static_cast<double>(steps) * log_pos_[j] - lambdas_[j] * level));
    }
    return best;
  }

  // Grid points the composed window needs, saturated at INT64_MAX (a
  // window beyond the int64 range converted to int64 was undefined: the
  // sanitizers caught it at steps = 2^63 - 1).
  int64_t PointsNeeded(int64_t steps) const {
    double lo, hi;
    Window(steps, &lo, &hi);
    const double points = std::ceil((hi - lo) / d_.interval) + 2.0;
    if (!(points < 9.0e18)) return std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(points);
  }

 private:
  // ln sum_i p_i e^{lambda l_i} (one pass, running maximum).
  double LogMgf(double lambda) const {
    double top = -kInf, sum = 0.0;
    for (size_t i = 0; i < d_.masses.size(); ++i) {
      if (!(d_.masses[i] > 0)) continue;
      const double l = static_cast<double>(d_.first_index + static_cast<int64_t>(i)) * d_.interval;
      const double v = std::log(d_.masses[i]) + lambda * l;
      if (v > top) {
        sum = sum * std::exp(top - v) + 1.0;
        top = v;
      } else {
        sum += std::exp(v - top);
      }
    }
    return top == -kInf ? -kInf : top + std::log(sum);
  }

  const PrivacyLossDistribution& d_;
  std::vector<double> lambdas_, log_pos_, log_neg_;
};

// The T-fold composition on the window chosen by `bounds` (of `step`).
PrivacyLossDistribution Compose(const PrivacyLossDistribution& step, const Chernoff& bounds,
                                int64_t steps) {
  double lo, hi;
  bounds.Window(steps, &lo, &hi);
  const double h = step.interval;
  const int64_t base = steps * step.first_index;  // composed index of relative 0
  const int64_t start = std::max<int64_t>(base, static_cast<int64_t>(std::floor(lo / h)));
  const int64_t needed = static_cast<int64_t>(std::ceil(hi / h)) - start + 1;
  const int64_t n = FftSize(std::max<int64_t>(needed, 2));
  const std::vector<double> cyclic = CyclicSelfConvolve(step.masses, n, steps);
  PrivacyLossDistribution out;
  out.interval = h;
  out.first_index = start;
  out.masses.resize(static_cast<size_t>(n));
  // Composed relative index k sits at position k mod n; the window holds
  // relative indices [start - base, start - base + n).
  const int64_t rel = start - base;
  for (int64_t k = rel; k < rel + n; ++k) out.masses[static_cast<size_t>(k - rel)] = cyclic[k % n];
  // Mass above the window (none when the window reaches the largest
  // composed loss T l_max) is bounded by Chernoff and put at +inf.
  const int64_t top_index =
      steps * (step.first_index + static_cast<int64_t>(step.masses.size()) - 1);
  const double above =
      start + n > top_index ? 0.0 : bounds.UpperTail(steps, static_cast<double>(start + n) * h);
  out.infinity_mass =
      -std::expm1(static_cast<double>(steps) * std::log1p(-step.infinity_mass)) + above;
  return out;
}

class PldAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "pld"; }
  std::string_view description() const override {
    return "privacy loss distribution of the Poisson-subsampled Gaussian, add and remove, "
           "pessimistic connect-the-dots grid (Doroshenko et al. 2022), FFT composition "
           "(Koskela et al. 2020); an upper bound";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    PB_ASSIGN_OR_RETURN(PldAccounting r, PldEpsilon(s));
    AccountantResult out;
    out.epsilon = r.epsilon;
    return out;
  }
};

}  // namespace

double PrivacyLossDistribution::DeltaForEpsilon(double epsilon) const {
  double delta = infinity_mass;
  for (size_t i = 0; i < masses.size(); ++i) {
    const double l = static_cast<double>(first_index + static_cast<int64_t>(i)) * interval;
    if (l > epsilon) delta += -masses[i] * std::expm1(epsilon - l);
  }
  return std::min(delta, 1.0);
}

double PrivacyLossDistribution::EpsilonForDelta(double delta) const {
  if (delta <= infinity_mass) return kInf;
  // Scanning down from the top: at loss l_k, s = infinity_mass + sum_{j>k}
  // p_j and w = sum_{j>k} p_j e^{l_k - l_j}, so delta(l_k) = s - w and on
  // (l_k, l_{k+1}] delta(eps) = s - w e^{eps - l_k}; delta(eps) decreases.
  const double decay = std::exp(-interval);
  const int64_t n = static_cast<int64_t>(masses.size());
  double s = infinity_mass, w = 0.0;
  for (int64_t k = n - 1; k >= -1; --k) {
    if (k + 1 < n) {
      w = decay * (w + masses[static_cast<size_t>(k + 1)]);
      s += masses[static_cast<size_t>(k + 1)];
    }
    const double l = static_cast<double>(first_index + k) * interval;
    // The root lies in (l_k, l_{k+1}] (delta(l_{k+1}) <= delta was checked one
    // step earlier, or is infinity_mass < delta at the top): clamped to
    // l_{k+1}, which also covers w underflowing to 0 on coarse grids (the
    // log was +inf there).
    if (s - w > delta) return std::max(0.0, std::min(l + std::log((s - delta) / w), l + interval));
    // Below the grid (k = -1) the segment formula holds for all eps <= l_0.
    if (k == -1) {
      return s > delta ? std::max(0.0, std::min(l + std::log((s - delta) / w), l + interval)) : 0.0;
    }
    if (l <= 0.0) return 0.0;  // delta(l) <= delta already at some l <= 0
  }
  return 0.0;
}

Result<PrivacyLossDistribution> SampledGaussianStepPld(double sigma, double q,
                                                       PldDirection direction, double interval) {
  PB_RETURN_IF_ERROR(CheckPositive("sigma", sigma));
  if (!(q > 0.0 && q <= 1.0)) return Error("q must be in (0, 1], got " + FormatDouble(q));
  PB_RETURN_IF_ERROR(CheckPositive("interval", interval));
  const StepPair pair{sigma, q, direction == PldDirection::kRemove};
  double lo, hi;
  pair.LossRange(&lo, &hi);
  const int64_t i_lo = static_cast<int64_t>(std::floor(lo / interval));
  const int64_t i_hi = std::max(i_lo + 1, static_cast<int64_t>(std::ceil(hi / interval)));
  if (i_hi - i_lo + 1 > 4 * kMaxPoints) {
    return Error("internal error: pld grid of " + std::to_string(i_hi - i_lo + 1) + " points");
  }
  PrivacyLossDistribution d;
  d.interval = interval;
  d.first_index = i_lo;
  d.masses.assign(static_cast<size_t>(i_hi - i_lo + 1), 0.0);
  // Grid edges e_i = i h, i = i_lo..i_hi, plus the ends -inf and +inf; the
  // Gaussian tails at each edge's x are computed once.
  std::vector<EdgeTails> edges;
  edges.reserve(static_cast<size_t>(i_hi - i_lo + 3));
  edges.push_back(EdgeTails::At(pair, pair.XAt(-kInf)));
  for (int64_t i = i_lo; i <= i_hi; ++i) {
    edges.push_back(EdgeTails::At(pair, pair.XAt(static_cast<double>(i) * interval)));
  }
  edges.push_back(EdgeTails::At(pair, pair.XAt(kInf)));
  const auto masses_between = [&](size_t lo_edge, double* p, double* qm) {
    // Loss interval (edge lo_edge, edge lo_edge + 1]; in x the order flips for add.
    const EdgeTails& u = edges[pair.remove ? lo_edge : lo_edge + 1];
    const EdgeTails& v = edges[pair.remove ? lo_edge + 1 : lo_edge];
    const double m0 = EdgeTails::Mass(u.z0, u.t0, v.z0, v.t0);
    const double m1 = EdgeTails::Mass(u.z1, u.t1, v.z1, v.t1);
    pair.Mix(m0, m1, p, qm);
  };
  // e^-h and 1 - e^-h: finite for every h (e^h overflows above h ~ 709).
  const double emh = std::exp(-interval), one_minus_emh = -std::expm1(-interval);
  double p, qm;
  // Losses <= the bottom: moved up to it. Losses above the top: to +inf.
  masses_between(0, &p, &qm);
  d.masses[0] += p;
  masses_between(edges.size() - 2, &p, &qm);
  d.infinity_mass = p;
  for (int64_t i = i_lo; i < i_hi; ++i) {
    masses_between(static_cast<size_t>(i - i_lo + 1), &p, &qm);
    if (p <= 0) continue;
    // Split keeping P- and Q-mass: the lower end gets (e^h b - a)/(e^h - 1)
    // = a (r - e^-h)/(1 - e^-h) of the P-mass a, where r = b/a and b = Q-mass
    // e^{e_i} (r lies in [e^-h, 1]); r in logs above e_i = 700, as e^{e_i} overflows above
    // e_i ~ 709 (qm * inf was NaN, and NaN mass was later dropped as 0:
    // optimistic). Clamped to [0, a]: clamping and a Q-mass that underflows
    // to 0 move mass up, which only adds pessimism.
    const double l = static_cast<double>(i) * interval;
    const double r = !(qm > 0)   ? 0.0
                     : l < 700.0 ? qm / p * std::exp(l)
                                 : std::exp(std::log(qm) - std::log(p) + l);
    const double lower = p * std::clamp((r - emh) / one_minus_emh, 0.0, 1.0);
    d.masses[static_cast<size_t>(i - i_lo)] += lower;
    d.masses[static_cast<size_t>(i - i_lo + 1)] += p - lower;
  }
  return d;
}

namespace {

// A PLD whose masses are not all finite or do not sum (with the mass at
// +inf) to 1 is not a sound bound: refused, naming sigma. Overflow in the
// discretisation used to turn masses into NaN that were then read as 0, so
// high losses vanished and eps came out far too small.
Status CheckMass(const PrivacyLossDistribution& d, const DpSgdAccounting& s, const char* what) {
  double total = d.infinity_mass;
  bool finite = std::isfinite(d.infinity_mass);
  for (double m : d.masses) {
    finite = finite && std::isfinite(m);
    total += m;
  }
  if (finite && std::abs(total - 1.0) <= kMassTolerance) return Status::Ok();
  return Error("pld cannot give a sound bound at sigma=" + FormatDouble(s.sigma) + " (" +
               s.ToString() + "): " + what + " has total mass " + FormatDouble(total) +
               " (numerical overflow); its numerics are validated for sigma >= " +
               FormatDouble(kMinPldSigma));
}

}  // namespace

Result<PrivacyLossDistribution> ComposeSelf(const PrivacyLossDistribution& step, int64_t steps) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("steps", steps));
  if (step.masses.empty()) return Error("internal error: empty pld");
  return Compose(step, Chernoff(step), steps);
}

namespace {

Status TooManySteps(const DpSgdAccounting& s, const std::string& why) {
  return Error("steps=" + std::to_string(s.steps) + " is beyond what pld can compose at " +
               s.ToString() + " (" + why +
               "); q = 1 has the exact closed form at any steps, and for q < 1 the rdp "
               "accountants answer in time independent of steps");
}

// The composed grid indices T i (for i from the step's first to its last
// index) must fit in 64 bits with room for the window arithmetic (|T i| <
// 2^62): beyond, the window loop overflowed and never ended.
Status CheckComposedIndices(const PrivacyLossDistribution& step, const DpSgdAccounting& s) {
  const int64_t last = step.first_index + static_cast<int64_t>(step.masses.size()) - 1;
  constexpr int64_t kLimit = int64_t{1} << 62;
  for (int64_t index : {step.first_index, last}) {
    int64_t product = 0;
    if (__builtin_mul_overflow(s.steps, index, &product) || product >= kLimit ||
        product <= -kLimit) {
      return TooManySteps(s, "the composed loss index steps x " + std::to_string(index) +
                                 " does not fit in 62 bits");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<PrivacyLossDistribution> DpSgdPld(const DpSgdAccounting& s, PldDirection direction) {
  PB_RETURN_IF_ERROR(ValidateDpSgdAccounting(s));
  if (s.discretization > 0.0 && s.discretization < kMinPldDiscretization) {
    return Error("discretization must be >= " + FormatDouble(kMinPldDiscretization) +
                 " (0: the default " + FormatDouble(kDefaultPldDiscretization) +
                 "; the pld accountant's work bound: finer grids exceed 2^21 points per step), "
                 "got " +
                 FormatDouble(s.discretization));
  }
  if (s.sigma < kMinPldSigma) {
    return Error("sigma=" + FormatDouble(s.sigma) +
                 " is below the pld accountant's validated range " +
                 "(sigma >= " + FormatDouble(kMinPldSigma) +
                 "): its grid cannot resolve one step's losses of ~1/(2 sigma^2)");
  }
  double h = s.discretization > 0 ? s.discretization : kDefaultPldDiscretization;
  // Coarsen (h 2^k) until one step's grid and the composed window fit.
  const StepPair pair{s.sigma, s.q, direction == PldDirection::kRemove};
  double lo, hi;
  pair.LossRange(&lo, &hi);
  while ((hi - lo) / h > static_cast<double>(kMaxPoints)) h *= 2;
  // The grid spacing h is internal (the user's `discretization`, coarsened
  // here): a failure to discretise names the user's fields, never "interval"
  // (at q = 1 an infinite loss range once surfaced as "interval must be
  // finite and > 0, got inf").
  const auto discretise = [&](double interval) -> Result<PrivacyLossDistribution> {
    auto d = std::isfinite(lo) && std::isfinite(hi) && std::isfinite(interval)
                 ? SampledGaussianStepPld(s.sigma, s.q, direction, interval)
                 : Result<PrivacyLossDistribution>(Error("its loss range is not finite"));
    if (d.ok()) return d;
    return Error("pld cannot discretise one step at " + s.ToString() + " (discretization " +
                 FormatDouble(s.discretization > 0 ? s.discretization : kDefaultPldDiscretization) +
                 ", coarsened to " + FormatDouble(interval) + "): " + d.message());
  };
  PB_ASSIGN_OR_RETURN(PrivacyLossDistribution step, discretise(h));
  auto bounds = std::make_unique<Chernoff>(step);
  int64_t points = bounds->PointsNeeded(s.steps);
  while (points > kMaxPoints) {
    if (step.masses.size() < 3) {
      return TooManySteps(s, "the grid would be coarser than one step's losses");
    }
    if (points == std::numeric_limits<int64_t>::max()) {
      return TooManySteps(s, "the composed window needs more than 2^63 grid points");
    }
    const double factor = std::exp2(
        std::ceil(std::log2(static_cast<double>(points) / static_cast<double>(kMaxPoints))));
    h *= factor;
    if (!std::isfinite(h)) return TooManySteps(s, "the grid interval would overflow");
    PB_ASSIGN_OR_RETURN(step, discretise(h));
    bounds = std::make_unique<Chernoff>(step);
    points = bounds->PointsNeeded(s.steps);
  }
  PB_RETURN_IF_ERROR(CheckMass(step, s, "one step's discretised loss distribution"));
  PB_RETURN_IF_ERROR(CheckComposedIndices(step, s));
  PrivacyLossDistribution composed = Compose(step, *bounds, s.steps);
  PB_RETURN_IF_ERROR(CheckMass(composed, s, "the composed loss distribution"));
  return composed;
}

namespace {

// q = 1: T Gaussian steps are exactly (sqrt(T)/sigma)-GDP (gaussian_dp.h),
// the same in both directions; no grid, at any number of steps.
double FullBatchMu(const DpSgdAccounting& s) {
  return std::sqrt(static_cast<double>(s.steps)) / s.sigma;
}

// An upper bound on the total variation distance between the T-step
// outputs on neighbouring datasets: one step's is q (2 Phi(1/(2 sigma)) - 1)
// (the subsampled pair differs only on the q-fraction where the record is
// in), and TV is subadditive under composition. Where it is at most delta,
// delta(0) <= delta and eps = 0 exactly: tiny q (1e-30 and below) used to
// leave the grid with all its mass at +inf and blame delta.
double TotalVariationBound(const DpSgdAccounting& s) {
  const double step = s.q * std::erf(1.0 / (2.0 * std::sqrt(2.0) * s.sigma));
  return static_cast<double>(s.steps) * step;
}

}  // namespace

Result<PldAccounting> PldEpsilon(const DpSgdAccounting& s) {
  PldAccounting out;
  if (s.q == 1.0) {
    PB_RETURN_IF_ERROR(ValidateDpSgdAccounting(s));
    PB_ASSIGN_OR_RETURN(out.epsilon, GaussianDpEpsilon(FullBatchMu(s), s.delta));
    out.remove_epsilon = out.add_epsilon = out.epsilon;
    return out;
  }
  if (TotalVariationBound(s) <= s.delta) return out;  // eps = 0 exactly
  if (s.delta > 1.0 - kMassTolerance) {
    // The grid's masses are only checked to sum to 1 within kMassTolerance,
    // so delta(eps) is not resolved this close to 1 (delta = 1 - 1e-16 at
    // q = 1 - 1e-16 made calibrate bisect for minutes on noise).
    return Error("delta must be <= 1 - " + FormatDouble(kMassTolerance) +
                 " for the pld accountant at q < 1 (its discretised masses are accurate to " +
                 FormatDouble(kMassTolerance) + "), got " + FormatDouble(s.delta));
  }
  for (PldDirection dir : {PldDirection::kRemove, PldDirection::kAdd}) {
    PB_ASSIGN_OR_RETURN(PrivacyLossDistribution d, DpSgdPld(s, dir));
    const double eps = d.EpsilonForDelta(s.delta);
    if (std::isinf(eps)) {
      return Error("delta=" + FormatDouble(s.delta) +
                   " is at or below the pld accountant's mass at +inf (" +
                   FormatDouble(d.infinity_mass) + ", truncated tails) at " + s.ToString());
    }
    (dir == PldDirection::kRemove ? out.remove_epsilon : out.add_epsilon) = eps;
    out.interval = std::max(out.interval, d.interval);
  }
  out.epsilon = std::max(out.remove_epsilon, out.add_epsilon);
  return out;
}

Result<double> PldDelta(const DpSgdAccounting& s, double epsilon) {
  if (!(std::isfinite(epsilon) && epsilon >= 0)) {
    return Error("epsilon must be finite and >= 0, got " + FormatDouble(epsilon));
  }
  if (s.q == 1.0) {
    PB_RETURN_IF_ERROR(ValidateDpSgdAccounting(s));
    return GaussianDpDelta(FullBatchMu(s), epsilon);
  }
  double delta = 0.0;
  for (PldDirection dir : {PldDirection::kRemove, PldDirection::kAdd}) {
    PB_ASSIGN_OR_RETURN(PrivacyLossDistribution d, DpSgdPld(s, dir));
    delta = std::max(delta, d.DeltaForEpsilon(epsilon));
  }
  return delta;
}

std::unique_ptr<Accountant> MakePldAccountant() { return std::make_unique<PldAccountant>(); }

}  // namespace privbench
