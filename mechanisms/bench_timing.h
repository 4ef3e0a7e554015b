// Timing helpers shared by the DP-SGD benchmarks (//mechanisms:dpsgd_benchmark,
// //mechanisms:dpsgd_batched_benchmark, the Opacus anchor's
// //anchors/opacus:privbench_steps): the clock, one timed call, medians,
// quantiles and the load average they print beside their figures.
#ifndef PRIVBENCH_MECHANISMS_BENCH_TIMING_H_
#define PRIVBENCH_MECHANISMS_BENCH_TIMING_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
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

// Timings of compared functions: per function, every timed call.
struct Timings {
  std::vector<std::vector<double>> t;
  double median(size_t i) const { return Median(t[i]); }
  // The spread of the ratio t[num] / t[den] over paired samples (the k-th
  // call of each; pairs are adjacent in time, so they share the machine's
  // load): "[q25, q75]" of the per-pair ratios.
  std::string RatioSpread(size_t num, size_t den) const {
    std::vector<double> r;
    const size_t n = std::min(t[num].size(), t[den].size());
    for (size_t k = 0; k < n; ++k) r.push_back(t[num][k] / t[den][k]);
    char buf[64];
    std::snprintf(buf, sizeof(buf), "[%.2f, %.2f]", Quantile(r, 0.25), Quantile(r, 0.75));
    return buf;
  }
};

// `fs` timed interleaved call by call (f0, f1, f0, f1, ...) after `warmup`
// untimed rounds, so that each call of one is next to a call of the others
// and changes in the load hit all alike.
inline Timings TimeSideBySide(const std::vector<std::function<void()>>& fs, int64_t warmup,
                              int64_t repeats, bool thread_cpu_clock, ComputeDevice device) {
  for (int64_t r = 0; r < warmup; ++r) {
    for (const auto& f : fs) f();
  }
  Timings out;
  out.t.resize(fs.size());
  for (int64_t r = 0; r < repeats; ++r) {
    for (size_t i = 0; i < fs.size(); ++i) {
      out.t[i].push_back(Seconds(fs[i], thread_cpu_clock, device));
    }
  }
  return out;
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
