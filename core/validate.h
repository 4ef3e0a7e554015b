// Argument validation shared by every privbench library.
//
// Each check returns an error whose message names the argument and shows
// the offending value, e.g. "delta must be in [0, 1), got 1.5". NaN fails
// every check.
#ifndef PRIVBENCH_CORE_VALIDATE_H_
#define PRIVBENCH_CORE_VALIDATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/format.h"  // FormatDouble, used in every message
#include "core/result.h"

namespace privbench {

// x in [0, 1].
Status CheckProbability(std::string_view name, double x);
// delta in [0, 1).
Status CheckDelta(double delta);
// alpha in [kMinAlpha, 1): significance level; confidence is 1 - alpha.
// Smaller alphas are refused: the normal quantiles the interval methods
// take of alpha/2 or alpha/4 overflow near the smallest doubles.
inline constexpr double kMinAlpha = 1e-300;
Status CheckAlpha(double alpha);
// finite and > 0.
Status CheckPositive(std::string_view name, double x);
// finite and >= 0.
Status CheckNonNegative(std::string_view name, double x);
// finite (not NaN, not +-inf).
Status CheckFinite(std::string_view name, double x);
// count >= 0.
Status CheckNonNegativeCount(std::string_view name, int64_t count);
// count >= 1.
Status CheckPositiveCount(std::string_view name, int64_t count);
// non-empty and every element finite; the message names the first bad index.
Status CheckFiniteSamples(std::string_view name, const std::vector<double>& xs);

}  // namespace privbench

#endif  // PRIVBENCH_CORE_VALIDATE_H_
