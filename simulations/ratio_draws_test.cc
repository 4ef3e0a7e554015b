#include "simulations/ratio_draws.h"

#include <cstdint>

#include "core/seeding.h"
#include "gtest/gtest.h"

namespace privbench {
namespace {

constexpr uint64_t kStudySeed = 20231121;  // the studies' default --seed

TEST(DrawRatioCounts, CountsWithinN) {
  for (uint64_t t = 0; t < 50; ++t) {
    const RatioCounts c = DrawRatioCounts(0.9, 0.1, 30, DeriveSeed(11, {t}));
    EXPECT_GE(c.n1, 0);
    EXPECT_LE(c.n1, 30);
    EXPECT_GE(c.n0, 0);
    EXPECT_LE(c.n0, 30);
  }
}

TEST(DrawRatioCounts, ExtremeProbabilities) {
  const RatioCounts c = DrawRatioCounts(1.0, 0.0, 25, 4);
  EXPECT_EQ(c.n1, 25);
  EXPECT_EQ(c.n0, 0);
}

TEST(DrawRatioCounts, MeansAreNTimesP) {
  const int reps = 4000;
  double s1 = 0.0, s0 = 0.0;
  for (int t = 0; t < reps; ++t) {
    const RatioCounts c =
        DrawRatioCounts(0.5, 0.05, 100, DeriveSeed(8, {static_cast<uint64_t>(t)}));
    s1 += static_cast<double>(c.n1);
    s0 += static_cast<double>(c.n0);
  }
  // sds of the means: sqrt(25 / 4000) = 0.079 and sqrt(4.75 / 4000) = 0.034; 6 sd.
  EXPECT_NEAR(s1 / reps, 50.0, 0.48);
  EXPECT_NEAR(s0 / reps, 5.0, 0.21);
}

// The counts katz_coverage writes to /trials/{n1,n0} at the default seed
// (settings 0 and 1: p1 0.5, p0 0.05, N = 100 and 1000; trial 0): a change
// here changes every stored result of the study.
TEST(DrawRatioCounts, PinnedStudyDraws) {
  const RatioCounts a = DrawRatioCounts(0.5, 0.05, 100, DeriveSeed(kStudySeed, {0, 0}));
  EXPECT_EQ(a.n1, 55);
  EXPECT_EQ(a.n0, 6);
  const RatioCounts b = DrawRatioCounts(0.5, 0.05, 1000, DeriveSeed(kStudySeed, {1, 0}));
  EXPECT_EQ(b.n1, 481);
  EXPECT_EQ(b.n0, 70);
}

}  // namespace
}  // namespace privbench
