#include "experiments/bayes_sample_size/compute.h"

#include <cmath>
#include <cstring>

#include "gtest/gtest.h"

namespace privbench::bayes_sample_size {
namespace {

Config TestConfig() {
  Config c;
  c.n_min = 100;
  c.n_max = 2000;
  c.n_step = 100;
  return c;
}

bool SameBytes(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(SampleSizeGrid, FromNMinInStepsUpToNMax) {
  Config c;
  c.n_min = 10;
  c.n_max = 17;
  c.n_step = 4;
  EXPECT_EQ(SampleSizeGrid(c), (std::vector<int64_t>{10, 14}));
  c.n_max = 10;
  EXPECT_EQ(SampleSizeGrid(c), (std::vector<int64_t>{10}));
  EXPECT_EQ(SampleSizeGrid(Config{}).size(), 1451u);  // 100, 102, ..., 3000
}

TEST(ComputeSampleSizeCurves, ShapesCountsAndSamplesNeeded) {
  const Config c = TestConfig();
  const std::vector<int64_t> n = SampleSizeGrid(c);
  auto r = ComputeSampleSizeCurves(c, n, /*threads=*/2, /*progress=*/nullptr);
  ASSERT_TRUE(r.ok()) << r.message();
  const size_t G = n.size(), M = r->methods.size();
  ASSERT_EQ(r->n, n);
  ASSERT_EQ(r->counts.size(), G);
  ASSERT_EQ(r->point_eps.size(), G);
  ASSERT_EQ(r->needed.size(), M);
  EXPECT_DOUBLE_EQ(r->target_width, 0.3);
  EXPECT_NEAR(r->true_eps, std::log((0.6 - 1e-5) / 0.4), 1e-12);
  for (size_t g = 0; g < G; ++g) {
    EXPECT_EQ(r->counts[g].fn, std::llround(0.4 * n[g] / 2));
    EXPECT_EQ(r->counts[g].tp + r->counts[g].fn, n[g] / 2);
  }
  auto paper = FindPaperMethods(r->methods);
  ASSERT_TRUE(paper.ok());
  for (size_t m = 0; m < M; ++m) {
    ASSERT_EQ(r->width[m].size(), G);
    if (r->methods[m].one_sided) {
      EXPECT_EQ(r->needed[m].stays, -1) << r->methods[m].name;
      EXPECT_TRUE(std::isnan(r->width[m][0]));
    } else {
      auto want = FindSamplesNeeded(n, r->width[m], 0.3);
      ASSERT_TRUE(want.ok());
      EXPECT_EQ(r->needed[m].stays, want->stays) << r->methods[m].name;
      EXPECT_EQ(r->needed[m].first, want->first) << r->methods[m].name;
    }
  }
  // The paper's direction: the Bayesian method needs fewer samples than CP.
  const int64_t by = r->needed[paper->bayesian].stays;
  const int64_t cp = r->needed[paper->clopper_pearson].stays;
  EXPECT_GT(by, 0);
  EXPECT_LT(by, cp);
}

TEST(ComputeSampleSizeCurves, SameBytesOnOneAndTwoThreads) {
  const Config c = TestConfig();
  const std::vector<int64_t> n = SampleSizeGrid(c);
  auto one = ComputeSampleSizeCurves(c, n, 1, nullptr);
  auto two = ComputeSampleSizeCurves(c, n, 2, nullptr);
  ASSERT_TRUE(one.ok() && two.ok());
  for (size_t m = 0; m < one->methods.size(); ++m) {
    EXPECT_TRUE(SameBytes(one->lower[m], two->lower[m])) << one->methods[m].name;
    EXPECT_TRUE(SameBytes(one->upper[m], two->upper[m])) << one->methods[m].name;
  }
}

TEST(ComputeSampleSizeCurves, OddGridPointIsAnError) {
  Config c = TestConfig();
  auto r = ComputeSampleSizeCurves(c, {100, 101}, 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("n must be even"), std::string::npos) << r.message();
}

}  // namespace
}  // namespace privbench::bayes_sample_size
