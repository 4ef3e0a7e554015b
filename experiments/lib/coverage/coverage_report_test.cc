#include "experiments/lib/coverage/coverage_report.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace privbench {
namespace {

using K = CoverageClass;

struct TestStats {
  double coverage = 0.0;
  double se = 0.0;
};

struct TestMethod {
  std::string name;
};

TEST(StatField, OneFieldPerSetting) {
  const std::vector<TestStats> stats = {{0.9, 0.01}, {0.8, 0.02}};
  EXPECT_EQ(StatField(stats, &TestStats::coverage), (std::vector<double>{0.9, 0.8}));
  EXPECT_EQ(StatField(stats, &TestStats::se), (std::vector<double>{0.01, 0.02}));
}

TEST(IndexByName, PositionOfEachMethod) {
  const auto index = IndexByName(std::vector<TestMethod>{{"a"}, {"b"}});
  EXPECT_EQ(index.at("a"), 0u);
  EXPECT_EQ(index.at("b"), 1u);
  EXPECT_EQ(index.size(), 2u);
}

TEST(CountClasses, UnderNearOver) {
  const ClassCounts c = CountClasses({K::kOver, K::kUnder, K::kOver, K::kNear});
  EXPECT_EQ(c.under, 1);
  EXPECT_EQ(c.near, 1);
  EXPECT_EQ(c.over, 2);
  EXPECT_EQ(c.total(), 4);
}

TEST(OverCoversMost, NeverUnderAndOverInMoreThanHalf) {
  EXPECT_TRUE(OverCoversMost(CountClasses({K::kOver, K::kOver, K::kNear})));
  EXPECT_FALSE(OverCoversMost(CountClasses({K::kOver, K::kNear})));  // exactly half
  EXPECT_FALSE(OverCoversMost(CountClasses({K::kOver, K::kOver, K::kUnder})));
  EXPECT_FALSE(OverCoversMost(CountClasses({})));
}

TEST(CoverageClassNames, OnePerSetting) {
  EXPECT_EQ(CoverageClassNames({K::kNear, K::kUnder}), (std::vector<std::string>{"near", "under"}));
}

TEST(CountMethodNumbers, MinimumAndUnder) {
  const MethodNumbers n = CountMethodNumbers({0.9, 0.7, 1.0}, {K::kNear, K::kUnder, K::kOver});
  EXPECT_EQ(n.min_coverage, 0.7);
  EXPECT_EQ(n.settings_under, 1);
  EXPECT_EQ(CountMethodNumbers({}, {}).min_coverage, 1.0);
}

TEST(AppendCoverage, SeparatedItems) {
  Evidence e;
  AppendCoverage(e, "(p 0.5)", 0.91234, K::kNear);
  AppendCoverage(e, "(p 0.2)", 0.5, K::kUnder);
  EXPECT_EQ(e.str(), "(p 0.5) 0.9123 (near); (p 0.2) 0.5 (under)");
  Evidence empty;
  Separate(empty);
  EXPECT_EQ(empty.str(), "");
}

TEST(WriteCoverage, NumbersAndGradedCoverageInTheFile) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/coverage_report_test.h5";
  RunMeta meta;
  meta.study = "coverage_report_test";
  auto writer = ResultWriter::Create(path, meta);
  ASSERT_TRUE(writer.ok()) << writer.message();
  const std::vector<TestStats> stats = {{0.9, 0.01}, {0.7, 0.02}};
  ASSERT_TRUE(WriteGradedCoverage(**writer, "/m", stats, {K::kNear, K::kUnder}).ok());
  ASSERT_TRUE(WriteMethodNumbers(**writer, "/numbers/x", {0.7, 1}).ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  auto reader = ResultReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.message();
  EXPECT_EQ(*(*reader)->ReadDoubles("/m/coverage"), (std::vector<double>{0.9, 0.7}));
  EXPECT_EQ(*(*reader)->ReadDoubles("/m/coverage_se"), (std::vector<double>{0.01, 0.02}));
  EXPECT_EQ(*(*reader)->ReadStrings("/m/coverage_class"),
            (std::vector<std::string>{"near", "under"}));
  EXPECT_EQ(*(*reader)->ReadDoubles("/numbers/x_min_coverage"), (std::vector<double>{0.7}));
  EXPECT_EQ(*(*reader)->ReadDoubles("/numbers/x_settings_under"), (std::vector<double>{1.0}));
}

}  // namespace
}  // namespace privbench
