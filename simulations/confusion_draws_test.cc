#include "simulations/confusion_draws.h"

#include <cstdint>

#include "core/seeding.h"
#include "gtest/gtest.h"
#include "simulations/binomial.h"

namespace privbench {
namespace {

constexpr uint64_t kStudySeed = 20231121;  // the studies' default --seed

TEST(DrawBinomial, ExtremeProbabilitiesAreDeterministic) {
  Rng rng(1);
  EXPECT_EQ(DrawBinomial(rng, 50, 0.0), 0);
  EXPECT_EQ(DrawBinomial(rng, 50, 1.0), 50);
  EXPECT_EQ(DrawBinomial(rng, 0, 0.3), 0);
}

TEST(DrawBinomial, MeanIsTrialsTimesP) {
  Rng rng(7);
  const int reps = 4000;
  double sum = 0.0;
  for (int i = 0; i < reps; ++i) sum += static_cast<double>(DrawBinomial(rng, 100, 0.3));
  // sd of the mean: sqrt(100 * 0.21 / 4000) = 0.072; 6 sd.
  EXPECT_NEAR(sum / reps, 30.0, 0.45);
}

TEST(DrawConfusionCounts, CountsAddUpToTheSides) {
  for (uint64_t t = 0; t < 50; ++t) {
    const ConfusionCounts c = DrawConfusionCounts(0.3, 0.1, 40, 60, DeriveSeed(3, {t}));
    EXPECT_EQ(c.tp + c.fn, 40);
    EXPECT_EQ(c.fp + c.tn, 60);
    EXPECT_GE(c.fn, 0);
    EXPECT_GE(c.fp, 0);
    EXPECT_TRUE(c.Validate().ok());
  }
}

TEST(DrawConfusionCounts, ExtremeRates) {
  const ConfusionCounts c = DrawConfusionCounts(1.0, 0.0, 10, 20, 5);
  EXPECT_EQ(c.fn, 10);
  EXPECT_EQ(c.tp, 0);
  EXPECT_EQ(c.fp, 0);
  EXPECT_EQ(c.tn, 20);
}

TEST(DrawConfusionCounts, SameSeedSameCounts) {
  const ConfusionCounts a = DrawConfusionCounts(0.4, 0.4, 500, 500, 99);
  const ConfusionCounts b = DrawConfusionCounts(0.4, 0.4, 500, 500, 99);
  EXPECT_EQ(a.fn, b.fn);
  EXPECT_EQ(a.fp, b.fp);
}

// The counts bayes_coverage writes to /trials/{fn,fp} at the default seed
// (settings 0 and 2: FNR 0.5, FPR 0.001, n = 200 and 5000; trial 0): a
// change here changes every stored result of the study.
TEST(DrawConfusionCounts, PinnedStudyDraws) {
  const ConfusionCounts a =
      DrawConfusionCounts(0.5, 0.001, 100, 100, DeriveSeed(kStudySeed, {0, 0}));
  EXPECT_EQ(a.fn, 55);
  EXPECT_EQ(a.fp, 0);
  const ConfusionCounts b =
      DrawConfusionCounts(0.5, 0.001, 2500, 2500, DeriveSeed(kStudySeed, {2, 0}));
  EXPECT_EQ(b.fn, 1280);
  EXPECT_EQ(b.fp, 2);
}

}  // namespace
}  // namespace privbench
