#include "experiments/sequential_audit/compute.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "experiments/sequential_audit/config.h"
#include "experiments/sequential_audit/report.h"

namespace privbench {
namespace sequential_audit {
namespace {

const MechanismCase& Find(const std::vector<MechanismCase>& cases, const std::string& name) {
  for (const MechanismCase& m : cases) {
    if (m.name == name) return m;
  }
  ADD_FAILURE() << "no case " << name;
  return cases.front();
}

TEST(MechanismCases, BoundaryCasesAttainTheirClaimAndViolationsExceedIt) {
  const std::vector<MechanismCase> cases = MechanismCases(Config{});
  ASSERT_EQ(cases.size(), 5u);
  for (const char* name : {"rr_correct", "gaussian_correct"}) {
    const MechanismCase& m = Find(cases, name);
    const RuleRates r = ExactRuleRates(m);
    EXPECT_NEAR(r.tpr - r.fpr, ClaimTau(m), 1e-12) << name;
  }
  const MechanismCase& lap = Find(cases, "laplace_correct");
  EXPECT_LT(ExactRuleRates(lap).tpr - ExactRuleRates(lap).fpr, ClaimTau(lap) - 0.01);
  for (const MechanismCase& m : cases) {
    if (m.correct) continue;
    EXPECT_GT(ExactRuleRates(m).tpr - ExactRuleRates(m).fpr, ClaimTau(m) + 0.05) << m.name;
  }
}

TEST(SampleOutput, RatesMatchTheExactOnes) {
  for (const MechanismCase& m : MechanismCases(Config{})) {
    Rng rng = MakeRng(7, {1});
    const int n = 200000;
    int above_in = 0, above_out = 0;
    for (int i = 0; i < n; ++i) {
      above_in += SampleOutput(m, true, rng) > kThreshold;
      above_out += SampleOutput(m, false, rng) > kThreshold;
    }
    const RuleRates r = ExactRuleRates(m);
    EXPECT_NEAR(static_cast<double>(above_in) / n, r.tpr, 0.005) << m.name;
    EXPECT_NEAR(static_cast<double>(above_out) / n, r.fpr, 0.005) << m.name;
  }
}

TEST(GaussianDpMuLower, MatchesScipy) {
  // scipy: beta.ppf(0.975, k+1, n-k) upper limits, norm.ppf(1-fpr_u) - norm.ppf(fnr_u).
  EXPECT_NEAR(GaussianDpMuLower(80, 10, 100, 0.05), 1.4778663744061087, 1e-9);
  EXPECT_EQ(GaussianDpMuLower(50, 50, 100, 0.05), 0.0);
}

TEST(BatchRejects, RejectsAClearViolationOnlyAboveTheClaim) {
  const std::vector<MechanismCase> cases = MechanismCases(Config{});
  const MechanismCase& lap = Find(cases, "laplace_correct");  // claims eps = 1
  // FPR 0.01, FNR 0.01 on 5000 per side: eps >= ln(0.99/0.01) ~ 4.6 > 1.
  EXPECT_TRUE(*BatchRejects(lap, 4950, 50, 5000, 0.05));
  // The exact boundary rates of eps = 1 (FPR = FNR = 1/(1+e)) are not rejected.
  const int64_t fp = static_cast<int64_t>(std::round(5000 / (1 + std::exp(1.0))));
  EXPECT_FALSE(*BatchRejects(lap, 5000 - fp, fp, 5000, 0.05));
}

TEST(RunSequential, DeterministicDetectsViolationsAndTracesRoundByRound) {
  const std::vector<MechanismCase> cases = MechanismCases(Config{});
  const MechanismCase& bug = Find(cases, "laplace_half_scale");
  const auto a = RunSequential(bug, 5, 20000, 50, 0.05, 3, 3);
  const auto b = RunSequential(bug, 5, 20000, 50, 0.05, 3, 3);
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_EQ(a->rejected_at, b->rejected_at);
  EXPECT_EQ(Rejections(a->rejected_at), 5);
  EXPECT_LE(a->trace.size(), 50u);
  EXPECT_GE(a->trace.size(), std::min<size_t>(50, a->rejected_at[0]));
  const auto other_seed = RunSequential(bug, 5, 20000, 50, 0.05, 4, 3);
  EXPECT_NE(a->rejected_at, other_seed->rejected_at);
}

TEST(MedianRounds, NeverRejectedCountsAsInfinite) {
  EXPECT_EQ(MedianRounds({10, 30, 20}), 20);
  EXPECT_EQ(MedianRounds({10, 0, 20, 40}), 30);
  EXPECT_TRUE(std::isinf(MedianRounds({10, 0, 0})));
}

TEST(BinomialUpperTail, MatchesScipy) {
  EXPECT_NEAR(BinomialUpperTail(10, 100, 0.05), 0.028188294163416113, 1e-12);
  EXPECT_EQ(BinomialUpperTail(0, 100, 0.05), 1.0);
}

TEST(Claims, Type1FailsOnTooManyRejectionsAndOrdersComparesBatch) {
  Config c;
  Results r;
  CaseResults ok;
  ok.mechanism = MechanismCases(c)[0];
  ok.sequential.rejected_at = std::vector<int64_t>(100, 0);
  ok.sequential.rejected_at[0] = 7;  // 1 of 100
  r.cases.push_back(ok);
  EXPECT_TRUE(Type1ControlledClaim(c, r).holds);
  for (int i = 0; i < 20; ++i) r.cases[0].sequential.rejected_at[i] = 5;  // 20 of 100
  EXPECT_FALSE(Type1ControlledClaim(c, r).holds);

  CaseResults bug;
  bug.mechanism = MechanismCases(c)[3];
  bug.sequential.rejected_at = {100, 150, 200};  // median 300 outputs
  bug.batch = {{100, 10, 100}, {200, 60, 100}};  // detects at 400 outputs
  r.cases = {bug};
  EXPECT_TRUE(DetectsFewHundredClaim(r).holds);
  EXPECT_FALSE(OrdersBelowBatchClaim(r).holds);
  r.cases[0].batch = {{100, 10, 100}, {2000, 60, 100}};  // 4000 outputs: 13x
  EXPECT_TRUE(OrdersBelowBatchClaim(r).holds);
}

}  // namespace
}  // namespace sequential_audit
}  // namespace privbench
