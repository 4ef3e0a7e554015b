#include "core/format.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace privbench {
namespace {
// Text of a non-finite value; empty for finite ones.
std::string NonFinite(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return "";
}
}  // namespace

std::string FormatDouble(double x) {
  if (!std::isfinite(x)) return NonFinite(x);
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), x);
  return std::string(buf, res.ptr);
}

std::string FormatSignificant(double x, int digits) {
  if (!std::isfinite(x)) return NonFinite(x);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*g", digits, x);
  return buf;
}

std::string FormatFixed(double x, int digits) {
  if (!std::isfinite(x)) return NonFinite(x);
  char buf[400];  // %.*f of 1e308 has 309 digits before the point
  std::snprintf(buf, sizeof(buf), "%.*f", digits, x);
  return buf;
}

std::string FormatRounded(double x, int decimals) {
  // Exact powers of ten, so round(x * 1e4) / 1e4 is the same double as
  // the expression written out.
  static constexpr double kScale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  if (!std::isfinite(x) || decimals < 0 || decimals > 8) return FormatDouble(x);
  return FormatDouble(std::round(x * kScale[decimals]) / kScale[decimals]);
}

}  // namespace privbench
