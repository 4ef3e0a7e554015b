// Metamorphic test of every registered interval estimator, over the count
// range each accepts (the Bayesian posterior up to kBayesianMaxTrials per
// side, the others up to 1e12):
//   - monotone in confidence: a smaller alpha never gives a narrower
//     interval (lower bound non-increasing, upper non-decreasing);
//   - symmetric under the swaps the privacy region allows: R(eps, delta) is
//     invariant under (FNR, FPR) -> (FPR, FNR) and (FNR, FPR) ->
//     (1 - FNR, 1 - FPR) (a test and its complement; Kairouz et al.; the
//     Bayesian paper's Eq. 1 and its mirror), so counts (tp, fn, fp, tn),
//     (tn, fp, fn, tp) and (fn, tp, tn, fp) must give the same interval;
//   - lower <= upper, neither NaN.
// Tolerances: for the closed-form and rate-box methods max(1e-9, n * 1e-17)
// relative (n trials per side: the mirror forms rates within 1/n of 1, which
// costs digits); measured: 1.4e-9 at 1e9 trials, 1.6e-6 at 1e12. At 1e12
// trials they may also refuse with Boost's error (its incomplete gamma
// series gives up): an error is allowed there, a wrong number is not. For
// the Bayesian ones 1e-4 absolute, their stated accuracy, which holds up to
// kBayesianMaxTrials (measured asymmetry at alpha = 0.001: 1.1e-5 at 1e5
// trials per side, 9.8e-5 at 2e5, 3.1e-4 at 5e5).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "estimators/interval_registry.h"
#include "estimators/intervals/bayesian.h"

namespace privbench {
namespace {

struct Case {
  ConfusionCounts c;
  double delta;
};

std::vector<Case> Cases(bool bayesian, bool delta_zero_only) {
  std::vector<int64_t> sizes = {10, 1000, 30000, kBayesianMaxTrials};
  if (!bayesian) sizes.insert(sizes.end(), {1000000000LL, 1000000000000LL});
  const double rates[][2] = {{0.35, 0.25}, {0.0, 1e-3}, {0.5, 0.5}, {0.9, 0.05}, {0.02, 0.0}};
  std::vector<Case> out;
  for (int64_t n : sizes) {
    for (const auto& r : rates) {
      const auto fn = static_cast<int64_t>(std::llround(r[0] * n));
      const auto fp = static_cast<int64_t>(std::llround(r[1] * n));
      for (double delta : {0.0, 1e-5}) {
        if (delta > 0 && delta_zero_only) continue;
        out.push_back({{n - fn, fn, fp, n - fp}, delta});
      }
    }
  }
  return out;
}

struct Interval {
  double lo, hi;
};

class Metamorphic : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    est_ = MakeIntervalEstimator(GetParam(), "method").value();
    bayesian_ = GetParam().rfind("bayesian", 0) == 0;
  }
  // The interval, or nullopt for an error where errors are allowed.
  std::optional<Interval> Get(const ConfusionCounts& c, double delta, double alpha) {
    auto e = est_->Estimate(c, delta, alpha);
    if (!e.ok() && Huge(c)) return std::nullopt;
    EXPECT_TRUE(e.ok()) << GetParam() << " " << c.ToString() << ": " << e.message();
    if (!e.ok()) return std::nullopt;
    const double hi = e->upper ? *e->upper : INFINITY;
    EXPECT_FALSE(std::isnan(e->lower) || std::isnan(hi)) << c.ToString();
    EXPECT_LE(e->lower, hi) << c.ToString();
    return Interval{e->lower, hi};
  }
  static bool Huge(const ConfusionCounts& c) { return c.positives() >= 1000000000000LL; }
  bool Near(double a, double b, const ConfusionCounts& c) const {
    if (a == b) return true;  // equal infinities included
    const double n = static_cast<double>(std::max(c.positives(), c.negatives()));
    const double rel = std::max(1e-9, n * 1e-17);
    return std::abs(a - b) <= (bayesian_ ? 1e-4 : rel * std::max(1.0, std::abs(a)));
  }
  std::unique_ptr<IntervalEstimator> est_;
  bool bayesian_ = false;
};

TEST_P(Metamorphic, MonotoneInConfidenceAndSymmetricUnderTheRegionsSwaps) {
  const double alphas[] = {0.001, 0.01, 0.05, 0.1, 0.3};
  for (const Case& k : Cases(bayesian_, GetParam() == "katz_log")) {
    const ConfusionCounts& c = k.c;
    Interval prev{-INFINITY, INFINITY};
    for (double alpha : alphas) {
      const auto got = Get(c, k.delta, alpha);
      if (!got) continue;
      const Interval i = *got;
      EXPECT_TRUE(i.lo >= prev.lo || Near(i.lo, prev.lo, c))
          << GetParam() << " " << c.ToString() << " lower falls as alpha rises to " << alpha;
      EXPECT_TRUE(i.hi <= prev.hi || Near(i.hi, prev.hi, c))
          << GetParam() << " " << c.ToString() << " upper rises as alpha rises to " << alpha;
      prev = i;
      const ConfusionCounts swapped{c.tn, c.fp, c.fn, c.tp};   // FNR <-> FPR
      const ConfusionCounts mirrored{c.fn, c.tp, c.tn, c.fp};  // rates -> 1 - rates
      for (const ConfusionCounts& m : {swapped, mirrored}) {
        const auto other = Get(m, k.delta, alpha);
        if (!other) continue;
        const Interval j = *other;
        EXPECT_TRUE(Near(i.lo, j.lo, c) && Near(i.hi, j.hi, c))
            << GetParam() << " " << c.ToString() << " vs " << m.ToString() << " alpha=" << alpha
            << ": [" << i.lo << ", " << i.hi << "] vs [" << j.lo << ", " << j.hi << "]";
      }
    }
  }
}

TEST_P(Metamorphic, CountsBeyondTheAcceptedRangeAreRefused) {
  if (!bayesian_) return;  // the others accept every count below 2^63
  const ConfusionCounts big{kBayesianMaxTrials, 1, 5, kBayesianMaxTrials - 5};
  auto e = est_->Estimate(big, 0.0, 0.05);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.message().find("tp + fn (positive trials) must be <= 100000"), std::string::npos)
      << e.message();
  const ConfusionCounts huge{5, 1, 1000000000000LL, 1};
  EXPECT_NE(est_->Estimate(huge, 0.0, 0.05).message().find("fp + tn (negative trials)"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(AllEstimators, Metamorphic, testing::ValuesIn(AllIntervalEstimatorNames()),
                         [](const testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace privbench
