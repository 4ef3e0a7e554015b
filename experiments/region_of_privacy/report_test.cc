#include "experiments/region_of_privacy/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace privbench {
namespace region_of_privacy {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const Column& Find(const SummaryTable& t, const std::string& name) {
  for (const Column& c : t.columns) {
    if (c.name == name) return c;
  }
  static const Column kNone;
  ADD_FAILURE() << "no column " << name << " in " << t.name;
  return kNone;
}

// Two levels (sigma 10 and 1) whose accuracy and TPR rise as the noise falls
// and whose bounds are ordered as the claims expect.
Aggregates TwoLevels() {
  Aggregates a;
  a.base_acc.mean = 0.8;
  a.base_tpr.mean = 0.2;
  a.base_population_accuracy = 0.5;
  a.base_best = 0.3;
  a.base_eps_best = 0.35;
  a.base_eps_target = 0.1;
  a.null_mean = 0.01;
  a.null_q95 = 0.02;
  a.acc_mean = {0.1, 0.6};
  a.acc_se = {0.01, 0.01};
  a.acc_rel = {0.125, 0.75};
  a.pacc_mean = {0.1, 0.4};
  a.tpr_mean = {0.05, 0.1};
  a.tpr_se = {0.005, 0.005};
  a.recovered = {15, 30};
  a.loss_mean = {4.0, 1.0};
  a.best_mean = {0.0, 0.2};
  a.target_adv_mean = {0.0, 0.05};
  a.eps_lo_best = {0.0, 0.22};
  a.eps_lo_target = {0.0, 0.05};
  a.eps_lo_best_max_rep = {0.01, 0.3};
  a.eps_naive = {5.0, 500.0};
  a.eps_adv = {1.0, 50.0};
  a.eps_zcdp = {0.9, 40.0};
  a.eps_rdp = {0.5, 10.0};
  a.eps_rdp_def = {0.4, 9.0};
  a.eps_rdp_best = {0.4, 9.0};
  a.eps_pld = {0.32, 7.2};
  return a;
}

Config TestConfig() {
  Config c;
  c.n_train = c.n_population = 300;
  c.repetitions = 2;
  return c;
}

const std::vector<double> kNoise = {10.0, 1.0};

// The summary table `name` of SummaryTables.
SummaryTable Table(const std::string& name) {
  auto tables = SummaryTables(TestConfig(), kNoise, TwoLevels(), "prov", "Setup.");
  EXPECT_TRUE(tables.ok()) << tables.message();
  if (!tables.ok()) return {};
  for (const SummaryTable& t : *tables) {
    if (t.name == name) return t;
  }
  ADD_FAILURE() << "no table " << name;
  return {};
}

// The claim `id` (without the study prefix) of Claims, over `a`.
JudgedClaim FindJudged(const Aggregates& a, const std::string& id) {
  auto claims = Claims(TestConfig(), kNoise, a, "prov");
  EXPECT_TRUE(claims.ok()) << claims.message();
  if (!claims.ok()) return {};
  for (const JudgedClaim& c : *claims) {
    if (c.claim.id == "region_of_privacy_" + id) return c;
  }
  ADD_FAILURE() << "no claim " << id;
  return {};
}
Claim FindClaim(const Aggregates& a, const std::string& id) { return FindJudged(a, id).claim; }

TEST(SetupText, LabelsTheSurrogateAndStatesTheSampling) {
  const std::string s = SetupText(TestConfig(), "purchase100-surrogate", 0.1, 30);
  EXPECT_TRUE(Contains(s, "purchase100-surrogate (synthetic stand-in; NOT comparable")) << s;
  EXPECT_TRUE(Contains(s, "POISSON sampling (q = 0.1, 30 steps = 100 epochs")) << s;
  EXPECT_TRUE(Contains(s, "shuffled")) << s;
  EXPECT_TRUE(Contains(s, "means over 2 repetitions (paper: 5).")) << s;
  EXPECT_TRUE(Contains(SetupText(TestConfig(), "purchase100-shokri", 0.1, 30),
                       "Data: purchase100-shokri. Logistic"));
}

TEST(LostParameters, NamesOptimiserSamplingAndData) {
  const std::string surrogate = LostParameters(TestConfig(), false);
  EXPECT_TRUE(Contains(surrogate, "Adam")) << surrogate;
  EXPECT_TRUE(Contains(surrogate, "Poisson")) << surrogate;
  EXPECT_TRUE(Contains(surrogate, "the TPR at 5% FPR")) << surrogate;
  EXPECT_TRUE(Contains(surrogate, "purchase100-surrogate (synthetic stand-in")) << surrogate;
  EXPECT_TRUE(Contains(LostParameters(TestConfig(), true), "real Purchase-100"));
}

TEST(SummaryTables, Table1RotatedAndRegionInThatOrder) {
  auto tables = SummaryTables(TestConfig(), kNoise, TwoLevels(), "prov", "Setup.");
  ASSERT_TRUE(tables.ok()) << tables.message();
  ASSERT_EQ(tables->size(), 3u);
  EXPECT_EQ((*tables)[0].name, "table1");
  EXPECT_EQ((*tables)[1].name, "rotated");
  EXPECT_EQ((*tables)[2].name, "region");
}

TEST(Table1, BaselineRowThenLevelsInPercent) {
  const SummaryTable t = Table("table1");
  EXPECT_TRUE(Contains(t.title, "(Erlingsson et al. Table 1; prov)")) << t.title;
  EXPECT_EQ(t.caption.rfind("Setup. Rows:", 0), 0u) << t.caption;
  EXPECT_EQ(Find(t, "noise_multiplier").strings,
            (std::vector<std::string>{"non-private", "10", "1"}));
  EXPECT_EQ(Find(t, "train_accuracy_pct").doubles, (std::vector<double>{80, 10, 60}));
  EXPECT_EQ(Find(t, "accuracy_rel_baseline_pct").doubles, (std::vector<double>{100, 12.5, 75}));
  EXPECT_EQ(Find(t, "population_accuracy_pct").doubles, (std::vector<double>{50, 10, 40}));
  const std::vector<double> naive = Find(t, "eps_naive").doubles;
  ASSERT_EQ(naive.size(), 3u);
  EXPECT_TRUE(std::isnan(naive[0]));  // no upper bound without privacy
  EXPECT_EQ(naive[2], 500.0);
  EXPECT_EQ(Find(t, "eps_rdp_default_orders").doubles[1], 0.4);
}

TEST(RotatedTable, OneRowPerPrivateLevel) {
  const SummaryTable t = Table("rotated");
  for (const Column& c : t.columns) EXPECT_EQ(c.size(), 2u) << c.name;
  EXPECT_EQ(Find(t, "attack_tpr_pct").doubles, (std::vector<double>{5, 10}));
  EXPECT_EQ(Find(t, "eps_zcdp").doubles, (std::vector<double>{0.9, 40.0}));
  EXPECT_TRUE(Contains(t.caption, "mean count of the 300 members flagged")) << t.caption;
}

TEST(RegionTable, RatioIsInfiniteWhenTheLowerBoundIsZero) {
  const SummaryTable t = Table("region");
  const std::vector<double> ratio = Find(t, "ratio").doubles;
  ASSERT_EQ(ratio.size(), 3u);
  EXPECT_TRUE(std::isnan(ratio[0]));
  EXPECT_TRUE(std::isinf(ratio[1]));
  EXPECT_DOUBLE_EQ(ratio[2], 9.0 / 0.22);
  EXPECT_TRUE(std::isinf(Find(t, "eps_upper_rdp").doubles[0]));
  EXPECT_EQ(Find(t, "null_best_advantage_q95").doubles, (std::vector<double>{0.02, 0.02, 0.02}));
}

TEST(Claims, EveryClaimInOrderWithEvidenceOnly) {
  auto claims = Claims(TestConfig(), kNoise, TwoLevels(), "prov");
  ASSERT_TRUE(claims.ok()) << claims.message();
  std::vector<std::string> ids;
  for (const JudgedClaim& j : *claims) {
    const Claim& c = j.claim;
    ids.push_back(c.id);
    EXPECT_TRUE(c.statement.empty()) << c.id;  // from claims.json
    EXPECT_TRUE(c.source.empty()) << c.id;
    // Only tpr_rises is judged by a test; the others are definite.
    if (c.id != "region_of_privacy_tpr_rises") {
      EXPECT_FALSE(j.inconclusive) << c.id;
      EXPECT_EQ(j.holds_fraction, c.holds ? 1.0 : 0.0) << c.id;
    }
  }
  EXPECT_EQ(ids, (std::vector<std::string>{
                     "region_of_privacy_accuracy_rises", "region_of_privacy_tpr_rises",
                     "region_of_privacy_region_nonempty", "region_of_privacy_refined_tighter",
                     "region_of_privacy_pld_tighter"}));
}

TEST(Claims, TrendsAndOrderingHold) {
  const Aggregates a = TwoLevels();
  const Claim acc = FindClaim(a, "accuracy_rises");
  EXPECT_TRUE(acc.holds) << acc.evidence;
  EXPECT_TRUE(Contains(acc.evidence, "sigma 10: 10.00 +- 1.00")) << acc.evidence;
  EXPECT_TRUE(Contains(acc.evidence, "Data: prov.")) << acc.evidence;
  const Claim tpr = FindClaim(a, "tpr_rises");
  EXPECT_TRUE(tpr.holds) << tpr.evidence;
  EXPECT_TRUE(Contains(tpr.evidence, "attack TPR at 5% FPR (%)")) << tpr.evidence;
  const Claim region = FindClaim(a, "region_nonempty");
  EXPECT_TRUE(region.holds) << region.evidence;
  const Claim refined = FindClaim(a, "refined_tighter");
  EXPECT_TRUE(refined.holds) << refined.evidence;
  EXPECT_TRUE(Contains(refined.evidence, "RDP vs advanced")) << refined.evidence;
  EXPECT_TRUE(Contains(refined.evidence, "RDP vs naive")) << refined.evidence;
}

TEST(Claims, PldTighterHoldsOnlyBelowRdpAndAboveTheLowerBound) {
  Aggregates a = TwoLevels();
  Claim pld = FindClaim(a, "pld_tighter");
  EXPECT_EQ(pld.holds, a.eps_lo_best[0] <= a.eps_pld[0] && a.eps_lo_best[1] <= a.eps_pld[1])
      << pld.evidence;
  a.eps_pld[1] = a.eps_rdp_best[1] * 1.1;  // above RDP
  pld = FindClaim(a, "pld_tighter");
  EXPECT_FALSE(pld.holds);
  EXPECT_TRUE(Contains(pld.evidence, "VIOLATED")) << pld.evidence;
}

TEST(Claims, RegionFailsWhenOneRepetitionExceedsTheUpperBound) {
  Aggregates a = TwoLevels();
  a.eps_lo_best_max_rep[1] = 9.5;  // above eps_rdp_best 9
  const Claim region = FindClaim(a, "region_nonempty");
  EXPECT_FALSE(region.holds);
  EXPECT_TRUE(Contains(region.evidence, "VIOLATED")) << region.evidence;
}

TEST(Claims, TprTrendIsJudgedByItsEndpointsTest) {
  Aggregates a = TwoLevels();
  a.tpr_mean = {0.05, 0.0505};  // +0.05 points, se 0.1 points each: undecided
  a.tpr_se = {0.001, 0.001};
  JudgedClaim tpr = FindJudged(a, "tpr_rises");
  EXPECT_TRUE(tpr.inconclusive) << tpr.claim.evidence;
  EXPECT_FALSE(tpr.claim.holds);
  EXPECT_DOUBLE_EQ(tpr.holds_fraction, 1.0);  // its one step rises
  a.tpr_mean = {0.08, 0.05};                  // a significant fall: does not hold, decided
  tpr = FindJudged(a, "tpr_rises");
  EXPECT_FALSE(tpr.inconclusive);
  EXPECT_FALSE(tpr.claim.holds);
  EXPECT_TRUE(Contains(tpr.claim.evidence, "FALLS")) << tpr.claim.evidence;
}

TEST(Claims, AccuracyFallingWithTheNoiseFails) {
  Aggregates a = TwoLevels();
  a.acc_mean = {0.6, 0.1};
  EXPECT_FALSE(FindClaim(a, "accuracy_rises").holds);
}

TEST(Claims, MissingPldBoundsAreAnError) {
  Aggregates a = TwoLevels();
  a.eps_pld.clear();
  EXPECT_FALSE(Claims(TestConfig(), kNoise, a, "prov").ok());
}

TEST(VerifyNumbers, KeyedByNoiseMultiplier) {
  const auto numbers = VerifyNumbers(kNoise, TwoLevels());
  EXPECT_EQ(numbers.size(), 2u * 9u + 2u);
  EXPECT_EQ(numbers.front().first, "acc_rel_pct_sigma10");
  EXPECT_DOUBLE_EQ(numbers.front().second, 12.5);
  bool found = false;
  for (const auto& [id, value] : numbers) {
    if (id == "tpr_pct_sigma1") {
      found = true;
      EXPECT_DOUBLE_EQ(value, 10.0);
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(numbers.back().first, "baseline_tpr_pct");
  EXPECT_DOUBLE_EQ(numbers.back().second, 20.0);
}

}  // namespace
}  // namespace region_of_privacy
}  // namespace privbench
