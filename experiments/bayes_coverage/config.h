// Parameters of study bayes_coverage (README.md); defaults and
// flags in main.cc.
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_CONFIG_H_

#include <cstdint>
#include <vector>

namespace privbench::bayes_coverage {

struct Config {
  std::vector<double> fpr;  // true FPRs, paired with fnr by position
  std::vector<double> fnr;
  std::vector<int64_t> n;  // total trials (members + non-members), even
  int64_t trials = 500;    // Monte-Carlo repetitions per setting
  double alpha = 0.1;      // nominal confidence 1 - alpha
  double delta = 1e-5;
};

}  // namespace privbench::bayes_coverage

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_CONFIG_H_
