// The parameters of the example study (README, "Adding a study").
#ifndef PRIVBENCH_TESTS_EXAMPLE_STUDY_CONFIG_H_
#define PRIVBENCH_TESTS_EXAMPLE_STUDY_CONFIG_H_

#include <cstdint>

namespace privbench::example_study {

struct Config {
  double eps = 1.0986122886681098;  // ln 3: randomized response keeps a bit w.p. 3/4
  int64_t trials = 200000;          // releases per input bit
};

}  // namespace privbench::example_study

#endif  // PRIVBENCH_TESTS_EXAMPLE_STUDY_CONFIG_H_
