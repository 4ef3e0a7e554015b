// ml_audit_dpsgd's report on hand-made audit rows: each claim's verdict
// where it must hold and where it must fail, with the numbers its evidence
// names, and the summary tables (eps_lb, accounting, detection_ceiling) and
// claim attributes WriteReport writes.
#include "experiments/ml_audit_dpsgd/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/ml_audit_dpsgd/compute.h"
#include "experiments/ml_audit_dpsgd/config.h"
#include "results/h5_file.h"
#include "results/report_file_testing.h"

namespace privbench {
namespace ml_audit_dpsgd {
namespace {

// N = 100000 models per side: the Katz-log ceiling (9.55) is above eps_th =
// 8, so every audit below (group 1) could exceed its eps_th.
Config Large() {
  Config c;
  c.eps = {1, 8};
  c.k = {1, 2, 3, 4, 5, 6};
  c.n = 100000;
  c.replicates = 1;
  return c;
}

AuditRow Row(double eps, const std::string& attack, int64_t k, double lb, int64_t rep = 0) {
  AuditRow r;
  r.eps_th = eps;
  r.attack = attack;
  r.k = k;
  r.replicate = rep;
  r.result.eps_lb = lb;
  return r;
}

// Every (eps_th in {1, 8}, k in 1..6) cell with each attack's bound at eps 1
// from `at1` (clipbkd, clipbkd_vec, shadow), times `factor` at eps 8: 36
// audits in 24 (eps_th, poison, k) cells, clipbkd and clipbkd_vec sharing
// theirs.
std::vector<AuditRow> Grid(const double (&at1)[3], double factor) {
  const char* attacks[3] = {"clipbkd", "clipbkd_vec", "shadow"};
  std::vector<AuditRow> rows;
  for (double eps : {1.0, 8.0}) {
    for (int64_t k = 1; k <= 6; ++k) {
      for (int a = 0; a < 3; ++a) {
        rows.push_back(Row(eps, attacks[a], k, at1[a] * (eps == 8 ? factor : 1.0)));
      }
    }
  }
  return rows;
}

// shadow > clipbkd_vec > clipbkd, all doubling from eps 1 to eps 8.
std::vector<AuditRow> Rising() { return Grid({0.2, 0.25, 0.3}, 2.0); }
// clipbkd > clipbkd_vec > shadow, all halving from eps 1 to eps 8.
std::vector<AuditRow> Falling() { return Grid({0.6, 0.5, 0.4}, 0.5); }

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Claims, IdsInTheHeadersOrder) {
  const std::vector<JudgedClaim> claims = AuditClaims(Large(), Rising());
  ASSERT_EQ(claims.size(), 4u);
  EXPECT_EQ(claims[0].claim.id, "ml_audit_dpsgd_validity");
  EXPECT_EQ(claims[1].claim.id, "ml_audit_dpsgd_grows_with_eps");
  EXPECT_EQ(claims[2].claim.id, "ml_audit_dpsgd_shadow_beats_clipbkd");
  EXPECT_EQ(claims[3].claim.id, "ml_audit_dpsgd_vector_tau_helps");
}

TEST(Validity, HoldsWithNoExceedance) {
  const JudgedClaim v = AuditClaims(Large(), Rising())[0];
  EXPECT_TRUE(v.claim.holds) << v.claim.evidence;
  EXPECT_FALSE(v.inconclusive);
  EXPECT_DOUBLE_EQ(v.holds_fraction, 1.0);
  // 24 cells of at most 2 audits at alpha/2 = 0.025 each: p = 0.05, and
  // Bin(24, 0.05) exceeds 5 with probability below 0.001.
  EXPECT_TRUE(Contains(v.claim.evidence, "36 of 36 audits could have exceeded eps_th at all"))
      << v.claim.evidence;
  EXPECT_TRUE(Contains(v.claim.evidence,
                       "in 24 independent (eps_th, poison, k, replicate) cells of at most 2 "
                       "audits; a cell exceeds with probability <= 0.05 (alpha/2 = 0.025 per "
                       "audit); cells with an exceedance: 0 (audits: 0); allowed 5 (Bin(24, "
                       "0.05) at 1 - 0.001)"))
      << v.claim.evidence;
}

TEST(Validity, FailsWithMoreExceedingCellsThanAllowed) {
  std::vector<AuditRow> rows = Rising();
  // Shadow at eps 1 above eps_th in 5 cells (k = 1..5): within the allowance.
  for (AuditRow& r : rows) {
    if (r.attack == "shadow" && r.eps_th == 1 && r.k <= 5) r.result.eps_lb = 1.5;
  }
  JudgedClaim v = AuditClaims(Large(), rows)[0];
  EXPECT_TRUE(v.claim.holds) << v.claim.evidence;
  EXPECT_TRUE(Contains(v.claim.evidence, "cells with an exceedance: 5 (audits: 5); allowed 5"))
      << v.claim.evidence;
  // A sixth cell: one more than allowed.
  for (AuditRow& r : rows) {
    if (r.attack == "shadow" && r.eps_th == 1 && r.k == 6) r.result.eps_lb = 1.25;
  }
  v = AuditClaims(Large(), rows)[0];
  EXPECT_FALSE(v.claim.holds);
  EXPECT_FALSE(v.inconclusive);
  EXPECT_DOUBLE_EQ(v.holds_fraction, 0.0);
  EXPECT_TRUE(Contains(v.claim.evidence, "cells with an exceedance: 6 (audits: 6); allowed 5"))
      << v.claim.evidence;
  // The exceeding audits are listed.
  EXPECT_TRUE(Contains(v.claim.evidence, "; shadow eps 1 k 6 rep 0: 1.25 (0/0)"))
      << v.claim.evidence;
}

TEST(Validity, AuditsSharingModelsAreOneCell) {
  std::vector<AuditRow> rows = Rising();
  // clipbkd and clipbkd_vec both exceed in 3 cells: 6 audits, 3 cells.
  for (AuditRow& r : rows) {
    if (r.attack != "shadow" && r.eps_th == 1 && r.k <= 3) r.result.eps_lb = 2.0;
  }
  const JudgedClaim v = AuditClaims(Large(), rows)[0];
  EXPECT_TRUE(v.claim.holds) << v.claim.evidence;
  EXPECT_TRUE(Contains(v.claim.evidence, "cells with an exceedance: 3 (audits: 6)"))
      << v.claim.evidence;
}

TEST(GrowsWithEps, HoldsWhenEveryStepRises) {
  const JudgedClaim g = AuditClaims(Large(), Rising())[1];
  EXPECT_TRUE(g.claim.holds) << g.claim.evidence;
  EXPECT_FALSE(g.inconclusive);
  EXPECT_DOUBLE_EQ(g.holds_fraction, 1.0);
  EXPECT_TRUE(Contains(g.claim.evidence,
                       "best median eps_lb (over 1 replicates) over attacks and k per eps_th: 1: "
                       "0.3, 8: 0.6"))
      << g.claim.evidence;
  EXPECT_TRUE(Contains(g.claim.evidence,
                       "steps to the next eps_th per (attack, k) with a positive bound: 18"))
      << g.claim.evidence;
  EXPECT_TRUE(Contains(g.claim.evidence, "18 of 18 replicates")) << g.claim.evidence;
}

TEST(GrowsWithEps, FailsWhenEveryStepFalls) {
  const JudgedClaim g = AuditClaims(Large(), Falling())[1];
  EXPECT_FALSE(g.claim.holds);
  EXPECT_FALSE(g.inconclusive) << g.claim.evidence;
  EXPECT_DOUBLE_EQ(g.holds_fraction, 0.0);
  EXPECT_TRUE(Contains(g.claim.evidence, "per eps_th: 1: 0.6, 8: 0.3")) << g.claim.evidence;
  EXPECT_TRUE(Contains(g.claim.evidence, "0 of 18 replicates")) << g.claim.evidence;
}

TEST(ShadowBeatsClipBkd, HoldsAndFails) {
  const JudgedClaim holds = AuditClaims(Large(), Rising())[2];
  EXPECT_TRUE(holds.claim.holds) << holds.claim.evidence;
  EXPECT_FALSE(holds.inconclusive);
  // Sums over the 12 cells: shadow 6 x 0.3 + 6 x 0.6, clipbkd 6 x 0.2 + 6 x 0.4.
  EXPECT_TRUE(Contains(holds.claim.evidence,
                       "shadow vs clipbkd over the 12 (eps_th, k) cells with a positive bound; "
                       "sum of eps_lb 5.4 vs 3.6"))
      << holds.claim.evidence;
  EXPECT_TRUE(Contains(holds.claim.evidence, "12 of 12 replicates")) << holds.claim.evidence;
  const JudgedClaim fails = AuditClaims(Large(), Falling())[2];
  EXPECT_FALSE(fails.claim.holds);
  EXPECT_FALSE(fails.inconclusive) << fails.claim.evidence;
  EXPECT_TRUE(Contains(fails.claim.evidence, "sum of eps_lb 3.6 vs 5.4")) << fails.claim.evidence;
}

TEST(VectorTauHelps, HoldsAndFails) {
  const JudgedClaim holds = AuditClaims(Large(), Rising())[3];
  EXPECT_TRUE(holds.claim.holds) << holds.claim.evidence;
  EXPECT_FALSE(holds.inconclusive);
  EXPECT_TRUE(Contains(holds.claim.evidence,
                       "clipbkd_vec vs clipbkd over the 12 (eps_th, k) cells with a positive "
                       "bound; sum of eps_lb 4.5 vs 3.6"))
      << holds.claim.evidence;
  const JudgedClaim fails = AuditClaims(Large(), Falling())[3];
  EXPECT_FALSE(fails.claim.holds);
  EXPECT_FALSE(fails.inconclusive) << fails.claim.evidence;
  EXPECT_TRUE(Contains(fails.claim.evidence, "sum of eps_lb 4.5 vs 5.4")) << fails.claim.evidence;
}

// A small run: N = 50, two eps_th, k in {1, 4}, three replicates of two
// audits (clipbkd and shadow at eps 1, k 1).
Results SmallResults() {
  Results r;
  r.calibration = {{1.0, 2.5, 0.999, 0.25, 24}, {8.0, 0.7, 7.99, 0.25, 24}};
  r.poisons.clipbkd.x = {0.1f, 0.2f, 0.3f};
  r.poisons.clipbkd.y = 1;
  r.poisons.shadow.x = {0.4f, 0.5f, 0.6f};
  r.poisons.clipbkd_labels = {{1, 0.1}, {0, 0.2}};
  const double clipbkd[3] = {0.1, 0.5, 0.3}, shadow[3] = {0.2, 0.2, 0.9};
  for (int64_t rep = 0; rep < 3; ++rep) {
    r.rows.push_back(Row(1, "clipbkd", 1, clipbkd[rep], rep));
    r.rows.back().result.fresh_n1 = 40 + rep;
    r.rows.back().result.fresh_n0 = 10;
    r.rows.back().sigma = 2.5;
    r.rows.push_back(Row(1, "shadow", 1, shadow[rep], rep));
    r.rows.back().result.fresh_n1 = 30 + rep;
    r.rows.back().result.fresh_n0 = 20;
    r.rows.back().sigma = 2.5;
  }
  r.torch_version = "test";
  return r;
}

Config SmallConfig() {
  Config c;
  c.eps = {1, 8};
  c.k = {1, 4};
  c.n = 50;
  c.replicates = 3;
  return c;
}

std::unique_ptr<ResultReader> WriteAndOpen(const Config& c, const Results& results,
                                           const std::string& name) {
  return testing::WriteAndReadBack("ml_audit_dpsgd", name,
                                   [&](ResultWriter& out) { return WriteReport(c, results, out); });
}

TEST(Report, EpsLbTableHasEveryAuditBesideItsCellsMedian) {
  auto r = WriteAndOpen(SmallConfig(), SmallResults(), "eps_lb");
  ASSERT_NE(r, nullptr);
  auto t = r->ReadTable("eps_lb");
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(testing::ColumnNames(*t),
            (std::vector<std::string>{"attack", "pair", "eps_th", "k", "group", "replicate",
                                      "sigma", "eps_lb", "eps_lb_median", "fresh_n1", "fresh_n0",
                                      "search_bound"}));
  EXPECT_EQ(t->columns[0].strings, (std::vector<std::string>{"clipbkd", "shadow", "clipbkd",
                                                             "shadow", "clipbkd", "shadow"}));
  EXPECT_EQ(t->columns[5].ints, (std::vector<int64_t>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(t->columns[7].doubles, (std::vector<double>{0.1, 0.2, 0.5, 0.2, 0.3, 0.9}));
  // Medians over the three replicates: clipbkd 0.3, shadow 0.2.
  EXPECT_EQ(t->columns[8].doubles, (std::vector<double>{0.3, 0.2, 0.3, 0.2, 0.3, 0.2}));
  EXPECT_EQ(t->columns[9].ints, (std::vector<int64_t>{40, 30, 41, 31, 42, 32}));
  EXPECT_EQ(r->ReadDoubles("/audits/eps_lb_median").value_or(std::vector<double>{}),
            t->columns[8].doubles);
}

TEST(Report, AccountingAndCeilingTables) {
  auto r = WriteAndOpen(SmallConfig(), SmallResults(), "accounting");
  ASSERT_NE(r, nullptr);
  auto a = r->ReadTable("accounting");
  ASSERT_TRUE(a.ok()) << a.message();
  ASSERT_EQ(testing::ColumnNames(*a),
            (std::vector<std::string>{"eps_th", "sigma", "eps_rdp", "q", "steps"}));
  EXPECT_EQ(a->columns[0].doubles, (std::vector<double>{1.0, 8.0}));
  EXPECT_EQ(a->columns[1].doubles, (std::vector<double>{2.5, 0.7}));
  EXPECT_EQ(a->columns[4].ints, (std::vector<int64_t>{24, 24}));
  auto d = r->ReadTable("detection_ceiling");
  ASSERT_TRUE(d.ok()) << d.message();
  ASSERT_EQ(
      testing::ColumnNames(*d),
      (std::vector<std::string>{"N", "k", "group", "ceiling_z_alpha_2", "ceiling_z_alpha_4"}));
  // Append pairs: one row per k, group k; ln 50 - z sqrt(1 - 1/50) / group.
  EXPECT_EQ(d->columns[0].ints, (std::vector<int64_t>{50, 50}));
  EXPECT_EQ(d->columns[1].ints, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(d->columns[2].ints, (std::vector<int64_t>{1, 4}));
  const double root = std::sqrt(1 - 1.0 / 50);
  EXPECT_NEAR(d->columns[3].doubles[0], std::log(50.0) - 1.959963984540054 * root, 1e-9);
  EXPECT_NEAR(d->columns[3].doubles[1], (std::log(50.0) - 1.959963984540054 * root) / 4, 1e-9);
  EXPECT_NEAR(d->columns[4].doubles[0], std::log(50.0) - 2.241402727604947 * root, 1e-9);
}

TEST(Report, CeilingTableUnderTheFlipPairHasBothGroupSizes) {
  Config c = SmallConfig();
  c.clipbkd_pair = "flip_replace";
  auto r = WriteAndOpen(c, SmallResults(), "flip");
  ASSERT_NE(r, nullptr);
  auto d = r->ReadTable("detection_ceiling");
  ASSERT_TRUE(d.ok()) << d.message();
  // ClipBKD's pair at group 2k (clipbkd_vec shares it), the shadow poison at k.
  EXPECT_EQ(d->columns[1].ints, (std::vector<int64_t>{1, 1, 4, 4}));
  EXPECT_EQ(d->columns[2].ints, (std::vector<int64_t>{2, 1, 8, 4}));
  EXPECT_EQ(r->ReadStringAttribute("/meta", "clipbkd_pair").value_or(""), "flip_replace");
}

TEST(Report, WritesVerdictsAndMarksAnUndecidableValidity) {
  Results results = SmallResults();
  results.rows = Rising();
  auto r = WriteAndOpen(Large(), results, "verdicts");
  ASSERT_NE(r, nullptr);
  auto claims = r->ReadAllClaims();
  ASSERT_TRUE(claims.ok()) << claims.message();
  std::map<std::string, bool> holds;
  for (const Claim& c : *claims) holds[c.id] = c.holds;
  EXPECT_EQ(holds, (std::map<std::string, bool>{{"ml_audit_dpsgd_grows_with_eps", true},
                                                {"ml_audit_dpsgd_shadow_beats_clipbkd", true},
                                                {"ml_audit_dpsgd_validity", true},
                                                {"ml_audit_dpsgd_vector_tau_helps", true}}));
  EXPECT_FALSE(r->HasAttribute("/claims/ml_audit_dpsgd_validity", "undecidable"));
  // At N = 50 (ceiling 1.97) no audit at eps_th = 8 could exceed it.
  Results eight = SmallResults();
  for (AuditRow& row : eight.rows) row.eps_th = 8;
  auto u = WriteAndOpen(SmallConfig(), eight, "undecidable");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->ReadIntAttribute("/claims/ml_audit_dpsgd_validity", "undecidable").value_or(0), 1);
  EXPECT_FALSE(u->ReadClaimHolds("/claims/ml_audit_dpsgd_validity").value_or(true));
}

}  // namespace
}  // namespace ml_audit_dpsgd
}  // namespace privbench
