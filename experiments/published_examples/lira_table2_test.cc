#include "experiments/published_examples/lira_table2.h"

#include <gtest/gtest.h>

#include <cmath>

namespace privbench::published_examples {
namespace {

TEST(Table2Widths, FromThePrintedEndpoints) {
  auto w = ComputeTable2Widths();
  ASSERT_TRUE(w.ok()) << w.message();
  ASSERT_EQ(w->method.size(), 8u);
  // CIFAR-10 no DP: CP (1.8, 5.3), Bayesian (2.2, 4.5).
  EXPECT_EQ(w->method[2], "bayesian");
  EXPECT_NEAR(w->width[0], 3.5, 1e-12);
  EXPECT_NEAR(w->width[2], 2.3, 1e-12);
  EXPECT_NEAR(w->reduction_pct[2], 100.0 * (2.3 / 3.5 - 1.0), 1e-9);  // -34.3%, not -40%
  // Rounding range: Bayesian width in [2.2, 2.4], CP in [3.4, 3.6].
  EXPECT_NEAR(w->reduction_min_pct[2], 100.0 * (2.2 / 3.6 - 1.0), 1e-9);
  EXPECT_NEAR(w->reduction_max_pct[2], 100.0 * (2.4 / 3.4 - 1.0), 1e-9);
  EXPECT_GT(w->reduction_min_pct[2], -40.0);  // -40% is out of reach
  // eps = 8: CP (0.23, 7.7), Bayesian (1.1, 5.0): -47.8%.
  EXPECT_NEAR(w->reduction_pct[5], 100.0 * (3.9 / 7.47 - 1.0), 1e-9);
  EXPECT_NEAR(w->width_min[3], (7.7 - 0.05) - (0.23 + 0.005), 1e-12);
  // SST-2 has no finite CP interval: no reduction.
  EXPECT_TRUE(std::isnan(w->reduction_pct[6]));
  EXPECT_NEAR(w->width[6], 5.2, 1e-12);
}

TEST(Table2Ceilings, PerfectAttackOn1024Trials) {
  auto c = ComputeTable2Ceilings();
  ASSERT_TRUE(c.ok()) << c.message();
  bool saw_bayesian = false;
  for (size_t i = 0; i < c->method.size(); ++i) {
    if (c->method[i] == "bayesian") {
      saw_bayesian = true;
      EXPECT_GT(c->lower[i], 4.0);  // above every printed Bayesian lower bound
      EXPECT_LT(c->lower[i], 8.0);
    }
  }
  EXPECT_TRUE(saw_bayesian);
  EXPECT_TRUE(c->printed_below_ceiling) << c->evidence;
  EXPECT_NE(c->evidence.find("sst2 no_dp jeffreys 3.57"), std::string::npos);
}

}  // namespace
}  // namespace privbench::published_examples
