// Claims judged on random data by a test with a stated error probability
// (docs/studies.md "Verdicts that do not depend on the seed"): a definite
// verdict only when the test decides, otherwise "inconclusive" with the
// fraction of replicates on which the claim held. results/verify reads the
// claim group's attributes inconclusive (0/1) and holds_fraction.
//
// The test here: exact one-sided sign tests of "a > b" over paired
// replicates (ties dropped), one per comparison (e.g. per sample size), each
// at level alpha / K for K comparisons (Bonferroni). The claim holds when
// every comparison is significant in the claimed direction (probability at
// most alpha when the claim is false), does not hold when some comparison is
// significant in the opposite direction (at most alpha when it is true), and
// is inconclusive otherwise.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_JUDGED_CLAIM_H_
#define PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_JUDGED_CLAIM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench {

struct JudgedClaim {
  Claim claim;  // claim.holds: the definite verdict (false when inconclusive)
  bool inconclusive = false;
  double holds_fraction = 0.0;
};
// The claim, then its attributes inconclusive and holds_fraction.
Status WriteJudgedClaim(const JudgedClaim& j, ResultWriter& out);

// P(K >= k) for K ~ Binomial(m, 1/2).
double SignTestUpperTail(int64_t k, int64_t m);

// The paired sign test of a[i] > b[i] (same length).
struct SignTest {
  int64_t greater = 0, less = 0, pairs = 0;
  double p_greater = 1.0, p_less = 1.0;  // one-sided p-values of each direction
};
SignTest PairedSignTest(const std::vector<double>& a, const std::vector<double>& b);

// The verdict over K comparisons at family level alpha (see the header);
// holds_fraction = (sum of greater) / (sum of pairs).
struct SignVerdict {
  bool holds = false, inconclusive = false;
  double holds_fraction = 0.0;
};
SignVerdict JudgeAllGreater(const std::vector<SignTest>& tests, double alpha);

// "k of m replicates (sign-test p .., opposite p ..)".
std::string SignTestText(const SignTest& t);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_JUDGED_CLAIM_H_
