// The numbers of study B3 epsilon_star_distance (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B.1
// "Increasing the distance between training and non-training
// distributions", Fig. 5; README.md), without I/O.
//
// Train losses ~ Gamma(train_shape, train_scale); population losses, for
// each distance d in `distances`, DistancePopulation(c, d) (config.h; the
// paper's text lost the parameterisation; our default is train Gamma(1, 1)
// and population Gamma(1 + d, 1)). For each d, each n and each of
// `repetitions` independent draws, every registered loss-sample estimator
// is evaluated in two analyses:
//   primary:       each estimator on its own window (empirical: the
//                  paper's (0.001, 0.999); parametric: [clip_lo, clip_hi],
//                  lost in the paper, default [1e-6, 1 - 1e-6]);
//   common_window: every estimator on [common_lo, common_hi] (default
//                  [0.001, 0.999]).
// The exact Epsilon* of the known distributions is computed on every window
// (rate, clip, common). An estimator's bias is its mean minus the exact
// value on the window it used (primary: its own; secondary: the common one).
// The two windows measure different quantities: for separated
// distributions the supremum sits on the window boundary, so a wider window
// gives a larger exact value.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>
#include <xtensor/xtensor.hpp>

#include "core/result.h"
#include "experiments/epsilon_star_distance/config.h"
#include "experiments/lib/epsilon_star_sim/replicates.h"
#include "experiments/lib/epsilon_star_sim/windows.h"

namespace privbench::epsilon_star_distance {

// Seed stream of this study (B2 uses another, so that its samples are not
// this study's d = 0 samples).
inline constexpr uint64_t kDistanceSeedStream = 3;

// Settings are indexed s = i * N + k for distance i and sample size k.
struct DistanceResults {
  size_t N = 0;                            // sample sizes per distance
  std::vector<std::string> names;          // registered estimators [E]
  ClaimEstimators claim;                   // empirical and parametric in `names`
  std::vector<SimAnalysis> analyses;       // primary, common_window
  ExactWindows windows;                    // rate, clip, common
  std::vector<std::vector<double>> exact;  // [window][d]
  ReplicateValues values;                  // (s, analysis, estimator, repetition)
  ReplicateMoments moments;                // mean, sd (s, analysis, estimator)
  xt::xtensor<double, 3> bias;             // (s, analysis, estimator)

  // The exact references of estimator e in analysis a, [d].
  const std::vector<double>& Reference(size_t a, size_t e) const {
    return exact[ReferenceWindow(a, names[e])];
  }
  double Bias(size_t a, size_t e, size_t i, size_t k) const { return bias(i * N + k, a, e); }
};

// The exact values of every (d, window), then every (d, n, repetition) unit
// from the seed stream DeriveSeed(seed, {kDistanceSeedStream}) on `threads`
// threads; bias = mean - exact reference.
Result<DistanceResults> ComputeDistance(const Config& c, uint64_t seed, int threads, bool quiet);

// Root mean squared error of `x` against `reference` (divisor x.size()).
double Rmse(const xt::xtensor<double, 1>& x, double reference);

}  // namespace privbench::epsilon_star_distance

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_COMPUTE_H_
