// Timing helpers shared by the DP-SGD benchmarks (//mechanisms:dpsgd_benchmark,
// //mechanisms:dpsgd_batched_benchmark, the Opacus anchor's
// //anchors/opacus:privbench_steps): the clock, one timed call, medians,
// quantiles and the load average they print beside their figures.
#ifndef PRIVBENCH_MECHANISMS_BENCH_TIMING_H_
#define PRIVBENCH_MECHANISMS_BENCH_TIMING_H_

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "mechanisms/device.h"

namespace privbench::bench {

// Seconds on the calling thread's CPU clock (with one LibTorch thread all
// work runs on the calling thread, and time spent descheduled by other
// processes of a shared machine is not counted), or on the wall clock
// (needed with more threads or a GPU, whose work that clock does not see).
inline double Now(bool thread_cpu_clock) {
  if (thread_cpu_clock) {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds of one call of f, ending with a synchronisation of `device`.
inline double Seconds(const std::function<void()>& f, bool thread_cpu_clock, ComputeDevice device) {
  const double start = Now(thread_cpu_clock);
  f();
  SynchronizeDevice(device);
  return Now(thread_cpu_clock) - start;
}

// The median (the mean of the middle two for an even count); v non-empty.
inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The q-quantile (nearest rank) of a non-empty v.
inline double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const size_t k = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(k, v.size() - 1)];
}

// The 1-minute load average ("1.02"; "unknown" if unavailable): the machine
// is shared, so the benchmarks say how busy it was.
inline std::string LoadAverage() {
  double load[1];
  if (getloadavg(load, 1) != 1) return "unknown";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", load[0]);
  return buf;
}

}  // namespace privbench::bench

#endif  // PRIVBENCH_MECHANISMS_BENCH_TIMING_H_
