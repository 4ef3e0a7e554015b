#include "simulations/binomial.h"

#include <boost/random/binomial_distribution.hpp>

namespace privbench {

int64_t DrawBinomial(Rng& rng, int64_t trials, double p) {
  boost::random::binomial_distribution<int, double> dist(static_cast<int>(trials), p);
  return dist(rng);
}

}  // namespace privbench
