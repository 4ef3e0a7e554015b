// The computation of the example study: randomized response on one bit
// (Warner 1965; eps-DP with keep probability e^eps / (1 + e^eps)), released
// `trials` times for input 1 and for input 0; the empirical privacy loss
// ln(P[out = 1 | in = 1] / P[out = 1 | in = 0]) estimates eps (Dwork & Roth,
// "The Algorithmic Foundations of Differential Privacy", 2014, Sec. 3.2).
#ifndef PRIVBENCH_TESTS_EXAMPLE_STUDY_COMPUTE_H_
#define PRIVBENCH_TESTS_EXAMPLE_STUDY_COMPUTE_H_

#include <cstdint>

#include "tests/example_study/config.h"

namespace privbench::example_study {

struct ResponseCounts {
  int64_t ones_given_one = 0;   // outputs 1 among `trials` releases of bit 1
  int64_t ones_given_zero = 0;  // outputs 1 among `trials` releases of bit 0
  int64_t trials = 0;
};

// Seeded: the same seed gives the same counts.
ResponseCounts SimulateRandomizedResponse(const Config& c, uint64_t seed);

// ln(p1 / p0) of the counts, and its delta-method standard error.
double EmpiricalEpsilon(const ResponseCounts& r);
double EmpiricalEpsilonStandardError(const ResponseCounts& r);

}  // namespace privbench::example_study

#endif  // PRIVBENCH_TESTS_EXAMPLE_STUDY_COMPUTE_H_
