// Unit tests of experiments/lib/epsilon_star_sim/replicates.h: the sort-once /
// fit-once fast paths must reproduce the registered estimators exactly,
// seeds and threads must behave as documented, and the summaries of the
// replicates (moments, paired differences) must be the plain statistics.
#include "experiments/lib/epsilon_star_sim/replicates.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "core/seeding.h"
#include "core/stats.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "experiments/lib/epsilon_star_sim/estimation_config.h"

namespace privbench {
namespace {

EstimationConfig ValidConfig() {
  EstimationConfig c;
  c.n = {100, 1000};
  c.repetitions = 3;
  c.quantiles_per_distribution = 500;
  return c;
}

TEST(SortedSamplesTest, FastPathsEqualRegisteredEstimators) {
  // Deterministic: fixed seeds, no statistical tolerance (exact equality of
  // the same computation on the same sorted input).
  for (uint64_t seed : {1u, 2u, 3u}) {
    Rng rng = MakeRng(seed, {0});
    const GammaLoss t{1.0, 1.0, 0.0}, p{1.0 + static_cast<double>(seed), 1.5, 0.0};
    auto s = SortedSamples::Create(DrawGammaLosses(t, 700, rng), DrawGammaLosses(p, 900, rng));
    ASSERT_TRUE(s.ok()) << s.message();
    SortedSamples samples = std::move(s).value();
    EstimationConfig c = ValidConfig();
    for (const EpsilonStarOptions& o : {PrimaryOptions(c), CommonWindowOptions(c)}) {
      for (const std::string& name : AllLossSampleEstimatorNames()) {
        auto est = MakeLossSampleEstimator(name);
        ASSERT_TRUE(est.ok());
        auto want = (*est)->Estimate(samples.train(), samples.population(), o);
        auto got = samples.Estimate(name, o);
        ASSERT_TRUE(want.ok()) << want.message();
        ASSERT_TRUE(got.ok()) << got.message();
        EXPECT_EQ(*want, *got) << name << " " << EpsilonStarOptionsText(o);
        // A second call reuses the cached fit and gives the same value.
        EXPECT_EQ(*samples.Estimate(name, o), *got);
      }
    }
  }
}

TEST(SortedSamplesTest, SortsAndValidates) {
  auto s = SortedSamples::Create({3.0, 1.0, 2.0}, {5.0, 4.0});
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(std::is_sorted(s->train().begin(), s->train().end()));
  EXPECT_TRUE(std::is_sorted(s->population().begin(), s->population().end()));
  auto bad = SortedSamples::Create({1.0, NAN}, {1.0});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("train_losses"), std::string::npos);
  auto empty = SortedSamples::Create({1.0}, {});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.message().find("population_losses"), std::string::npos);
}

TEST(SortedSamplesTest, UnknownEstimatorAndBadOptionsAreErrors) {
  auto s = SortedSamples::Create({1.0, 2.0, 3.0}, {2.0, 3.0, 4.0});
  ASSERT_TRUE(s.ok());
  SortedSamples samples = std::move(s).value();
  EXPECT_FALSE(samples.Estimate("no_such_estimator", EpsilonStarOptions{}).ok());
  EpsilonStarOptions o;
  o.clip_lo = 0.7;
  auto r = samples.Estimate("empirical", o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("clip_lo"), std::string::npos);
}

TEST(RunReplicatesTest, ThreadIndependentAndSeeded) {
  EstimationConfig c = ValidConfig();
  const std::vector<SimAnalysis> analyses = {{"primary", PrimaryOptions(c)}};
  const std::vector<std::string> names = AllLossSampleEstimatorNames();
  std::vector<SimSetting> settings = {{GammaLoss{1, 1, 0}, GammaLoss{2, 1, 0}, 300},
                                      {GammaLoss{1, 1, 0}, GammaLoss{1, 1, 0}, 1000}};
  auto one = RunReplicates(settings, 3, 42, names, analyses, 1, true, "t");
  auto two = RunReplicates(settings, 3, 42, names, analyses, 2, true, "t");
  auto other = RunReplicates(settings, 3, 43, names, analyses, 2, true, "t");
  ASSERT_TRUE(one.ok() && two.ok() && other.ok());
  EXPECT_EQ(*one, *two);
  EXPECT_NE(*one, *other);
  // Unit (s, r) is EvaluateUnit with DeriveSeed(base, {s, r}).
  auto unit = EvaluateUnit(settings[1], DeriveSeed(42, {1, 2}), names, analyses);
  ASSERT_TRUE(unit.ok());
  for (size_t e = 0; e < names.size(); ++e) EXPECT_EQ((*one)(1, 0, e, 2), (*unit)[0][e]);
  EXPECT_FALSE(RunReplicates(settings, 0, 42, names, analyses, 1, true, "t").ok());
}

TEST(SummaryTest, ValuesOfAndMoments) {
  // values(setting, analysis, estimator, repetition)
  const ReplicateValues v = {{{{1.0, 2.0, 3.0}, {4.0, 4.0, 4.0}}},
                             {{{2.0, 4.0, 6.0}, {0.0, 1.0, 2.0}}}};
  EXPECT_EQ(ValuesOf(v, 0, 0), (xt::xtensor<double, 2>{{1, 2, 3}, {2, 4, 6}}));
  EXPECT_EQ(ValuesOf(v, 0, 1), (xt::xtensor<double, 2>{{4, 4, 4}, {0, 1, 2}}));
  EXPECT_EQ(Repetitions(v, 1, 0, 1), (xt::xtensor<double, 1>{0, 1, 2}));
  const ReplicateMoments m = Moments(v);
  ASSERT_EQ(m.mean.shape()[0], 2u);
  ASSERT_EQ(m.mean.shape()[2], 2u);
  const auto column = [](const xt::xtensor<double, 3>& x, size_t e) {
    return xt::xtensor<double, 1>(xt::view(x, xt::all(), 0, e));
  };
  EXPECT_EQ(column(m.mean, 0), (xt::xtensor<double, 1>{2.0, 4.0}));
  EXPECT_EQ(column(m.sd, 0), (xt::xtensor<double, 1>{1.0, 2.0}));
  EXPECT_EQ(column(m.sd, 1), (xt::xtensor<double, 1>{0.0, 1.0}));
}

// The array reductions must give the bytes of core/stats.h's loops (the
// studies' files were written with those before they used xtensor).
TEST(SummaryTest, MomentsAreBitIdenticalToCoreStats) {
  std::mt19937_64 rng(7);
  std::gamma_distribution<double> gamma(0.7, 1.3);
  ReplicateValues v = xt::zeros<double>({3, 2, 2, 17});
  for (double& x : v) x = gamma(rng) * 1e-3 + 0.1;
  const ReplicateMoments m = Moments(v);
  for (size_t s = 0; s < 3; ++s) {
    for (size_t a = 0; a < 2; ++a) {
      for (size_t e = 0; e < 2; ++e) {
        const xt::xtensor<double, 1> r = Repetitions(v, s, a, e);
        const std::vector<double> x(r.begin(), r.end());
        EXPECT_EQ(m.mean(s, a, e), Mean(x));
        EXPECT_EQ(m.sd(s, a, e), SampleSd(x));
      }
    }
  }
  const xt::xtensor<double, 1> a = Repetitions(v, 0, 0, 0), b = Repetitions(v, 1, 1, 1);
  std::vector<double> d(a.size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = a(i) - b(i);
  EXPECT_EQ(Paired(a, b).mean, Mean(d));
  EXPECT_EQ(Paired(a, b).t, Mean(d) / (SampleSd(d) / std::sqrt(static_cast<double>(d.size()))));
  EXPECT_TRUE(std::isnan(
      Moments(xt::view(v, xt::all(), xt::all(), xt::all(), xt::range(0, 1))).sd(0, 0, 0)));
}

TEST(SummaryTest, PairedDifference) {
  const PairedDifference p = Paired({2.0, 3.0, 5.0}, {1.0, 1.0, 2.0});  // d = 1, 2, 3
  EXPECT_DOUBLE_EQ(p.mean, 2.0);
  EXPECT_DOUBLE_EQ(p.t, 2.0 / (1.0 / std::sqrt(3.0)));
  EXPECT_EQ(Paired({1.0, 2.0}, {0.0, 1.0}).t, 0.0);  // equal differences
}

TEST(SummaryTest, FindClaimEstimators) {
  auto c = FindClaimEstimators({"parametric", "other", "empirical"});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->empirical, 2u);
  EXPECT_EQ(c->parametric, 0u);
  EXPECT_FALSE(FindClaimEstimators({"empirical"}).ok());
}

}  // namespace
}  // namespace privbench
