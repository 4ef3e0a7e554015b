// The numbers of study B2 epsilon_star_identical (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B.1
// "Identical Loss Distributions", Fig. 4; README.md), without I/O.
//
// For each sample size n and each of `repetitions` independent draws of n
// train and n population losses from the same Gamma(shape, scale), every
// registered loss-sample estimator (empirical, parametric, and any added
// later) is evaluated in two analyses:
//   primary:       each estimator on its own window (empirical (0.001,
//                  0.999) from the paper; parametric [clip_lo, clip_hi],
//                  lost in the paper, default [1e-6, 1 - 1e-6]);
//   common_window: every estimator on [common_lo, common_hi] (default
//                  [0.001, 0.999]), to show how the verdict depends on the
//                  lost parametric window.
// The exact Epsilon* (known CDFs) is computed on each window (it is 0: for
// identical distributions FPR = 1 - FNR and both ratio terms are <= 1).
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/epsilon_star_identical/config.h"
#include "experiments/lib/epsilon_star_sim/replicates.h"
#include "experiments/lib/epsilon_star_sim/windows.h"

namespace privbench::epsilon_star_identical {

// Seed stream of this study (B3 uses another, so that its d = 0 samples are
// not this study's samples).
inline constexpr uint64_t kIdenticalSeedStream = 2;

struct IdenticalResults {
  std::vector<std::string> names;     // registered estimators [E]
  ClaimEstimators claim;              // empirical and parametric in `names`
  std::vector<SimAnalysis> analyses;  // primary, common_window
  ExactWindows windows;               // rate, clip, common
  std::vector<double> exact;          // [window]
  ReplicateValues values;             // [n][analysis][estimator][repetition]
  ReplicateMoments moments;           // mean, sd [analysis][estimator][n]
  // The exact reference of estimator e in analysis a.
  double Exact(size_t a, size_t e) const { return exact[ReferenceWindow(a, names[e])]; }
};

// The exact values, then every (n, repetition) unit from the seed stream
// DeriveSeed(seed, {kIdenticalSeedStream}) on `threads` threads.
Result<IdenticalResults> ComputeIdentical(const Config& c, uint64_t seed, int threads, bool quiet);

}  // namespace privbench::epsilon_star_identical

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_COMPUTE_H_
