#include "estimators/accountants/advanced.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"
#include "estimators/accountants/naive.h"

namespace privbench {
namespace {

// J&E Purchase-100 logistic regression (docs/studies.md, Accounting
// reference).
constexpr double kQ = 0.02;
constexpr int64_t kSteps = 5000;
constexpr double kDelta = 1e-5;

double RelErr(double x, double ref) { return std::abs(x / ref - 1.0); }
double Adv(double sigma) { return AdvancedCompositionEpsilon(sigma, kQ, kSteps, kDelta).epsilon; }

// that_which_we_call_private Table 1, "Advanced" column, with the delta split
// optimised (docs/studies.md, Accounting reference).
TEST(AdvancedTableOneTest, Rows2To4WithinOnePercent) {
  // that_which_we_call_private Table 1, row 2: sigma 13.76, advanced 4.23 (ours 4.22710).
  EXPECT_LT(RelErr(Adv(13.76), 4.23), 0.01);
  // that_which_we_call_private Table 1, row 3: sigma 6.99, advanced 12.3 (ours 12.3151).
  EXPECT_LT(RelErr(Adv(6.99), 12.3), 0.01);
  // that_which_we_call_private Table 1, row 4: sigma 1.06, advanced 37722 (ours 37557.4;
  // an even split would give 44179, 17% off: the paper optimised the split too).
  EXPECT_LT(RelErr(Adv(1.06), 37722.0), 0.01);
}

TEST(AdvancedTableOneTest, Row1AlsoWithinOnePercent) {
  // that_which_we_call_private Table 1, row 1: sigma 136.67, advanced 0.31 (ours 0.308313).
  EXPECT_LT(RelErr(Adv(136.67), 0.31), 0.01);
}

TEST(AdvancedTableOneTest, Row5PrintedSigmaIsRounded) {
  // that_which_we_call_private Table 1, row 5: sigma 0.44, advanced 3.5e8. The
  // printed sigma is rounded; this model gives 3.98900e8 at 0.44 (and 2.98e8
  // at sigma 0.4491, where RDP = 100). We pin our value.
  EXPECT_NEAR(Adv(0.44) / 3.98900e8, 1.0, 1e-4);
}

TEST(AdvancedTest, DocumentedOptimalSplits) {
  // advanced.h documents these optima (fraction f of delta given to delta').
  const double sigmas[] = {136.67, 13.76, 6.99, 1.06, 0.44};
  const double fractions[] = {0.5766, 0.4653, 0.3465, 2.192e-3, 5.057e-7};
  for (int k = 0; k < 5; ++k) {
    auto b = AdvancedCompositionEpsilon(sigmas[k], kQ, kSteps, kDelta);
    EXPECT_NEAR(b.delta_prime_fraction / fractions[k], 1.0, 2e-3) << sigmas[k];
    // The pieces are consistent: delta' + T q delta0 = delta.
    EXPECT_NEAR(std::exp(b.log_delta_prime) + kSteps * kQ * std::exp(b.log_step_delta), kDelta,
                1e-15);
  }
}

TEST(AdvancedTest, OptimumBeatsEveryGridSplit) {
  for (double sigma : {0.3, 0.44, 1.06, 6.99, 136.67}) {
    const double best = Adv(sigma);
    for (double u = -60.0; u <= 30.0; u += 0.25) {
      EXPECT_LE(best,
                AdvancedCompositionAtSplit(sigma, kQ, kSteps, kDelta, u).epsilon * (1.0 + 1e-12))
          << "sigma=" << sigma << " u=" << u;
    }
  }
}

TEST(AdvancedTest, MatchesTheTheoremAtAFixedSplit) {
  // Even split (u = 0): delta' = delta/2, delta0 = delta/(2 T q).
  const double t = 5000, sigma = 6.99;
  const double eps0 = std::sqrt(2.0 * std::log(1.25 / (kDelta / (2 * t * kQ)))) / sigma;
  const double es = std::log(1.0 + kQ * (std::exp(eps0) - 1.0));
  const double expected =
      std::sqrt(2.0 * t * std::log(2.0 / kDelta)) * es + t * es * (std::exp(es) - 1.0);
  EXPECT_NEAR(AdvancedCompositionAtSplit(sigma, kQ, kSteps, kDelta, 0.0).epsilon / expected, 1.0,
              1e-12);
}

TEST(AdvancedTest, InfiniteWhenTheBoundOverflows) {
  // sigma 0.001: eps_s > 5000 at every split, T eps_s e^eps_s > 1e308.
  EXPECT_EQ(Adv(0.001), std::numeric_limits<double>::infinity());
  auto r = MakeAdvancedAccountant()->Epsilon(DpSgdAccounting{0.001, kQ, kSteps, kDelta, {}});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->epsilon, std::numeric_limits<double>::infinity());
}

TEST(AdvancedTest, BeatsNaiveOnlyWhenStepsArePrivate) {
  // Table 1's qualitative claim: advanced << naive for small eps_s (rows 1-3),
  // advanced >> naive once eps_s is large (rows 4-5).
  EXPECT_LT(Adv(6.99), NaiveCompositionEpsilon(6.99, kQ, kSteps, kDelta) / 5);
  EXPECT_GT(Adv(1.06), NaiveCompositionEpsilon(1.06, kQ, kSteps, kDelta) * 4);
}

}  // namespace
}  // namespace privbench
