// Tests of Algorithm 1 (output_set_audit.h). The validity test is statistical: with
// identical D and D' distributions each audit exceeds 0 with probability at
// most alpha/2 = 0.025 (asymptotically); 40 audits exceed it more than 7
// times with probability below 1e-4 (Bin(40, 0.025) tail), the test's
// false-failure probability. The other tests are deterministic.
#include "estimators/output_set_audit/output_set_audit.h"

#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "estimators/intervals/katz_log.h"
#include "gtest/gtest.h"

namespace privbench {
namespace {

SummaryDraws Gaussian(int64_t dim, double shift) {
  return [dim, shift](int64_t count, Rng& rng, std::vector<double>* out) {
    boost::random::normal_distribution<double> normal;
    out->resize(count * dim);
    for (double& v : *out) v = normal(rng) + shift;
    return Status::Ok();
  };
}

// Two noisy counts rescaled to sum to n (D) or n + 1 (D'), as naive Bayes's
// exposed counts (bug 1), plus a noise coordinate: the sides differ only in
// the counts' sum, constant on each side and tiny next to the counts' spread.
SummaryDraws ExposedCounts(double n) {
  return [n](int64_t count, Rng& rng, std::vector<double>* out) {
    boost::random::normal_distribution<double> normal;
    out->resize(count * 3);
    for (int64_t i = 0; i < count; ++i) {
      const double c0 = 50 + 40 * normal(rng);
      (*out)[3 * i] = c0;
      (*out)[3 * i + 1] = n - c0;
      (*out)[3 * i + 2] = normal(rng);
    }
    return Status::Ok();
  };
}

TEST(MlAuditTest, WhitenedClassifierFindsASumHiddenByTheSpread) {
  MlAuditOptions o;
  o.n = 2000;
  Rng rng(4);
  Result<MlAuditResult> plain = RunMlAudit(3, ExposedCounts(150), ExposedCounts(151), o, rng);
  ASSERT_TRUE(plain.ok()) << plain.message();
  o.classifier = "logistic_whitened";
  Rng rng2(4);
  Result<MlAuditResult> white = RunMlAudit(3, ExposedCounts(150), ExposedCounts(151), o, rng2);
  ASSERT_TRUE(white.ok()) << white.message();
  // The sides are disjoint: the whitened classifier comes near the ceiling
  // (5.64; the squares and the noise coordinate blur a few scores), the
  // per-coordinate one far from it.
  EXPECT_GT(white->eps_lb, 0.9 * *KatzLogCeiling(2000, 0.05));
  EXPECT_LT(plain->eps_lb, 0.5 * white->eps_lb) << plain->eps_lb;
  EXPECT_EQ(white->classifier.rfind("logistic_whitened", 0), 0u);
}

TEST(MlAuditTest, SeparatedScoresReachTheCeiling) {
  std::vector<double> s1(100), s0(100);
  for (int i = 0; i < 100; ++i) s1[i] = 10 + i, s0[i] = -i;
  s0[0] = 50;  // one D' score among the D scores
  Result<BestSet> b = SearchThreshold(s1, s0, 0.05, 0);
  ASSERT_TRUE(b.ok());
  // n0 >= 1 (r = 1/N): the best set holds every D score and one D' score.
  EXPECT_NEAR(b->bound, *KatzLogCeiling(100, 0.05), 1e-12);
  EXPECT_FALSE(b->complement);
  // D' scores low and one D score among them: the same bound on the
  // complement set (the lower scores, D' in the numerator).
  std::vector<double> t1(100), t0(100);
  for (int i = 0; i < 100; ++i) t1[i] = 10 + i, t0[i] = -i;
  t1[0] = -50;
  Result<BestSet> c = SearchThreshold(t1, t0, 0.05, 0);
  EXPECT_NEAR(c->bound, b->bound, 1e-12);
  EXPECT_TRUE(c->complement);
  // A larger minimum probability forbids sets with n0 < r N.
  Result<BestSet> d = SearchThreshold(s1, s0, 0.05, 0.2);
  EXPECT_GE(d->n0, 20);
}

TEST(MlAuditTest, IdenticalDistributionsStayValid) {
  MlAuditOptions o;
  o.n = 500;
  int exceed = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Rng rng(seed);
    Result<MlAuditResult> r = RunMlAudit(3, Gaussian(3, 0), Gaussian(3, 0), o, rng);
    ASSERT_TRUE(r.ok()) << r.message();
    exceed += r->eps_lb > 0;
  }
  EXPECT_LE(exceed, 7);
}

TEST(MlAuditTest, ShiftedDistributionsAreDetectedAndDividedByK) {
  MlAuditOptions o;
  o.n = 1000;
  Rng rng(1);
  Result<MlAuditResult> r = RunMlAudit(2, Gaussian(2, 2), Gaussian(2, 0), o, rng);
  ASSERT_TRUE(r.ok());
  // Two unit Gaussians 2 sqrt(2) apart: the upper tail gives bounds near 3.
  EXPECT_GT(r->eps_lb, 1.5);
  EXPECT_NEAR(r->eps_lb, r->eps_lb_raw, 1e-15);
  o.k = 4;
  Rng rng2(1);
  Result<MlAuditResult> q = RunMlAudit(2, Gaussian(2, 2), Gaussian(2, 0), o, rng2);
  EXPECT_NEAR(q->eps_lb * 4, q->eps_lb_raw, 1e-12);
  EXPECT_NEAR(q->eps_lb_raw, r->eps_lb_raw, 1e-12);  // same seed, same draws
  // The reported bound is the Katz-log bound of the fresh counts.
  EXPECT_NEAR(r->eps_lb_raw, *KatzLogEpsLowerBound(r->fresh_n1, r->fresh_n0, 1000, 0.05), 1e-12);
}

TEST(MlAuditTest, BadArgumentsAreNamed) {
  MlAuditOptions o;
  Rng rng(0);
  o.n = 1;
  EXPECT_NE(RunMlAudit(1, Gaussian(1, 0), Gaussian(1, 0), o, rng).message().find("n must"),
            std::string::npos);
  o.n = 10;
  o.k = 0;
  EXPECT_NE(RunMlAudit(1, Gaussian(1, 0), Gaussian(1, 0), o, rng).message().find("k must"),
            std::string::npos);
  EXPECT_NE(MakeScoreClassifier("mlp", 1).message().find("classifier must"), std::string::npos);
  EXPECT_FALSE(MakeScoreClassifier("logistic_linear", 0).ok());
}

}  // namespace
}  // namespace privbench
