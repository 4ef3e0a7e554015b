// Unit tests of experiments/lib/epsilon_star_sweep/sweep_main.h: the grid of
// each scale (the paper's 52 and 51 configurations), the shared rules and
// the /meta quick_scale_reductions text.
#include "experiments/lib/epsilon_star_sweep/sweep_main.h"

#include <gtest/gtest.h>

#include <vector>

namespace privbench {
namespace {

const SweepGridOfStudy kAdult{{1, 5, 10, 20}, 64, {64, 512}, {1, 5}};
const SweepGridOfStudy kPurchase{{10, 50, 100}, 256, {256, 1024}, {1, 3}};

TEST(SweepMainTest, PaperGridOfEachStudy) {
  const EpsilonStarSweepConfig adult = DefaultSweepGrid(Scale::kPaper, kAdult);
  EXPECT_EQ(BuildSweepGrid(adult).size(), 52u);  // Epsilon* §4.1
  EXPECT_EQ(BuildSweepGrid(DefaultSweepGrid(Scale::kPaper, kPurchase)).size(), 51u);
  EXPECT_EQ(adult.target_eps, (std::vector<double>{1, 3, 10, 100}));
  EXPECT_EQ(adult.clip_norms, (std::vector<double>{1, 10, 30}));
  EXPECT_EQ(adult.microbatches, (std::vector<int64_t>{1, 32}));
  EXPECT_EQ(adult.repetitions, 5);
  EXPECT_EQ(adult.dp_epochs, 10);
  EXPECT_EQ(adult.epsilon_star_quantiles, 1000000);
}

TEST(SweepMainTest, QuickAndTestReduceTheDpGrid) {
  const EpsilonStarSweepConfig quick = DefaultSweepGrid(Scale::kQuick, kPurchase);
  EXPECT_EQ(quick.baseline_epochs, kPurchase.baseline_epochs);
  EXPECT_EQ(quick.baseline_batch_size, 256);
  EXPECT_EQ(quick.batch_sizes, kPurchase.batch_sizes);
  EXPECT_EQ(quick.target_eps, (std::vector<double>{1, 10}));
  EXPECT_EQ(quick.clip_norms, (std::vector<double>{1}));
  EXPECT_EQ(quick.repetitions, 2);
  const EpsilonStarSweepConfig test = DefaultSweepGrid(Scale::kTest, kPurchase);
  EXPECT_EQ(test.baseline_epochs, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(test.baseline_batch_size, 64);
  EXPECT_EQ(test.batch_sizes, (std::vector<int64_t>{64}));
  EXPECT_EQ(test.microbatches, (std::vector<int64_t>{32}));
  EXPECT_EQ(test.dp_epochs, 1);
  EXPECT_EQ(test.epsilon_star_quantiles, 1000);
}

TEST(SweepMainTest, RowsMustNotBeZero) {
  SweepStudyConfig c;
  c.grid = DefaultSweepGrid(Scale::kTest, kAdult);
  EXPECT_TRUE(ValidateSweepStudy(c).ok());
  c.n_train = 0;
  EXPECT_EQ(ValidateSweepStudy(c).message(), "n_train must be -1 or >= 1, got 0");
  c.n_train = 10;
  c.n_population = 0;
  EXPECT_EQ(ValidateSweepStudy(c).message(), "n_population must be -1 or >= 1, got 0");
}

TEST(SweepMainTest, ReductionsText) {
  EXPECT_EQ(SweepReductionsText(Scale::kPaper, "x", 7), "none (the paper's grid)");
  EXPECT_EQ(SweepReductionsText(Scale::kQuick, "x", 7),
            "quick scale: x; Epsilon* quantiles per distribution 7");
  EXPECT_EQ(SweepReductionsText(Scale::kTest, "x", 7),
            "test scale: x; Epsilon* quantiles per distribution 7");
}

}  // namespace
}  // namespace privbench
