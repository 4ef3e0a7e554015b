// Parameters of study katz_coverage (README.md); defaults and flags
// in main.cc.
#ifndef PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_CONFIG_H_

#include <cstdint>
#include <vector>

namespace privbench::katz_coverage {

struct Config {
  std::vector<double> p1;  // P[M(D) in S], paired with p0 by position
  std::vector<double> p0;  // P[M(D') in S]
  std::vector<int64_t> n;  // samples per side
  int64_t trials = 5000;
  double alpha = 0.05;
};

}  // namespace privbench::katz_coverage

#endif  // PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_CONFIG_H_
