// Claims of study ml_audit (report.h) that pick one audit out of many: the
// pick must be corrected for, or a mechanism that keeps its guarantee is
// "detected" or "flagged" by chance (each audit's Katz-log bound exceeds a
// tight guarantee with probability up to alpha/2), and a validity half that
// demands zero exceedances fails a correct mechanism by chance.
#include "experiments/ml_audit/report.h"

#include <string>
#include <vector>

#include "estimators/intervals/katz_log.h"
#include "experiments/ml_audit/compute.h"
#include "experiments/ml_audit/config.h"
#include "gtest/gtest.h"

namespace privbench::ml_audit {
namespace {

Config TestConfig() {
  Config c;
  c.mechanisms = "lr_output,lr_objective,nb,rf";
  c.attacks = "influence,ma,clipbkd,swapx,nb_flip,nb_mean,rf_flip";
  c.roles = "audit,bug1,bug2,weakened";
  return c;
}

AuditCase CaseOf(const Config& c, const std::string& id) {
  for (const AuditCase& a : AuditCases(c)) {
    if (a.id == id) return a;
  }
  ADD_FAILURE() << "no case " << id;
  return {};
}

// A cell whose bound is the Katz-log bound of its fresh counts, as RunMlAudit
// records it.
AuditCell CellOf(double eps, double guarantee, int64_t k, int64_t n, int64_t n1, int64_t n0) {
  AuditCell cell;
  cell.eps = eps;
  cell.guarantee = guarantee;
  cell.k = k;
  cell.n = n;
  cell.fresh_n1 = n1;
  cell.fresh_n0 = n0;
  cell.eps_lb_raw = KatzLogEpsLowerBound(n1, n0, n, 0.05).value();
  cell.eps_lb = cell.eps_lb_raw / static_cast<double>(k);
  return cell;
}

Claim ClaimOf(const AuditTable& t, const Config& c, const std::string& id) {
  for (const Claim& claim : AuditClaims(t, c)) {
    if (claim.id == id) return claim;
  }
  ADD_FAILURE() << "no claim " << id;
  return {};
}

UnitResult Unit(const AuditCase& a) {
  UnitResult u;
  u.dataset = "breast_cancer";
  u.audit_case = a;
  u.poison.x = {0, 0};
  return u;
}

// The forest's bug-2 table: 8 replace-one flip audits at eps_th <= 2 (eps
// 0.5, guarantee 2 eps) and 12 add/remove audits at eps 0.5.
AuditTable Bug2Table(const Config& c, const AuditCell& flip_pick, int add_exceed) {
  UnitResult flip = Unit(CaseOf(c, "rf.rf_flip.replace"));
  flip.cells.push_back(flip_pick);
  for (int i = 1; i < 8; ++i) flip.cells.push_back(CellOf(0.5, 1, 1, 10000, 300, 250));
  UnitResult add = Unit(CaseOf(c, "rf.rf_flip.add"));
  for (int i = 0; i < 12; ++i) {
    // 82/30 at N = 1000: bound 0.60 > 0.5; 100/90: bound 0.
    add.cells.push_back(i < add_exceed ? CellOf(0.5, 0.5, 1, 1000, 82, 30)
                                       : CellOf(0.5, 0.5, 1, 1000, 100, 90));
  }
  AuditTable t = UnitRows(flip);
  AppendRows(UnitRows(add), &t);
  return t;
}

TEST(MlAuditReportTest, Bug2DetectionIsCorrectedForThePickAmongFlipAudits) {
  const Config c = TestConfig();
  // 243/115 at N = 10,000: bound 0.528 > 0.5 at alpha, but 0.441 at alpha / 8:
  // one of eight tests a replace-one eps-DP forest passes with probability
  // up to 8 x 2.5% = 20%.
  const AuditCell weak = CellOf(0.5, 1, 1, 10000, 243, 115);
  ASSERT_GT(weak.eps_lb, 0.5);
  ASSERT_LT(KatzLogEpsLowerBound(243, 115, 10000, 0.05 / 8).value(), 0.5);
  Claim claim = ClaimOf(Bug2Table(c, weak, 0), c, "ml_audit_bug2_detected");
  EXPECT_FALSE(claim.holds) << claim.evidence;
  // 3757/317: bound 2.36 at alpha, 2.32 > 2 at alpha / 8.
  AuditCell strong = CellOf(2, 4, 1, 10000, 3757, 317);
  claim = ClaimOf(Bug2Table(c, strong, 0), c, "ml_audit_bug2_detected");
  EXPECT_TRUE(claim.holds) << claim.evidence;
}

TEST(MlAuditReportTest, Bug2ValidityHalfAllowsTheBinomialCountOfExceedances) {
  const Config c = TestConfig();
  const AuditCell strong = CellOf(2, 4, 1, 10000, 3757, 317);
  // Bin(12, 0.025): P(X > 2) = 2.9e-3, P(X > 3) = 1.6e-4: 3 allowed at 1e-3.
  ASSERT_EQ(AllowedExceedances(12, 0.025, c.false_failure), 3);
  Claim claim = ClaimOf(Bug2Table(c, strong, 1), c, "ml_audit_bug2_detected");
  EXPECT_TRUE(claim.holds) << claim.evidence;
  claim = ClaimOf(Bug2Table(c, strong, 4), c, "ml_audit_bug2_detected");
  EXPECT_FALSE(claim.holds) << claim.evidence;
}

TEST(MlAuditReportTest, WeakenedFlagIsCorrectedForThePickAmongItsAudits) {
  Config c = TestConfig();
  c.mechanisms = "rf";
  c.attacks = "rf_flip";
  c.roles = "weakened";
  UnitResult u = Unit(CaseOf(c, "rf.rf_flip.add.weakened"));
  // 82/2 at N = 1000, k = 4: 0.578 per copy > 0.5 at alpha, 0.417 at
  // alpha / 12: the largest of twelve tests, not a detection.
  u.cells.push_back(CellOf(0.5, 0.5, 4, 1000, 82, 2));
  for (int i = 1; i < 12; ++i) u.cells.push_back(CellOf(0.5, 0.5, 1, 1000, 100, 90));
  Claim claim = ClaimOf(UnitRows(u), c, "ml_audit_weakened_flagged");
  EXPECT_FALSE(claim.holds) << claim.evidence;
  // 400/20, k = 1: bound 2.35 at alpha / 12.
  u.cells[0] = CellOf(0.5, 0.5, 1, 1000, 400, 20);
  claim = ClaimOf(UnitRows(u), c, "ml_audit_weakened_flagged");
  EXPECT_TRUE(claim.holds) << claim.evidence;
}

// nb_prior_beats_mean is an exact sign test over the matched replace
// audits: the flip's bound larger in 9 of 10 (p = 11/1024 = 0.011 <= 0.05)
// holds; 8 of 10 (p = 0.055) is inconclusive, with its fraction 0.8;
// larger in 1 of 10 does not hold. Appended-copy audits are not judged.
TEST(MlAuditReportTest, NbPriorClaimIsASignTestOverMatchedReplaceAudits) {
  const Config c = TestConfig();
  auto table = [&](int flip_wins) {
    UnitResult flip = Unit(CaseOf(c, "nb.nb_flip.replace"));
    UnitResult mean = Unit(CaseOf(c, "nb.nb_mean.replace"));
    for (int i = 0; i < 10; ++i) {
      AuditCell strong = CellOf(1, 2, 1, 1000, 400, 20), weak = CellOf(1, 2, 1, 1000, 300, 150);
      strong.replicate = weak.replicate = i;
      flip.cells.push_back(i < flip_wins ? strong : weak);
      mean.cells.push_back(i < flip_wins ? weak : strong);
    }
    AuditTable t = UnitRows(flip);
    AppendRows(UnitRows(mean), &t);
    return t;
  };
  JudgedClaim j = NbPriorBeatsMeanClaim(table(9));
  EXPECT_TRUE(j.claim.holds) << j.claim.evidence;
  EXPECT_FALSE(j.inconclusive);
  j = NbPriorBeatsMeanClaim(table(8));
  EXPECT_FALSE(j.claim.holds);
  EXPECT_TRUE(j.inconclusive) << j.claim.evidence;
  EXPECT_DOUBLE_EQ(j.holds_fraction, 0.8);
  EXPECT_NE(j.claim.evidence.find("8 of 10"), std::string::npos) << j.claim.evidence;
  j = NbPriorBeatsMeanClaim(table(1));
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive);
  EXPECT_EQ(ClaimOf(table(9), c, "ml_audit_nb_prior_beats_mean").holds, true);
}

// The group-privacy trade-off compares k = 1 with one pre-set k (the
// largest): the best of several k > 1 would win by selection alone.
TEST(MlAuditReportTest, GroupTradeoffComparesWithTheLargestKOnly) {
  Config c = TestConfig();
  c.eps = {0.5, 8};
  c.k = {1, 2, 4};
  UnitResult u = Unit(CaseOf(c, "lr_output.influence.replace"));
  // eps 0.5: k = 1 bound 0.47, k = 2 1.88 per copy, k = 4 zero.
  u.cells.push_back(CellOf(0.5, 0.5, 1, 1000, 200, 100));
  u.cells.push_back(CellOf(0.5, 0.5, 2, 1000, 800, 10));
  u.cells.push_back(CellOf(0.5, 0.5, 4, 1000, 100, 90));
  // eps 8: k = 1 positive, the groups zero.
  u.cells.push_back(CellOf(8, 8, 1, 1000, 400, 20));
  u.cells.push_back(CellOf(8, 8, 2, 1000, 100, 90));
  u.cells.push_back(CellOf(8, 8, 4, 1000, 100, 90));
  Claim claim = ClaimOf(UnitRows(u), c, "ml_audit_group_tradeoff");
  EXPECT_FALSE(claim.holds) << claim.evidence;
  u.cells[2] = CellOf(0.5, 0.5, 4, 1000, 900, 5);  // k = 4 now above k = 1
  claim = ClaimOf(UnitRows(u), c, "ml_audit_group_tradeoff");
  EXPECT_TRUE(claim.holds) << claim.evidence;
}

// The table median_eps_lb: one row per (dataset, case, eps_th, k), the
// median of its replicates' bounds with the largest beside it.
TEST(MlAuditReportTest, MedianTableTakesTheMedianOverReplicates) {
  const Config c = TestConfig();
  UnitResult u = Unit(CaseOf(c, "lr_output.influence.replace"));
  for (int i = 0; i < 3; ++i) {
    u.cells.push_back(CellOf(2, 2, 1, 1000, 300 - 100 * i, 20));  // bounds falling in i
    u.cells.back().replicate = i;
  }
  u.cells.push_back(CellOf(2, 2, 4, 1000, 400, 20));  // another k: a row of its own
  Results results;
  results.audits = UnitRows(u);
  const Result<SummaryTable> table = MedianEpsLbTable(c, results);
  ASSERT_TRUE(table.ok()) << table.message();
  auto column = [&](const std::string& name) {
    for (const Column& col : table->columns) {
      if (col.name == name) return col;
    }
    ADD_FAILURE() << "no column " << name;
    return Column();
  };
  EXPECT_EQ(column("replicates").ints, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(column("k").ints, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(column("median_eps_lb").doubles,
            (std::vector<double>{u.cells[1].eps_lb, u.cells[3].eps_lb}));
  EXPECT_EQ(column("max_eps_lb").doubles,
            (std::vector<double>{u.cells[0].eps_lb, u.cells[3].eps_lb}));
}

}  // namespace
}  // namespace privbench::ml_audit
