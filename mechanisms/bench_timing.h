// Timing helpers shared by the DP-SGD benchmarks (//mechanisms:dpsgd_benchmark,
// //mechanisms:dpsgd_batched_benchmark, the Opacus anchor's
// //anchors/opacus:privbench_steps): one timed call ending with the device's
// synchronisation and calls timed side by side (the clocks, medians and load
// average: core/bench_clock.h).
#ifndef PRIVBENCH_MECHANISMS_BENCH_TIMING_H_
#define PRIVBENCH_MECHANISMS_BENCH_TIMING_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/bench_clock.h"
#include "mechanisms/device.h"

namespace privbench::bench {

// Seconds on the calling thread's CPU clock (with one LibTorch thread all
// work runs on the calling thread) or on the wall clock (needed with more
// threads or a GPU, whose work that clock does not see).
inline double Now(bool thread_cpu_clock) {
  return thread_cpu_clock ? ThreadCpuSeconds() : WallSeconds();
}

// Seconds of one call of f, ending with a synchronisation of `device`.
inline double Seconds(const std::function<void()>& f, bool thread_cpu_clock, ComputeDevice device) {
  const double start = Now(thread_cpu_clock);
  f();
  SynchronizeDevice(device);
  return Now(thread_cpu_clock) - start;
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
    std::snprintf(buf, sizeof(buf), "[%.2f, %.2f]", NearestRankQuantile(r, 0.25),
                  NearestRankQuantile(r, 0.75));
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

}  // namespace privbench::bench

#endif  // PRIVBENCH_MECHANISMS_BENCH_TIMING_H_
