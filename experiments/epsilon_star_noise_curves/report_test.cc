// Unit tests of experiments/epsilon_star_noise_curves/report.h: the tables
// have one row per (curve, term) and (term, region), and the claims follow
// their criteria.
#include "experiments/epsilon_star_noise_curves/report.h"

#include <gtest/gtest.h>

namespace privbench::epsilon_star_noise_curves {
namespace {

// Two points per curve; term1's maximum at FNR 0.005 (an end), term2's at
// FPR 0.2 (not an end) on the empirical curve.
NoiseCurves Fixture() {
  NoiseCurves r;
  for (EpsilonStarCurve* c : {&r.exact, &r.empirical}) {
    c->threshold = {1.0, 2.0};
    c->fpr = {0.2, 0.995};
    c->fnr = {0.5, 0.005};
    c->term1 = {1.6, 199.0};
    c->term2 = {2.5, 0.5};
  }
  r.exact_fpr = r.empirical.fpr;
  r.exact_fnr = r.empirical.fnr;
  r.exact_term1 = {1.6, 100.0};  // log error ln(1.99) at the end, 0 in the centre
  r.exact_term2 = {2.5, 0.5};
  return r;
}

TEST(NoiseCurvesReportTest, TablesHaveOneRowPerCase) {
  const Config c;
  const Result<SummaryTable> maxima = MaximaTable(c, Fixture());
  ASSERT_TRUE(maxima.ok()) << maxima.message();
  EXPECT_EQ(maxima->name, "noise_curves_maxima");
  ASSERT_EQ(maxima->columns.size(), 8u);
  EXPECT_EQ(maxima->columns[0].strings,
            (std::vector<std::string>{"exact", "exact", "empirical", "empirical"}));
  EXPECT_EQ(maxima->columns[2].ints, (std::vector<int64_t>{2, 2, 2, 2}));
  EXPECT_EQ(maxima->columns[3].doubles, (std::vector<double>{199.0, 2.5, 199.0, 2.5}));
  const Result<SummaryTable> noise = NoiseTable(c, Fixture());
  ASSERT_TRUE(noise.ok()) << noise.message();
  ASSERT_EQ(noise->columns[1].strings.size(), 4u);
  EXPECT_EQ(noise->columns[1].strings[0], "ends: denominator rate < 0.01");
  EXPECT_EQ(noise->columns[1].strings[1], "centre: denominator rate in [0.1, 0.9]");
  EXPECT_EQ(noise->columns[2].ints, (std::vector<int64_t>{1, 1, 0, 1}));
}

TEST(NoiseCurvesReportTest, ClaimsFollowTheirCriteria) {
  const Claim max_at_ends = MaxAtEndsClaim(Fixture());
  EXPECT_FALSE(max_at_ends.holds);  // term2's maximum is at FPR 0.2
  EXPECT_NE(max_at_ends.evidence.find("exact term2 max 2.5 at tau 1 (FPR 0.2, NOT at an end)"),
            std::string::npos)
      << max_at_ends.evidence;
  const Claim noise = NoiseAtEndsClaim(Config{}, Fixture());
  // term1: ends ln(1.99) > centre 0; term2: no point at the ends.
  EXPECT_FALSE(noise.holds);
  EXPECT_NE(noise.evidence.find("term1: ends 0.6881 (1 points) vs centre 0 (1 points);"),
            std::string::npos)
      << noise.evidence;
  EXPECT_TRUE(noise.statement.empty());  // from claims.json, not the report
}

TEST(NoiseCurvesReportTest, LostParametersNameTheChoices) {
  const std::string text = NoiseCurvesLostParameters(Config{}, Scale::kQuick);
  EXPECT_NE(text.find("train N(0, 1^2), population N(3, 1^2)"), std::string::npos) << text;
  EXPECT_NE(text.find("at scale quick"), std::string::npos);
}

}  // namespace
}  // namespace privbench::epsilon_star_noise_curves
