#include "experiments/lib/framework/judged_claim.h"

#include <gtest/gtest.h>

namespace privbench {
namespace {

TEST(JudgedClaim, SignTestTail) {
  EXPECT_DOUBLE_EQ(SignTestUpperTail(0, 10), 1.0);
  EXPECT_NEAR(SignTestUpperTail(9, 10), 11.0 / 1024, 1e-12);
  EXPECT_NEAR(SignTestUpperTail(10, 10), 1.0 / 1024, 1e-12);
  EXPECT_NEAR(SignTestUpperTail(5, 10), 638.0 / 1024, 1e-12);
  EXPECT_EQ(SignTestUpperTail(11, 10), 0.0);
}

TEST(JudgedClaim, VerdictsOfTwoComparisons) {
  const std::vector<double> ten_high(10, 1.0), ten_low(10, 0.0);
  std::vector<double> seven(10, 0.0);
  for (int i = 0; i < 7; ++i) seven[i] = 1.0;
  const SignTest all = PairedSignTest(ten_high, ten_low);  // p = 1/1024
  EXPECT_EQ(all.greater, 10);
  const SignVerdict holds = JudgeAllGreater({all, all}, 0.05);
  EXPECT_TRUE(holds.holds);
  EXPECT_FALSE(holds.inconclusive);
  const SignVerdict fails = JudgeAllGreater({all, PairedSignTest(ten_low, ten_high)}, 0.05);
  EXPECT_FALSE(fails.holds);
  EXPECT_FALSE(fails.inconclusive);
  const std::vector<double> halves(10, 0.5);  // 7 greater, 3 less: p = 176/1024
  const SignVerdict unsure = JudgeAllGreater({all, PairedSignTest(seven, halves)}, 0.05);
  EXPECT_FALSE(unsure.holds);
  EXPECT_TRUE(unsure.inconclusive);
  EXPECT_DOUBLE_EQ(unsure.holds_fraction, 17.0 / 20);
  // Ties are dropped: 9 wins and 1 tie is 9 of 9 (p = 1/512).
  std::vector<double> tie = ten_high;
  tie[0] = 0.0;
  EXPECT_NEAR(PairedSignTest(tie, ten_low).p_greater, 1.0 / 512, 1e-12);
}

}  // namespace
}  // namespace privbench
