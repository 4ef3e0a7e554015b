// Clocks and summaries shared by the benchmarks (no LibTorch: the DP-SGD
// benchmarks add their device synchronisation in mechanisms/bench_timing.h):
// the calling thread's CPU clock, the wall clock, nearest-rank quantiles
// and the load average a benchmark prints beside its figures.
#ifndef PRIVBENCH_CORE_BENCH_CLOCK_H_
#define PRIVBENCH_CORE_BENCH_CLOCK_H_

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "core/stats.h"

namespace privbench::bench {

// Seconds on the calling thread's CPU clock: single-threaded work timed
// without the time it spends descheduled by other processes of a shared
// machine.
inline double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Seconds on the monotonic wall clock.
inline double WallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The q-quantile by nearest rank of a non-empty v (core/stats.h Quantile
// interpolates; Median is there too).
inline double NearestRankQuantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const size_t k = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(k, v.size() - 1)];
}

// The 1-, 5- and 15-minute load averages ("2.23 1.86 2.15"; "unknown" if
// unavailable): the machine is shared, so the benchmarks say how busy it was.
inline std::string LoadAverages() {
  double load[3];
  if (getloadavg(load, 3) != 3) return "unknown";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.2f %.2f %.2f", load[0], load[1], load[2]);
  return buf;
}

// The 1-minute load average alone ("1.02"; "unknown" if unavailable).
inline std::string LoadAverage() {
  double load[1];
  if (getloadavg(load, 1) != 1) return "unknown";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", load[0]);
  return buf;
}

}  // namespace privbench::bench

#endif  // PRIVBENCH_CORE_BENCH_CLOCK_H_
