// Timing helpers of the coverage studies' benchmarks
// (experiments/<study>/benchmark.cc of bayes_coverage and katz_coverage):
// wall-clock seconds, a duration as text, and the projection of a grid's
// wall time from a measured rate.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_GRID_PROJECTION_H_
#define PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_GRID_PROJECTION_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "core/format.h"

namespace privbench {

using Clock = std::chrono::steady_clock;
inline double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

inline std::string Duration(double s) {
  if (s < 120) return FormatFixed(s, 1) + " s";
  if (s < 7200) return FormatFixed(s / 60, 1) + " min";
  return FormatFixed(s / 3600, 2) + " h";
}

// Projected wall times, summed over the settings.
struct Projection {
  double paper_seconds = 0.0, quick_seconds = 0.0, measured = 0.0;
  int64_t settings = 0;
};

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_GRID_PROJECTION_H_
