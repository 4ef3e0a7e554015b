// Tests for the tables, numbers and claims of study C4 (report.h) on merged
// arrays with known p-values.
#include "experiments/epsilon_star_gof/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "experiments/epsilon_star_gof/compute.h"
#include "experiments/epsilon_star_gof/config.h"
#include "experiments/lib/framework/judged_claim.h"

namespace privbench::epsilon_star_gof {
namespace {

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

Config SmallConfig() {
  Config c;
  c.n_eval = {100, 200};
  c.max_components = 3;
  c.variance_floors = {1e-6};
  c.carlini_analysis = false;
  c.population_losses = false;
  return c;
}

// Two repetitions, training losses only, `analyses` analyses, n_eval
// {100, 200}, k = 1..3. DP: every p = 0.5. No DP: p = 0.01 at k = 1, 0.5
// above. The BIC is smallest at k = 2; every fit converged; one floored
// component at k = 3.
GofArrays KnownArrays(int64_t analyses = 1) {
  GofArrays g;
  g.R = 2;
  g.S = 1;
  g.A = analyses;
  g.I = 2;
  g.K = 3;
  for (int64_t m = 0; m < g.M; ++m) {
    for (int64_t r = 0; r < g.R; ++r) {
      for (int64_t i = 0; i < g.I * g.A; ++i) {  // analysis f, then n_eval index
        for (int64_t k = 1; k <= g.K; ++k) {
          const double p = (m == 0 && k == 1) ? 0.01 : 0.5;
          for (const char* name : {"p_value", "p_exact", "p_asymptotic", "p_one_sample"}) {
            g.d[name].push_back(p);
          }
          g.d["heldout_log_likelihood"].push_back(-static_cast<double>(k));
          g.d["bic"].push_back(std::fabs(static_cast<double>(k) - 2.0));
          g.n["iterations"].push_back(k);
          g.n["converged"].push_back(1);
          g.n["floored_components"].push_back(k == 3 ? 1 : 0);
        }
      }
    }
  }
  for (const std::string& name : UnitScalarNames()) {
    g.unit[name] = {1.0, 2.0, 3.0, 4.0};
  }
  return g;
}

double NumberOf(const AnalysisReport& r, const std::string& id) {
  for (const GofNumber& n : r.numbers) {
    if (n.id == "epsilon_star_gof_" + id) return n.value;
  }
  ADD_FAILURE() << "no number " << id;
  return NAN;
}

const Claim* ClaimOf(const AnalysisReport& r, const std::string& id) {
  for (const Claim& c : r.claims) {
    if (c.id == "epsilon_star_gof_" + id) return &c;
  }
  return nullptr;
}

TEST(GofReportTest, JoinInts) {
  EXPECT_EQ(JoinInts({100, 500, 1000}), "100,500,1000");
  EXPECT_EQ(JoinInts({}), "");
}

TEST(GofReportTest, NumbersFollowTheKnownPValues) {
  const AnalysisReport r = ReportAnalysis(SmallConfig(), KnownArrays(), 0);
  EXPECT_DOUBLE_EQ(NumberOf(r, "frac_above_all"), 20.0 / 24.0);
  EXPECT_DOUBLE_EQ(NumberOf(r, "frac_above_no_dp"), 8.0 / 12.0);
  EXPECT_DOUBLE_EQ(NumberOf(r, "frac_above_dp"), 1.0);
  EXPECT_DOUBLE_EQ(NumberOf(r, "frac_above_k1"), 0.5);
  EXPECT_DOUBLE_EQ(NumberOf(r, "frac_above_k_big"), 1.0);
  EXPECT_DOUBLE_EQ(NumberOf(r, "frac_above_k1_no_dp"), 0.0);
  EXPECT_DOUBLE_EQ(NumberOf(r, "median_p_all"), 0.5);
  EXPECT_DOUBLE_EQ(NumberOf(r, "frac_above_k1_dp_train"), 1.0);
  EXPECT_DOUBLE_EQ(NumberOf(r, "median_p_k1_no_dp_n200"), 0.01);
  EXPECT_DOUBLE_EQ(NumberOf(r, "median_p_k1_dp_n100"), 0.5);
}

TEST(GofReportTest, ClaimVerdictsAndEvidence) {
  const AnalysisReport r = ReportAnalysis(SmallConfig(), KnownArrays(), 0);
  ASSERT_EQ(r.claims.size(), 5u);
  const Claim* most = ClaimOf(r, "most_above");
  ASSERT_NE(most, nullptr);
  EXPECT_TRUE(most->holds);
  EXPECT_TRUE(Contains(most->evidence, "2 model types): 0.8333 (no DP 0.6667, DP 1;"))
      << most->evidence;
  EXPECT_TRUE(Contains(most->evidence, "24 p-values (2 repetitions x 2 n_eval x 3 k"));
  // The statement and source come from claims.json, not the report.
  EXPECT_TRUE(most->statement.empty());
  EXPECT_TRUE(most->source.empty());
  // Two repetitions cannot decide a sign test at 0.05 (1/4 > 0.05): the
  // comparative claims are inconclusive, with the fraction on which they held.
  for (const char* id : {"more_with_dp", "more_with_components", "one_component_more_with_dp"}) {
    const SignVerdict& v = r.sign_verdicts.at("epsilon_star_gof_" + std::string(id));
    EXPECT_TRUE(v.inconclusive) << id;
    EXPECT_FALSE(ClaimOf(r, id)->holds) << id;
  }
  EXPECT_DOUBLE_EQ(r.sign_verdicts.at("epsilon_star_gof_more_with_dp").holds_fraction, 1.0);
  EXPECT_TRUE(Contains(ClaimOf(r, "more_with_components")->evidence, "at k >= 3"));
  EXPECT_TRUE(Contains(ClaimOf(r, "more_with_dp")->evidence, "2 of 2"))
      << ClaimOf(r, "more_with_dp")->evidence;
  const Claim* one = ClaimOf(r, "one_component_most_n_eval");
  EXPECT_FALSE(one->holds);
  EXPECT_TRUE(Contains(one->evidence, "no DP 0 of 2, DP 2 of 2")) << one->evidence;
  // No DP: 0 of its 4 k = 1 p-values above alpha (sign-test p 1/16 > 0.025,
  // the Bonferroni level of each model type): the medians alone no longer
  // decide, the claim is inconclusive.
  EXPECT_TRUE(r.sign_verdicts.at("epsilon_star_gof_one_component_most_n_eval").inconclusive);
  EXPECT_TRUE(Contains(one->evidence, "no DP 0 of 4")) << one->evidence;
  EXPECT_TRUE(Contains(one->evidence, "no DP: n=100 0.01* n=200 0.01*; DP-SGD: n=100 0.5"))
      << one->evidence;
}

// With enough repetitions the sign test decides: DP above no DP in all 6
// (p = 1/64 < 0.05) holds; no DP above DP in all 6 does not hold.
TEST(GofReportTest, SignTestDecidesWithEnoughRepetitions) {
  GofArrays g = KnownArrays();
  const int64_t per_model = g.R * g.S * g.A * g.I * g.K;
  GofArrays six = g;
  six.R = 6;
  for (auto& [name, v] : six.d) {
    std::vector<double> grown;
    for (int64_t m = 0; m < g.M; ++m) {
      for (int64_t copy = 0; copy < 3; ++copy) {
        grown.insert(grown.end(), v.begin() + m * per_model, v.begin() + (m + 1) * per_model);
      }
    }
    v = grown;
  }
  for (auto& [name, v] : six.n) {
    std::vector<int64_t> grown;
    for (int64_t m = 0; m < g.M; ++m) {
      for (int64_t copy = 0; copy < 3; ++copy) {
        grown.insert(grown.end(), v.begin() + m * per_model, v.begin() + (m + 1) * per_model);
      }
    }
    v = grown;
  }
  for (auto& [name, v] : six.unit) v.assign(static_cast<size_t>(six.M * six.R), 1.0);
  const AnalysisReport r = ReportAnalysis(SmallConfig(), six, 0);
  const SignVerdict& dp = r.sign_verdicts.at("epsilon_star_gof_one_component_more_with_dp");
  EXPECT_FALSE(dp.inconclusive);
  EXPECT_TRUE(dp.holds);
  EXPECT_TRUE(ClaimOf(r, "one_component_more_with_dp")->holds);
  // No DP's 12 k = 1 p-values are all at or below alpha (p = 1/4096 against
  // "most above"): the claim does not hold, decided.
  const SignVerdict& most = r.sign_verdicts.at("epsilon_star_gof_one_component_most_n_eval");
  EXPECT_FALSE(most.inconclusive);
  EXPECT_FALSE(most.holds);
}

TEST(GofReportTest, OtherAnalysesCarryTheirSuffix) {
  Config c = SmallConfig();
  c.variance_floors = {1e-6, 1e-12};
  c.carlini_analysis = true;
  const GofArrays g = KnownArrays(3);
  const AnalysisReport r = ReportAnalysis(c, g, 2);
  EXPECT_DOUBLE_EQ(NumberOf(r, "frac_above_all_carlini_logit"), 20.0 / 24.0);
  EXPECT_NE(ClaimOf(r, "most_above_carlini_logit"), nullptr);
  EXPECT_TRUE(Contains(r.numbers.front().id, "_carlini_logit"));
  const AnalysisReport floor = ReportAnalysis(c, g, 1);
  EXPECT_NE(ClaimOf(floor, "more_with_dp_floor1e-12"), nullptr);
}

TEST(GofReportTest, TablesHaveOneRowPerCell) {
  const Config c = SmallConfig();
  const Results r{KnownArrays(), "uci-adult"};
  const Result<SummaryTable> by_n_result = GofByNEvalTable(c, r);
  ASSERT_TRUE(by_n_result.ok()) << by_n_result.message();
  const SummaryTable& by_n = *by_n_result;
  EXPECT_EQ(by_n.name, "gof_by_n_eval");
  EXPECT_TRUE(Contains(by_n.caption, "Data: uci-adult."));
  for (const Column& col : by_n.columns) EXPECT_EQ(col.size(), 4u) << col.name;
  EXPECT_EQ(by_n.columns[7].name, "median_p_k>=3");
  EXPECT_EQ(by_n.columns[11].name, "bic_best_k");
  EXPECT_EQ(by_n.columns[11].ints, (std::vector<int64_t>{2, 2, 2, 2}));
  EXPECT_EQ(by_n.columns[5].doubles, (std::vector<double>{0.01, 0.01, 0.5, 0.5}));
  EXPECT_EQ(by_n.columns[13].doubles, (std::vector<double>{1.0, 1.0, 1.0, 1.0}));  // floored
  const Result<SummaryTable> by_k_result = GofByComponentsTable(c, r);
  ASSERT_TRUE(by_k_result.ok()) << by_k_result.message();
  const SummaryTable& by_k = *by_k_result;
  for (const Column& col : by_k.columns) EXPECT_EQ(col.size(), 6u) << col.name;
  EXPECT_EQ(by_k.columns[4].ints, (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(by_k.columns[9].doubles, (std::vector<double>{-1, -2, -3, -1, -2, -3}));
  EXPECT_TRUE(Contains(by_k.caption, "n_eval = 100,200"));
  const Result<SummaryTable> models_result = ModelsTable(r);
  ASSERT_TRUE(models_result.ok()) << models_result.message();
  const SummaryTable& models = *models_result;
  EXPECT_EQ(models.columns[1].ints, (std::vector<int64_t>{0, 1, 0, 1}));  // repetition
  for (const Column& col : models.columns) EXPECT_EQ(col.size(), 4u) << col.name;
  EXPECT_EQ(models.columns[10].doubles, (std::vector<double>{2, 4, 6, 8}));  // seconds
}

}  // namespace
}  // namespace privbench::epsilon_star_gof
