// one_run_audit's report on hand-made runs: each claim's verdict where it
// must hold and where it must fail, with the numbers its evidence names, and
// the summary tables WriteReport builds from the runs.
#include "experiments/one_run_audit/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/one_run_audit/compute.h"
#include "experiments/one_run_audit/config.h"
#include "results/h5_file.h"
#include "results/report_file_testing.h"

namespace privbench {
namespace one_run_audit {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A run at target eps `eps` (rdp = eps), pld `pld`, and best lower bounds
// `input` (input-space canaries) and `white` (white-box canaries), with
// four canaries and one (k+, k-) pair per canary type.
RunResult MakeRun(double eps, double pld, double input, double white) {
  RunResult r;
  r.target_epsilon = eps;
  r.eps_rdp = eps;
  r.eps_pld = pld;
  r.eps_last_iterate = std::isinf(eps) ? kInf : eps / 2;
  r.noise_multiplier = std::isinf(eps) ? 0.0 : 4.0 / eps;
  r.q = 0.1;
  r.steps = 40;
  r.n_train = 14;
  r.train_accuracy = 0.8;
  r.population_accuracy = 0.75;
  r.attack_eps_lower = std::isinf(eps) ? 0.6 : eps / 20;
  r.attack_advantage = 0.1;
  const double best[kCanaryTypes] = {input, white};
  for (int t = 0; t < kCanaryTypes; ++t) {
    Audit& a = r.audits[t];
    a.included = {1, 0, 1, 0};
    a.scores = {0.4, -0.3, 0.2, -0.1};
    a.v = {3};
    a.lower = {best[t]};
    a.best_lower = best[t];
  }
  return r;
}

// eps 1 (pld 0.8), eps 8 (pld 6.5) and the non-private run: white-box
// bounds 0.2 < 1.5 < 3, input-space 0, 0.1, 0.3: every claim holds.
std::vector<RunResult> Runs() {
  return {MakeRun(1, 0.8, 0.0, 0.2), MakeRun(8, 6.5, 0.1, 1.5), MakeRun(kInf, kInf, 0.3, 3.0)};
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(BelowAccountant, HoldsWhenEveryBoundIsBelowPldBelowRdp) {
  const Claim c = BelowAccountantClaim(Runs());
  EXPECT_EQ(c.id, "one_run_audit_below_accountant");
  EXPECT_TRUE(c.holds) << c.evidence;
  EXPECT_EQ(c.evidence,
            "eps 1 input_space: lower 0 <= pld 0.8 <= rdp 1; eps 1 white_box: lower 0.2 <= pld "
            "0.8 <= rdp 1; eps 8 input_space: lower 0.1 <= pld 6.5 <= rdp 8; eps 8 white_box: "
            "lower 1.5 <= pld 6.5 <= rdp 8");
}

TEST(BelowAccountant, FailsWhenABoundExceedsPld) {
  std::vector<RunResult> runs = Runs();
  runs[1].audits[1].best_lower = 7.0;  // above pld 6.5, below rdp 8
  const Claim c = BelowAccountantClaim(runs);
  EXPECT_FALSE(c.holds);
  EXPECT_TRUE(Contains(c.evidence, "eps 8 white_box: lower 7 <= pld 6.5 <= rdp 8 VIOLATED"))
      << c.evidence;
  EXPECT_FALSE(Contains(c.evidence, "eps 8 input_space: lower 0.1 <= pld 6.5 <= rdp 8 VIOLATED"));
}

TEST(BelowAccountant, FailsWhenPldExceedsRdp) {
  std::vector<RunResult> runs = Runs();
  runs[0].eps_pld = 1.2;  // the accountants out of order
  const Claim c = BelowAccountantClaim(runs);
  EXPECT_FALSE(c.holds);
  EXPECT_TRUE(Contains(c.evidence, "eps 1 input_space: lower 0 <= pld 1.2 <= rdp 1 VIOLATED"))
      << c.evidence;
}

TEST(BelowAccountant, JudgesOnlyFiniteEpsAndNeedsOne) {
  std::vector<RunResult> runs = Runs();
  runs[2].eps_pld = 0.1;  // the non-private run is not judged
  EXPECT_TRUE(BelowAccountantClaim(runs).holds);
  EXPECT_FALSE(Contains(BelowAccountantClaim(runs).evidence, "inf"));
  const Claim none = BelowAccountantClaim({MakeRun(kInf, kInf, 0.3, 3.0)});
  EXPECT_FALSE(none.holds);
  EXPECT_EQ(none.evidence, "no finite eps level");
}

TEST(GrowsWithEps, HoldsWhenTheLargestEpsBoundsHigher) {
  const Claim c = GrowsWithEpsClaim(Runs());
  EXPECT_EQ(c.id, "one_run_audit_grows_with_eps");
  EXPECT_TRUE(c.holds) << c.evidence;
  EXPECT_EQ(c.evidence,
            "white-box: eps 1 -> 0.2, eps 8 -> 1.5 (every finite level: 1 -> 0.2, 8 -> 1.5), "
            "non-private -> 3; input-space: eps 1 -> 0, eps 8 -> 0.1, eps inf -> 0.3");
  // Only the smallest and the largest finite eps are compared: a dip between
  // them does not fail the claim.
  std::vector<RunResult> dip = Runs();
  dip.insert(dip.begin() + 1, MakeRun(4, 3.2, 0.05, 0.1));
  EXPECT_TRUE(GrowsWithEpsClaim(dip).holds);
}

TEST(GrowsWithEps, FailsWhenTheLargestEpsDoesNotExceedTheSmallest) {
  std::vector<RunResult> runs = Runs();
  runs[1].audits[1].best_lower = 0.2;  // ties eps 1's 0.2
  Claim c = GrowsWithEpsClaim(runs);
  EXPECT_FALSE(c.holds);
  EXPECT_TRUE(Contains(c.evidence,
                       "eps 1 -> 0.2, eps 8 -> 0.2 (every finite level: 1 -> 0.2, 8 "
                       "-> 0.2 (tie))"))
      << c.evidence;
  runs[1].audits[1].best_lower = 0.1;  // below it
  EXPECT_FALSE(GrowsWithEpsClaim(runs).holds);
}

TEST(GrowsWithEps, FailsWhenTheNonPrivateRunBoundsLower) {
  std::vector<RunResult> runs = Runs();
  runs[2].audits[1].best_lower = 1.0;  // below eps 8's 1.5
  const Claim c = GrowsWithEpsClaim(runs);
  EXPECT_FALSE(c.holds);
  EXPECT_TRUE(Contains(c.evidence, "non-private -> 1;")) << c.evidence;
}

TEST(GrowsWithEps, NeedsTwoFiniteLevels) {
  const Claim c = GrowsWithEpsClaim({MakeRun(1, 0.8, 0.0, 0.2), MakeRun(kInf, kInf, 0.3, 3.0)});
  EXPECT_FALSE(c.holds);
  EXPECT_EQ(c.evidence, "needs two finite eps levels");
}

TEST(WhiteBoxTighter, HoldsWhenWhiteBoxSumsHigherAndLeadsAtTheLastRun) {
  const Claim c = WhiteBoxTighterClaim(Runs());
  EXPECT_EQ(c.id, "one_run_audit_white_box_tighter");
  EXPECT_TRUE(c.holds) << c.evidence;
  EXPECT_EQ(c.evidence,
            "eps 1: white-box 0.2 vs input-space 0; eps 8: white-box 1.5 vs input-space 0.1; "
            "eps inf: white-box 3 vs input-space 0.3; sum 4.7 vs 0.4");
}

TEST(WhiteBoxTighter, FailsWhenInputSpaceSumsHigher) {
  std::vector<RunResult> runs = Runs();
  runs[0].audits[0].best_lower = 5.0;  // input-space 5.4 in all, white-box 4.7
  const Claim c = WhiteBoxTighterClaim(runs);
  EXPECT_FALSE(c.holds);
  EXPECT_TRUE(Contains(c.evidence, "sum 4.7 vs 5.4")) << c.evidence;
}

TEST(WhiteBoxTighter, FailsWhenInputSpaceLeadsAtTheLastRun) {
  std::vector<RunResult> runs = Runs();
  runs[2].audits[0].best_lower = 3.5;  // sums 4.7 vs 3.6, but 3 < 3.5 non-private
  const Claim c = WhiteBoxTighterClaim(runs);
  EXPECT_FALSE(c.holds);
  EXPECT_TRUE(Contains(c.evidence, "eps inf: white-box 3 vs input-space 3.5; sum 4.7 vs 3.6"))
      << c.evidence;
  EXPECT_FALSE(WhiteBoxTighterClaim({}).holds);
}

Config SmallConfig() {
  Config c;
  c.epsilons = {1, 8};
  c.canaries = 4;
  c.n_base = 10;
  c.k_plus = {2};
  c.k_minus = {1};
  return c;
}

// Writes the report of `runs` into the test's temporary directory and opens it.
std::unique_ptr<ResultReader> WriteAndOpen(const std::vector<RunResult>& runs,
                                           const std::string& name) {
  Results results;
  results.runs = runs;
  results.data_provenance = "adult (test)";
  return testing::WriteAndReadBack("one_run_audit", name, [&](ResultWriter& out) {
    return WriteReport(SmallConfig(), results, out);
  });
}

TEST(Report, BoundsTableHasOneRowPerRunAndCanaryType) {
  auto r = WriteAndOpen(Runs(), "bounds");
  ASSERT_NE(r, nullptr);
  auto t = r->ReadTable("bounds");
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(testing::ColumnNames(*t),
            (std::vector<std::string>{"target_epsilon", "canaries", "eps_rdp", "eps_pld",
                                      "eps_last_iterate", "eps_lower", "eps_pld_over_lower",
                                      "trained_models"}));
  EXPECT_EQ(t->columns[0].strings, (std::vector<std::string>{"1", "1", "8", "8", "inf", "inf"}));
  EXPECT_EQ(t->columns[1].strings,
            (std::vector<std::string>{"input_space", "white_box", "input_space", "white_box",
                                      "input_space", "white_box"}));
  EXPECT_EQ(t->columns[3].doubles, (std::vector<double>{0.8, 0.8, 6.5, 6.5, kInf, kInf}));
  EXPECT_EQ(t->columns[4].doubles, (std::vector<double>{0.5, 0.5, 4, 4, kInf, kInf}));
  EXPECT_EQ(t->columns[5].doubles, (std::vector<double>{0.0, 0.2, 0.1, 1.5, 0.3, 3.0}));
  // pld / lower: +inf where the bound is 0 or pld is +inf.
  const std::vector<double>& ratio = t->columns[6].doubles;
  ASSERT_EQ(ratio.size(), 6u);
  EXPECT_TRUE(std::isinf(ratio[0]));
  EXPECT_DOUBLE_EQ(ratio[1], 4.0);
  EXPECT_DOUBLE_EQ(ratio[2], 65.0);
  EXPECT_DOUBLE_EQ(ratio[3], 6.5 / 1.5);
  EXPECT_TRUE(std::isinf(ratio[4]));
  EXPECT_TRUE(std::isinf(ratio[5]));
  EXPECT_EQ(t->columns[7].ints, (std::vector<int64_t>(6, 1)));
}

TEST(Report, ComparisonTableSetsOneRunBoundsBesideTheAttack) {
  auto r = WriteAndOpen(Runs(), "comparison");
  ASSERT_NE(r, nullptr);
  auto t = r->ReadTable("comparison");
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(testing::ColumnNames(*t),
            (std::vector<std::string>{"target_epsilon", "audit", "kind", "eps_lower", "eps_pld",
                                      "trained_models", "records_audited"}));
  EXPECT_EQ(t->columns[0].strings,
            (std::vector<std::string>{"1", "1", "1", "8", "8", "8", "inf", "inf", "inf"}));
  const std::string wb = "one_run white_box", in = "one_run input_space",
                    c1 = "C1 loss-threshold attack, Prop. 3";
  EXPECT_EQ(t->columns[1].strings, (std::vector<std::string>{wb, in, c1, wb, in, c1, wb, in, c1}));
  EXPECT_EQ(t->columns[2].strings[2], "point estimate");
  EXPECT_EQ(t->columns[2].strings[0], "confidence bound (beta)");
  EXPECT_EQ(t->columns[3].doubles,
            (std::vector<double>{0.2, 0.0, 0.05, 1.5, 0.1, 0.4, 3.0, 0.3, 0.6}));
  // Records behind each bound: m canaries for the one-run audits, the
  // n_base training rows for C1's attack.
  EXPECT_EQ(t->columns[6].ints, (std::vector<int64_t>{4, 4, 10, 4, 4, 10, 4, 4, 10}));
}

TEST(Report, WritesRunsAuditsAndVerdicts) {
  std::vector<RunResult> runs = Runs();
  runs[0].eps_pld = 1.2;  // above rdp 1: fails below_accountant only
  auto r = WriteAndOpen(runs, "verdicts");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->ReadDoubles("/runs/eps_pld").value_or(std::vector<double>{}),
            (std::vector<double>{1.2, 6.5, kInf}));
  EXPECT_EQ(r->ReadDoubles("/audit/white_box/best_lower").value_or(std::vector<double>{}),
            (std::vector<double>{0.2, 1.5, 3.0}));
  EXPECT_EQ(r->Shape("/audit/input_space/scores").value_or(std::vector<uint64_t>{}),
            (std::vector<uint64_t>{3, 4}));
  EXPECT_EQ(r->Shape("/audit/white_box/v").value_or(std::vector<uint64_t>{}),
            (std::vector<uint64_t>{3, 1}));
  auto claims = r->ReadAllClaims();
  ASSERT_TRUE(claims.ok()) << claims.message();
  std::map<std::string, bool> holds;
  for (const Claim& c : *claims) holds[c.id] = c.holds;
  EXPECT_EQ(holds, (std::map<std::string, bool>{{"one_run_audit_below_accountant", false},
                                                {"one_run_audit_grows_with_eps", true},
                                                {"one_run_audit_white_box_tighter", true}}));
}

}  // namespace
}  // namespace one_run_audit
}  // namespace privbench
