// Conformance suite run over EVERY registered interval estimator
// (AllIntervalEstimatorNames()): a new estimator enrols by its registry line.
//
// Checks: bad input is refused with a message naming the argument; edge
// counts (perfect attacks, zeros, delta = 0) give answers, never errors or
// NaN; 0 <= lower <= upper; the lower bound does not rise as confidence
// rises; with lots of data the interval is narrow and contains the plug-in
// eps (a known answer); one-sided methods return no upper bound.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "estimators/eps_from_rates.h"
#include "estimators/interval_registry.h"

namespace privbench {
namespace {

class IntervalConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto est = MakeIntervalEstimator(GetParam());
    ASSERT_TRUE(est.ok()) << est.message();
    est_ = std::move(est).value();
    delta_ = est_->requires_zero_delta() ? 0.0 : 1e-5;
  }
  std::unique_ptr<IntervalEstimator> est_;
  double delta_ = 0.0;
};

void ExpectErrorMentions(const Result<EpsInterval>& r, const std::string& word) {
  ASSERT_FALSE(r.ok()) << "accepted bad input";
  EXPECT_NE(r.message().find(word), std::string::npos) << r.message();
}

TEST_P(IntervalConformanceTest, RefusesBadInputNamingTheArgument) {
  const ConfusionCounts ok{50, 50, 40, 60};
  ExpectErrorMentions(est_->Estimate({-1, 5, 5, 5}, delta_, 0.1), "tp");
  ExpectErrorMentions(est_->Estimate({5, -1, 5, 5}, delta_, 0.1), "fn");
  ExpectErrorMentions(est_->Estimate({5, 5, -2, 5}, delta_, 0.1), "fp");
  ExpectErrorMentions(est_->Estimate({5, 5, 5, -3}, delta_, 0.1), "tn");
  ExpectErrorMentions(est_->Estimate({0, 0, 5, 5}, delta_, 0.1), "tp + fn");
  ExpectErrorMentions(est_->Estimate({5, 5, 0, 0}, delta_, 0.1), "fp + tn");
  ExpectErrorMentions(est_->Estimate(ok, 1.0, 0.1), "delta");
  ExpectErrorMentions(est_->Estimate(ok, -0.1, 0.1), "delta");
  ExpectErrorMentions(est_->Estimate(ok, std::nan(""), 0.1), "delta");
  ExpectErrorMentions(est_->Estimate(ok, delta_, 0.0), "alpha");
  ExpectErrorMentions(est_->Estimate(ok, delta_, 1.0), "alpha");
  ExpectErrorMentions(est_->Estimate(ok, delta_, std::nan("")), "alpha");
  if (est_->requires_zero_delta()) ExpectErrorMentions(est_->Estimate(ok, 1e-5, 0.1), "delta");
}

TEST_P(IntervalConformanceTest, EdgeCountsGiveAnswersNotErrors) {
  const ConfusionCounts edges[] = {
      {1000, 0, 0, 1000},  // perfect attack
      {0, 1000, 1000, 0},  // perfectly inverted
      {0, 1000, 0, 1000},  // always "non-member"
      {1000, 0, 1000, 0},  // always "member"
      {1, 0, 0, 1},        // one trial each
      {487, 0, 512, 1},    // privacy-estimates README
      {90, 10, 0, 100},    // footnote 1
      {3, 97, 0, 100},     // low TPR at zero FPR
  };
  for (const ConfusionCounts& c : edges) {
    for (double delta : {0.0, 1e-5}) {
      if (est_->requires_zero_delta() && delta != 0.0) continue;
      auto r = est_->Estimate(c, delta, 0.1);
      ASSERT_TRUE(r.ok()) << c.ToString() << " delta=" << delta << ": " << r.message();
      EXPECT_FALSE(std::isnan(r->lower)) << c.ToString();
      EXPECT_GE(r->lower, 0.0) << c.ToString();
      EXPECT_TRUE(std::isfinite(r->lower)) << c.ToString();
      if (r->upper) {
        EXPECT_GE(*r->upper, r->lower) << c.ToString();
      }
    }
  }
}

TEST_P(IntervalConformanceTest, OneSidedMethodsHaveNoUpperBound) {
  auto r = est_->Estimate({70, 30, 20, 80}, delta_, 0.1);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->upper.has_value(), !est_->one_sided());
}

TEST_P(IntervalConformanceTest, LowerBoundDoesNotRiseWithConfidence) {
  const ConfusionCounts cases[] = {{70, 30, 20, 80}, {499, 1, 10, 490}, {30, 70, 80, 20}};
  for (const ConfusionCounts& c : cases) {
    double previous = std::numeric_limits<double>::infinity();
    for (double alpha : {0.5, 0.2, 0.1, 0.05, 0.01, 0.001}) {  // confidence rising
      auto r = est_->Estimate(c, delta_, alpha);
      ASSERT_TRUE(r.ok()) << r.message();
      EXPECT_LE(r->lower, previous + 1e-9) << c.ToString() << " alpha=" << alpha;
      previous = r->lower;
    }
  }
}

TEST_P(IntervalConformanceTest, KnownAnswerWithLotsOfData) {
  // FNR = 0.2, FPR = 0.1 observed on 10^5 trials per side: every method's
  // interval (or lower bound) must bracket the plug-in eps and be narrow.
  const ConfusionCounts c{80000, 20000, 10000, 90000};
  const double truth = EpsFromRatesUnchecked(0.2, 0.1, delta_);
  auto r = est_->Estimate(c, delta_, 0.1);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_LE(r->lower, truth);
  EXPECT_GT(r->lower, truth - 0.05);
  if (r->upper) {
    EXPECT_GE(*r->upper, truth);
    EXPECT_LT(*r->upper, truth + 0.05);
  }
  // And an uninformative attack gives a lower bound of (about) 0. Not
  // exactly 0 for the Bayesian methods: eps >= 0 has a posterior whose atom
  // at 0 is only P[|FNR + FPR - 1| <= delta], so its alpha/2 quantile is a
  // small positive number (2.6e-4 here) and an equal-tailed credible
  // interval cannot cover a true eps of exactly 0. bayes_coverage reports
  // the consequence.
  auto chance = est_->Estimate({50000, 50000, 50000, 50000}, delta_, 0.1);
  ASSERT_TRUE(chance.ok());
  EXPECT_LT(chance->lower, 0.002);
}

INSTANTIATE_TEST_SUITE_P(All, IntervalConformanceTest,
                         ::testing::ValuesIn(AllIntervalEstimatorNames()),
                         [](const auto& info) { return info.param; });

TEST(IntervalRegistryTest, NamesAreUniqueAndResolvable) {
  const auto names = AllIntervalEstimatorNames();
  for (const auto& n : names) {
    EXPECT_EQ(std::count(names.begin(), names.end(), n), 1) << n;
    EXPECT_EQ(MakeIntervalEstimator(n).value()->name(), n);
  }
  for (const char* required :
       {"clopper_pearson", "clopper_pearson_one_sided", "jeffreys", "jeffreys_one_sided",
        "bayesian", "bayesian_one_sided", "katz_log"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
  }
  auto bad = MakeIntervalEstimator("nope");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("got 'nope'"), std::string::npos);
  EXPECT_NE(bad.message().find("bayesian"), std::string::npos);
}

}  // namespace
}  // namespace privbench
