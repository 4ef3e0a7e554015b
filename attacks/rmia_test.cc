#include "attacks/rmia.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/seeding.h"

namespace privbench {
namespace {

// One target, two OUT references, three population points (hand-computed
// below).
RmiaData SmallCase() {
  RmiaData d;
  d.targets = 1;
  d.references = 2;
  d.population = 3;
  d.target_prob = {0.8};
  d.ref_prob = {0.4, 0.6};
  d.ref_in = {0, 0};
  d.target_z_prob = {0.5, 0.6, 0.4};
  d.ref_z_prob = {0.5, 0.2, 0.9,   // reference 0
                  0.5, 0.4, 0.7};  // reference 1
  return d;
}

double OneScore(const RmiaData& d, const RmiaOptions& o) {
  auto s = RmiaScores(d, o);
  EXPECT_TRUE(s.ok()) << s.message();
  return s.ok() ? (*s)[0] : -1.0;
}

TEST(Rmia, HandComputedOfflineWithoutCorrection) {
  // a = 1: Pr(x) = 0.5, ratio_x = 1.6; Pr(z) = (0.5, 0.3, 0.8), ratio_z =
  // (1, 2, 0.5): LR = (1.6, 0.8, 3.2).
  RmiaOptions o;
  o.offline_a = 1.0;
  EXPECT_DOUBLE_EQ(OneScore(SmallCase(), o), 2.0 / 3.0);
  o.gamma = 2.0;  // only LR = 3.2 exceeds 2
  EXPECT_DOUBLE_EQ(OneScore(SmallCase(), o), 1.0 / 3.0);
}

TEST(Rmia, HandComputedOfflineWithA) {
  // a = 0.5: Pr(x) = (1.5 * 0.5 + 0.5) / 2 = 0.625, ratio_x = 1.28;
  // Pr(z) = (0.625, 0.475, 0.85), ratio_z = (0.8, 1.263.., 0.4706..): all below.
  RmiaOptions o;
  o.offline_a = 0.5;
  EXPECT_DOUBLE_EQ(OneScore(SmallCase(), o), 1.0);
  // gamma = 1.2: 1.28 > 0.96 and 0.565 but not 1.516.
  o.gamma = 1.2;
  EXPECT_DOUBLE_EQ(OneScore(SmallCase(), o), 2.0 / 3.0);
}

TEST(Rmia, HandComputedOnline) {
  // Reference 0 is IN for x: online Pr(x) = (0.9 + 0.5) / 2 = 0.7, ratio_x =
  // 8/7 = 1.143; offline (a = 1) uses reference 1 only: Pr(x) = 0.5.
  RmiaData d = SmallCase();
  d.ref_prob = {0.9, 0.5};
  d.ref_in = {1, 0};
  RmiaOptions o;
  o.online = true;
  o.offline_a = 1.0;
  EXPECT_DOUBLE_EQ(OneScore(d, o), 2.0 / 3.0);  // LR = (1.143, 0.571, 2.286)
  auto m = RmiaMarginal(d.ref_prob, d.ref_in, o);
  ASSERT_TRUE(m.ok());
  EXPECT_DOUBLE_EQ(*m, 0.7);
  o.online = false;
  m = RmiaMarginal(d.ref_prob, d.ref_in, o);
  ASSERT_TRUE(m.ok());
  EXPECT_DOUBLE_EQ(*m, 0.5);
}

TEST(Rmia, FractionIsStrict) {
  EXPECT_DOUBLE_EQ(RmiaFraction(1.0, {1.0, 0.5, 2.0, 0.0}, 1.0), 0.5);
}

// T targets, R references, Z population points, random probabilities.
RmiaData RandomCase(int64_t t, int64_t r, int64_t z, uint64_t seed) {
  Rng rng = MakeRng(seed, {1});
  std::uniform_real_distribution<double> u(0.05, 0.95);
  RmiaData d;
  d.targets = t;
  d.references = r;
  d.population = z;
  for (int64_t i = 0; i < t; ++i) d.target_prob.push_back(u(rng));
  for (int64_t i = 0; i < t * r; ++i) {
    d.ref_prob.push_back(u(rng));
    d.ref_in.push_back(static_cast<uint8_t>(i % 2));  // balanced: R even
  }
  for (int64_t i = 0; i < t * z; ++i) d.target_z_prob.push_back(u(rng));
  for (int64_t i = 0; i < r * z; ++i) d.ref_z_prob.push_back(u(rng));
  return d;
}

TEST(Rmia, ScoreRisesWithTheTargetModelsProbability) {
  RmiaData d = RandomCase(1, 4, 200, 7);
  RmiaOptions o;
  double last = -1.0;
  bool rose = false;
  for (double p : {0.05, 0.2, 0.4, 0.6, 0.8, 0.99}) {
    d.target_prob = {p};
    const double s = OneScore(d, o);
    EXPECT_GE(s, last) << "p = " << p;
    rose = rose || s > last;
    last = s;
  }
  EXPECT_TRUE(rose);
  EXPECT_GT(last, 0.9);
}

TEST(Rmia, OnlineAndOfflineAgreeWhenTheInProbabilitiesFollowA) {
  // Every IN probability is a * mean_out + (1 - a): the online marginal
  // (Pr_IN + Pr_OUT) / 2 equals the offline ((1 + a) Pr_OUT + 1 - a) / 2.
  const double a = 0.4;
  RmiaData d = RandomCase(50, 6, 300, 11);
  for (int64_t t = 0; t < d.targets; ++t) {
    double out = 0.0;
    for (int64_t r = 0; r < d.references; ++r) {
      if (!d.ref_in[t * d.references + r]) out += d.ref_prob[t * d.references + r];
    }
    out /= static_cast<double>(d.references / 2);
    for (int64_t r = 0; r < d.references; ++r) {
      if (d.ref_in[t * d.references + r]) d.ref_prob[t * d.references + r] = a * out + 1.0 - a;
    }
  }
  RmiaOptions on, off;
  on.online = true;
  on.offline_a = off.offline_a = a;
  auto s_on = RmiaScores(d, on), s_off = RmiaScores(d, off);
  ASSERT_TRUE(s_on.ok() && s_off.ok());
  for (size_t i = 0; i < s_on->size(); ++i) EXPECT_NEAR((*s_on)[i], (*s_off)[i], 1e-12) << i;
  // With another a the offline scores differ somewhere.
  off.offline_a = 0.9;
  auto s_other = RmiaScores(d, off);
  ASSERT_TRUE(s_other.ok());
  EXPECT_NE(*s_on, *s_other);
}

TEST(Rmia, RefUseRestrictsEachTargetsReferences) {
  RmiaData d = RandomCase(2, 4, 50, 3);
  d.ref_in.assign(8, 0);
  d.ref_use = {1, 1, 0, 0,   // target 0: references 0, 1
               0, 0, 1, 1};  // target 1: references 2, 3
  RmiaOptions o;
  auto all = RmiaScores(d, o);
  ASSERT_TRUE(all.ok()) << all.message();
  for (int64_t t = 0; t < 2; ++t) {
    RmiaData one;
    one.targets = 1;
    one.references = 2;
    one.population = d.population;
    one.target_prob = {d.target_prob[t]};
    one.ref_prob = {d.ref_prob[t * 4 + 2 * t], d.ref_prob[t * 4 + 2 * t + 1]};
    one.ref_in = {0, 0};
    one.target_z_prob.assign(d.target_z_prob.begin() + t * 50,
                             d.target_z_prob.begin() + t * 50 + 50);
    one.ref_z_prob.assign(d.ref_z_prob.begin() + 2 * t * 50,
                          d.ref_z_prob.begin() + 2 * t * 50 + 100);
    EXPECT_DOUBLE_EQ((*all)[t], OneScore(one, o)) << "target " << t;
  }
}

void ExpectErrorNaming(const RmiaData& d, const RmiaOptions& o, const std::string& name) {
  auto s = RmiaScores(d, o);
  ASSERT_FALSE(s.ok()) << name;
  EXPECT_NE(s.message().find(name), std::string::npos) << s.message();
}

TEST(Rmia, BadInputErrorsNameTheArgument) {
  RmiaOptions o;
  o.offline_a = 1.5;
  ExpectErrorNaming(SmallCase(), o, "offline_a");
  o.offline_a = 0.3;
  o.gamma = 0.0;
  ExpectErrorNaming(SmallCase(), o, "gamma");
  o.gamma = 1.0;
  RmiaData d = SmallCase();
  d.target_prob = {0.8, 0.1};
  ExpectErrorNaming(d, o, "target_prob");
  d = SmallCase();
  d.ref_prob[1] = 1.2;
  ExpectErrorNaming(d, o, "ref_prob[1]");
  d = SmallCase();
  d.ref_in[0] = 2;
  ExpectErrorNaming(d, o, "ref_in[0]");
  d = SmallCase();
  d.target_z_prob[2] = std::nan("");
  ExpectErrorNaming(d, o, "target_z_prob[2]");
  d = SmallCase();
  d.ref_z_prob.pop_back();
  ExpectErrorNaming(d, o, "ref_z_prob");
  d = SmallCase();
  d.population = 0;
  ExpectErrorNaming(d, o, "population");
  d = SmallCase();
  d.ref_in = {1, 1};
  ExpectErrorNaming(d, o, "no OUT reference");
  d = SmallCase();
  d.ref_use = {0, 0};
  ExpectErrorNaming(d, o, "ref_use");
  o.offline_a = 1.0;  // zero OUT probabilities and no correction: Pr(x) = 0
  d = SmallCase();
  d.ref_prob = {0.0, 0.0};
  ExpectErrorNaming(d, o, "Pr(x) is 0");
}

}  // namespace
}  // namespace privbench
