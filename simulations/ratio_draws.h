// Synthetic counts for a ratio of two binomial proportions with a known true
// ratio (experiments/katz_coverage/README.md; ML-Audit, Lu et al. NeurIPS 2022, Sec. 4.2):
// N runs of a mechanism on D and N on a neighbour D', with
//   p1 = P[M(D) in S],  p0 = P[M(D') in S],
//   n1 ~ Bin(N, p1),    n0 ~ Bin(N, p0)   (independent).
// The true log ratio log(p1/p0) is the eps lower bound at delta = 0 that
// an auditor estimates from (n1, n0).
#ifndef PRIVBENCH_SIMULATIONS_RATIO_DRAWS_H_
#define PRIVBENCH_SIMULATIONS_RATIO_DRAWS_H_

#include <cstdint>

namespace privbench {

struct RatioCounts {
  int64_t n1 = 0;  // successes of N on D
  int64_t n0 = 0;  // successes of N on D'
};

// One Monte-Carlo trial: n1 then n0, drawn in that order from Rng(seed)
// (core/seeding.h; pass a DeriveSeed value) with DrawBinomial
// (simulations/binomial.h). Preconditions (unchecked): p1, p0 in [0, 1],
// n in [0, 2^31).
RatioCounts DrawRatioCounts(double p1, double p0, int64_t n, uint64_t seed);

}  // namespace privbench

#endif  // PRIVBENCH_SIMULATIONS_RATIO_DRAWS_H_
