// The last-iterate heuristic (last_iterate_heuristic.h): the binomial
// mixture of Gaussians against a Gaussian, both hockey-stick orderings.
#include "estimators/accountants/last_iterate_heuristic.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "core/format.h"
#include "estimators/accountants/factories.h"
#include "numerics/normal.h"

namespace privbench {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLogSqrt2Pi = 0.91893853320467274178;
// Terms more than e^64 below a sum's largest term are not added (see
// LogSumOfLogConcave).
constexpr double kLogTailCut = 64.0;
// Integers up to 2^53 are exact doubles; the pmf needs k and T - k exactly.
constexpr int64_t kMaxSteps = int64_t{1} << 53;

// ---- Binomial log pmf, Loader (2000): ln C(n,k) p^k (1-p)^(n-k) as
// stirlerr and deviance terms, with no cancellation of large logarithms.

// ln(k!) - [(k + 1/2) ln k - k + ln sqrt(2 pi)], the error of Stirling's
// formula; exact lgamma below 16, the asymptotic series above.
double StirlingError(double k) {
  if (k <= 15.0) return std::lgamma(k + 1.0) - (k + 0.5) * std::log(k) + k - kLogSqrt2Pi;
  const double kk = k * k;
  constexpr double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
  if (k > 500) return (s0 - s1 / kk) / k;
  if (k > 80) return (s0 - (s1 - s2 / kk) / kk) / k;
  if (k > 35) return (s0 - (s1 - (s2 - s3 / kk) / kk) / kk) / k;
  return (s0 - (s1 - (s2 - (s3 - s4 / kk) / kk) / kk) / kk) / k;
}

// x ln(x / m) + m - x, by its series where x is near m.
double Deviance(double x, double m) {
  if (std::abs(x - m) < 0.1 * (x + m)) {
    double v = (x - m) / (x + m);
    double s = (x - m) * v;
    double term = 2.0 * x * v;
    v *= v;
    for (int j = 1; j < 1000; ++j) {
      term *= v;
      const double next = s + term / (2 * j + 1);
      if (next == s) return next;
      s = next;
    }
    return s;
  }
  return x * std::log(x / m) + m - x;
}

// ln P(Binomial(n, p) = k) for 0 <= k <= n, 0 < p < 1 (pc = 1 - p).
double LogBinomialPmf(double k, double n, double p, double pc) {
  if (k == 0) return n * std::log1p(-p);
  if (k == n) return n * std::log(p);
  const double lc = StirlingError(n) - StirlingError(k) - StirlingError(n - k) -
                    Deviance(k, n * p) - Deviance(n - k, n * pc);
  return lc - 0.5 * (2.0 * kLogSqrt2Pi + std::log(k) + std::log1p(-k / n));
}

// ln sum_{k=lo}^{hi} e^{f(k)} for f concave in k: the peak by binary search
// on the sign of f(k+1) - f(k) (nonincreasing), then outward until a term
// is e^kLogTailCut below the peak. Past that cut, at distance d from the
// peak, concavity makes every further step fall by at least 64/d, so the
// neglected rest is below e^{peak - 64} (1 + d/64): under 1e-16 of the sum
// while d < 1e10 (the work bound keeps d to ~1e5).
template <typename F>
double LogSumOfLogConcave(const F& f, int64_t lo, int64_t hi) {
  int64_t a = lo, b = hi;  // the peak lies in [a, b]
  while (a < b) {
    const int64_t mid = a + (b - a) / 2;
    if (f(mid + 1) > f(mid)) {
      a = mid + 1;
    } else {
      b = mid;
    }
  }
  const double top = f(a);
  if (top == -kInf) return -kInf;
  double sum = 1.0;
  for (int64_t k = a + 1; k <= hi; ++k) {
    const double d = f(k) - top;
    if (d < -kLogTailCut) break;
    sum += std::exp(d);
  }
  for (int64_t k = a - 1; k >= lo; --k) {
    const double d = f(k) - top;
    if (d < -kLogTailCut) break;
    sum += std::exp(d);
  }
  return top + std::log(sum);
}

// ln(e^big - e^small) for small <= big (-inf when they are equal).
double LogDifference(double big, double small) {
  if (!(small < big)) return -kInf;
  return big + std::log(-std::expm1(small - big));
}

// Adjacent doubles lo < hi with holds(lo) false and holds(hi) true, by
// bisection from a bracket with that property (holds is monotone in y).
struct Bracket {
  double lo, hi;
};

template <typename Pred>
Bracket Bisect(double lo, double hi, const Pred& holds) {
  for (int i = 0; i < 2100; ++i) {  // 2^2100 covers any finite bracket
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    (holds(mid) ? hi : lo) = mid;
  }
  return {lo, hi};
}

// P = sum_k w_k N(k a, 1) (with the target) against Q = N(0, 1) (without),
// in the standardised coordinate y.
class MixturePair {
 public:
  MixturePair(double sigma, double q, int64_t steps)
      : q_(q),
        n_(static_cast<double>(steps)),
        a_(1.0 / (sigma * std::sqrt(n_))),
        lo_(q == 1.0 ? steps : 0),
        hi_(steps) {}

  // ln w_k; -inf where q = 1 and k < T.
  double LogWeight(int64_t k) const {
    if (q_ == 1.0) return k == hi_ ? 0.0 : -kInf;
    return LogBinomialPmf(static_cast<double>(k), n_, q_, 1.0 - q_);
  }
  // L(y) = ln p(y) / q(y).
  double LogRatio(double y) const {
    return LogSumOfLogConcave(
        [&](int64_t k) {
          const double m = static_cast<double>(k) * a_;
          return LogWeight(k) + m * (y - 0.5 * m);
        },
        lo_, hi_);
  }
  // ln L(-inf) = ln w_0 (-inf at q = 1): L's infimum.
  double LogRatioInfimum() const { return q_ == 1.0 ? -kInf : n_ * std::log1p(-q_); }
  // ln P(Y > y) and ln P(Y < y).
  double LogUpperTail(double y) const {
    return LogSumOfLogConcave(
        [&](int64_t k) { return LogWeight(k) + LogNormalCdf(static_cast<double>(k) * a_ - y); },
        lo_, hi_);
  }
  double LogLowerTail(double y) const {
    return LogSumOfLogConcave(
        [&](int64_t k) { return LogWeight(k) + LogNormalCdf(y - static_cast<double>(k) * a_); },
        lo_, hi_);
  }

  // ln H_{e^L(y)}(P || Q) = ln[P(Y > y) - e^L(y) Q(Y > y)], for L(y) >= 0.
  double LogDeltaWithVsWithout(double y) const {
    return LogDifference(LogUpperTail(y), LogRatio(y) + LogNormalCdf(-y));
  }
  // ln H_{e^-L(y)}(Q || P) = ln[Q(Y < y) - e^-L(y) P(Y < y)], for L(y) <= 0.
  double LogDeltaWithoutVsWith(double y) const {
    return LogDifference(LogNormalCdf(y), LogLowerTail(y) - LogRatio(y));
  }

  // The y with L(y) = c (c above L's infimum), to the last bit of y.
  double InverseLogRatio(double c) const {
    double lo = -1.0, hi = 1.0;
    while (LogRatio(hi) < c) {
      lo = hi;
      hi *= 2.0;
    }
    while (LogRatio(lo) >= c) {
      hi = lo;
      lo *= 2.0;
    }
    return Bisect(lo, hi, [&](double y) { return LogRatio(y) >= c; }).hi;
  }

 private:
  double q_, n_, a_;
  int64_t lo_, hi_;
};

// The smallest eps of the ordering P || Q with delta(eps) <= delta: the
// endpoint y >= L^-1(0) where that ordering's delta (decreasing in y)
// crosses delta, eps = L(y) on the side where delta is small enough.
double EpsilonWithVsWithout(const MixturePair& pair, double log_delta) {
  auto small_enough = [&](double y) { return pair.LogDeltaWithVsWithout(y) <= log_delta; };
  const double y0 = pair.InverseLogRatio(0.0);
  if (small_enough(y0)) return 0.0;
  double near = y0, step = 1.0;
  while (!small_enough(y0 + step)) {
    near = y0 + step;
    step *= 2.0;
  }
  const Bracket b = Bisect(near, y0 + step, small_enough);
  return std::max(0.0, pair.LogRatio(b.hi));
}

// The same for the ordering Q || P: the endpoint y <= L^-1(0), eps = -L(y),
// delta increasing in y. eps is at most -ln w_0 (that ordering's largest
// privacy loss), which delta reaches only as y -> -inf: once eps is
// -ln w_0 to rounding, that is the answer.
double EpsilonWithoutVsWith(const MixturePair& pair, double log_delta) {
  auto too_large = [&](double y) { return pair.LogDeltaWithoutVsWith(y) > log_delta; };
  const double y0 = pair.InverseLogRatio(0.0);
  if (!too_large(y0)) return 0.0;
  const double ceiling = -pair.LogRatioInfimum();
  double near = y0, step = 1.0;
  while (too_large(y0 - step)) {
    if (-pair.LogRatio(y0 - step) >= ceiling * (1 - 1e-15)) return ceiling;
    near = y0 - step;
    step *= 2.0;
  }
  const Bracket b = Bisect(y0 - step, near, too_large);
  return std::max(0.0, -pair.LogRatio(b.lo));
}

Status CheckWorkBound(const DpSgdAccounting& s) {
  const double variance = static_cast<double>(s.steps) * s.q * (1.0 - s.q);
  if (s.steps > kMaxSteps || variance > kMaxLastIterateBinomialVariance) {
    return Error("steps=" + std::to_string(s.steps) + " at q=" + FormatDouble(s.q) +
                 " is beyond last_iterate_heuristic's work bound (steps below 2^53 and the "
                 "binomial variance steps*q*(1-q) at most " +
                 FormatDouble(kMaxLastIterateBinomialVariance) + ", got " + FormatDouble(variance) +
                 ")");
  }
  return Status::Ok();
}

class LastIterateHeuristicAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "last_iterate_heuristic"; }
  std::string_view description() const override {
    return "HEURISTIC, NOT an upper bound: exact eps of the last iterate of DP-SGD with linear "
           "losses, i.e. of Binomial(T,q) + N(0, sigma^2 T) vs N(0, sigma^2 T), both orderings "
           "(Steinke et al., The Last Iterate Advantage, ICLR 2025)";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    PB_ASSIGN_OR_RETURN(LastIterateHeuristic h, LastIterateHeuristicEpsilon(s));
    return AccountantResult{h.epsilon, {}};
  }
};

}  // namespace

Result<LastIterateHeuristic> LastIterateHeuristicEpsilon(const DpSgdAccounting& setting) {
  PB_RETURN_IF_ERROR(ValidateDpSgdAccounting(setting));
  PB_RETURN_IF_ERROR(CheckWorkBound(setting));
  const MixturePair pair(setting.sigma, setting.q, setting.steps);
  const double log_delta = std::log(setting.delta);
  LastIterateHeuristic h;
  h.with_vs_without = EpsilonWithVsWithout(pair, log_delta);
  h.without_vs_with = EpsilonWithoutVsWith(pair, log_delta);
  h.epsilon = std::max(h.with_vs_without, h.without_vs_with);
  if (!std::isfinite(h.epsilon)) {
    return Error("internal error in last_iterate_heuristic at " + setting.ToString() +
                 ": epsilon " + FormatDouble(h.epsilon));
  }
  return h;
}

Result<double> LastIterateHeuristicDelta(const DpSgdAccounting& setting, double epsilon) {
  PB_RETURN_IF_ERROR(ValidateDpSgdAccounting(setting));
  PB_RETURN_IF_ERROR(CheckWorkBound(setting));
  if (!(std::isfinite(epsilon) && epsilon >= 0.0)) {
    return Error("epsilon must be finite and >= 0, got " + FormatDouble(epsilon));
  }
  const MixturePair pair(setting.sigma, setting.q, setting.steps);
  const double with_vs_without = pair.LogDeltaWithVsWithout(pair.InverseLogRatio(epsilon));
  double without_vs_with = -kInf;
  if (-epsilon > pair.LogRatioInfimum()) {
    without_vs_with = pair.LogDeltaWithoutVsWith(pair.InverseLogRatio(-epsilon));
  }
  const double delta = std::exp(std::max(with_vs_without, without_vs_with));
  if (!(delta >= 0.0 && delta <= 1.0)) {
    return Error("epsilon=" + FormatDouble(epsilon) + " is beyond the range resolved at " +
                 setting.ToString() + " (delta evaluates to " + FormatDouble(delta) + ")");
  }
  return delta;
}

std::unique_ptr<Accountant> MakeLastIterateHeuristicAccountant() {
  return std::make_unique<LastIterateHeuristicAccountant>();
}

}  // namespace privbench
