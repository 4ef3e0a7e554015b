// The scores the score-audit benchmarks draw: n members N(mean, 1) or
// non-members N(0, 1), one score at a time from `rng` (the same numbers in
// every benchmark and at every thread count).
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_BENCHMARK_SCORES_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_BENCHMARK_SCORES_H_

#include <boost/random/normal_distribution.hpp>
#include <cstdint>
#include <vector>

#include "core/seeding.h"

namespace privbench {

inline std::vector<double> UnitGaussianScores(int64_t n, double mean, Rng& rng) {
  boost::random::normal_distribution<double> normal(mean, 1.0);
  std::vector<double> x(static_cast<size_t>(n));
  for (double& v : x) v = normal(rng);
  return x;
}

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_BENCHMARK_SCORES_H_
