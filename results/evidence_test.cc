#include "results/evidence.h"

#include <cstdint>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace privbench {
namespace {

TEST(EvidenceTest, DoublesToFourSignificantDigitsIntegersExactTextVerbatim) {
  const std::string text = Evidence() << "width " << 0.123456 << " vs " << 12345.6 << " over "
                                      << int64_t{1234567} << " runs, p " << 1e-7f;
  EXPECT_EQ(text, "width 0.1235 vs 1.235e+04 over 1234567 runs, p 1e-07");
}

TEST(EvidenceTest, NonFiniteValuesAreNamedAndDigitsOverridesThePrecision) {
  const std::string text = Evidence() << std::numeric_limits<double>::quiet_NaN() << ' '
                                      << -std::numeric_limits<double>::infinity() << ' ';
  EXPECT_EQ(text, "nan -inf ");
  EXPECT_EQ((Evidence() << "eps ").Digits(7.31456789, 6).str(), "eps 7.31457");
}

}  // namespace
}  // namespace privbench
