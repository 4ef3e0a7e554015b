#include "experiments/bayes_coverage/diagonal_limit.h"

#include <cmath>

#include "gtest/gtest.h"

namespace privbench::bayes_coverage {
namespace {

TEST(DiagonalLimit, ClosedFormsAtAlphaOneTenth) {
  EXPECT_NEAR(IndependentOneSidedLimit(0.1), 0.9 + 0.1 * std::log(0.1), 1e-15);
  EXPECT_NEAR(IndependentOneSidedLimit(0.1), 0.6697, 1e-4);
  EXPECT_NEAR(IndependentTwoSidedLimit(0.1), 0.7989, 1e-4);
  // Both below the nominal 1 - alpha for every alpha.
  for (double a : {0.01, 0.05, 0.1, 0.2, 0.5}) {
    EXPECT_LT(IndependentOneSidedLimit(a), 1 - a);
    EXPECT_LT(IndependentTwoSidedLimit(a), 1 - a);
  }
}

// The quadrature agrees with the closed forms at rho = 0 (a check of the
// derivation and of the code: the two compute P(F >= w) differently).
TEST(DiagonalLimit, QuadratureMatchesTheClosedFormAtRhoZero) {
  for (double a : {0.05, 0.1, 0.2}) {
    const CoverageLimit l = DiagonalCoverageLimit(a, 0.0);
    EXPECT_NEAR(l.one_sided, IndependentOneSidedLimit(a), 1e-6) << a;
    EXPECT_NEAR(l.two_sided, IndependentTwoSidedLimit(a), 1e-6) << a;
  }
}

// A correlated pair tends to one term: exact coverage 1 - alpha.
TEST(DiagonalLimit, RisesToNominalAsRhoGrowsToOne) {
  double last = 0.0;
  for (double rho : {0.0, 0.1, 0.5, 0.9, 0.999}) {
    const CoverageLimit l = DiagonalCoverageLimit(0.1, rho);
    EXPECT_GT(l.one_sided, last - 1e-9) << rho;
    last = l.one_sided;
  }
  EXPECT_NEAR(last, 0.9, 0.01);
}

TEST(DiagonalLimit, BivariateNormalCdf) {
  EXPECT_NEAR(BivariateNormalCdf(0, 0, 0.5), 0.25 + std::asin(0.5) / (2 * M_PI), 1e-9);
  EXPECT_NEAR(BivariateNormalCdf(1, -1, 0.0), 0.8413447460685429 * 0.15865525393145707, 1e-12);
  EXPECT_NEAR(DiagonalTermCorrelation(0.5), 1.0, 1e-15);
  EXPECT_NEAR(DiagonalTermCorrelation(0.05), 0.095 / 0.905, 1e-12);
}

}  // namespace
}  // namespace privbench::bayes_coverage
