#include "estimators/accountants/sampled_gaussian_rdp.h"

#include <algorithm>
#include <array>
#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/validate.h"

namespace privbench {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Boost.Math promotes double to long double by default (8x slower erfc
// here); double precision suffices for every use below.
using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;

double Erfc(double x) { return boost::math::erfc(x, DoublePolicy()); }

constexpr double kLogHalf = -0.693147180559945309417232121458176568;

// ln(e^a + e^b).
double LogAdd(double a, double b) {
  if (a < b) std::swap(a, b);
  if (b == -kInf) return a;
  return a + std::log1p(std::exp(b - a));
}

// ln(e^x^2 erfc(x)) for x >= 0. Boost 1.74 has neither erfcx nor a log
// erfc, and erfc underflows near x = 26.5, so beyond x = 20 the asymptotic
// expansion erfcx(x) = (x sqrt(pi))^-1 sum_k (-1)^k (2k-1)!! / (2x^2)^k
// (Abramowitz & Stegun 7.1.23) is used; 8 terms leave an error below
// 34459425 / (2 * 400)^9 < 3e-19 relative at x = 20.
double LogErfcxNonNegative(double x) {
  if (x < 20.0) return x * x + std::log(Erfc(x));
  const double y = 1.0 / (2.0 * x * x);
  double term = 1.0, sum = 1.0;
  for (int k = 1; k <= 8; ++k) {
    term *= -(2 * k - 1) * y;
    sum += term;
  }
  return -std::log(x) - 0.5 * std::log(boost::math::constants::pi<double>()) + std::log(sum);
}

// ln n! for n >= 0: a table up to the largest default order, Boost lgamma beyond.
double LogFactorial(int64_t n) {
  constexpr int64_t kTableSize = 16385;
  static const std::vector<double> table = [] {
    std::vector<double> t(kTableSize);
    for (int64_t k = 0; k < kTableSize; ++k) {
      t[k] = boost::math::lgamma(static_cast<double>(k) + 1.0, DoublePolicy());
    }
    return t;
  }();
  if (n < kTableSize) return table[n];
  return boost::math::lgamma(static_cast<double>(n) + 1.0, DoublePolicy());
}

// ln(e^h - 1) for h >= 0 (-inf at h = 0); = h to double precision above 37.
double LogExpm1(double h) { return h > 37.0 ? h : std::log(std::expm1(h)); }

// Exact binomial sum for integer alpha = n >= 2, q in (0, 1), computed as
//   A - 1 = sum_{i>=2} C(n,i) (1-q)^{n-i} q^i (e^{h(i)} - 1),  h(i) = (i^2 - i)/(2 sigma^2),
// (the binomial weights sum to 1 and h(0) = h(1) = 0): every term is >= 0,
// so A - 1 keeps full relative precision even when it is 1e-13 (large
// sigma, small q), where summing A itself would leave only ~3 digits.
// Term i is e^t(i), t(i) = g(i) + ln(e^h(i) - 1), with g the Binomial(n, q)
// log-pmf (concave in i, maximal at i* = floor((n+1) q)) and h nondecreasing
// for i >= 0, so on a block [a, b] every term is at most
// e^(max_[a,b] g + ln(e^h(b) - 1)), with max_[a,b] g = g(b) left of i*, g(a)
// right of it, g(i*) if the block holds i*. A first pass computes these
// bounds and t at every block end (the largest of which, m0, is at most the
// largest term); the second pass sums only blocks whose bound reaches
// m0 - 60, so the skipped terms add < n e^-60 relative. Large orders thus
// cost about n/16 cheap evaluations plus the few blocks that matter.
// Returns ln A = ln(1 + (A - 1)).
double LogAInteger(double q, double sigma, int64_t n) {
  const double log_q = std::log(q);
  const double log_1mq = std::log1p(-q);
  const double inv_2s2 = 1.0 / (2.0 * sigma * sigma);
  const double lf_n = LogFactorial(n);
  auto g = [&](int64_t i) {
    return lf_n - LogFactorial(i) - LogFactorial(n - i) + static_cast<double>(i) * log_q +
           static_cast<double>(n - i) * log_1mq;
  };
  auto log_expm1_h = [&](int64_t i) {
    const double di = static_cast<double>(i);
    return LogExpm1((di * di - di) * inv_2s2);
  };
  const int64_t mode =
      std::min<int64_t>(n, static_cast<int64_t>(std::floor((static_cast<double>(n) + 1.0) * q)));
  constexpr int64_t kBlock = 32;
  constexpr double kNegligible = 60.0;
  // Pass 1: block bounds and a lower bound m0 on the largest term.
  thread_local std::vector<double> bounds;
  bounds.clear();
  double m0 = -kInf;
  for (int64_t a = 2; a <= n; a += kBlock) {
    const int64_t b = std::min(a + kBlock - 1, n);
    const double g_max = b < mode ? g(b) : (a > mode ? g(a) : g(mode));
    const double leh = log_expm1_h(b);
    bounds.push_back(g_max + leh);
    m0 = std::max(m0, g(b) + leh);
  }
  // Pass 2: streaming log-sum-exp (running maximum m, sum s of e^(t - m))
  // over the blocks that can matter.
  double m = -kInf, s = 0.0;
  for (int64_t a = 2, k = 0; a <= n; a += kBlock, ++k) {
    if (bounds[k] < m0 - kNegligible) continue;
    const int64_t b = std::min(a + kBlock - 1, n);
    for (int64_t i = a; i <= b; ++i) {
      const double t = g(i) + log_expm1_h(i);
      if (t > m) {
        // (exp of a very negative argument takes glibc's slow underflow path)
        s = (m - t > -kNegligible ? s * std::exp(m - t) : 0.0) + 1.0;
        m = t;
      } else if (t > m - kNegligible) {
        s += std::exp(t - m);
      }
    }
  }
  const double log_a_minus_1 = m + std::log(s);  // ln(A - 1)
  // ln(1 + e^x) without overflow.
  return log_a_minus_1 > 0.0 ? log_a_minus_1 + std::log1p(std::exp(-log_a_minus_1))
                             : std::log1p(std::exp(log_a_minus_1));
}

// The two halves of term i of the fractional series, in log space, for
// q in (0, 1), alpha > 1 not an integer (see the header).
class FractionalTerms {
 public:
  FractionalTerms(double q, double sigma, double alpha)
      : alpha_(alpha),
        log_q_(std::log(q)),
        log_1mq_(std::log1p(-q)),
        inv_2s2_(1.0 / (2.0 * sigma * sigma)),
        inv_sqrt2_sigma_(1.0 / (std::sqrt(2.0) * sigma)) {
    const double l = log_1mq_ - log_q_;  // ln(1/q - 1)
    z0_ = sigma * sigma * l + 0.5;
    // alpha ln(1-q) - z0^2/(2 sigma^2), expanded so sigma^4 is never formed.
    log_k_ = alpha * log_1mq_ - (0.5 * sigma * sigma * l * l + 0.5 * l + 0.125 / (sigma * sigma));
  }

  // ln(|s0_i| + |s1_i|) given ln |C(alpha, i)|.
  double LogMagnitude(double i, double log_abs_coef) const {
    const double j = alpha_ - i;
    double log_s0, log_s1;
    const double x0 = (i - z0_) * inv_sqrt2_sigma_;
    if (x0 < 0.0) {
      log_s0 = i * log_q_ + j * log_1mq_ + (i * i - i) * inv_2s2_ + kLogHalf + std::log(Erfc(x0));
    } else {
      log_s0 = log_k_ + kLogHalf + LogErfcxNonNegative(x0);
    }
    const double x1 = (z0_ - j) * inv_sqrt2_sigma_;
    if (x1 < 0.0) {
      log_s1 = j * log_q_ + i * log_1mq_ + (j * j - j) * inv_2s2_ + kLogHalf + std::log(Erfc(x1));
    } else {
      log_s1 = log_k_ + kLogHalf + LogErfcxNonNegative(x1);
    }
    return log_abs_coef + LogAdd(log_s0, log_s1);
  }

 private:
  double alpha_, log_q_, log_1mq_, inv_2s2_, inv_sqrt2_sigma_, z0_, log_k_;
};

// sum_{k >= 0} (-1)^k a_k for a Hausdorff moment sequence a (given its
// first n terms): Cohen, Rodriguez Villegas & Zagier (2000), Algorithm 1.
double CrvzAlternatingSum(const double* a, int n) {
  double d = std::pow(3.0 + std::sqrt(8.0), n);
  d = 0.5 * (d + 1.0 / d);
  double b = -1.0, c = -d, s = 0.0;
  for (int k = 0; k < n; ++k) {
    c = b - c;
    s += c * a[k];
    b = (static_cast<double>(k) + n) * (static_cast<double>(k) - n) * b / ((k + 0.5) * (k + 1.0));
  }
  return s / d;
}

Result<double> LogAFractional(double q, double sigma, double alpha, RdpSeriesSummation summation) {
  const FractionalTerms terms(q, sigma, alpha);
  double log_coef = 0.0;  // ln |C(alpha, i)|
  if (summation == RdpSeriesSummation::kAccelerated) {
    const int64_t i0 = static_cast<int64_t>(std::ceil(alpha));  // first alternating index
    double log_head = -kInf;
    for (int64_t i = 0; i < i0; ++i) {
      const double di = static_cast<double>(i);
      log_head = LogAdd(log_head, terms.LogMagnitude(di, log_coef));
      log_coef += std::log(std::abs(alpha - di)) - std::log(di + 1.0);
    }
    constexpr int kTailTerms = 30;
    std::array<double, kTailTerms> log_a{}, a{};
    for (int k = 0; k < kTailTerms; ++k) {
      const double di = static_cast<double>(i0 + k);
      log_a[k] = terms.LogMagnitude(di, log_coef);
      log_coef += std::log(std::abs(alpha - di)) - std::log(di + 1.0);
    }
    if (log_a[0] == -kInf) return log_head;
    for (int k = 0; k < kTailTerms; ++k) a[k] = std::exp(log_a[k] - log_a[0]);
    const double tail = CrvzAlternatingSum(a.data(), kTailTerms);
    if (!(tail > 0.0)) {
      return Error("internal error: alternating tail sum " + FormatDouble(tail) +
                   " at q=" + FormatDouble(q) + " sigma=" + FormatDouble(sigma) +
                   " alpha=" + FormatDouble(alpha));
    }
    return LogAdd(log_head, log_a[0] + std::log(tail));
  }
  // Term by term (kPlain: signed; kAbsoluteValues: the trap).
  const bool absolute = summation == RdpSeriesSummation::kAbsoluteValues;
  double log_pos = -kInf, log_neg = -kInf;
  bool positive = true;
  constexpr int64_t kMaxTerms = 10'000'000;
  for (int64_t i = 0;; ++i) {
    const double di = static_cast<double>(i);
    const double t = terms.LogMagnitude(di, log_coef);
    if (positive || absolute) {
      log_pos = LogAdd(log_pos, t);
    } else {
      log_neg = LogAdd(log_neg, t);
    }
    if (di > alpha + 1.0 && t < log_pos - 36.0) break;
    if (i >= kMaxTerms) {
      return Error("the RDP series did not converge in " + std::to_string(kMaxTerms) +
                   " terms at q=" + FormatDouble(q) + " sigma=" + FormatDouble(sigma) +
                   " alpha=" + FormatDouble(alpha));
    }
    if (alpha - di < 0.0) positive = !positive;
    log_coef += std::log(std::abs(alpha - di)) - std::log(di + 1.0);
  }
  if (log_neg == -kInf) return log_pos;
  if (!(log_pos > log_neg)) {
    return Error("internal error: RDP series sums to a non-positive value at q=" + FormatDouble(q) +
                 " sigma=" + FormatDouble(sigma) + " alpha=" + FormatDouble(alpha));
  }
  return log_pos + std::log1p(-std::exp(log_neg - log_pos));
}

Status CheckOrder(std::string_view name, double alpha) {
  if (!(alpha > 1.0 && alpha <= kMaxRdpOrder)) {
    return Error(std::string(name) + " must be in (1, " + FormatDouble(kMaxRdpOrder) + "], got " +
                 FormatDouble(alpha));
  }
  return Status::Ok();
}

}  // namespace

Result<double> SampledGaussianLogA(double q, double sigma, double alpha,
                                   RdpSeriesSummation summation) {
  if (!(q > 0.0 && q <= 1.0)) return Error("q must be in (0, 1], got " + FormatDouble(q));
  PB_RETURN_IF_ERROR(CheckPositive("sigma", sigma));
  PB_RETURN_IF_ERROR(CheckOrder("alpha", alpha));
  if (q == 1.0) return alpha * (alpha - 1.0) / (2.0 * sigma * sigma);
  double log_a;
  if (alpha == std::floor(alpha)) {
    log_a = LogAInteger(q, sigma, static_cast<int64_t>(alpha));
  } else {
    PB_ASSIGN_OR_RETURN(log_a, LogAFractional(q, sigma, alpha, summation));
  }
  if (std::isnan(log_a)) {
    return Error("internal error: ln A is NaN at q=" + FormatDouble(q) +
                 " sigma=" + FormatDouble(sigma) + " alpha=" + FormatDouble(alpha));
  }
  // A >= 1 (a Rényi divergence is >= 0); rounding may leave ln A at -1e-17.
  return std::max(0.0, log_a);
}

Result<double> SampledGaussianRdp(double q, double sigma, double alpha,
                                  RdpSeriesSummation summation) {
  PB_ASSIGN_OR_RETURN(double log_a, SampledGaussianLogA(q, sigma, alpha, summation));
  return log_a / (alpha - 1.0);
}

double RdpToEpsilon(double rdp_total, double alpha, double delta, RdpConversion conversion) {
  if (conversion == RdpConversion::kClassic) {
    return rdp_total - std::log(delta) / (alpha - 1.0);
  }
  const double eps =
      rdp_total + std::log1p(-1.0 / alpha) - (std::log(delta) + std::log(alpha)) / (alpha - 1.0);
  return std::max(0.0, eps);
}

Result<AccountantResult> SampledGaussianRdpEpsilon(const DpSgdAccounting& s,
                                                   RdpConversion conversion) {
  PB_RETURN_IF_ERROR(ValidateDpSgdAccounting(s));
  for (size_t k = 0; k < s.orders.size(); ++k) {
    PB_RETURN_IF_ERROR(CheckOrder("orders[" + std::to_string(k) + "]", s.orders[k]));
  }
  static const std::vector<double> kDefaultOrders = DefaultRdpOrders();  // sorted
  std::vector<double> user_orders;
  if (!s.orders.empty()) {
    user_orders = s.orders;
    std::sort(user_orders.begin(), user_orders.end());
  }
  const std::vector<double>& orders = s.orders.empty() ? kDefaultOrders : user_orders;

  // Pruning (exact: it never skips an order that could be the minimum).
  // rdp is nondecreasing in alpha, so with r = T rdp(alpha) computed,
  //  (a) every order above alpha has eps >= FloorAbove(r, alpha), and
  //  (b) every order alpha' above alpha has eps >= RdpToEpsilon(r, alpha').
  // Phase A scans a coarse, roughly doubling subsequence of the integer
  // orders (2, 4, 8, ... in the default list; exact sums, cheap) upwards
  // until (a) reaches the best eps; phase B then visits every other order
  // below that point, upwards, skipping it when (b) with the largest
  // computed order below it (r = 0 if none) already exceeds the best eps.
  const double steps = static_cast<double>(s.steps);
  auto floor_above = [&](double total, double alpha) {
    return conversion == RdpConversion::kClassic
               ? total
               : total + std::log1p(-1.0 / alpha) - std::log(alpha) / (alpha - 1.0);
  };
  AccountantResult best{kInf, std::nullopt};
  double cutoff = kInf;  // orders above it cannot beat `best`
  auto evaluate = [&](double alpha) -> Result<double> {
    PB_ASSIGN_OR_RETURN(double rdp, SampledGaussianRdp(s.q, s.sigma, alpha));
    const double total = steps * rdp;
    const double eps = RdpToEpsilon(total, alpha, s.delta, conversion);
    if (eps < best.epsilon || (eps == best.epsilon && best.order && alpha < *best.order)) {
      best = {eps, alpha};
    }
    if (floor_above(total, alpha) >= best.epsilon || best.epsilon == 0.0) {
      cutoff = std::min(cutoff, alpha);
    }
    return total;
  };
  std::vector<std::pair<double, double>> coarse;  // (alpha, T rdp), ascending
  for (double alpha : orders) {
    if (alpha > cutoff) break;
    if (alpha != std::floor(alpha) || (!coarse.empty() && alpha < 2.0 * coarse.back().first)) {
      continue;
    }
    PB_ASSIGN_OR_RETURN(double total, evaluate(alpha));
    coarse.emplace_back(alpha, total);
  }
  double total_below = 0.0;  // T rdp at the largest computed order below alpha
  size_t next_coarse = 0;
  for (double alpha : orders) {
    if (alpha > cutoff) break;
    while (next_coarse < coarse.size() && coarse[next_coarse].first < alpha) {
      total_below = std::max(total_below, coarse[next_coarse++].second);
    }
    if (next_coarse < coarse.size() && coarse[next_coarse].first == alpha) continue;  // done
    // (strict: an order that can only tie is evaluated, the smaller order wins ties)
    if (RdpToEpsilon(total_below, alpha, s.delta, conversion) > best.epsilon) continue;
    PB_ASSIGN_OR_RETURN(double total, evaluate(alpha));
    total_below = std::max(total_below, total);
  }
  return best;
}

}  // namespace privbench
