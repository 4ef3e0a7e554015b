#include "simulations/ratio_draws.h"

#include "core/seeding.h"
#include "simulations/binomial.h"

namespace privbench {

RatioCounts DrawRatioCounts(double p1, double p0, int64_t n, uint64_t seed) {
  Rng rng(seed);
  RatioCounts c;
  c.n1 = DrawBinomial(rng, n, p1);
  c.n0 = DrawBinomial(rng, n, p0);
  return c;
}

}  // namespace privbench
