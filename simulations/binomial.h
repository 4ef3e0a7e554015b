// One binomial draw with Boost.Random, the draw every simulation of this
// package is built from. Boost fixes the algorithm (unlike
// std::binomial_distribution), so with core/seeding.h's Rng the counts are
// the same on every machine and standard library.
#ifndef PRIVBENCH_SIMULATIONS_BINOMIAL_H_
#define PRIVBENCH_SIMULATIONS_BINOMIAL_H_

#include <cstdint>

#include "core/seeding.h"

namespace privbench {

// k ~ Bin(trials, p) from boost::random::binomial_distribution<int, double>.
// Preconditions (unchecked): p in [0, 1], trials in [0, 2^31).
int64_t DrawBinomial(Rng& rng, int64_t trials, double p);

}  // namespace privbench

#endif  // PRIVBENCH_SIMULATIONS_BINOMIAL_H_
