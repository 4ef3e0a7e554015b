#include "numerics/normal.h"

#include <cmath>

namespace privbench {

namespace {
constexpr double kLogSqrt2Pi = 0.91893853320467274178;
}  // namespace

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double LogNormalCdf(double z) {
  if (z == -INFINITY) return -INFINITY;
  if (z < -30.0) {
    const double w = 1.0 / (z * z);
    return -0.5 * z * z - std::log(-z) - kLogSqrt2Pi +
           std::log1p(-w * (1.0 - 3.0 * w * (1.0 - 5.0 * w * (1.0 - 7.0 * w))));
  }
  if (z < -5.0) return std::log(0.5 * std::erfc(-z / std::sqrt(2.0)));
  return std::log1p(-0.5 * std::erfc(z / std::sqrt(2.0)));
}

}  // namespace privbench
