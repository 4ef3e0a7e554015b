// Tests of study D2's data and poisons on a small Fashion-MNIST subset:
// ClipBKD's x* is a least-variance direction at the median row norm, its
// label the one fresh trained models find least likely there, the
// shadow poison stays in [0, 1]^784 and is less likely under the shadow
// models than its starting row, and training is deterministic in its seed.
#include "experiments/ml_audit_dpsgd/models.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "core/seeding.h"
#include "gtest/gtest.h"

namespace privbench {
namespace ml_audit_dpsgd {
namespace {

AuditData Small() {
  DataOptions o;
  o.n_train = 200;
  o.test_probes = 2;
  o.seed = 3;
  Result<AuditData> d = LoadAuditData(o);
  EXPECT_TRUE(d.ok()) << d.message();
  return d.ok() ? *d : AuditData{};
}

TrainSpec Quick() {
  TrainSpec s;
  s.batch_size = 50;
  s.epochs = 2;
  s.noise_multiplier = 1.0;
  return s;
}

// Sample variance of the rows projected on v.
double ProjectedVariance(const AuditData& d, const std::vector<double>& v) {
  std::vector<double> p;
  for (int64_t r = 0; r < d.n(); ++r) {
    double s = 0;
    for (int64_t j = 0; j < d.num_features; ++j) s += d.x[r * d.num_features + j] * v[j];
    p.push_back(s);
  }
  const double mean = std::accumulate(p.begin(), p.end(), 0.0) / p.size();
  double ss = 0;
  for (double x : p) ss += (x - mean) * (x - mean);
  return ss / (p.size() - 1);
}

TEST(Data, TwoClassesAndProbes) {
  const AuditData d = Small();
  ASSERT_EQ(d.n(), 200);
  EXPECT_EQ(d.probes_x.size(), 2u * 784u);
  for (int64_t y : d.y) EXPECT_TRUE(y == 0 || y == 1);
  EXPECT_GT(std::count(d.y.begin(), d.y.end(), 1), 50);
  EXPECT_FALSE(LoadAuditData(DataOptions{"", 3, 3, 100, 0, 0}).ok());
}

TEST(Poisons, ClipBkdIsTheLeastVarianceDirection) {
  const AuditData d = Small();
  Result<PoisonPoint> p = DesignClipBkd(d, Quick(), 4, 1);
  ASSERT_TRUE(p.ok()) << p.message();
  std::vector<double> v(p->x.begin(), p->x.end());
  const double norm = std::sqrt(std::inner_product(v.begin(), v.end(), v.begin(), 0.0));
  std::vector<double> norms;
  for (int64_t r = 0; r < d.n(); ++r) {
    double s = 0;
    for (int64_t j = 0; j < 784; ++j) s += d.x[r * 784 + j] * d.x[r * 784 + j];
    norms.push_back(std::sqrt(s));
  }
  std::sort(norms.begin(), norms.end());
  EXPECT_NEAR(norm, 0.5 * (norms[99] + norms[100]), 1e-3 * norm);
  for (double& x : v) x /= norm;
  const double least = ProjectedVariance(d, v);
  std::mt19937_64 rng(5);
  std::normal_distribution<double> g;
  for (int t = 0; t < 20; ++t) {  // no random unit direction has less variance
    std::vector<double> u(784);
    for (double& x : u) x = g(rng);
    const double n = std::sqrt(std::inner_product(u.begin(), u.end(), u.begin(), 0.0));
    for (double& x : u) x /= n;
    EXPECT_LE(least, ProjectedVariance(d, u) + 1e-9);
  }
  EXPECT_LE(p->clean_prob, 0.5 + 1e-12);  // the less likely label
}

// Synthetic data where trained networks are sure at x*: 10 pixels carry
// the class (class 0 dark, class 1 bright), 10 are 0 in every row, so x*
// lies on the dead pixels and a trained network sees it as a dark image.
AuditData DeadPixels() {
  AuditData d;
  d.num_features = 20;
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<float> u(0, 1);
  for (int r = 0; r < 200; ++r) {
    const int64_t y = r % 2;
    for (int j = 0; j < 20; ++j)
      d.x.push_back(j < 10 ? (y ? 0.6f + 0.4f * u(rng) : 0.1f * u(rng)) : 0);
    d.y.push_back(y);
  }
  return d;
}

// y* is the label trained networks find least likely at x* (here the
// bright class), not what one network's initialisation says along the
// untrained direction: fresh networks (other seeds than those that chose
// y*) give it a mean probability well below 1/2 at x*.
TEST(Poisons, ClipBkdLabelIsLeastLikelyForFreshModels) {
  const AuditData d = DeadPixels();
  TrainSpec clean = Quick();
  clean.private_training = false;
  clean.epochs = 20;
  for (uint64_t design_seed = 1; design_seed <= 3; ++design_seed) {
    Result<PoisonPoint> p = DesignClipBkd(d, clean, 8, design_seed);
    ASSERT_TRUE(p.ok()) << p.message();
    EXPECT_EQ(p->y, 1);
    double mean = 0;
    for (uint64_t seed = 100; seed < 108; ++seed) {
      Result<std::vector<double>> v = TrainAndProbe(d, Insertion{}, clean, *p, *p, seed);
      ASSERT_TRUE(v.ok()) << v.message();
      mean += (*v)[0] / 8;  // P_{y*}(x*)
    }
    EXPECT_LT(mean, 0.25) << "label-choosing mean " << p->clean_prob;
  }
  EXPECT_FALSE(DesignClipBkd(d, clean, 0, 1).ok());
}

// --clipbkd_label_from=dp: the label is the one least likely at x* under
// the mean of DP-SGD models trained on D alone (no poison) at the given
// sigma, and they are the models TrainAndProbe trains on D with the
// documented seeds: the choice reads exactly their mean P(x*).
TEST(Poisons, DpLabelIsLeastLikelyUnderDpModels) {
  const AuditData d = DeadPixels();
  TrainSpec dp = Quick();
  dp.epochs = 20;
  dp.noise_multiplier = 0.5;
  Result<PoisonPoint> p = DesignClipBkd(d, dp, 2, 1);
  ASSERT_TRUE(p.ok()) << p.message();
  Result<ClipBkdLabel> label = DpLeastLikelyLabel(d, dp, p->x, 4, 17);
  ASSERT_TRUE(label.ok()) << label.message();
  EXPECT_EQ(label->y, 1);  // the bright class, at a dark x*
  PoisonPoint probe = *p;
  probe.y = label->y;
  double mean = 0;
  for (uint64_t m = 0; m < 4; ++m) {
    Result<std::vector<double>> v =
        TrainAndProbe(d, Insertion{}, dp, probe, probe, DeriveSeed(17, {m}));
    ASSERT_TRUE(v.ok()) << v.message();
    mean += (*v)[0] / 4;  // P_{y*}(x*) of DP model m on D
  }
  // The same models: the probe passes x* in a batch with other rows, the
  // label choice alone, and the BLAS rounds a float32 matrix product
  // differently for different batch shapes (up to ~1e-7 relative).
  EXPECT_NEAR(label->prob, mean, 1e-6);
  EXPECT_LT(label->prob, 0.5);
  TrainSpec other = dp;  // another sigma trains other models
  other.noise_multiplier = 2;
  Result<ClipBkdLabel> noisier = DpLeastLikelyLabel(d, other, p->x, 4, 17);
  ASSERT_TRUE(noisier.ok());
  EXPECT_NE(noisier->prob, label->prob);
  EXPECT_FALSE(DpLeastLikelyLabel(d, dp, p->x, 0, 17).ok());
  EXPECT_FALSE(DpLeastLikelyLabel(d, dp, {1.0f, 2.0f}, 4, 17).ok());
}

// The two neighbour pairs' training sets: append adds k rows (n + k);
// replace puts the copies in D's last k rows with the given label, every
// other row untouched, n kept (so the same q and T on both sides).
TEST(Neighbours, AppendAndFlipReplaceRows) {
  const AuditData d = DeadPixels();
  PoisonPoint p;
  p.x.assign(20, 0.0f);
  for (int j = 10; j < 20; ++j) p.x[j] = 3.0f;
  p.y = 1;
  Result<TrainingRows> base = PoisonedRows(d, Insertion{});
  ASSERT_TRUE(base.ok());
  EXPECT_EQ(base->x, d.x);
  EXPECT_EQ(base->y, d.y);
  Result<TrainingRows> app = PoisonedRows(d, Insertion{&p, 3, Placement::kAppend, 1});
  ASSERT_TRUE(app.ok());
  ASSERT_EQ(app->n(), d.n() + 3);
  EXPECT_TRUE(std::equal(d.x.begin(), d.x.end(), app->x.begin()));
  for (int64_t r = d.n(); r < d.n() + 3; ++r) {
    EXPECT_EQ(app->y[r], 1);
    EXPECT_TRUE(std::equal(p.x.begin(), p.x.end(), app->x.begin() + r * 20));
  }
  Result<TrainingRows> side_d = PoisonedRows(d, Insertion{&p, 3, Placement::kReplaceLast, 0});
  Result<TrainingRows> side_dp = PoisonedRows(d, Insertion{&p, 3, Placement::kReplaceLast, 1});
  ASSERT_TRUE(side_d.ok() && side_dp.ok());
  ASSERT_EQ(side_d->n(), d.n());
  ASSERT_EQ(side_dp->n(), d.n());
  for (int64_t r = 0; r < d.n(); ++r) {
    const bool replaced = r >= d.n() - 3;
    for (const TrainingRows* t : {&*side_d, &*side_dp}) {
      const auto row = t->x.begin() + r * 20;
      if (replaced) {
        EXPECT_TRUE(std::equal(p.x.begin(), p.x.end(), row)) << r;
      } else {
        EXPECT_TRUE(std::equal(row, row + 20, d.x.begin() + r * 20)) << r;
        EXPECT_EQ(t->y[r], d.y[r]) << r;
      }
    }
    if (replaced) {  // the label flip: 1 - y* in D, y* in D'
      EXPECT_EQ(side_d->y[r], 0);
      EXPECT_EQ(side_dp->y[r], 1);
    }
  }
  EXPECT_FALSE(PoisonedRows(d, Insertion{&p, d.n(), Placement::kReplaceLast, 1}).ok());
  PoisonPoint wrong = p;
  wrong.x.resize(5);
  EXPECT_FALSE(PoisonedRows(d, Insertion{&wrong, 1, Placement::kAppend, 1}).ok());
}

TEST(Poisons, ShadowAscentLowersTheShadowProbability) {
  const AuditData d = Small();
  ShadowOptions none{2, 0, 0.5}, some{2, 20, 0.5};
  Result<PoisonPoint> start = DesignShadow(d, Quick(), none, 2);
  Result<PoisonPoint> moved = DesignShadow(d, Quick(), some, 2);
  ASSERT_TRUE(start.ok() && moved.ok());
  EXPECT_EQ(start->source_row, moved->source_row);
  EXPECT_LT(moved->clean_prob, start->clean_prob);
  for (float x : moved->x) EXPECT_TRUE(x >= 0 && x <= 1);
}

TEST(Training, DeterministicInTheSeed) {
  const AuditData d = Small();
  Result<PoisonPoint> c = DesignClipBkd(d, Quick(), 4, 1);
  ASSERT_TRUE(c.ok());
  const PoisonPoint& p = *c;
  const Insertion two{&p, 2, Placement::kAppend, p.y};
  auto a = TrainAndProbe(d, two, Quick(), p, p, 9);
  auto b = TrainAndProbe(d, two, Quick(), p, p, 9);
  auto other = TrainAndProbe(d, two, Quick(), p, p, 10);
  ASSERT_TRUE(a.ok() && b.ok() && other.ok());
  EXPECT_EQ(a->size(), static_cast<size_t>(ProbeDim(2)));
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *other);
  TrainSpec relu = Quick();
  relu.relu = true;
  auto r = TrainAndProbe(d, two, relu, p, p, 9);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_NE(*r, *a);  // the activation reaches the network
}

}  // namespace
}  // namespace ml_audit_dpsgd
}  // namespace privbench
