#include "data_scripts/purchase100_surrogate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "data_scripts/test_util.h"

namespace privbench {
namespace {

using ::privbench::testing::HasSubstr;

SurrogateOptions Small(uint64_t seed, int64_t n_train = 2000, int64_t n_population = 1000) {
  SurrogateOptions o;
  o.seed = seed;
  o.n_train = n_train;
  o.n_population = n_population;
  return o;
}

Dataset MakeOrDie(const SurrogateOptions& o) {
  auto r = MakePurchase100Surrogate(o);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? std::move(r).value() : Dataset();
}

TEST(Purchase100SurrogateTest, ShapeAndLabelling) {
  const Dataset d = MakeOrDie(Small(1));
  ASSERT_TRUE(CheckDataset(d).ok());
  EXPECT_EQ(d.name, "purchase100");
  EXPECT_EQ(d.provenance, "purchase100-surrogate");
  EXPECT_TRUE(d.is_surrogate);
  EXPECT_EQ(d.num_features, 600);
  EXPECT_EQ(d.num_classes, 100);
  EXPECT_EQ(d.n_train(), 2000);
  EXPECT_EQ(d.n_population(), 1000);
  EXPECT_EQ(d.feature_names.front(), "item_000");
  EXPECT_EQ(d.feature_names.back(), "item_599");
  for (float v : d.train_x) ASSERT_TRUE(v == 0.0f || v == 1.0f);
  for (int64_t y : d.train_y) ASSERT_TRUE(y >= 0 && y < 100);
  EXPECT_TRUE(HasSubstr(d.notes.front(), "purchase100-surrogate"));
}

TEST(Purchase100SurrogateTest, Deterministic) {
  const Dataset a = MakeOrDie(Small(7));
  const Dataset b = MakeOrDie(Small(7));
  EXPECT_EQ(a.train_x, b.train_x);
  EXPECT_EQ(a.train_y, b.train_y);
  EXPECT_EQ(a.population_x, b.population_x);
  EXPECT_EQ(a.population_y, b.population_y);

  const Dataset c = MakeOrDie(Small(8));
  EXPECT_NE(a.train_x, c.train_x);
  EXPECT_NE(a.train_y, c.train_y);

  // Train and population are different draws.
  EXPECT_FALSE(std::equal(a.population_x.begin(), a.population_x.end(), a.train_x.begin()));

  // A larger request extends a smaller one (prefix-stable, across chunk
  // boundaries of 1024 rows).
  const Dataset big = MakeOrDie(Small(7, 3000, 1500));
  EXPECT_TRUE(std::equal(a.train_x.begin(), a.train_x.end(), big.train_x.begin()));
  EXPECT_TRUE(std::equal(a.population_y.begin(), a.population_y.end(), big.population_y.begin()));

  // Another sample stream: same model, fresh records.
  SurrogateOptions other = Small(7);
  other.sample_stream = 1;
  const Dataset s = MakeOrDie(other);
  EXPECT_NE(a.train_x, s.train_x);
  EXPECT_EQ(MakeSurrogateModel(Small(7)).value().probability,
            MakeSurrogateModel(other).value().probability);
}

// Density matches the model's expectation and the target range.
// Statistical: the mean ones-count over n = 10,000 records is compared with
// its expectation at 6 standard errors (estimated from the sample): false
// failure probability about 2e-9 over seeds (fixed seed here).
TEST(Purchase100SurrogateTest, DensityMatchesModel) {
  const SurrogateOptions o = Small(3, 10000, 0);
  const SurrogateModel model = MakeSurrogateModel(o).value();
  const double expected = model.ExpectedDensity() * 600;
  EXPECT_GT(model.ExpectedDensity(), 0.15);
  EXPECT_LT(model.ExpectedDensity(), 0.19);
  const Dataset d = MakeOrDie(o);
  double sum = 0, sum_sq = 0;
  for (int64_t i = 0; i < d.n_train(); ++i) {
    double ones = 0;
    for (int64_t j = 0; j < 600; ++j) ones += d.train_row(i)[j];
    sum += ones;
    sum_sq += ones * ones;
  }
  const double n = static_cast<double>(d.n_train());
  const double mean = sum / n;
  const double se = std::sqrt((sum_sq / n - mean * mean) / n);
  EXPECT_NEAR(mean, expected, 6 * se);
}

// Class balance: each label count ~ Binomial(10000, 0.01) (mean 100, sd
// 9.95); all 100 within 6 sd: false failure probability < 1e-6.
TEST(Purchase100SurrogateTest, ClassesAreBalanced) {
  const Dataset d = MakeOrDie(Small(4, 10000, 0));
  for (int64_t c : LabelCounts(d.train_y, 100)) {
    EXPECT_GT(c, 100 - 60);
    EXPECT_LT(c, 100 + 60);
  }
}

// The labels are learnable from the features: the Bayes classifier of the
// generating model (marginalising the activity level) reaches about 0.89
// (calibration in the header). Statistical: on 1,000 records the accuracy's
// standard error is about 0.01, so the threshold 0.8 is ~9 SE below the
// expectation (false failure probability < 1e-15).
TEST(Purchase100SurrogateTest, LabelsAreLearnable) {
  const SurrogateOptions o = Small(5, 1, 1000);
  const SurrogateModel model = MakeSurrogateModel(o).value();
  const Dataset d = MakeOrDie(o);
  std::vector<double> log_p(model.probability.size()), log_q(model.probability.size());
  for (size_t i = 0; i < log_p.size(); ++i) {
    log_p[i] = std::log(model.probability[i]);
    log_q[i] = std::log1p(-model.probability[i]);
  }
  int correct = 0;
  for (int64_t i = 0; i < d.n_population(); ++i) {
    const float* x = d.population_row(i);
    int best = -1;
    double best_ll = -INFINITY;
    for (int k = 0; k < 100; ++k) {
      double ll = -INFINITY;
      for (int l = 0; l < kSurrogateActivityLevels; ++l) {
        const size_t off = (static_cast<size_t>(k) * kSurrogateActivityLevels + l) * 600;
        double s = 0;
        for (int j = 0; j < 600; ++j) s += x[j] != 0.0f ? log_p[off + j] : log_q[off + j];
        ll = std::max(ll, s) + std::log1p(std::exp(-std::fabs(ll - s)));
      }
      if (ll > best_ll) {
        best_ll = ll;
        best = k;
      }
    }
    correct += (best == d.population_y[i]);
  }
  EXPECT_GT(correct / 1000.0, 0.8);
  EXPECT_LT(correct / 1000.0, 0.97);  // not trivially separable either
}

TEST(Purchase100SurrogateTest, RefusesBadOptions) {
  SurrogateOptions o;
  o.n_train = 0;
  EXPECT_EQ(MakePurchase100Surrogate(o).message(), "n_train must be >= 1, got 0");
  o = SurrogateOptions();
  o.n_population = -5;
  EXPECT_EQ(MakePurchase100Surrogate(o).message(), "n_population must be >= 0, got -5");
  o = SurrogateOptions();
  o.profile_item_fraction = 1.5;
  EXPECT_EQ(MakePurchase100Surrogate(o).message(),
            "profile_item_fraction must be in [0, 1], got 1.5");
  o = SurrogateOptions();
  o.num_segments = 0;
  EXPECT_EQ(MakePurchase100Surrogate(o).message(), "num_segments must be in [1, 100], got 0");
  o = SurrogateOptions();
  o.segment_boost = NAN;
  EXPECT_FALSE(MakePurchase100Surrogate(o).ok());
}

}  // namespace
}  // namespace privbench
