// Tests for the App. B loss transform (Negoescu et al., PPAI-24) and the
// MLE Normal fit.
#include "estimators/loss_samples/loss_transform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "estimators/loss_samples/normal_fit.h"

namespace privbench {
namespace {

// Steps 3-4 written directly from the paper, independently of Apply().
double PaperLogit(double normalised) {
  const double p = std::exp(-(normalised + 1.0));
  return std::log(p / (1.0 - p));
}

TEST(LossTransformTest, EpsilonStarLogitMatchesAppendixBSteps) {
  // Joint min 0 and max 4 (the max is in the population sample).
  const std::vector<double> train = {0.0, 1.0, 2.0};
  const std::vector<double> population = {3.0, 4.0};
  auto t = ApplyLossTransform(LossTransform::kEpsilonStarLogit, train, population);
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_TRUE(t->decreasing);
  ASSERT_EQ(t->train.size(), 3u);
  ASSERT_EQ(t->population.size(), 2u);
  EXPECT_NEAR(t->train[0], PaperLogit(0.0), 1e-14);
  EXPECT_NEAR(t->train[1], PaperLogit(0.25), 1e-14);
  EXPECT_NEAR(t->train[2], PaperLogit(0.5), 1e-14);
  EXPECT_NEAR(t->population[0], PaperLogit(0.75), 1e-14);
  EXPECT_NEAR(t->population[1], PaperLogit(1.0), 1e-14);
  // Hand values: logit(e^-1) = -1 - log(1 - e^-1) = -0.54132485...,
  // logit(e^-2) = -2 - log(1 - e^-2) = -1.85458654213114... (mpmath, 30 digits)
  EXPECT_NEAR(t->train[0], -0.5413248546129181, 1e-13);
  EXPECT_NEAR(t->population[1], -1.8545865421311409, 1e-13);
  // Strictly decreasing in the loss.
  EXPECT_GT(t->train[0], t->train[1]);
  EXPECT_GT(t->train[2], t->population[0]);
}

TEST(LossTransformTest, AffineInvariant) {
  const std::vector<double> train = {0.3, 1.7, 0.01, 2.5};
  const std::vector<double> population = {0.9, 4.2, 3.3};
  const double a = 7.25, b = -3.5;
  std::vector<double> train2, population2;
  for (double x : train) train2.push_back(a * x + b);
  for (double x : population) population2.push_back(a * x + b);
  auto t1 = ApplyLossTransform(LossTransform::kEpsilonStarLogit, train, population);
  auto t2 = ApplyLossTransform(LossTransform::kEpsilonStarLogit, train2, population2);
  ASSERT_TRUE(t1.ok() && t2.ok());
  for (size_t i = 0; i < train.size(); ++i) EXPECT_NEAR(t1->train[i], t2->train[i], 1e-14);
  for (size_t i = 0; i < population.size(); ++i) {
    EXPECT_NEAR(t1->population[i], t2->population[i], 1e-14);
  }
}

TEST(LossTransformTest, DegenerateRangeGivesLogitOfOneOverE) {
  auto t = ApplyLossTransform(LossTransform::kEpsilonStarLogit, {2.0, 2.0}, {2.0});
  ASSERT_TRUE(t.ok());
  for (double y : t->train) EXPECT_DOUBLE_EQ(y, PaperLogit(0.0));
  EXPECT_DOUBLE_EQ(t->population[0], PaperLogit(0.0));
}

TEST(LossTransformTest, ExtremeLossesStayFinite) {
  const double big = std::numeric_limits<double>::max();
  auto t = ApplyLossTransform(LossTransform::kEpsilonStarLogit, {-big, 0.0}, {big});
  ASSERT_TRUE(t.ok());
  EXPECT_NEAR(t->train[0], PaperLogit(0.0), 1e-14);
  EXPECT_NEAR(t->train[1], PaperLogit(0.5), 1e-14);
  EXPECT_NEAR(t->population[0], PaperLogit(1.0), 1e-14);
}

TEST(LossTransformTest, IdentityKeepsValues) {
  auto t = ApplyLossTransform(LossTransform::kIdentity, {3.0, -1.0}, {0.5});
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t->decreasing);
  EXPECT_EQ(t->train, (std::vector<double>{3.0, -1.0}));
  EXPECT_EQ(t->population, (std::vector<double>{0.5}));
}

TEST(LossTransformTest, CarliniLogitValuesClampAndErrors) {
  auto t = ApplyLossTransform(LossTransform::kCarliniLogit, {std::log(2.0), 0.1, 0.0}, {5.0});
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_TRUE(t->decreasing);
  EXPECT_NEAR(t->train[0], 0.0, 1e-15);  // p = 1/2
  const double p = std::exp(-0.1);
  EXPECT_NEAR(t->train[1], std::log(p / (1.0 - p)), 1e-12);
  EXPECT_NEAR(t->population[0], std::log(std::exp(-5.0) / (1.0 - std::exp(-5.0))), 1e-12);
  EXPECT_GT(t->train[1], t->population[0]);                    // decreasing in the loss
  EXPECT_NEAR(t->train[2], -std::log(kMinCarliniLoss), 1e-9);  // 0 clamped
  EXPECT_EQ(t->clamped, 1);
  // No fitted constants: a value does not depend on the other losses.
  auto alone = ApplyLossTransform(LossTransform::kCarliniLogit, {0.1}, {100.0});
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->train[0], t->train[1]);

  auto neg = ApplyLossTransform(LossTransform::kCarliniLogit, {0.5}, {0.2, -1e-3});
  ASSERT_FALSE(neg.ok());
  EXPECT_NE(neg.message().find("population_losses[1] must be >= 0 for transform carlini_logit"),
            std::string::npos)
      << neg.message();
  // The App. B transform takes negative losses (it normalises first).
  EXPECT_TRUE(ApplyLossTransform(LossTransform::kEpsilonStarLogit, {0.5}, {-1e-3}).ok());
}

TEST(LossTransformTest, NamesRoundTripAndBadInputIsRefused) {
  for (LossTransform t : kAllLossTransforms) {
    auto parsed = ParseLossTransform(LossTransformName(t));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, t);
  }
  auto bad = ParseLossTransform("log");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("transform"), std::string::npos) << bad.message();
  EXPECT_FALSE(CheckLossTransform(static_cast<LossTransform>(7)).ok());

  auto empty = ApplyLossTransform(LossTransform::kEpsilonStarLogit, {}, {1.0});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.message(), "train_losses must be non-empty");
  auto nan = ApplyLossTransform(LossTransform::kEpsilonStarLogit, {1.0}, {1.0, std::nan("")});
  ASSERT_FALSE(nan.ok());
  EXPECT_EQ(nan.message(), "population_losses[1] must be finite, got nan");
  auto bad_enum = ApplyLossTransform(static_cast<LossTransform>(7), {1.0}, {1.0});
  ASSERT_FALSE(bad_enum.ok());
  EXPECT_NE(bad_enum.message().find("transform"), std::string::npos);
}

TEST(NormalFitTest, MaximumLikelihoodMoments) {
  // mean 2.5; sum of squared deviations 5; MLE variance 5/4.
  auto f = FitNormal("x", {1.0, 2.0, 3.0, 4.0});
  ASSERT_TRUE(f.ok());
  EXPECT_DOUBLE_EQ(f->mean, 2.5);
  EXPECT_NEAR(f->sd, std::sqrt(1.25), 1e-15);
}

TEST(NormalFitTest, NoCancellationAtLargeOffset) {
  // Naive sum-of-squares would lose every digit here.
  auto f = FitNormal("x", {1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0});
  ASSERT_TRUE(f.ok());
  EXPECT_DOUBLE_EQ(f->mean, 1e9 + 2.0);
  EXPECT_NEAR(f->sd, std::sqrt(2.0 / 3.0), 1e-9);
}

TEST(NormalFitTest, ConstantDataAndBadInput) {
  auto c = FitNormal("x", {4.0, 4.0, 4.0});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->sd, 0.0);
  EXPECT_EQ(FitNormal("train", {}).message(), "train must be non-empty");
  EXPECT_EQ(FitNormal("train", {1.0, INFINITY}).message(), "train[1] must be finite, got inf");
  const double big = std::numeric_limits<double>::max();
  auto overflow = FitNormal("train", {-big, big});
  ASSERT_FALSE(overflow.ok());
  EXPECT_NE(overflow.message().find("train"), std::string::npos);
}

}  // namespace
}  // namespace privbench
