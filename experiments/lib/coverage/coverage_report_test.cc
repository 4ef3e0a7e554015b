#include "experiments/lib/coverage/coverage_report.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace privbench {
namespace {

using K = CoverageClass;

// Two settings, T = 2 trials, a one-sided and a two-sided method.
CoverageResults Small() {
  CoverageResults r;
  r.names = {"toy", "p", "q", "P", "Q", "N", {"a", "b"}, "/m", "lo", "hi"};
  r.settings = MakeCoverageSettings(r.names, {0.5, 0.2}, {0.1, 0.1}, {10});
  r.methods = {{"one", "one", "", true, 0.9}, {"two", "two (x)", "", false, 0.9}};
  r.run.trials = 2;
  r.run.counts = {std::vector<int64_t>{1, 2, 3, 4}, std::vector<int64_t>{5, 6, 7, 8}};
  r.run.data.resize(2);
  r.run.data[0].lower = {0.1, 0.2, 0.3, 0.4};
  r.run.data[1].lower = {0.0, 0.1, 0.2, 0.3};
  r.run.data[1].upper = {1.0, 1.1, 1.2, 1.3};
  r.run.data[0].classes = {K::kNear, K::kUnder};
  r.run.data[1].classes = {K::kOver, K::kOver};
  for (MethodRun& d : r.run.data) {
    d.stats.resize(2);
    d.stats[0].coverage = 0.9;
    d.stats[1].coverage = 0.7;
    d.stats[0].se = 0.01;
    d.stats[1].se = 0.02;
    d.stats[1].mean_width = 1.5;
  }
  return r;
}

TEST(IndexByName, PositionOfEachMethod) {
  const auto index = IndexByName(Small().methods);
  EXPECT_EQ(index.at("one"), 0u);
  EXPECT_EQ(index.at("two"), 1u);
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

TEST(CoverageList, AllOrSomeSettings) {
  const CoverageResults r = Small();
  Evidence empty;
  Separate(empty);
  EXPECT_EQ(empty.str(), "");
  EXPECT_EQ(CoverageList(r.settings, r.run.data[0]),
            "(P 0.5, Q 0.1, N 10) 0.9 (near); (P 0.2, Q 0.1, N 10) 0.7 (under)");
  EXPECT_EQ(CoverageList(r.settings, r.run.data[1], {1}), "(P 0.2, Q 0.1, N 10) 0.7 (over)");
}

TEST(LongCoverageTable, GridColumnsAroundTheGradedCoverage) {
  const CoverageResults r = Small();
  auto t = LongCoverageTable(r, {"coverage", "title", "caption"}, {LabelColumn()},
                             {StatColumn("mean_width", &IntervalStats::mean_width)});
  ASSERT_TRUE(t.ok()) << t.message();
  std::vector<std::string> names;
  for (const Column& c : t->columns) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"p", "q", "N", "method", "coverage", "se", "class",
                                             "mean_width"}));
  EXPECT_EQ(t->columns[3].strings, (std::vector<std::string>{"one", "two (x)", "one", "two (x)"}));
  EXPECT_EQ(t->columns[6].strings, (std::vector<std::string>{"near", "over", "under", "over"}));
  EXPECT_EQ(t->columns[7].doubles, (std::vector<double>{0.0, 0.0, 1.5, 1.5}));
}

TEST(WideCoverageTable, ColumnsPerMethod) {
  const CoverageResults r = Small();
  auto all = WideCoverageTable(
      r, {"w", "t", "c"}, "target", {1.0, 2.0},
      {{" coverage", &IntervalStats::coverage}, {" se", &IntervalStats::se}}, false);
  ASSERT_TRUE(all.ok()) << all.message();
  ASSERT_EQ(all->columns.size(), 8u);
  EXPECT_EQ(all->columns[3].name, "target");
  EXPECT_EQ(all->columns[3].doubles, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(all->columns[4].name, "one coverage");
  EXPECT_EQ(all->columns[7].name, "two (x) se");
  auto two_sided = WideCoverageTable(r, {"w", "t", "c"}, "target", {1.0, 2.0},
                                     {{"", &IntervalStats::mean_width}}, true);
  ASSERT_TRUE(two_sided.ok());
  ASSERT_EQ(two_sided->columns.size(), 5u);
  EXPECT_EQ(two_sided->columns[4].name, "two (x)");
}

TEST(WriteCoverageRun, TheLayoutInTheFile) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/coverage_report_test.h5";
  RunMeta meta;
  meta.study = "coverage_report_test";
  auto writer = ResultWriter::Create(path, meta);
  ASSERT_TRUE(writer.ok()) << writer.message();
  const CoverageResults r = Small();
  ASSERT_TRUE(WriteCoverageRun(**writer, r, "draws", {{"width", &IntervalStats::mean_width}}).ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  auto reader = ResultReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.message();
  const ResultReader& in = **reader;
  EXPECT_EQ(*in.ReadInts("/settings/pair_index"), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(*in.ReadDoubles("/settings/p"), (std::vector<double>{0.5, 0.2}));
  EXPECT_EQ(*in.ReadDoubles("/settings/q"), (std::vector<double>{0.1, 0.1}));
  EXPECT_EQ(*in.ReadInts("/settings/n"), (std::vector<int64_t>{10, 10}));
  EXPECT_EQ(*in.ReadInts("/trials/b"), (std::vector<int64_t>{5, 6, 7, 8}));
  EXPECT_EQ(*in.Shape("/trials/a"), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(*in.ReadStrings("/methods/name"), (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(*in.ReadDoubles("/m/one/lo"), (std::vector<double>{0.1, 0.2, 0.3, 0.4}));
  EXPECT_FALSE(in.ReadDoubles("/m/one/hi").ok());  // one-sided
  EXPECT_EQ(*in.ReadDoubles("/m/two/hi"), (std::vector<double>{1.0, 1.1, 1.2, 1.3}));
  EXPECT_EQ(*in.Shape("/m/two/hi"), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(*in.ReadDoubles("/m/two/coverage"), (std::vector<double>{0.9, 0.7}));
  EXPECT_EQ(*in.ReadDoubles("/m/two/coverage_se"), (std::vector<double>{0.01, 0.02}));
  EXPECT_EQ(*in.ReadStrings("/m/one/coverage_class"), (std::vector<std::string>{"near", "under"}));
  EXPECT_EQ(*in.ReadDoubles("/m/two/width"), (std::vector<double>{0.0, 1.5}));
  EXPECT_EQ(*in.ReadDoubles("/numbers/toy_one_min_coverage"), (std::vector<double>{0.7}));
  EXPECT_EQ(*in.ReadDoubles("/numbers/toy_one_settings_under"), (std::vector<double>{1.0}));
  EXPECT_EQ(*in.ReadDoubles("/numbers/toy_two_settings_under"), (std::vector<double>{0.0}));
}

}  // namespace
}  // namespace privbench
