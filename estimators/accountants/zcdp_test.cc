#include "estimators/accountants/zcdp.h"

#include <gtest/gtest.h>

#include <cmath>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"

namespace privbench {
namespace {

TEST(ZcdpTest, JayaramanEvansRho) {
  // J&E: 100 epochs (T = 5000 at q = 0.02), rho = epochs / (2 sigma^2).
  EXPECT_DOUBLE_EQ(JayaramanEvansZcdpRho(2.0, 0.02, 5000), 100.0 / 8.0);
  EXPECT_DOUBLE_EQ(JayaramanEvansZcdpRho(1.0, 0.5, 3), 0.75);  // 1.5 epochs
}

TEST(ZcdpTest, BunSteinkeConversion) {
  // Bun & Steinke 2016, Prop. 1.3: eps = rho + 2 sqrt(rho ln(1/delta)).
  EXPECT_DOUBLE_EQ(ZcdpToEpsilon(0.5, 1e-5), 0.5 + 2.0 * std::sqrt(0.5 * std::log(1e5)));
  EXPECT_EQ(ZcdpToEpsilon(0.0, 1e-5), 0.0);
}

TEST(ZcdpTest, JayaramanEvansPurchase100Values) {
  // experiments/published_examples/README.md lists zCDP beside Table 1 (the paper no longer prints
  // it): rho = 100/(2 sigma^2), eps at delta = 1e-5, computed by hand.
  auto acc = MakeZcdpAccountant();
  const double sigmas[] = {136.67, 13.76, 6.99, 1.06, 0.44};
  const double expected[] = {0.353780, 3.75138, 7.88817, 89.7689, 367.322};
  for (int k = 0; k < 5; ++k) {
    auto r = acc->Epsilon(DpSgdAccounting{sigmas[k], 0.02, 5000, 1e-5, {}});
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_NEAR(r->epsilon / expected[k], 1.0, 1e-5) << sigmas[k];
    EXPECT_FALSE(r->order.has_value());
  }
}

}  // namespace
}  // namespace privbench
