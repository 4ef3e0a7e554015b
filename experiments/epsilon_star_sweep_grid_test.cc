#include "experiments/epsilon_star_sweep_grid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

namespace privbench {
namespace {

EpsilonStarSweepConfig PaperAdult() {
  EpsilonStarSweepConfig c;
  c.baseline_epochs = {1, 5, 10, 20};
  c.target_eps = {1, 3, 10, 100};
  c.clip_norms = {1, 10, 30};
  c.batch_sizes = {64, 512};
  c.microbatches = {1, 32};
  return c;
}

// Epsilon* §4.1: "52 experiments for Adult" and "51 for Purchase-100".
TEST(SweepGrid, PaperCountsOfConfigurations) {
  EpsilonStarSweepConfig adult = PaperAdult();
  EXPECT_EQ(BuildSweepGrid(adult).size(), 52u);
  EpsilonStarSweepConfig purchase = adult;
  purchase.baseline_epochs = {10, 50, 100};
  purchase.batch_sizes = {256, 1024};
  EXPECT_EQ(BuildSweepGrid(purchase).size(), 51u);
}

TEST(SweepGrid, OrderIdsAndLabels) {
  EpsilonStarSweepConfig c = PaperAdult();
  c.dp_epochs = 7;
  c.baseline_batch_size = 128;
  const auto g = BuildSweepGrid(c);
  EXPECT_EQ(g[0].id, "baseline_epochs=1");
  EXPECT_FALSE(g[0].private_training);
  EXPECT_EQ(g[0].batch_size, 128);
  EXPECT_EQ(g[3].epochs, 20);
  EXPECT_EQ(g[4].id, "dp_eps=1_clip=1_batch=64_mb=1");
  EXPECT_EQ(g[5].id, "dp_eps=1_clip=1_batch=64_mb=32");
  EXPECT_EQ(g[6].id, "dp_eps=1_clip=1_batch=512_mb=1");
  EXPECT_EQ(g[51].id, "dp_eps=100_clip=30_batch=512_mb=32");
  EXPECT_EQ(g[51].label, "DP eps=100, C=30, B=512, m=32");
  EXPECT_EQ(g[51].epochs, 7);
  std::set<std::string> ids;
  for (const auto& p : g) ids.insert(p.id);
  EXPECT_EQ(ids.size(), g.size());
  EXPECT_EQ(ShortNumber(0.5), "0.5");
  EXPECT_EQ(ShortNumber(1e-5), "1e-05");
}

TEST(SweepGrid, Validation) {
  EpsilonStarSweepConfig c = PaperAdult();
  EXPECT_TRUE(ValidateSweepConfig(c).ok());
  auto msg = [](EpsilonStarSweepConfig x) { return ValidateSweepConfig(x).message(); };
  {
    auto x = c;
    x.repetitions = 0;
    EXPECT_NE(msg(x).find("repetitions"), std::string::npos);
  }
  {
    auto x = c;
    x.target_eps = {1, -1};
    EXPECT_NE(msg(x).find("target_eps"), std::string::npos);
  }
  {
    auto x = c;
    x.clip_norms = {};
    EXPECT_NE(msg(x).find("clip_norms"), std::string::npos);
  }
  {
    auto x = c;
    x.microbatches = {0};
    EXPECT_NE(msg(x).find("microbatches"), std::string::npos);
  }
  {
    auto x = c;
    x.sampling = "shuffle";
    x.microbatches = {3};
    EXPECT_NE(msg(x).find("divide"), std::string::npos);
  }
  {
    auto x = c;
    x.baseline_epochs = {5, 5};
    EXPECT_NE(msg(x).find("baseline_epochs"), std::string::npos);
  }
  {
    auto x = c;
    x.delta = 1.0;
    EXPECT_NE(msg(x).find("delta"), std::string::npos);
  }
  {
    auto x = c;
    x.calibration_rule = "tf2";
    EXPECT_NE(msg(x).find("calibration_rule"), std::string::npos);
  }
  {
    auto x = c;
    x.shard = "2/2";
    EXPECT_NE(msg(x).find("shard"), std::string::npos);
  }
  {
    auto x = c;
    x.momentum = 1.0;
    EXPECT_NE(msg(x).find("momentum"), std::string::npos);
  }
  {
    auto x = c;
    x.epsilon_star_quantiles = 0;
    EXPECT_NE(msg(x).find("epsilon_star_quantiles"), std::string::npos);
  }
  {
    auto x = c;  // baselines only is fine
    x.target_eps = x.clip_norms = {};
    x.batch_sizes = x.microbatches = {};
    EXPECT_TRUE(ValidateSweepConfig(x).ok());
    x.baseline_epochs = {};
    EXPECT_FALSE(ValidateSweepConfig(x).ok());
  }
}

TEST(SweepGrid, SummariseSkipsNonFinite) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  MinMeanMax s = Summarise({1.0, nan, 3.0});
  EXPECT_EQ(s.count, 2);
  EXPECT_DOUBLE_EQ(s.mean, 2.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 3.0);
  EXPECT_TRUE(std::isnan(Summarise({nan}).mean));
}

TEST(SweepGrid, StableHashIsFnv1a) {
  // FNV-1a 64 test vectors.
  EXPECT_EQ(StableHash(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(StableHash("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_NE(StableHash("dp_eps=1"), StableHash("dp_eps=10"));
}

TEST(SweepGrid, ParetoFrontier) {
  // x: Epsilon* (lower better), y: utility (higher better).
  //   0: (0.1, 0.5)  frontier
  //   1: (0.2, 0.4)  dominated by 0
  //   2: (0.3, 0.9)  frontier
  //   3: (0.5, 0.95) frontier
  //   4: (0.5, 0.95) duplicate of 3: kept
  //   5: (1.0, 0.96) frontier, but below the hull? no: it is the top point
  //   6: (0.2, 0.55) frontier, strictly below the segment 0-2 -> not convex
  //   7: NaN         never
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x = {0.1, 0.2, 0.3, 0.5, 0.5, 1.0, 0.2, nan};
  std::vector<double> y = {0.5, 0.4, 0.9, 0.95, 0.95, 0.96, 0.55, 0.99};
  const auto f = ParetoFrontier(x, y);
  EXPECT_EQ(f, (std::vector<bool>{true, false, true, true, true, true, true, false}));
  const auto h = ConvexParetoFrontier(x, y);
  // Hull of (0.1,.5) (0.2,.55) (0.3,.9) (0.5,.95) (1,.96): (0.2,.55) lies
  // below the chord from (0.1,.5) to (0.3,.9) (which is at .7 there).
  EXPECT_EQ(h, (std::vector<bool>{true, false, true, true, true, true, false, false}));
}

TEST(SweepGrid, ConvexFrontierDropsPointsBelowChord) {
  // (0,0) (1,0.1) (2,1): the middle point is non-dominated but below the chord.
  const auto h = ConvexParetoFrontier({0, 1, 2}, {0, 0.1, 1});
  EXPECT_EQ(h, (std::vector<bool>{true, false, true}));
  // Collinear points are kept.
  const auto k = ConvexParetoFrontier({0, 1, 2}, {0, 0.5, 1});
  EXPECT_EQ(k, (std::vector<bool>{true, true, true}));
}

}  // namespace
}  // namespace privbench
