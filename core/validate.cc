#include "core/validate.h"

#include <charconv>
#include <cmath>
#include <string>

namespace privbench {

namespace {
Error RangeError(std::string_view name, std::string_view range, double x) {
  return Error(std::string(name) + " must be " + std::string(range) + ", got " + FormatDouble(x));
}
}  // namespace

Status CheckProbability(std::string_view name, double x) {
  if (!(x >= 0.0 && x <= 1.0)) return RangeError(name, "in [0, 1]", x);
  return Status::Ok();
}

Status CheckDelta(double delta) {
  if (!(delta >= 0.0 && delta < 1.0)) return RangeError("delta", "in [0, 1)", delta);
  return Status::Ok();
}

Status CheckAlpha(double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) return RangeError("alpha", "in (0, 1)", alpha);
  // Below it the normal quantile of alpha/4 leaves the normal doubles
  // (erfc_inv overflows at alpha = 5e-324).
  if (alpha < kMinAlpha) {
    return RangeError("alpha", ">= 1e-300 (the normal quantiles overflow below it)", alpha);
  }
  return Status::Ok();
}

Status CheckPositive(std::string_view name, double x) {
  if (!(std::isfinite(x) && x > 0.0)) return RangeError(name, "finite and > 0", x);
  return Status::Ok();
}

Status CheckNonNegative(std::string_view name, double x) {
  if (!(std::isfinite(x) && x >= 0.0)) return RangeError(name, "finite and >= 0", x);
  return Status::Ok();
}

Status CheckFinite(std::string_view name, double x) {
  if (!std::isfinite(x)) return RangeError(name, "finite", x);
  return Status::Ok();
}

Status CheckNonNegativeCount(std::string_view name, int64_t count) {
  if (count < 0) {
    return Error(std::string(name) + " must be >= 0, got " + std::to_string(count));
  }
  return Status::Ok();
}

Status CheckPositiveCount(std::string_view name, int64_t count) {
  if (count < 1) {
    return Error(std::string(name) + " must be >= 1, got " + std::to_string(count));
  }
  return Status::Ok();
}

Status CheckFiniteSamples(std::string_view name, const std::vector<double>& xs) {
  if (xs.empty()) return Error(std::string(name) + " must be non-empty");
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!std::isfinite(xs[i])) {
      return Error(std::string(name) + "[" + std::to_string(i) + "] must be finite, got " +
                   FormatDouble(xs[i]));
    }
  }
  return Status::Ok();
}

}  // namespace privbench
