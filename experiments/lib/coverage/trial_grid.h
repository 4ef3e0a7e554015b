// The Monte-Carlo design the coverage studies share: a grid of settings,
// one per (true-parameter pair, sample size), and `trials` independent
// repetitions of each setting, every repetition with its own seed.
//
//   for (const GridPoint& g : PairMajorGrid(c.p1.size(), c.n)) ...
//   ForEachTrial("katz_coverage", S, T, seed, threads, quiet,
//                [&](int64_t s, int64_t t, uint64_t trial_seed) { ... });
#ifndef PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_TRIAL_GRID_H_
#define PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_TRIAL_GRID_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

// One setting of the grid: the index of its true-parameter pair and its
// sample size.
struct GridPoint {
  int64_t pair = 0;
  int64_t n = 0;
};

// Every (pair, n) for pairs 0..pairs-1 and the sample sizes `ns`,
// pair-major: the order of a coverage study's /settings.
std::vector<GridPoint> PairMajorGrid(size_t pairs, const std::vector<int64_t>& ns);

// One repetition: setting s, trial t, drawn from trial_seed.
using TrialFn = std::function<Status(int64_t setting, int64_t trial, uint64_t trial_seed)>;

// Runs trial(s, t, DeriveSeed(seed, {s, t})) for every setting s < settings
// and trial t < trials on `threads` threads, reporting progress on stderr
// under `label` unless quiet. Each repetition has its own seed and writes
// its own outputs, so the result does not depend on the thread count.
// Returns the error of the first failing (s, t) in (setting, trial) order.
Status ForEachTrial(const std::string& label, int64_t settings, int64_t trials, uint64_t seed,
                    int threads, bool quiet, const TrialFn& trial);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_TRIAL_GRID_H_
