// one_run_audit: the guess counting, the audit bounds, and the claims'
// criteria on hand-made runs.
#include "experiments/one_run_audit/compute.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "experiments/one_run_audit/report.h"

namespace privbench {
namespace one_run_audit {
namespace {

TEST(CorrectGuesses, TopInBottomOut) {
  const std::vector<double> scores = {0.9, 0.1, 0.5, 0.8, 0.2, 0.3};
  const std::vector<int64_t> included = {1, 0, 1, 0, 0, 1};
  // Order by score: 0 (in), 3 (out), 2 (in), 5 (in), 4 (out), 1 (out).
  EXPECT_EQ(CorrectGuesses(scores, included, 1, 0), 1);
  EXPECT_EQ(CorrectGuesses(scores, included, 2, 0), 1);
  EXPECT_EQ(CorrectGuesses(scores, included, 3, 2), 4);  // 0, 2 right; 1, 4 right
  EXPECT_EQ(CorrectGuesses(scores, included, 0, 3), 2);  // 1, 4 out: right; 5 in: wrong
}

TEST(BoundAudit, PerfectSeparationGivesAPositiveBoundAndChanceGivesZero) {
  Config c;
  c.canaries = 200;
  c.k_plus = {50, 100};
  c.k_minus = {50, 0};
  c.delta = 1e-5;
  c.beta = 0.05;
  Audit a;
  for (int64_t i = 0; i < c.canaries; ++i) {
    a.included.push_back(i % 2);
    a.scores.push_back(i % 2 ? 1.0 + i : -1.0 - i);
  }
  ASSERT_TRUE(BoundAudit(c, a).ok());
  EXPECT_EQ(a.v, (std::vector<int64_t>{100, 100}));
  EXPECT_GT(a.best_lower, 2.0);
  EXPECT_EQ(a.best_lower, std::max(a.lower[0], a.lower[1]));
  Audit chance = a;
  for (int64_t i = 0; i < c.canaries; ++i) chance.scores[i] = (i * 7919) % 200;
  ASSERT_TRUE(BoundAudit(c, chance).ok());
  EXPECT_LT(chance.best_lower, 0.5);
}

RunResult MakeRun(double eps, double pld, double input, double white) {
  RunResult r;
  r.target_epsilon = eps;
  r.eps_rdp = eps;
  r.eps_pld = pld;
  r.audits[0].best_lower = input;
  r.audits[1].best_lower = white;
  return r;
}

TEST(Claims, Criteria) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<RunResult> runs = {MakeRun(1, 0.8, 0.0, 0.2), MakeRun(8, 6.5, 0.1, 1.5),
                                 MakeRun(inf, inf, 0.3, 3.0)};
  EXPECT_TRUE(BelowAccountantClaim(runs).holds);
  EXPECT_TRUE(GrowsWithEpsClaim(runs).holds);
  EXPECT_TRUE(WhiteBoxTighterClaim(runs).holds);
  runs[1].audits[1].best_lower = 7.0;  // above PLD 6.5
  EXPECT_FALSE(BelowAccountantClaim(runs).holds);
  runs[1].audits[1].best_lower = 0.1;  // below eps 1's 0.2
  EXPECT_FALSE(GrowsWithEpsClaim(runs).holds);
  runs[2].audits[0].best_lower = 5.0;  // input-space ahead at the last level
  EXPECT_FALSE(WhiteBoxTighterClaim(runs).holds);
}

}  // namespace
}  // namespace one_run_audit
}  // namespace privbench
