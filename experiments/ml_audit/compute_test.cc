#include "experiments/ml_audit/compute.h"

#include <cmath>

#include "experiments/ml_audit/config.h"
#include "experiments/ml_audit/data.h"
#include "experiments/ml_audit/report.h"
#include "gtest/gtest.h"

namespace privbench::ml_audit {
namespace {

Config AllCases() {
  Config c;
  c.mechanisms = "lr_output,lr_objective,nb,rf";
  c.attacks = "influence,ma,clipbkd,swapx,nb_flip,nb_mean,rf_flip";
  c.roles = "audit,bug1,bug2,weakened";
  return c;
}

TEST(MlAuditStudyTest, CasesAndGuarantees) {
  Config c = AllCases();
  const std::vector<AuditCase> all = AuditCases(c);
  EXPECT_EQ(all.size(), 23u);
  for (const AuditCase& a : all) {
    // Replacements audited on an add/remove mechanism get 2 eps per copy.
    const bool doubled =
        a.mode == NeighbourMode::kReplace && (a.mechanism == "nb" || a.mechanism == "rf");
    EXPECT_EQ(GuaranteeFactor(a), doubled ? 2.0 : 1.0) << a.id;
    if (a.role == "bug2") {
      EXPECT_TRUE(doubled);
    }
  }
  c.mechanisms = "rf";
  c.roles = "bug2";
  ASSERT_EQ(AuditCases(c).size(), 1u);
  EXPECT_EQ(AuditCases(c)[0].id, "rf.rf_flip.replace");
  c.mechanisms = "lr_objective";
  c.roles = "library";
  ASSERT_EQ(AuditCases(c).size(), 1u);
  EXPECT_EQ(AuditCases(c)[0].id, "lr_objective-diffprivlib_0_5.influence.replace");
  EXPECT_EQ(GuaranteeFactor(AuditCases(c)[0]), 1.0);
  EXPECT_EQ(SplitList("a,,b,"), (std::vector<std::string>{"a", "b"}));
}

TEST(MlAuditStudyTest, AllowedExceedancesIsTheBinomialQuantile) {
  // Bin(100, 0.025): P(X <= 8) = 0.99906..., P(X <= 7) = 0.99630...
  EXPECT_EQ(AllowedExceedances(100, 0.025, 1e-3), 8);
  EXPECT_EQ(AllowedExceedances(100, 0.025, 1e-2), 7);
  EXPECT_EQ(AllowedExceedances(0, 0.025, 1e-3), 0);
}

TEST(MlAuditStudyTest, SklearnCsvParsingAndScaling) {
  Result<BinaryData> d = ParseSklearnCsv("2,2,a,b\n1,5,0\n3,7,1\n", "x.csv", 1);
  ASSERT_TRUE(d.ok()) << d.message();
  EXPECT_EQ(d->y, (std::vector<int>{0, 1}));
  ScaleToUnitBox(&d.value());
  EXPECT_EQ(d->x, (std::vector<double>{-1, -1, 1, 1}));
  EXPECT_NE(ParseSklearnCsv("2,2,a,b\n1,5,0\n", "x.csv", 1).message().find("x.csv line 3"),
            std::string::npos);
  EXPECT_NE(ParseSklearnCsv("1,2,a,b\n1,q,0\n", "x.csv", 1).message().find("x.csv line 2"),
            std::string::npos);
}

// The validity claim counts exceedances against the binomial allowance.
TEST(MlAuditStudyTest, ValidityClaimFailsBeyondTheAllowance) {
  Config c = AllCases();
  c.n = 1000;
  c.eps = {1};
  c.k = {1};
  UnitResult u;
  u.dataset = "iris";
  u.audit_case = AuditCases(c)[0];
  u.poison.x = {0, 0};
  for (int i = 0; i < 100; ++i) {
    AuditCell cell;
    cell.eps = 1;
    cell.guarantee = 1;
    cell.n = 1000;  // Katz-log ceiling 5.0 at N = 1000: every audit could exceed 1
    cell.eps_lb = i < 9 ? 1.5 : 0.2;  // 9 exceedances > the allowance 8
    u.cells.push_back(cell);
  }
  std::vector<Claim> claims = AuditClaims(UnitRows(u), c);
  ASSERT_EQ(claims[0].id, "ml_audit_validity");
  EXPECT_FALSE(claims[0].holds);
  u.cells[8].eps_lb = 0.2;
  claims = AuditClaims(UnitRows(u), c);
  EXPECT_TRUE(claims[0].holds) << claims[0].evidence;
  // At N = 20 per side the ceiling (ln 20 - 1.96 sqrt(0.95) = 1.1) is below guarantee 2: no
  // audit of a correct mechanism can fail, so validity is undecidable, not a
  // pass.
  for (AuditCell& cell : u.cells) cell.n = 20, cell.guarantee = 2, cell.eps_lb = 0.2;
  claims = AuditClaims(UnitRows(u), c);
  EXPECT_FALSE(claims[0].holds);
  EXPECT_NE(claims[0].evidence.find("0 of 100 audits of correct mechanisms could have exceeded"),
            std::string::npos)
      << claims[0].evidence;
}

// Issue item 5, "an auditor must catch bugs nobody tuned it to", at the
// weakening this audit can resolve: no neighbour the attacks build shows a
// loss above about 0.3-0.6 x eps / noise_factor for the logistic regression
// and naive Bayes (bazel-bin/experiments/ml_audit/optimal_audit; README.md
// (D1), "Limits"), so half the noise is invisible to any test on them and a
// tenfold weakening is what is checked here: flagged at eps_th = 2 on iris
// (N = 1000), while the correct mechanisms stay below their guarantee (both
// logistic regressions and naive Bayes; the forest is in the study's
// weakened claim only: on iris even a tenfold weakening gives 0.19 at
// eps_th = 0.5 and 0.26 at eps_th = 2, N = 1000).
TEST(MlAuditStudyTest, TenfoldWeakenedLrAndNbAreFlaggedCorrectOnesAreNot) {
  Result<AuditDataset> ds = LoadAuditDataset("iris", "");
  ASSERT_TRUE(ds.ok()) << ds.message();
  Config c = AllCases();
  c.mechanisms = "lr_output,lr_objective,nb";
  c.attacks = "influence,nb_flip";
  c.roles = "audit,weakened";
  c.eps = {2};
  c.k = {1};
  c.n = 1000;
  c.weakened_factor = 0.1;
  const std::vector<AuditCase> cases = AuditCases(c);
  ASSERT_EQ(cases.size(), 7u);  // + nb_flip on replacements
  for (const AuditCase& a : cases) {
    Result<UnitResult> u = RunAuditUnit(*ds, a, c, 20221128);
    ASSERT_TRUE(u.ok()) << u.message();
    ASSERT_EQ(u->cells.size(), 1u);
    const AuditCell& cell = u->cells[0];
    if (a.role == "weakened") {
      EXPECT_GT(cell.eps_lb, cell.guarantee) << a.id;
    } else {
      EXPECT_LE(cell.eps_lb, cell.guarantee) << a.id;
    }
    if (a.mechanism == "lr_output") {
      // The pair's largest possible loss: above the guarantee only when
      // weakened, and no audit can exceed it.
      EXPECT_EQ(cell.max_loss > cell.guarantee, a.role == "weakened") << a.id;
      EXPECT_LE(cell.eps_lb, cell.max_loss) << a.id;
    } else {
      EXPECT_TRUE(std::isnan(cell.max_loss)) << a.id;
    }
  }
}

}  // namespace
}  // namespace privbench::ml_audit
