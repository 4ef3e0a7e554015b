#include "core/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace privbench {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double Mean(const std::vector<double>& x) {
  if (x.empty()) return kNaN;
  double s = 0.0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

double SampleSd(const std::vector<double>& x) {
  if (x.size() < 2) return kNaN;
  const double m = Mean(x);
  double ss = 0.0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::sqrt(ss / static_cast<double>(x.size() - 1));
}

double Median(std::vector<double> x) {
  if (x.empty()) return kNaN;
  std::sort(x.begin(), x.end());
  const size_t h = x.size() / 2;
  return x.size() % 2 == 1 ? x[h] : 0.5 * (x[h - 1] + x[h]);
}

double Quantile(std::vector<double> x, double p) {
  if (x.empty() || !(p >= 0.0 && p <= 1.0)) return kNaN;
  std::sort(x.begin(), x.end());
  const double h = p * static_cast<double>(x.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, x.size() - 1);
  return x[lo] + (h - static_cast<double>(lo)) * (x[hi] - x[lo]);
}

double Correlation(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2) return kNaN;
  const double mx = Mean(x), my = Mean(y);
  double sxy = 0.0, sxx = 0.0, syy = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0.0 || syy == 0.0) return kNaN;
  return sxy / std::sqrt(sxx * syy);
}

}  // namespace privbench
