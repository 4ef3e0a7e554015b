#include "simulations/confusion_draws.h"

#include "core/seeding.h"
#include "simulations/binomial.h"

namespace privbench {

ConfusionCounts DrawConfusionCounts(double fnr, double fpr, int64_t positives, int64_t negatives,
                                    uint64_t seed) {
  Rng rng(seed);
  ConfusionCounts c;
  c.fn = DrawBinomial(rng, positives, fnr);
  c.tp = positives - c.fn;
  c.fp = DrawBinomial(rng, negatives, fpr);
  c.tn = negatives - c.fp;
  return c;
}

}  // namespace privbench
