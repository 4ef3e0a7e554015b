// MultiSplit: the median of many splits' bounds (multi_split.h).
#include "estimators/score_audit/multi_split.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "core/validate.h"

namespace privbench {

Result<std::vector<MultiSplitResult>> MultiSplitEach(const SplitBounds& bounds, size_t count,
                                                     const MultiSplitOptions& options) {
  PB_RETURN_IF_ERROR(CheckAlpha(options.alpha));
  if (options.num_splits < 1 || options.num_splits > kMaxMultiSplits) {
    return Error("num_splits must be in [1, " + std::to_string(kMaxMultiSplits) + "], got " +
                 std::to_string(options.num_splits));
  }
  if (count < 1) return Error("count must be >= 1, got 0");
  std::vector<MultiSplitResult> out(count);
  const double level = options.alpha / 2.0;
  for (MultiSplitResult& r : out) r.level_alpha = level;
  for (int64_t j = 0; j < options.num_splits; ++j) {
    const std::string where = "split " + std::to_string(j);
    const uint64_t seed = DeriveSeed(options.seed, {3, static_cast<uint64_t>(j)});
    Result<std::vector<double>> values = bounds(seed, level);
    if (!values.ok()) return Error(where + ": " + values.message());
    if (values->size() != count) {
      return Error(where + ": " + std::to_string(values->size()) + " bounds, expected " +
                   std::to_string(count));
    }
    for (size_t k = 0; k < count; ++k) {
      const double b = (*values)[k];
      if (!std::isfinite(b)) {
        return Error(where + (count > 1 ? ", bound " + std::to_string(k) : std::string()) +
                     ": not finite, got " + FormatDouble(b));
      }
      out[k].split_bounds.push_back(b);
    }
  }
  for (MultiSplitResult& r : out) r.bound = Median(r.split_bounds);
  return out;
}

Result<MultiSplitResult> MultiSplit(const SplitBound& bound, const MultiSplitOptions& options) {
  const SplitBounds one = [&bound](uint64_t seed, double level) -> Result<std::vector<double>> {
    PB_ASSIGN_OR_RETURN(double b, bound(seed, level));
    return std::vector<double>{b};
  };
  PB_ASSIGN_OR_RETURN(std::vector<MultiSplitResult> out, MultiSplitEach(one, 1, options));
  return std::move(out.front());
}

}  // namespace privbench
