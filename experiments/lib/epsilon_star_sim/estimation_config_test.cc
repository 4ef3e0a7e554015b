// Unit tests of experiments/lib/epsilon_star_sim/estimation_config.h: every
// parameter's constraint is declared with the flag (messages name it), the
// cross-field rule stays in ValidateEstimationConfig, and the options of
// both analyses follow the config.
#include "experiments/lib/epsilon_star_sim/estimation_config.h"

#include <gtest/gtest.h>

#include <functional>

namespace privbench {
namespace {

EstimationConfig ValidConfig() {
  EstimationConfig c;
  c.n = {100, 1000};
  c.repetitions = 3;
  c.quantiles_per_distribution = 500;
  return c;
}

// The first error of the flags' constraints, then of the cross-field rules.
Status Check(const EstimationConfig& c) {
  EstimationConfig copy = c;
  FlagSet flags("test", "test");
  RegisterEstimationFlags(flags, copy);
  PB_RETURN_IF_ERROR(flags.Validate());
  return ValidateEstimationConfig(copy);
}

TEST(EstimationConfigTest, DefaultsOfEveryScaleAreValid) {
  for (Scale s : {Scale::kQuick, Scale::kPaper, Scale::kTest}) {
    EXPECT_TRUE(Check(DefaultEstimationConfig(s)).ok()) << ScaleName(s);
  }
  EXPECT_EQ(DefaultEstimationConfig(Scale::kQuick).n, (std::vector<int64_t>{1000, 10000}));
  EXPECT_EQ(DefaultDistances(Scale::kTest), (std::vector<double>{0, 1, 5}));
}

TEST(EstimationConfigTest, ErrorsNameTheParameter) {
  EXPECT_TRUE(Check(ValidConfig()).ok());
  auto expect_error = [](const std::function<void(EstimationConfig&)>& edit,
                         const std::string& name) {
    EstimationConfig c = ValidConfig();
    edit(c);
    Status s = Check(c);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_EQ(s.message().rfind(name, 0), 0u) << s.message();
  };
  expect_error([](EstimationConfig& c) { c.n = {0}; }, "n[0] must");
  expect_error([](EstimationConfig& c) { c.n = {}; }, "n must");
  expect_error([](EstimationConfig& c) { c.n = {1000, 100}; }, "n must be strictly increasing");
  expect_error([](EstimationConfig& c) { c.repetitions = 1; }, "repetitions");
  expect_error([](EstimationConfig& c) { c.clip_lo = 0.6; }, "clip_lo");
  expect_error([](EstimationConfig& c) { c.clip_hi = 1.0; }, "clip_hi");
  expect_error([](EstimationConfig& c) { c.rate_floor = -0.1; }, "rate_floor");
  expect_error([](EstimationConfig& c) { c.rate_ceiling = 0.5; }, "rate_ceiling");
  expect_error([](EstimationConfig& c) { c.common_lo = 0.0; }, "common_lo");
  expect_error([](EstimationConfig& c) { c.common_hi = 0.4; }, "common_hi");
  expect_error([](EstimationConfig& c) { c.transform = "square"; }, "transform");
  expect_error([](EstimationConfig& c) { c.delta = 1.0; }, "delta");
  expect_error([](EstimationConfig& c) { c.quantiles_per_distribution = 0; },
               "quantiles_per_distribution");
}

TEST(EstimationConfigTest, OptionsOfBothAnalyses) {
  EstimationConfig c = ValidConfig();
  c.delta = 0.01;
  c.transform = "identity";
  c.common_lo = 0.01;
  c.common_hi = 0.98;
  const EpsilonStarOptions p = PrimaryOptions(c);
  EXPECT_EQ(p.delta, 0.01);
  EXPECT_EQ(p.quantiles_per_distribution, 500);
  EXPECT_EQ(p.rate_floor, 0.001);
  EXPECT_EQ(p.clip_lo, 1e-6);
  EXPECT_EQ(p.transform, LossTransform::kIdentity);
  const EpsilonStarOptions w = CommonWindowOptions(c);
  EXPECT_EQ(w.rate_floor, 0.01);
  EXPECT_EQ(w.clip_lo, 0.01);
  EXPECT_EQ(w.rate_ceiling, 0.98);
  EXPECT_EQ(w.clip_hi, 0.98);
  EXPECT_EQ(w.transform, LossTransform::kIdentity);
  EXPECT_NE(EstimationSizesText(c, Scale::kQuick).find("n = {100,1000} at scale quick"),
            std::string::npos);
}

}  // namespace
}  // namespace privbench
