// One-run auditing's eps lower bound (one_run.h).
#include "estimators/guess_counts/one_run.h"

#include <algorithm>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <cstdint>
#include <memory>

#include "estimators/guess_counts/factories.h"

namespace privbench {

namespace {

// W ~ Binomial(r, q), q = e^eps / (1 + e^eps), with tails accurate for
// every eps (1 - q is computed as 1 / (1 + e^eps), not by subtraction).
class RandomisedResponseCount {
 public:
  RandomisedResponseCount(int64_t r, double eps)
      : r_(r), q_(1.0 / (1.0 + std::exp(-eps))), p_(1.0 / (1.0 + std::exp(eps))) {}

  double mean() const { return static_cast<double>(r_) * q_; }

  // P[W >= k].
  double Upper(int64_t k) const {
    if (k <= 0) return 1.0;
    if (k > r_) return 0.0;
    const double a = static_cast<double>(k), b = static_cast<double>(r_ - k + 1);
    return q_ <= 0.5 ? boost::math::ibeta(a, b, q_) : boost::math::ibetac(b, a, p_);
  }
  // P[W <= k].
  double Lower(int64_t k) const {
    if (k < 0) return 0.0;
    if (k >= r_) return 1.0;
    const double a = static_cast<double>(k + 1), b = static_cast<double>(r_ - k);
    return q_ <= 0.5 ? boost::math::ibetac(a, b, q_) : boost::math::ibeta(b, a, p_);
  }
  // P[a <= W <= b], a <= b, from the tails on the far side of the mean.
  double Between(int64_t a, int64_t b) const {
    if (static_cast<double>(a) > mean()) return Upper(a) - Upper(b + 1);
    if (static_cast<double>(b) < mean()) return Lower(b) - Lower(a - 1);
    return 1.0 - Lower(a - 1) - Upper(b + 1);
  }

 private:
  int64_t r_;
  double q_, p_;
};

// max_{1<=i<=v} P[v-i <= W <= v-1] / i. The average of the pmf over
// v-1, v-2, ..., v-i is unimodal in i (it rises while the terms rise
// towards the mode and falls once a term drops below it, the binomial
// being unimodal), so an integer ternary search narrows the maximiser and
// a scan of the last few candidates finishes it. Ties between two zero
// averages (terms that underflow above the mode) move towards the mode.
double DeltaTermMax(const RandomisedResponseCount& w, int64_t v) {
  if (v <= 0) return 0.0;
  const auto avg = [&](int64_t i) { return w.Between(v - i, v - 1) / static_cast<double>(i); };
  int64_t lo = 1, hi = v;
  while (hi - lo > 8) {
    const int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    const double f1 = avg(m1), f2 = avg(m2);
    if (f1 < f2 || (f1 == 0.0 && f2 == 0.0)) {
      lo = m1 + 1;
    } else {
      hi = m2;
    }
  }
  double best = 0.0;
  for (int64_t i = lo; i <= hi; ++i) best = std::max(best, avg(i));
  return best;
}

class OneRunEstimator final : public GuessCountEstimator {
 public:
  std::string_view name() const override { return "one_run"; }
  std::string_view description() const override {
    return "one-run audit eps lower bound: sup eps with P[>= v of r guesses correct] < beta "
           "under (eps, delta)-DP (Steinke, Nasr & Jagielski 2023, Thm 3.1)";
  }

 protected:
  Result<double> LowerBoundImpl(const GuessCounts& c, double delta, double beta) const override {
    // p(eps) is continuous and increasing; p -> 1 as eps -> inf (v <= r).
    if (OneRunPValue(c, 0.0, delta) >= beta) return 0.0;
    double lo = 0.0, hi = 1.0;
    while (OneRunPValue(c, hi, delta) < beta) {
      lo = hi;
      hi *= 2;
      if (hi > 1e6) return Error("internal error: one_run bound above 1e6 at " + c.ToString());
    }
    while (hi - lo > 1e-9) {
      const double mid = 0.5 * (lo + hi);
      (OneRunPValue(c, mid, delta) < beta ? lo : hi) = mid;
    }
    return lo;  // p(lo) < beta: every eps <= lo is rejected
  }
};

}  // namespace

double OneRunPValue(const GuessCounts& c, double eps, double delta) {
  const RandomisedResponseCount w(c.r, eps);
  double p = w.Upper(c.v);
  if (delta > 0.0) p += 2.0 * static_cast<double>(c.m) * delta * DeltaTermMax(w, c.v);
  return std::min(p, 1.0);
}

std::unique_ptr<GuessCountEstimator> MakeOneRunEstimator() {
  return std::make_unique<OneRunEstimator>();
}

}  // namespace privbench
