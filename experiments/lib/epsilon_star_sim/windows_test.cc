// Unit tests of experiments/lib/epsilon_star_sim/windows.h: which window each
// estimator reads, its text, and the exact references of both analyses.
#include "experiments/lib/epsilon_star_sim/windows.h"

#include <gtest/gtest.h>

namespace privbench {
namespace {

TEST(WindowTest, ParametricUsesClipOthersRate) {
  EXPECT_EQ(WindowOfEstimator("parametric"), EpsilonStarWindow::kClip);
  EXPECT_EQ(WindowOfEstimator("empirical"), EpsilonStarWindow::kRate);
  EXPECT_EQ(WindowName(EpsilonStarWindow::kClip), "clip_window");
  EpsilonStarOptions o;
  EXPECT_EQ(WindowText(o, EpsilonStarWindow::kRate), "(0.001, 0.999)");
  EXPECT_EQ(WindowText(o, EpsilonStarWindow::kClip), "[1e-06, 0.999999]");
  const EpsilonStarOptions e = ExactOptionsForWindow(o, EpsilonStarWindow::kClip);
  EXPECT_EQ(e.rate_floor, 1e-6);
  EXPECT_EQ(e.rate_ceiling, 1.0 - 1e-6);
  EXPECT_EQ(ExactOptionsForWindow(o, EpsilonStarWindow::kRate).rate_floor, 0.001);
}

TEST(ExactWindowsTest, EqualWindowsAreComputedOnce) {
  EpsilonStarOptions primary, common;
  common.rate_floor = common.clip_lo = 0.001;
  common.rate_ceiling = common.clip_hi = 0.999;
  ExactWindows w = MakeExactWindows(primary, common);
  EXPECT_EQ(w.names, (std::vector<std::string>{"rate_window", "clip_window", "common_window"}));
  EXPECT_EQ(w.source, (std::vector<size_t>{0, 1, 0}));  // common = rate by default
  EXPECT_EQ(w.Distinct(), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(w.options[1].rate_floor, 1e-6);
  common.rate_floor = 0.01;
  w = MakeExactWindows(primary, common);
  EXPECT_EQ(w.source, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(w.options[2].rate_floor, 0.01);
}

TEST(ExactWindowsTest, ExactReferencesOfEveryWindowAndPopulation) {
  EpsilonStarOptions primary, common;
  primary.quantiles_per_distribution = common.quantiles_per_distribution = 500;
  const ExactWindows w = MakeExactWindows(primary, common);  // common = rate
  const GammaLoss train{1.0, 1.0, 0.0};
  const std::vector<GammaLoss> pops = {train, GammaLoss{2.0, 1.0, 0.0}};
  auto exact = ExactReferences(train, pops, w, 2, true, "test");
  ASSERT_TRUE(exact.ok()) << exact.message();
  ASSERT_EQ(exact->size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    ASSERT_EQ((*exact)[k].size(), 2u);
    EXPECT_EQ((*exact)[k][1], *ExactGammaEpsilonStar(train, pops[1], w.options[k]));
    EXPECT_NEAR((*exact)[k][0], 0.0, 1e-9);
  }
  EXPECT_EQ((*exact)[2], (*exact)[0]);
  EXPECT_GT((*exact)[1][1], (*exact)[0][1]);  // the wider clip window
  auto bad = ExactReferences(GammaLoss{0.0, 1.0, 0.0}, pops, w, 1, true, "test");
  EXPECT_FALSE(bad.ok());
}

TEST(ExactWindowsTest, ReferenceOfEachAnalysis) {
  EXPECT_EQ(ReferenceWindow(0, "empirical"), 0u);
  EXPECT_EQ(ReferenceWindow(0, "parametric"), 1u);
  EXPECT_EQ(ReferenceWindow(1, "parametric"), 2u);
  EXPECT_EQ(AnalysisWindow(0, "parametric"), EpsilonStarWindow::kClip);
  EXPECT_EQ(AnalysisWindow(1, "parametric"), EpsilonStarWindow::kRate);
}

}  // namespace
}  // namespace privbench
