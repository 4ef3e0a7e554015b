#include "tests/example_study/compute.h"

#include <cmath>
#include <random>

#include "core/seeding.h"

namespace privbench::example_study {

ResponseCounts SimulateRandomizedResponse(const Config& c, uint64_t seed) {
  const double keep = std::exp(c.eps) / (1.0 + std::exp(c.eps));
  Rng rng = MakeRng(seed, {0});
  std::bernoulli_distribution keeps(keep);
  ResponseCounts r;
  r.trials = c.trials;
  for (int64_t i = 0; i < c.trials; ++i) {
    if (keeps(rng)) ++r.ones_given_one;    // bit 1 kept
    if (!keeps(rng)) ++r.ones_given_zero;  // bit 0 flipped
  }
  return r;
}

double EmpiricalEpsilon(const ResponseCounts& r) {
  return std::log(static_cast<double>(r.ones_given_one) / static_cast<double>(r.ones_given_zero));
}

double EmpiricalEpsilonStandardError(const ResponseCounts& r) {
  const double n = static_cast<double>(r.trials);
  const double p1 = r.ones_given_one / n, p0 = r.ones_given_zero / n;
  return std::sqrt((1 - p1) / (n * p1) + (1 - p0) / (n * p0));
}

}  // namespace privbench::example_study
