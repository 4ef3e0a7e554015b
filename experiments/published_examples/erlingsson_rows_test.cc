#include "experiments/published_examples/erlingsson_rows.h"

#include <cmath>

#include "estimators/summary_bounds.h"
#include "gtest/gtest.h"

namespace privbench::published_examples {
namespace {

TEST(ErlingssonRows, TprInvertsProp3) {
  for (double tpr : {0.051, 0.078, 0.089, 0.2}) {
    auto eps = EpsFromAdvantage(tpr - 0.05, 1e-5);
    ASSERT_TRUE(eps.ok());
    EXPECT_NEAR(TprForProp3Bound(*eps), tpr, 1e-12) << tpr;
  }
}

TEST(ErlingssonRows, ShiftedRowHypothesisFromTableOne) {
  auto c = ComputeCeilingAndAdvantage();
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->eps_lower[3], 0.0284, 1e-4);
  EXPECT_NEAR(c->eps_lower[4], 0.0398, 1e-4);
  const Claim claim = ShiftedRowClaim(*c);
  EXPECT_TRUE(claim.holds) << claim.evidence;
  // With row 5's TPR lowered to row 4's the hypothesis fails.
  CeilingAndAdvantage other = *c;
  other.eps_lower[4] = other.eps_lower[3];
  EXPECT_FALSE(ShiftedRowClaim(other).holds);
}

}  // namespace
}  // namespace privbench::published_examples
