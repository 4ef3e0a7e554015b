// Test problems for the logistic-regression solvers (numerics/logistic.h),
// shared by their tests.
#ifndef PRIVBENCH_NUMERICS_LOGISTIC_TESTING_H_
#define PRIVBENCH_NUMERICS_LOGISTIC_TESTING_H_

#include <cstdint>
#include <random>

#include "numerics/logistic.h"

namespace privbench::testing {

// Rows like Adult's after scaling to [-1, 1]: a few continuous columns, one-hot
// blocks in {-1, +1} and a constant; compressed they become shift + sparse.
// Dense as returned (CompressRows compresses them).
inline LogisticProblem OneHotProblem(int64_t n, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  LogisticProblem p;
  const int64_t numeric = 3, blocks = 4, levels = 5;
  p.m = numeric + blocks * levels + 1;
  p.lambda = 1.0 / static_cast<double>(n);
  for (int64_t i = 0; i < n; ++i) {
    double margin = 0;
    for (int64_t j = 0; j < numeric; ++j) {
      const double v = 0.2 * normal(rng);
      p.x.push_back(v);
      margin += v;
    }
    for (int64_t k = 0; k < blocks; ++k) {
      const int64_t hot = static_cast<int64_t>(rng() % levels);
      for (int64_t l = 0; l < levels; ++l) p.x.push_back(l == hot ? 0.15 : -0.15);
      margin += hot == 0 ? 0.3 : 0.0;
    }
    p.x.push_back(0.7);
    p.sign.push_back(margin + 0.3 * normal(rng) > 0.1 ? 1.0 : -1.0);
  }
  return p;
}

}  // namespace privbench::testing

#endif  // PRIVBENCH_NUMERICS_LOGISTIC_TESTING_H_
