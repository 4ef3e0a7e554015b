#include "experiments/lira_bayes_audit/report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <map>
#include <string>

namespace privbench {
namespace lira_bayes_audit {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

IntervalRow Row(const std::string& setting, const std::string& selection, const std::string& method,
                double lower, double upper) {
  IntervalRow r;
  r.setting = setting;
  r.selection = selection;
  r.method = method;
  r.counts = {60, 40, 20, 80};
  r.lower = lower;
  r.upper = upper;
  r.level_alpha = 0.1;
  return r;
}

// One setting whose paper-selection intervals are `b`, `j`, `cp` (lower,
// upper) and whose valid selections report `valid_lower` for every method.
SettingResult Setting(const std::string& name, bool priv, std::pair<double, double> b,
                      std::pair<double, double> j, std::pair<double, double> cp, double valid_lower,
                      double accuracy) {
  SettingResult s;
  s.setting = {name, priv};
  s.shadows.models = 4;
  s.shadows.points = 2;
  s.shadows.phi = {0, 1, 2, 3, 4, 5, 6, 7};
  s.shadows.is_in = {1, 0, 1, 0, 0, 1, 0, 1};
  s.selection.weights = {{1.0, 1.0}, {0.5, 0.0}};
  s.plan.challenge = {0, 1};
  s.plan.bits = {1, 0};
  s.trials = {{1.0, 0.0}, {2.0, -2.0}, {-0.1, -3.0}, {1, 0}};
  s.target_test_accuracy = {accuracy, accuracy};
  s.shadow_test_accuracy = {accuracy};
  s.grid = {0.0};
  s.table.roc.points.resize(2);
  s.table.roc.points[0].counts = {0, 100, 0, 100};
  s.table.roc.points[1].counts = {60, 40, 20, 80};
  s.table.methods = {"clopper_pearson", "jeffreys", "bayesian"};
  s.table.lower = {{0, cp.first}, {0, j.first}, {0.01, b.first}};
  s.table.upper = {{kInf, cp.second}, {kInf, j.second}, {3.0, b.second}};
  const std::map<std::string, std::pair<double, double>> paper = {
      {"bayesian", b}, {"jeffreys", j}, {"clopper_pearson", cp}};
  for (const auto& [m, iv] : paper) {
    s.rows.push_back(Row(name, "max_lower", m, iv.first, iv.second));
    s.rows.push_back(Row(name, "split_half", m, valid_lower, 9.0));
    s.rows.push_back(Row(name, "bonferroni", m, valid_lower / 2, 9.0));
  }
  return s;
}

// The valid-selection rows at `per_side` trials per side (same rates): the
// validity check judges only rows whose lower end could exceed eps = 8 at
// their trials (about 10 at 10^5 per side, about 3 at 100).
SettingResult WithValidTrials(SettingResult s, int64_t per_side) {
  const int64_t k = per_side / 100;
  for (IntervalRow& r : s.rows) {
    if (r.selection != "max_lower") r.counts = {60 * k, 40 * k, 20 * k, 80 * k};
  }
  return s;
}

std::map<std::string, bool> Claims(const AuditResult& r, const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/" + name + ".h5";
  RunMeta meta;
  meta.study = kStudy;
  auto w = ResultWriter::Create(path, meta);
  EXPECT_TRUE(w.ok()) << w.message();
  Config c;
  const Status st = WriteReport(c, r, **w);
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE((*w)->Commit().ok());
  auto reader = ResultReader::Open(path);
  EXPECT_TRUE(reader.ok());
  std::map<std::string, bool> out;
  auto claims = (*reader)->ReadAllClaims();
  EXPECT_TRUE(claims.ok());
  for (const Claim& cl : *claims) out[cl.id] = cl.holds;
  auto t = (*reader)->ReadTable("table2");
  EXPECT_TRUE(t.ok());
  EXPECT_EQ(t->columns[0].size(), 18u);  // 2 settings x 3 selections x 3 methods
  return out;
}

AuditResult Audit(SettingResult a, SettingResult b) {
  AuditResult r;
  r.accounting.epsilon = 8.0;
  r.settings = {std::move(a), std::move(b)};
  r.dataset_provenance = "fashion-mnist";
  return r;
}

TEST(Claims, HoldWhenThePaperIsRight) {
  const auto c = Claims(
      Audit(Setting("no_dp", false, {2.2, 4.5}, {1.9, 5.0}, {1.8, 5.3}, 1.5, 0.8),
            WithValidTrials(
                Setting("dp_eps8", true, {1.1, 5.0}, {0.43, 6.0}, {0.23, 7.7}, 0.5, 0.7), 100000)),
      "right");
  ASSERT_EQ(c.size(), ClaimIds().size());
  for (const std::string& id : ClaimIds()) {
    if (id != kRmiaClaim) {
      EXPECT_TRUE(c.at(id)) << id;  // no attack scores here
    }
  }
}

// 64 trials (32 members) whose few-reference scores at every k: one attack
// separates members from non-members, the other is worse (some non-members
// above some members); `rmia_better` says which is which.
SettingResult WithAttacks(SettingResult s, bool rmia_better) {
  s.trials.bits.clear();
  for (int i = 0; i < 64; ++i) s.trials.bits.push_back(static_cast<uint8_t>(i % 2));
  for (int64_t k : kFewReferenceCounts) {
    std::vector<double> good, worse;
    for (int i = 0; i < 64; ++i) {
      const bool member = i % 2 == 1;
      good.push_back(member ? 1.0 + i : -1.0 - i);
      worse.push_back(member ? i : 40.0 - i);
    }
    const std::string ks = "_k" + std::to_string(k);
    s.attacks.push_back({"rmia_offline" + ks, "rmia_offline", k, rmia_better ? good : worse, {}});
    s.attacks.push_back({"lira_offline" + ks, "lira_offline", k, rmia_better ? worse : good, {}});
  }
  return s;
}

TEST(Claims, RmiaClaimIsJudgedBySignTestsOverBlocks) {
  const SettingResult no_dp = Setting("no_dp", false, {2.2, 4.5}, {1.9, 5.0}, {1.8, 5.3}, 1.5, 0.8);
  const SettingResult dp = Setting("dp_eps8", true, {1.1, 5.0}, {0.43, 6.0}, {0.23, 7.7}, 0.5, 0.7);
  for (bool better : {true, false}) {
    const auto c = Claims(Audit(WithAttacks(no_dp, better), dp), better ? "rmia_yes" : "rmia_no");
    EXPECT_EQ(c.at(kRmiaClaim), better);
  }
  // Without attack scores the claim is inconclusive (and does not hold).
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/rmia_none.h5";
  {
    RunMeta meta;
    meta.study = kStudy;
    auto w = ResultWriter::Create(path, meta);
    ASSERT_TRUE(w.ok()) << w.message();
    ASSERT_TRUE(WriteReport(Config(), Audit(no_dp, dp), **w).ok());
    ASSERT_TRUE((*w)->Commit().ok());
  }
  auto reader = ResultReader::Open(path);
  ASSERT_TRUE(reader.ok());
  const std::string g = std::string("/claims/") + kRmiaClaim;
  EXPECT_EQ((*reader)->ReadDoubleAttribute(g, "inconclusive").value(), 1.0);
  EXPECT_FALSE((*reader)->ReadClaimHolds(g).value());
}

TEST(Claims, FailWhenTheNumbersSayOtherwise) {
  // Bayesian wider than Jeffreys; DP leaks more; a valid lower bound above 8;
  // DP more accurate.
  const auto c = Claims(
      Audit(Setting("no_dp", false, {0.2, 6.5}, {1.9, 5.0}, {1.8, 5.3}, 1.5, 0.6),
            WithValidTrials(
                Setting("dp_eps8", true, {1.1, 5.0}, {0.43, 6.0}, {0.23, 7.7}, 8.5, 0.7), 100000)),
      "wrong");
  EXPECT_FALSE(c.at("lira_bayes_audit_width_order"));
  EXPECT_FALSE(c.at("lira_bayes_audit_nodp_leaks_more"));
  EXPECT_FALSE(c.at("lira_bayes_audit_valid_below_eps"));
  EXPECT_FALSE(c.at("lira_bayes_audit_dp_accuracy_lower"));
  EXPECT_TRUE(c.at("lira_bayes_audit_bayes_finite"));  // CP (0, inf) at point 0, Bayesian finite
}

// At 100 trials per side no valid row's lower end can exceed eps = 8 (its
// method's lower end at perfect counts is about 3): the validity check
// cannot fail, so it is undecidable (verify: inconclusive), never a pass.
TEST(Claims, ValidityThatCannotFailIsUndecidable) {
  const AuditResult r =
      Audit(Setting("no_dp", false, {2.2, 4.5}, {1.9, 5.0}, {1.8, 5.3}, 1.5, 0.8),
            Setting("dp_eps8", true, {1.1, 5.0}, {0.43, 6.0}, {0.23, 7.7}, 0.5, 0.7));
  const auto c = Claims(r, "vacuous");
  EXPECT_FALSE(c.at("lira_bayes_audit_valid_below_eps"));
  const char* tmp = std::getenv("TEST_TMPDIR");
  auto reader = ResultReader::Open(std::string(tmp ? tmp : "/tmp") + "/vacuous.h5");
  ASSERT_TRUE(reader.ok());
  const std::string g = "/claims/lira_bayes_audit_valid_below_eps";
  EXPECT_EQ((*reader)->ReadIntAttribute(g, "undecidable").value_or(0), 1);
  const std::string evidence = (*reader)->ReadStringAttribute(g, "evidence").value_or("");
  EXPECT_NE(evidence.find("0 of 6 rows could exceed the theoretical eps 8"), std::string::npos)
      << evidence;
}

// The tie rule: where Jeffreys' and CP's lower ends are 0 at every
// threshold, their intervals at the paper's selection were picked by the
// tie rule (smallest upper end) alone and decide nothing about the width
// ordering; with no other finite pair the claim is undecidable (verify:
// inconclusive), never "not reproduced".
TEST(Claims, WidthOrderPickedByTheTieRuleAloneIsUndecidable) {
  SettingResult no_dp = Setting("no_dp", false, {3.5, 10.4}, {3.0, kInf}, {2.6, kInf}, 1.5, 0.8);
  SettingResult dp = Setting("dp_eps8", true, {0.34, 7.3}, {0.0, 0.43}, {0.0, 0.45}, 0.5, 0.7);
  dp.table.lower = {{0, 0}, {0, 0}, {0.01, 0.34}};  // CP and Jeffreys: 0 everywhere
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/tie_rule.h5";
  {
    RunMeta meta;
    meta.study = kStudy;
    auto w = ResultWriter::Create(path, meta);
    ASSERT_TRUE(w.ok()) << w.message();
    ASSERT_TRUE(WriteReport(Config(), Audit(no_dp, dp), **w).ok());
    ASSERT_TRUE((*w)->Commit().ok());
  }
  auto reader = ResultReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.message();
  const std::string g = "/claims/lira_bayes_audit_width_order";
  EXPECT_EQ((*reader)->ReadIntAttribute(g, "undecidable").value(), 1);
  EXPECT_FALSE((*reader)->ReadClaimHolds(g).value());
  const std::string evidence = (*reader)->ReadStringAttribute(g, "evidence").value();
  EXPECT_NE(evidence.find("0 finite pairs decided by the paper's selection, 3 decided by the "
                          "tie rule alone"),
            std::string::npos)
      << evidence;
  // With a lower end above 0 somewhere, the same intervals are a real
  // comparison again (Jeffreys narrower than CP, the Bayesian wider).
  dp.table.lower = {{0, 0.1}, {0, 0.1}, {0.01, 0.34}};
  const auto c = Claims(Audit(no_dp, dp), "tie_rule_decided");
  EXPECT_FALSE(c.at("lira_bayes_audit_width_order"));
}

}  // namespace
}  // namespace lira_bayes_audit
}  // namespace privbench
