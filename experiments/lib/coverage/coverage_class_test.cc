#include "experiments/lib/coverage/coverage_class.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"

namespace privbench {
namespace {

TEST(CoverageSe, Formulas) {
  EXPECT_DOUBLE_EQ(NominalSe(0.9, 100), std::sqrt(0.9 * 0.1 / 100));
  EXPECT_DOUBLE_EQ(ObservedSe(0.5, 400), 0.025);
  EXPECT_EQ(ObservedSe(1.0, 10), 0.0);
}

TEST(ClassifyCoverage, ThreeNominalSeBand) {
  // nominal 0.9, 100 trials: se0 = 0.03, band = 0.09.
  EXPECT_EQ(ClassifyCoverage(0.9, 0.9, 100), CoverageClass::kNear);
  EXPECT_EQ(ClassifyCoverage(0.82, 0.9, 100), CoverageClass::kNear);
  EXPECT_EQ(ClassifyCoverage(0.80, 0.9, 100), CoverageClass::kUnder);
  EXPECT_EQ(ClassifyCoverage(1.0, 0.9, 100), CoverageClass::kOver);
  EXPECT_EQ(ClassifyCoverage(0.95, 0.9, 100, 1.0), CoverageClass::kOver);
}

TEST(CoverageClassName, Names) {
  EXPECT_EQ(std::string(CoverageClassName(CoverageClass::kUnder)), "under");
  EXPECT_EQ(std::string(CoverageClassName(CoverageClass::kNear)), "near");
  EXPECT_EQ(std::string(CoverageClassName(CoverageClass::kOver)), "over");
}

}  // namespace
}  // namespace privbench
