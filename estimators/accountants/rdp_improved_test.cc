#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"

namespace privbench {
namespace {

DpSgdAccounting JE(double sigma, std::vector<double> orders) {
  return DpSgdAccounting{sigma, 0.02, 5000, 1e-5, std::move(orders)};
}

AccountantResult Eps(const Accountant& acc, const DpSgdAccounting& s) {
  auto r = acc.Epsilon(s);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : AccountantResult{NAN, {}};
}

TEST(RdpImprovedTest, BelowTheClassicConversionOnTableOne) {
  // experiments/published_examples/README.md setting (that_which_we_call_private Table 1 sigmas),
  // Table 1 orders. Our values (the paper does not print this conversion).
  auto improved = MakeRdpImprovedAccountant();
  auto classic = MakeRdpAccountant();
  const double sigmas[] = {136.67, 13.76, 6.99, 1.06, 0.44};
  const double expected[] = {0.0331985, 0.387911, 0.812256, 9.11642, 103.381};
  const double orders[] = {256, 39, 21, 3.5, 1.25};
  for (int k = 0; k < 5; ++k) {
    const AccountantResult r = Eps(*improved, JE(sigmas[k], TableOneRdpOrders()));
    EXPECT_NEAR(r.epsilon / expected[k], 1.0, 1e-5) << sigmas[k];
    EXPECT_EQ(*r.order, orders[k]) << sigmas[k];
    EXPECT_LT(r.epsilon, Eps(*classic, JE(sigmas[k], TableOneRdpOrders())).epsilon);
  }
}

TEST(RdpImprovedTest, NeverAboveClassicOnTheSameOrders) {
  auto improved = MakeRdpImprovedAccountant();
  auto classic = MakeRdpAccountant();
  for (double q : {0.001, 0.02, 0.5}) {
    for (double sigma : {0.3, 1.0, 5.0, 100.0}) {
      for (int64_t steps : {1, 1000, 100000}) {
        DpSgdAccounting s{sigma, q, steps, 1e-6, {}};
        EXPECT_LE(Eps(*improved, s).epsilon, Eps(*classic, s).epsilon) << s.ToString();
      }
    }
  }
}

TEST(RdpImprovedTest, ListStoppingAt63FloorsEpsNear01) {
  // A trap of short order lists: with orders up to 63 the improved conversion cannot
  // go below min_{alpha<=63} ln(1-1/alpha) + (ln(1/delta) - ln alpha)/(alpha-1)
  // ~ 0.103 at delta = 1e-5, however much noise is added.
  std::vector<double> to63 = TableOneRdpOrders();
  to63.resize(to63.size() - 3);
  double floor63 = INFINITY;
  for (double a : to63) {
    floor63 = std::min(floor63, std::log1p(-1 / a) + (std::log(1e5) - std::log(a)) / (a - 1));
  }
  EXPECT_NEAR(floor63, 0.103, 0.001);
  auto improved = MakeRdpImprovedAccountant();
  EXPECT_GE(Eps(*improved, JE(1e4, to63)).epsilon, floor63);
  EXPECT_LT(Eps(*improved, JE(1e4, {})).epsilon, 0.01);
}

TEST(RdpImprovedTest, ClampedAtZero) {
  // Tiny RDP and alpha > 1/delta: the formula goes negative; eps is 0.
  auto r = MakeRdpImprovedAccountant()->Epsilon(DpSgdAccounting{1e4, 1e-3, 1, 0.5, {1e4}});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->epsilon, 0.0);
}

}  // namespace
}  // namespace privbench
