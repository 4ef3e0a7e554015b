// synthetic_data_mia's report on hand-made Results: the two claims that
// claims_test.cc does not judge (features_beat_dcr, cost_superlinear) where
// they must hold and where they must fail, with the numbers their evidence
// names, and the summary tables, claims and undecidable marks WriteReport
// writes. claims_test.cc covers the other claims' rules.
#include "experiments/synthetic_data_mia/report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/synthetic_data_mia/claims.h"
#include "experiments/synthetic_data_mia/compute.h"
#include "experiments/synthetic_data_mia/config.h"
#include "experiments/synthetic_data_mia/targets.h"
#include "results/h5_file.h"
#include "results/report_file_testing.h"

namespace privbench::synthetic_data_mia {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// An outcome of `attack` with two test scores.
AttackOutcome Outcome(const std::string& attack, double auc, double cp, double ceiling) {
  AttackOutcome o;
  o.attack = attack;
  o.auc = auc;
  o.tpr_at_fpr_01 = auc - 0.4;
  o.privacy_gain = 1.5 - auc;
  o.cp_eps_lower = cp;
  o.judged_ceiling = ceiling;
  o.test_scores = {0.1, 0.9};
  return o;
}

// `n` fixed-adversary games on one Laplace case, every attack run:
// histogram_logistic's AUC `histogram`, queries_logistic's `queries`,
// dcr_hamming's `dcr`, the others 0.5.
Results FeatureGames(int n, double histogram, double queries, double dcr) {
  Results r;
  r.cases = {MakeCase("independent_laplace", 1.0, 1e-5, "").value()};
  r.targets = {{"outlier", {0, 1, 2}, 2.5}};
  for (int t = 0; t < n; ++t) {
    GameResult g;
    g.target_index = 0;
    g.adversary = "fixed";
    for (const std::string& a : AttackNames()) {
      const double auc = a == "histogram_logistic" ? histogram
                         : a == "queries_logistic" ? queries
                         : a == "dcr_hamming"      ? dcr
                                                   : 0.5;
      g.attacks.push_back(Outcome(a, auc, 0.0, kInf));
    }
    r.games.push_back(g);
  }
  return r;
}

TEST(FeaturesBeatDcr, HoldsWhenBothFeatureAttacksWinEveryGame) {
  const JudgedClaim j = FeaturesBeatDcrClaim(FeatureGames(10, 0.7, 0.65, 0.6), 0.05);
  EXPECT_EQ(j.claim.id, "synthetic_data_mia_features_beat_dcr");
  EXPECT_TRUE(j.claim.holds) << j.claim.evidence;
  EXPECT_FALSE(j.inconclusive);
  EXPECT_DOUBLE_EQ(j.holds_fraction, 1.0);
  // 10 of 10: sign-test p = 2^-10 each, below alpha / 2.
  EXPECT_EQ(j.claim.evidence,
            "AUC over (case, target, adversary) games: histogram_logistic above dcr_hamming in "
            "10, below in 0 of 10 (p = 0.0009766); queries_logistic above dcr_hamming in 10, "
            "below in 0 of 10 (p = 0.0009766);");
}

TEST(FeaturesBeatDcr, FailsWhenDcrWins) {
  JudgedClaim j = FeaturesBeatDcrClaim(FeatureGames(10, 0.55, 0.5, 0.6), 0.05);
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive) << j.claim.evidence;
  EXPECT_DOUBLE_EQ(j.holds_fraction, 0.0);
  EXPECT_TRUE(Contains(j.claim.evidence, "histogram_logistic above dcr_hamming in 0, below in 10"))
      << j.claim.evidence;
  // One feature attack winning is not enough when the other loses.
  j = FeaturesBeatDcrClaim(FeatureGames(10, 0.7, 0.5, 0.6), 0.05);
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive) << j.claim.evidence;
  EXPECT_DOUBLE_EQ(j.holds_fraction, 0.5);
}

TEST(FeaturesBeatDcr, InconclusiveOnFewGamesUndecidableWithoutItsAttacks) {
  // 3 of 3: p = 1/8 decides neither way.
  JudgedClaim j = FeaturesBeatDcrClaim(FeatureGames(3, 0.7, 0.65, 0.6), 0.05);
  EXPECT_FALSE(j.claim.holds);
  EXPECT_TRUE(j.inconclusive);
  Results r = FeatureGames(10, 0.7, 0.65, 0.6);
  r.attacks = {"dcr_hamming", "histogram_logistic", "white_box"};
  j = FeaturesBeatDcrClaim(r, 0.05);
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive);
  EXPECT_EQ(j.claim.evidence,
            "undecidable: needs the attacks histogram_logistic, queries_logistic, dcr_hamming; "
            "not run (--attacks): queries_logistic");
}

CostResult Cost(const std::string& synthesizer, double slope) {
  CostResult c;
  c.synthesizer = synthesizer;
  c.sizes = {100, 200};
  c.seconds_per_release = {0.01, 0.01 * std::pow(2.0, slope)};
  c.slope = slope;
  return c;
}

TEST(Cost, HoldsWhenEverySlopeIsAtLeast0_8) {
  Results r;
  r.cost = {Cost("independent", 0.8), Cost("mst", 1.58)};
  const Claim c = CostClaim(r);
  EXPECT_EQ(c.id, "synthetic_data_mia_cost_superlinear");
  EXPECT_TRUE(c.holds) << c.evidence;
  EXPECT_EQ(c.evidence, "slope of log seconds per release on log N: independent 0.8; mst 1.58;");
}

TEST(Cost, FailsOnASublinearSlopeOrNoMeasurement) {
  Results r;
  r.cost = {Cost("independent", 0.5), Cost("mst", 1.58)};
  const Claim c = CostClaim(r);
  EXPECT_FALSE(c.holds);
  EXPECT_TRUE(Contains(c.evidence, "independent 0.5;")) << c.evidence;
  r.cost.clear();
  EXPECT_FALSE(CostClaim(r).holds);
}

// A Laplace case at eps 1 and a non-private one, two targets, one fixed
// game per (case, target) with every attack: attack i's bound base + 0.01 i
// (base 0.1 / 0.2 on the Laplace case's targets, 0.5 / 0.6 on the
// non-private one's), AUC 0.5 + 0.02 i + base / 10, ceiling 3 + i. Three
// worst-case audits (the main grid's, a planted bug and its counterpart),
// the bug's power, a two-target outlier sweep and two cost rows.
Results Fixture() {
  Results r;
  r.cases = {MakeCase("independent_laplace", 1.0, 1e-5, "").value(),
             MakeCase("independent", 1.0, 1e-5, "").value()};
  r.targets = {{"outlier", {3, 2, 1}, 2.5}, {"random", {0, 0, 1}, 0.5}};
  r.data_provenance = "adult (test)";
  const double base[2][2] = {{0.1, 0.2}, {0.5, 0.6}};
  for (int64_t c = 0; c < 2; ++c) {
    for (int64_t t = 0; t < 2; ++t) {
      GameResult g;
      g.case_index = c;
      g.target_index = t;
      g.adversary = "fixed";
      const std::vector<std::string>& names = AttackNames();
      for (size_t i = 0; i < names.size(); ++i) {
        const double b = base[c][t];
        g.attacks.push_back(Outcome(names[i], 0.5 + 0.02 * static_cast<double>(i) + b / 10,
                                    b + 0.01 * static_cast<double>(i),
                                    3.0 + static_cast<double>(i)));
      }
      r.games.push_back(g);
    }
  }
  auto worst = [](CaseSpec spec, int64_t attributes, bool bug_audit, bool flagged, double wb,
                  double dcr) {
    WorstCaseResult w;
    w.spec = std::move(spec);
    w.attributes = attributes;
    w.bug_audit = bug_audit;
    w.flagged = flagged;
    w.attacks = {Outcome("white_box", 0.9, wb, 5.0), Outcome("dcr_hamming", 0.6, dcr, 4.0)};
    w.best_cp_eps_lower = std::max(wb, dcr);
    return w;
  };
  r.worst_case = {worst(r.cases[0], 3, false, false, 0.7, 0.4),
                  worst(MakeCase("independent_laplace", 1.0, 1e-5, "laplace_half_scale").value(), 1,
                        true, true, 2.5, 1.0),
                  worst(r.cases[0], 1, true, false, 0.3, 0.1)};
  BugPower white, dcr;
  white.worst_case = dcr.worst_case = 1;
  white.attack = "white_box";
  white.law = "exact Laplace cell b = 0.5";
  white.paper.probability = 0.95;
  white.quick.probability = 0.4;
  dcr.attack = "dcr_hamming";
  dcr.law = "plug-in";
  dcr.paper.probability = 0.5;
  dcr.quick.probability = 0.6;
  r.bug_power = {white, dcr};
  r.perfect_test = {0.9, -1};
  r.sweep.targets = {{"outlier", {3}, 4.0}, {"random", {0}, 1.0}};
  r.sweep.cases = {0};
  r.sweep.attacks = {"dcr_hamming"};
  for (const auto& [target, auc] :
       std::vector<std::pair<int64_t, double>>{{0, 0.7}, {1, 0.5}, {1, 0.6}}) {
    GameResult g;
    g.target_index = target;
    g.adversary = "fixed";
    g.attacks = {Outcome("dcr_hamming", auc, 0.0, kInf)};
    r.sweep.games.push_back(g);
  }
  r.cost = {Cost("independent", 1.0), Cost("mst", 1.58)};
  return r;
}

std::unique_ptr<ResultReader> WriteAndOpen(const Results& results, const std::string& name) {
  return testing::WriteAndReadBack("synthetic_data_mia", name, [&](ResultWriter& out) {
    return WriteReport(Config{}, results, out);
  });
}

TEST(Report, GamesTableSkipsWhiteBoxOnNonPrivateCases) {
  auto r = WriteAndOpen(Fixture(), "games");
  ASSERT_NE(r, nullptr);
  auto t = r->ReadTable("games");
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(testing::ColumnNames(*t),
            (std::vector<std::string>{"synthesizer", "epsilon", "mu", "target", "adversary",
                                      "attack", "auc", "tpr_at_fpr_01", "privacy_gain", "eps_lower",
                                      "mu_lower", "gdp_eps_lower"}));
  // 8 attacks in each Laplace game, 7 (no white_box) in each non-private one.
  ASSERT_EQ(t->columns[0].strings.size(), 8u + 8u + 7u + 7u);
  EXPECT_EQ(t->columns[0].strings[0], "independent_laplace");
  EXPECT_EQ(t->columns[0].strings[16], "independent");
  EXPECT_EQ(t->columns[3].strings[0], "outlier 0");
  EXPECT_EQ(t->columns[3].strings[8], "random 1");
  EXPECT_EQ(t->columns[3].strings[23], "random 1");
  EXPECT_EQ(t->columns[5].strings[7], "white_box");
  EXPECT_EQ(t->columns[5].strings[22], "queries_forest");  // last of the non-private game
  EXPECT_EQ(t->columns[5].strings[23], "dcr_hamming");
  EXPECT_DOUBLE_EQ(t->columns[1].doubles[0], 1.0);
  EXPECT_TRUE(std::isinf(t->columns[1].doubles[16]));
  EXPECT_DOUBLE_EQ(t->columns[9].doubles[7], 0.17);   // white_box on (Laplace, target 0)
  EXPECT_DOUBLE_EQ(t->columns[9].doubles[17], 0.51);  // dcr_l2 on (independent, target 0)
  EXPECT_DOUBLE_EQ(t->columns[6].doubles[3], 0.57);   // histogram_logistic: 0.5 + 0.06 + 0.01
  // The /games arrays keep every attack: [G, A] and [G, A, R].
  EXPECT_EQ(r->Shape("/games/cp_eps_lower").value_or(std::vector<uint64_t>{}),
            (std::vector<uint64_t>{4, 8}));
  EXPECT_EQ(r->Shape("/games/test_scores").value_or(std::vector<uint64_t>{}),
            (std::vector<uint64_t>{4, 8, 2}));
}

TEST(Report, ByCaseTableHasEachCasesLargestBounds) {
  auto r = WriteAndOpen(Fixture(), "by_case");
  ASSERT_NE(r, nullptr);
  auto t = r->ReadTable("by_case");
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(testing::ColumnNames(*t),
            (std::vector<std::string>{"synthesizer", "epsilon", "black_box_eps_lower",
                                      "white_box_adult_eps_lower", "worst_case_eps_lower",
                                      "best_black_box_auc", "black_box_ceiling",
                                      "perfect_test_eps_lower"}));
  EXPECT_EQ(t->columns[0].strings,
            (std::vector<std::string>{"independent_laplace", "independent"}));
  const std::vector<double>& black = t->columns[2].doubles;
  ASSERT_EQ(black.size(), 2u);
  EXPECT_DOUBLE_EQ(black[0], 0.26);  // target 1's queries_forest: 0.2 + 6 x 0.01
  EXPECT_DOUBLE_EQ(black[1], 0.66);
  EXPECT_DOUBLE_EQ(t->columns[3].doubles[0], 0.27);  // white_box: 0.2 + 7 x 0.01
  // The main grid's worst-case audit on all 3 attributes; none for the
  // non-private case.
  EXPECT_EQ(t->columns[4].doubles, (std::vector<double>{0.7, -1}));
  EXPECT_DOUBLE_EQ(t->columns[5].doubles[0], 0.5 + 0.12 + 0.02);
  EXPECT_EQ(t->columns[6].doubles, (std::vector<double>{9.0, 9.0}));  // queries_forest: 3 + 6
  EXPECT_EQ(t->columns[7].doubles, (std::vector<double>{0.9, -1}));
}

TEST(Report, WorstCaseBugPowerSweepAndCostTables) {
  auto r = WriteAndOpen(Fixture(), "worst_case");
  ASSERT_NE(r, nullptr);
  auto w = r->ReadTable("worst_case");
  ASSERT_TRUE(w.ok()) << w.message();
  EXPECT_EQ(w->columns[1].strings,
            (std::vector<std::string>{"none", "laplace_half_scale", "none"}));
  EXPECT_EQ(w->columns[2].ints, (std::vector<int64_t>{3, 1, 1}));
  EXPECT_EQ(w->columns[5].doubles, (std::vector<double>{0.7, 2.5, 0.3}));
  EXPECT_EQ(w->columns[6].doubles, (std::vector<double>{0.4, 1.0, 0.1}));
  EXPECT_EQ(w->columns[10].ints, (std::vector<int64_t>{0, 1, 0}));
  auto b = r->ReadTable("bug_power");
  ASSERT_TRUE(b.ok()) << b.message();
  // One row for the one planted bug, each scale's largest row.
  EXPECT_EQ(b->columns[1].strings, (std::vector<std::string>{"laplace_half_scale"}));
  EXPECT_EQ(b->columns[2].ints, (std::vector<int64_t>{1}));
  EXPECT_EQ(b->columns[3].doubles, (std::vector<double>{0.6}));
  EXPECT_EQ(b->columns[4].doubles, (std::vector<double>{0.95}));
  EXPECT_EQ(b->columns[5].ints, (std::vector<int64_t>{1}));
  auto s = r->ReadTable("outlier_sweep");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->columns[0].ints, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(s->columns[1].strings, (std::vector<std::string>{"outlier", "random"}));
  ASSERT_EQ(s->columns[3].doubles.size(), 2u);
  EXPECT_DOUBLE_EQ(s->columns[3].doubles[0], 0.7);
  EXPECT_DOUBLE_EQ(s->columns[3].doubles[1], 0.55);  // mean of its two games
  EXPECT_EQ(s->columns[4].ints, (std::vector<int64_t>{1, 2}));
  auto c = r->ReadTable("cost");
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(testing::ColumnNames(*c),
            (std::vector<std::string>{"synthesizer", "seconds_n100", "seconds_n200", "slope"}));
  EXPECT_EQ(c->columns[0].strings, (std::vector<std::string>{"independent", "mst"}));
  EXPECT_EQ(c->columns[3].doubles, (std::vector<double>{1.0, 1.58}));
  EXPECT_DOUBLE_EQ(c->columns[2].doubles[0], 0.02);
}

TEST(Report, NoCostRowsNoCostTable) {
  Results none = Fixture();
  none.cost.clear();
  EXPECT_FALSE(CostTable(none).ok());
  EXPECT_TRUE(CostTable(Fixture()).ok());
  auto r = WriteAndOpen(none, "no_cost");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->Exists("/summary/games"));
  EXPECT_FALSE(r->Exists("/summary/cost"));
  EXPECT_TRUE(r->Exists("/bug_power"));
  EXPECT_FALSE(r->Exists("/cost"));
  EXPECT_TRUE(r->ReadTable("outlier_sweep").ok());
}

TEST(Report, WritesEveryClaimAndMarksTheUndecidable) {
  auto r = WriteAndOpen(Fixture(), "claims");
  ASSERT_NE(r, nullptr);
  auto claims = r->ReadAllClaims();
  ASSERT_TRUE(claims.ok()) << claims.message();
  std::map<std::string, bool> holds;
  for (const Claim& c : *claims) holds[c.id] = c.holds;
  // bugs_flagged: the bug's paper-scale power 0.95 >= 0.9, the counterpart
  // not flagged; cost: slopes 1 and 1.58; no_violation: every bound of the
  // correct Laplace audits below eps 1. black_box_far_below: the black-box
  // bound is 0.26 eps, not below 0.25 eps. One adversary, one target of each
  // kind in the sweep and four games: the other claims cannot hold.
  EXPECT_EQ(holds, (std::map<std::string, bool>{{"synthetic_data_mia_black_box_far_below", false},
                                                {"synthetic_data_mia_bugs_flagged", true},
                                                {"synthetic_data_mia_cost_superlinear", true},
                                                {"synthetic_data_mia_features_beat_dcr", false},
                                                {"synthetic_data_mia_fixed_beats_random", false},
                                                {"synthetic_data_mia_no_violation", true},
                                                {"synthetic_data_mia_outliers_leak_more", false}}));
  for (const Claim& c : *claims) {
    if (c.id == "synthetic_data_mia_no_violation") {
      // 16 game audits on the Laplace case and the 2 x 2 of its correct
      // worst-case audits, every ceiling above eps 1.
      EXPECT_TRUE(Contains(c.evidence,
                           "20 of 20 audits of correct DP synthesizers could exceed the claimed "
                           "eps"))
          << c.evidence;
      EXPECT_TRUE(Contains(c.evidence,
                           "16 of 16 games' audits, 4 of 4 worst-case ones); 0 "
                           "exceed it"))
          << c.evidence;
    }
  }
  EXPECT_FALSE(r->HasAttribute("/claims/synthetic_data_mia_features_beat_dcr", "undecidable"));
  // Games that ran two attacks only: the claims needing others are marked.
  Results two = Fixture();
  two.attacks = {"dcr_hamming", "white_box"};
  for (GameResult& g : two.games) g.attacks = {g.attacks.front(), g.attacks.back()};
  auto u = WriteAndOpen(two, "undecidable");
  ASSERT_NE(u, nullptr);
  for (const char* id :
       {"synthetic_data_mia_features_beat_dcr", "synthetic_data_mia_black_box_far_below"}) {
    EXPECT_EQ(u->ReadIntAttribute(std::string("/claims/") + id, "undecidable").value_or(0), 1)
        << id;
  }
  EXPECT_FALSE(u->HasAttribute("/claims/synthetic_data_mia_outliers_leak_more", "undecidable"));
  EXPECT_EQ(u->ReadStrings("/games/attack_names").value_or(std::vector<std::string>{}),
            (std::vector<std::string>{"dcr_hamming", "white_box"}));
}

}  // namespace
}  // namespace privbench::synthetic_data_mia
