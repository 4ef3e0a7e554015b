// Conformance of every registered loss-sample estimator
// (AllLossSampleEstimatorNames()): bad input is refused with a message
// naming the argument; results are finite and >= 0, deterministic,
// order-independent, non-increasing in delta; identical samples give a
// small value. Adding an estimator to loss_sample_registry.cc enrols it.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/gamma_distribution.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "estimators/loss_samples/loss_sample_registry.h"

namespace privbench {
namespace {

class LossSampleConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto est = MakeLossSampleEstimator(GetParam());
    ASSERT_TRUE(est.ok()) << est.message();
    est_ = std::move(est).value();
    Rng rng = MakeRng(5, {0});
    boost::random::gamma_distribution<double> g1(1.0, 1.0), g2(2.0, 1.0);
    for (int i = 0; i < 2000; ++i) train_.push_back(g1(rng));
    for (int i = 0; i < 3000; ++i) population_.push_back(g2(rng));
    options_.quantiles_per_distribution = 10000;
  }

  // The error message of a call expected to fail (empty if it succeeded).
  std::string FailureMessage(const std::vector<double>& train,
                             const std::vector<double>& population,
                             const EpsilonStarOptions& options) {
    auto r = est_->Estimate(train, population, options);
    EXPECT_FALSE(r.ok()) << GetParam() << " accepted bad input, returned " << (r.ok() ? *r : 0.0);
    return r.message();
  }

  void ExpectRefused(const EpsilonStarOptions& options, const std::string& argument) {
    const std::string msg = FailureMessage(train_, population_, options);
    EXPECT_EQ(msg.rfind(argument, 0), 0u)
        << "message does not start with '" << argument << "': " << msg;
  }

  std::unique_ptr<LossSampleEstimator> est_;
  std::vector<double> train_, population_;
  EpsilonStarOptions options_;
};

TEST_P(LossSampleConformanceTest, NameAndDescription) {
  EXPECT_EQ(est_->name(), GetParam());
  EXPECT_FALSE(est_->description().empty());
}

TEST_P(LossSampleConformanceTest, RefusesBadSamples) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(FailureMessage({}, population_, options_), "train_losses must be non-empty");
  EXPECT_EQ(FailureMessage(train_, {}, options_), "population_losses must be non-empty");
  EXPECT_EQ(FailureMessage({0.5, nan}, population_, options_),
            "train_losses[1] must be finite, got nan");
  EXPECT_EQ(FailureMessage(train_, {-inf}, options_),
            "population_losses[0] must be finite, got -inf");
}

TEST_P(LossSampleConformanceTest, RefusesBadOptions) {
  EpsilonStarOptions o = options_;
  for (double delta : {-0.1, 1.0, std::nan("")}) {
    o = options_;
    o.delta = delta;
    ExpectRefused(o, "delta must be in [0, 1)");
  }
  for (int64_t m : {int64_t{0}, int64_t{-5}, int64_t{2000000000}}) {
    o = options_;
    o.quantiles_per_distribution = m;
    ExpectRefused(o, "quantiles_per_distribution must be in [1, 100000000]");
  }
  for (double floor : {-0.01, 0.5, std::nan("")}) {
    o = options_;
    o.rate_floor = floor;
    ExpectRefused(o, "rate_floor must be in [0, 0.5)");
  }
  for (double ceiling : {0.5, 1.01}) {
    o = options_;
    o.rate_ceiling = ceiling;
    ExpectRefused(o, "rate_ceiling must be in (0.5, 1]");
  }
  for (double lo : {0.0, -1e-6, 0.5, 0.7}) {
    o = options_;
    o.clip_lo = lo;
    ExpectRefused(o, "clip_lo must be in (0, 0.5)");
  }
  for (double hi : {1.0, 0.5, 0.3, std::nan("")}) {
    o = options_;
    o.clip_hi = hi;
    ExpectRefused(o, "clip_hi must be in (0.5, 1)");
  }
  o = options_;
  o.transform = static_cast<LossTransform>(42);
  ExpectRefused(o, "transform must be identity, epsilon_star_logit or carlini_logit");
}

TEST_P(LossSampleConformanceTest, FiniteNonNegativeDeterministicOrderFree) {
  for (double delta : {0.0, 1e-5, 0.1}) {
    EpsilonStarOptions o = options_;
    o.delta = delta;
    auto a = est_->Estimate(train_, population_, o);
    ASSERT_TRUE(a.ok()) << a.message();
    EXPECT_TRUE(std::isfinite(*a));
    EXPECT_GE(*a, 0.0);
    auto b = est_->Estimate(train_, population_, o);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(*a, *b);
    std::vector<double> t = train_, p = population_;
    std::reverse(t.begin(), t.end());
    std::reverse(p.begin(), p.end());
    auto c = est_->Estimate(t, p, o);
    ASSERT_TRUE(c.ok());
    EXPECT_NEAR(*a, *c, 1e-9);
    // Handing the samples over gives the same value, validated the same way.
    std::vector<double> t2 = train_, p2 = population_;
    auto d = est_->Estimate(std::move(t2), std::move(p2), o);
    ASSERT_TRUE(d.ok()) << d.message();
    EXPECT_EQ(*a, *d);
    std::vector<double> bad = train_;
    bad[0] = std::nan("");
    std::vector<double> p3 = population_;
    EXPECT_FALSE(est_->Estimate(std::move(bad), std::move(p3), o).ok());
  }
  // Perfectly separated samples: every threshold pair with both rates in
  // the window is evaluated; still finite.
  auto sep = est_->Estimate({0.1, 0.2, 0.3}, {10.0, 11.0, 12.5}, options_);
  ASSERT_TRUE(sep.ok()) << sep.message();
  EXPECT_TRUE(std::isfinite(*sep));
  EXPECT_GE(*sep, 0.0);
  // Tiny samples: a value >= 0 or an error that names a sample.
  auto tiny = est_->Estimate({1.0}, {2.0}, options_);
  if (tiny.ok()) {
    EXPECT_GE(*tiny, 0.0);
  } else {
    EXPECT_NE(tiny.message().find("_losses"), std::string::npos) << tiny.message();
  }
}

TEST_P(LossSampleConformanceTest, NonIncreasingInDelta) {
  double last = std::numeric_limits<double>::infinity();
  for (double delta : {0.0, 1e-5, 1e-3, 0.05, 0.3}) {
    EpsilonStarOptions o = options_;
    o.delta = delta;
    auto e = est_->Estimate(train_, population_, o);
    ASSERT_TRUE(e.ok()) << e.message();
    EXPECT_LE(*e, last + 1e-12) << "delta " << delta;
    last = *e;
  }
}

TEST_P(LossSampleConformanceTest, IdenticalSamplesGiveASmallValue) {
  // The same vector as train and population: FPR + FNR = 1 at every
  // threshold (eCDF) or identical fits (parametric), so Epsilon* is 0 up
  // to rounding.
  auto same = est_->Estimate(train_, train_, options_);
  ASSERT_TRUE(same.ok()) << same.message();
  EXPECT_LT(*same, 1e-9);
  // Clearly different distributions give a clearly larger value.
  auto diff = est_->Estimate(train_, population_, options_);
  ASSERT_TRUE(diff.ok());
  EXPECT_GT(*diff, 1.0);
}

INSTANTIATE_TEST_SUITE_P(All, LossSampleConformanceTest,
                         ::testing::ValuesIn(AllLossSampleEstimatorNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// The paper's two variants come first; an estimator added later follows them
// and needs no change here.
TEST(LossSampleRegistryTest, NamesAreUniqueAndResolvable) {
  const std::vector<std::string> names = AllLossSampleEstimatorNames();
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "empirical");
  EXPECT_EQ(names[1], "parametric");
  std::string listed;
  for (const std::string& name : names) {
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
    auto est = MakeLossSampleEstimator(name);
    ASSERT_TRUE(est.ok()) << est.message();
    EXPECT_EQ((*est)->name(), name);
    listed += (listed.empty() ? "" : ", ") + name;
  }
  auto unknown = MakeLossSampleEstimator("bayesian");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.message(),
            "variant must be a registered loss-sample estimator (" + listed + "), got 'bayesian'");
}

}  // namespace
}  // namespace privbench
