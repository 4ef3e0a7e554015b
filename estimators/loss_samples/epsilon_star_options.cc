#include "estimators/loss_samples/epsilon_star_options.h"

#include <string>

#include "core/validate.h"

namespace privbench {

namespace {
Error RangeError(const char* name, const char* range, double x) {
  return Error(std::string(name) + " must be in " + range + ", got " + FormatDouble(x));
}
}  // namespace

Status ValidateEpsilonStarOptions(const EpsilonStarOptions& o) {
  PB_RETURN_IF_ERROR(CheckDelta(o.delta));
  if (o.quantiles_per_distribution < 1 ||
      o.quantiles_per_distribution > kMaxQuantilesPerDistribution) {
    return Error("quantiles_per_distribution must be in [1, " +
                 std::to_string(kMaxQuantilesPerDistribution) + "], got " +
                 std::to_string(o.quantiles_per_distribution));
  }
  if (!(o.rate_floor >= 0.0 && o.rate_floor < 0.5)) {
    return RangeError("rate_floor", "[0, 0.5)", o.rate_floor);
  }
  if (!(o.rate_ceiling > 0.5 && o.rate_ceiling <= 1.0)) {
    return RangeError("rate_ceiling", "(0.5, 1]", o.rate_ceiling);
  }
  if (!(o.clip_lo > 0.0 && o.clip_lo < 0.5)) return RangeError("clip_lo", "(0, 0.5)", o.clip_lo);
  if (!(o.clip_hi > 0.5 && o.clip_hi < 1.0)) return RangeError("clip_hi", "(0.5, 1)", o.clip_hi);
  PB_RETURN_IF_ERROR(CheckLossTransform(o.transform));
  return Status::Ok();
}

std::string EpsilonStarOptionsText(const EpsilonStarOptions& o) {
  return "delta=" + FormatDouble(o.delta) +
         " quantiles_per_distribution=" + std::to_string(o.quantiles_per_distribution) +
         " rate_floor=" + FormatDouble(o.rate_floor) +
         " rate_ceiling=" + FormatDouble(o.rate_ceiling) + " clip_lo=" + FormatDouble(o.clip_lo) +
         " clip_hi=" + FormatDouble(o.clip_hi) +
         " transform=" + std::string(LossTransformName(o.transform));
}

}  // namespace privbench
