// The parameters of study bayes_sample_size (Zanella-Béguelin et al.,
// "Bayesian Estimation of Differential Privacy", ICML 2023, Sec. 3.4,
// Fig. 4; README.md). Defaults and constraints: main.cc.
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_CONFIG_H_

#include <cstdint>

namespace privbench::bayes_sample_size {

struct Config {
  double fpr = 0.4;  // rates of the hypothetical attack
  double fnr = 0.4;
  double alpha = 0.1;  // intervals at confidence 1 - alpha
  double delta = 1e-5;
  int64_t n_min = 100;  // grid of total samples (even; n/2 per class)
  int64_t n_max = 3000;
  int64_t n_step = 2;
  double target_half_width = 0.15;  // the estimate eps +- h: width <= 2h
};

}  // namespace privbench::bayes_sample_size

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_CONFIG_H_
