#include <gtest/gtest.h>

#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <limits>

#include "estimators/eps_from_rates.h"
#include "estimators/interval_registry.h"
#include "estimators/rate_box_method.h"
#include "estimators/rate_intervals.h"

namespace privbench {
namespace {

EpsInterval Estimate(const char* name, ConfusionCounts c, double delta, double alpha) {
  auto est = MakeIntervalEstimator(name).value();
  auto r = est->Estimate(c, delta, alpha);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : EpsInterval{};
}

// Bayesian paper Sec. 3.2 worked example: FN=35, TP=65, FP=25, TN=75,
// delta = 0.05, 95%: Clopper-Pearson rectangle gives [0.295, 1.489] (+-0.002).
TEST(ClopperPearsonTest, WorkedExampleRectangle) {
  const EpsInterval r = Estimate("clopper_pearson", {65, 35, 25, 75}, 0.05, 0.05);
  EXPECT_NEAR(r.lower, 0.295, 0.002);
  EXPECT_NEAR(*r.upper, 1.489, 0.002);
}

// Bayesian paper Sec. 3.1: a perfect attack over 2000 trials (1000 + 1000),
// delta = 1e-5, 90%: 5.6 with two-sided CP and 5.81 with one-sided CP
// (+-0.002 on the printed digits: 5.6 is printed to one decimal, so +-0.05).
TEST(ClopperPearsonTest, PerfectAttackTwoThousandTrials) {
  EXPECT_NEAR(Estimate("clopper_pearson", {1000, 0, 0, 1000}, 1e-5, 0.1).lower, 5.6, 0.05);
  EXPECT_NEAR(Estimate("clopper_pearson_one_sided", {1000, 0, 0, 1000}, 1e-5, 0.1).lower, 5.81,
              0.002);
  // Exactly: the upper CP limit for 0 of 1000 at 0.975 is 1 - 0.025^(1/1000).
  const double fnr_hi = -std::expm1(std::log(0.025) / 1000);
  EXPECT_NEAR(Estimate("clopper_pearson", {1000, 0, 0, 1000}, 1e-5, 0.1).lower,
              std::log((1 - 1e-5 - fnr_hi) / fnr_hi), 1e-9);
}

// Bayesian paper footnote 1: TP, FP, TN, FN = 90, 0, 100, 10, delta = 1e-5,
// 90% two-sided CP. Eq. 1 at (FNR+, FPR+) is 3.124, which is also the exact
// minimum over the rectangle. The paper's "minimum 1.736 at (FNR+, 0)" is
// ln((1 - delta - 0)/FNR+): it drops the term whose denominator is 0.
TEST(ClopperPearsonTest, FootnoteOne) {
  const ConfusionCounts c{90, 10, 0, 100};
  EXPECT_NEAR(Estimate("clopper_pearson", c, 1e-5, 0.1).lower, 3.124, 0.002);
  const RateBox box = MakeRateBox(c, 0.05, &ClopperPearsonRate);
  EXPECT_EQ(box.fpr_lo, 0.0);
  EXPECT_NEAR(EpsFromRatesUnchecked(box.fnr_hi, box.fpr_hi, 1e-5), 3.124, 0.002);
  EXPECT_NEAR(std::log((1 - 1e-5 - 0.0) / box.fnr_hi), 1.736, 0.002);  // the paper's value
  EXPECT_TRUE(std::isinf(EpsFromRatesUnchecked(box.fnr_hi, 0.0, 1e-5)));
}

// privacy-estimates README: TP=487, TN=1, FP=512, FN=0, alpha=0.1,
// delta=1e-5: Clopper-Pearson gives no bound, (0, inf).
TEST(ClopperPearsonTest, PrivacyEstimatesReadmeGivesNoBound) {
  const EpsInterval r = Estimate("clopper_pearson", {487, 0, 512, 1}, 1e-5, 0.1);
  EXPECT_EQ(r.lower, 0.0);
  EXPECT_TRUE(std::isinf(*r.upper));
}

// Tail masses far below 1e-16 with small shapes: Boost's inverse gave up
// ("Root finding evaluation exceeded 200 iterations", "no root to be found")
// and the CLI answered alpha=1e-100 at tp=2 fn=3 fp=3 tn=2 with the Boost
// message. The quantiles are well defined; the fallback finds them.
TEST(BetaQuantileTest, TinyTailMassesAreSolved) {
  for (double a : {0.5, 1.0, 2.0, 3.5, 17.0}) {
    for (double b : {0.5, 1.0, 4.0, 18.5}) {
      for (double p : {0.025, 1e-20, 1e-100, 5e-301}) {
        // Where the quantile is a normal double it must solve I_x = p; below
        // (a = 0.5, p = 5e-301: x ~ 1e-600) 0 or a denormal is the answer.
        const double lo = BetaLowerQuantile(a, b, p);
        EXPECT_GE(lo, 0.0);
        if (lo > 1e-290) {
          EXPECT_NEAR(boost::math::ibeta(a, b, lo) / p, 1.0, 1e-9) << a << " " << b << " " << p;
        }
        // Near 1 a double resolves 1 - x only to 1.1e-16 absolute.
        const double hi = BetaUpperQuantile(a, b, p);
        EXPECT_LE(hi, 1.0);
        if (1.0 - hi > 1e-6) {
          EXPECT_NEAR(boost::math::ibetac(a, b, hi) / p, 1.0, 1e-6) << a << " " << b << " " << p;
        }
      }
    }
  }
}

// Boost's inverse returned 0 without failing at some tiny tails
// (ibeta_inv(13, 16, 2.5e-251) = 0, a Jeffreys lower limit of 0 at k = 11
// where k = 10 gave 7e-30): a wrong limit, and limits that fall as the
// count rises, which the score auditor's exact search relies on not doing.
TEST(BetaQuantileTest, LimitsRiseWithTheCountAtTinyTails) {
  EXPECT_GT(ClopperPearsonRate(13, 28, 5e-251).lo, 0.0);
  EXPECT_GT(JeffreysRate(11, 22, 1e-300).lo, 0.0);
  for (const double s : {1e-150, 1e-200, 5e-251, 1e-300}) {
    for (const int64_t n : {22, 28, 40, 200}) {
      for (const RateIntervalFn rate : {&ClopperPearsonRate, &JeffreysRate}) {
        RateInterval prev = rate(0, n, s);
        for (int64_t k = 1; k <= n; ++k) {
          const RateInterval r = rate(k, n, s);
          EXPECT_GE(r.lo, prev.lo) << "k " << k << " n " << n << " s " << s;
          EXPECT_GE(r.hi, prev.hi) << "k " << k << " n " << n << " s " << s;
          prev = r;
        }
      }
    }
  }
}

TEST(ClopperPearsonTest, TinyAlphaWithSmallCountsAnswersAndNests) {
  for (const char* name :
       {"clopper_pearson", "clopper_pearson_one_sided", "jeffreys", "jeffreys_one_sided"}) {
    for (const ConfusionCounts& c : {ConfusionCounts{2, 3, 3, 2}, ConfusionCounts{1, 4, 4, 1},
                                     ConfusionCounts{17, 3, 3, 17}, ConfusionCounts{6, 2, 2, 6}}) {
      const EpsInterval wide = Estimate(name, c, 1e-5, 1e-300);
      const EpsInterval mid = Estimate(name, c, 1e-5, 1e-100);
      const EpsInterval usual = Estimate(name, c, 1e-5, 0.05);
      // A smaller alpha gives a wider (nested) interval.
      EXPECT_LE(wide.lower, mid.lower) << name << " " << c.ToString();
      EXPECT_LE(mid.lower, usual.lower) << name << " " << c.ToString();
      if (usual.upper) {
        EXPECT_GE(*mid.upper, *usual.upper) << name << " " << c.ToString();
      }
    }
  }
}

// Counts beyond 2^53: n - k rounded to 0 in doubles (k = 2^62, n = 2^62 +
// 90) and Boost refused the Beta shape b = 0; the rate itself is now
// computed, but a rate that close to 1 rounds to 1 and the eps bound came
// out +inf, so the rate-box methods refuse more than kRateBoxMaxTrials per
// side, naming the sum; at the bound they still answer.
TEST(ClopperPearsonTest, CountsBeyondDoublePrecision) {
  const int64_t big = int64_t{1} << 62;
  const RateInterval r = ClopperPearsonRate(big, big + 90, 0.05);
  EXPECT_GT(r.lo, 0.999);
  EXPECT_LE(r.hi, 1.0);
  for (const char* name :
       {"clopper_pearson", "clopper_pearson_one_sided", "jeffreys", "jeffreys_one_sided"}) {
    auto est = MakeIntervalEstimator(name).value();
    auto refused = est->Estimate({60, 40, big, 90}, 1e-5, 0.05);
    ASSERT_FALSE(refused.ok()) << name;
    EXPECT_EQ(refused.message().rfind("fp + tn (negative trials) must be <= 1e14", 0), 0u)
        << refused.message();
    const EpsInterval at_bound = Estimate(name, {60, 40, kRateBoxMaxTrials - 90, 90}, 1e-5, 0.05);
    EXPECT_GT(at_bound.lower, 26.0) << name;
    EXPECT_LT(at_bound.lower, 30.0) << name;
  }
}

}  // namespace
}  // namespace privbench
