#include "experiments/region_of_privacy_analysis.h"

#include <algorithm>
#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "core/validate.h"

namespace privbench {

namespace {

std::string Fixed(double x, int digits) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, x);
  return buf;
}

std::string Sig(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.4g", x);
  return buf;
}

Status CheckLevels(const std::vector<double>& noise, size_t n, const std::string& what) {
  if (noise.size() < 2) {
    return Error(what + ": at least 2 noise levels are needed, got " +
                 std::to_string(noise.size()));
  }
  if (n != noise.size()) {
    return Error(what + ": " + std::to_string(n) + " values for " + std::to_string(noise.size()) +
                 " noise levels");
  }
  return Status::Ok();
}

}  // namespace

Result<RateSummary> SummariseRate(const std::vector<double>& values, int64_t n) {
  if (values.empty()) return Error("values must be non-empty");
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  for (double v : values) PB_RETURN_IF_ERROR(CheckProbability("values", v));
  const double r = static_cast<double>(values.size());
  RateSummary s;
  for (double v : values) s.mean += v;
  s.mean /= r;
  if (values.size() >= 2) {
    double ss = 0.0;
    for (double v : values) ss += (v - s.mean) * (v - s.mean);
    s.sd = std::sqrt(ss / (r - 1.0));
  }
  const double binomial = std::sqrt(s.mean * (1.0 - s.mean) / (static_cast<double>(n) * r));
  s.se = std::max(binomial, s.sd / std::sqrt(r));
  return s;
}

Result<RiseCheck> CheckRisesAsNoiseFalls(const std::vector<double>& noise,
                                         const std::vector<double>& means,
                                         const std::vector<double>& se, const std::string& what,
                                         double scale) {
  PB_RETURN_IF_ERROR(CheckLevels(noise, means.size(), what));
  PB_RETURN_IF_ERROR(CheckLevels(noise, se.size(), what + " standard errors"));
  for (size_t i = 0; i < means.size(); ++i) {
    PB_RETURN_IF_ERROR(CheckFinite(what, means[i]));
    PB_RETURN_IF_ERROR(CheckNonNegative(what + " standard error", se[i]));
  }
  RiseCheck c;
  std::ostringstream ev;
  ev << what << " (mean +- se) from the largest to the smallest noise:";
  for (size_t i = 0; i < means.size(); ++i) {
    ev << (i ? "," : "") << " sigma " << FormatDouble(noise[i]) << ": "
       << Fixed(scale * means[i], 2) << " +- " << Fixed(scale * se[i], 2);
  }
  bool no_drop = true, strictly = true;
  std::string drops;
  for (size_t i = 0; i + 1 < means.size(); ++i) {
    const double diff = means[i + 1] - means[i];
    const double sd = std::sqrt(se[i] * se[i] + se[i + 1] * se[i + 1]);
    if (!(diff > 0.0)) strictly = false;
    if (diff < -2.0 * sd) {
      no_drop = false;
      drops += " sigma " + FormatDouble(noise[i]) + " -> " + FormatDouble(noise[i + 1]) +
               " drops by " + Fixed(-scale * diff, 2) + " > 2 se " + Fixed(2 * scale * sd, 2) + ";";
    }
  }
  const double overall = means.back() - means.front();
  const double overall_sd = std::sqrt(se.front() * se.front() + se.back() * se.back());
  const bool rises = overall > 2.0 * overall_sd;
  c.holds = no_drop && rises;
  c.strictly_increasing = strictly;
  ev << ". (a) no step drops by more than 2 se: " << (no_drop ? "yes" : "NO:" + drops)
     << " (b) smallest-noise minus largest-noise " << Fixed(scale * overall, 2) << " vs 2 se "
     << Fixed(2 * scale * overall_sd, 2) << ": " << (rises ? "yes" : "NO")
     << ". Means strictly increasing: " << (strictly ? "yes" : "no") << ".";
  c.evidence = ev.str();
  return c;
}

Result<OrderCheck> CheckBelow(const std::vector<double>& noise, const std::vector<double>& lower,
                              const std::vector<double>& upper, const std::string& lower_name,
                              const std::string& upper_name) {
  const std::string what = lower_name + " <= " + upper_name;
  PB_RETURN_IF_ERROR(CheckLevels(noise, lower.size(), what));
  PB_RETURN_IF_ERROR(CheckLevels(noise, upper.size(), what));
  OrderCheck c;
  c.holds = true;
  c.min_ratio = std::numeric_limits<double>::infinity();
  std::ostringstream ev;
  ev << lower_name << " vs " << upper_name << " (ratio upper/lower):";
  for (size_t i = 0; i < noise.size(); ++i) {
    if (std::isnan(lower[i]) || std::isnan(upper[i])) {
      return Error(what + ": NaN at sigma " + FormatDouble(noise[i]));
    }
    const bool ok = lower[i] <= upper[i];
    c.holds = c.holds && ok;
    const double ratio =
        lower[i] > 0.0 ? upper[i] / lower[i] : std::numeric_limits<double>::infinity();
    c.min_ratio = std::min(c.min_ratio, ratio);
    ev << (i ? ";" : "") << " sigma " << FormatDouble(noise[i]) << ": " << Sig(lower[i]) << " vs "
       << Sig(upper[i]) << " (" << Sig(ratio) << "x)" << (ok ? "" : " VIOLATED");
  }
  ev << ". Holds at every level: " << (c.holds ? "yes" : "no") << ".";
  c.evidence = ev.str();
  return c;
}

Result<double> NullMeanBestAdvantage(int64_t m, int64_t n) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("m", m));
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  return std::sqrt(boost::math::constants::pi<double>() / 8.0) * std::sqrt((md + nd) / (md * nd));
}

Result<double> NullQuantileBestAdvantage(int64_t m, int64_t n, double p) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("m", m));
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  if (!(p > 0.0 && p < 1.0)) return Error("p must be in (0, 1), got " + FormatDouble(p));
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  return std::sqrt(-std::log1p(-p) / 2.0) * std::sqrt((md + nd) / (md * nd));
}

std::string NoiseText(double sigma) { return FormatDouble(sigma); }

}  // namespace privbench
