#include "experiments/published_examples/report.h"

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "estimators/accountants/accountant_registry.h"
#include "experiments/published_examples/compute.h"
#include "experiments/published_examples/config.h"
#include "gtest/gtest.h"
#include "results/h5_file.h"

namespace privbench::published_examples {
namespace {

std::vector<std::string> Ids(const std::vector<NamedNumber>& numbers) {
  std::vector<std::string> ids;
  for (const NamedNumber& n : numbers) ids.push_back(n.id);
  return ids;
}

TEST(Numbers, IdsOfEveryExample) {
  auto e = ComputeExamples();
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(Ids(WorkedExampleNumbers(e->worked)),
            (std::vector<std::string>{
                "worked_bayesian_lower", "worked_bayesian_upper", "worked_jeffreys_lower",
                "worked_jeffreys_upper", "worked_clopper_pearson_lower",
                "worked_clopper_pearson_upper", "worked_rectangle_mass", "worked_region_mass"}));
  EXPECT_EQ(Ids(FootnoteOneNumbers(e->footnote1)),
            (std::vector<std::string>{"footnote1_corner", "footnote1_exact_min",
                                      "footnote1_dropped_term"}));
  EXPECT_EQ(Ids(PerfectAttackNumbers(e->perfect)),
            (std::vector<std::string>{
                "perfect2000_clopper_pearson", "perfect2000_clopper_pearson_one_sided",
                "perfect2000_jeffreys_one_sided", "perfect2000_bayesian_one_sided"}));
  EXPECT_EQ(Ids(ReadmeNumbers(e->readme)).front(), "readme_bayesian_lower");
  EXPECT_EQ(
      Ids(CeilingAndAdvantageNumbers(e->ceiling)),
      (std::vector<std::string>{"katz_ceiling_n10000", "erlingsson_t2_row1", "erlingsson_t2_row2",
                                "erlingsson_t2_row3", "erlingsson_t2_row4", "erlingsson_t2_row5"}));
  const std::vector<std::string> b8 = Ids(AccountantNumbers(e->accountants));
  // Five rows of every registered accountant.
  const size_t accountants = UpperBoundAccountantNames().size();
  EXPECT_EQ(b8.size(), 5 * accountants);
  EXPECT_EQ(b8.front(), "b8_row1_naive");
  EXPECT_EQ(b8.back(), "b8_row5_" + UpperBoundAccountantNames().back());
  // Every id once.
  std::set<std::string> all;
  size_t count = 0;
  for (const auto& ids :
       {Ids(WorkedExampleNumbers(e->worked)), Ids(FootnoteOneNumbers(e->footnote1)),
        Ids(PerfectAttackNumbers(e->perfect)), Ids(ReadmeNumbers(e->readme)),
        Ids(CeilingAndAdvantageNumbers(e->ceiling)), b8}) {
    all.insert(ids.begin(), ids.end());
    count += ids.size();
  }
  EXPECT_EQ(all.size(), count);
  EXPECT_EQ(count, 27u + b8.size());
}

// The file WriteReport writes: every table, the accountant table's layout,
// footnote 1's corner value and what /meta says was chosen for B8.
TEST(WriteReport, TablesAndLostParameters) {
  auto e = ComputeExamples();
  ASSERT_TRUE(e.ok()) << e.message();
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/published_examples_report.h5";
  RunMeta meta;
  meta.study = "published_examples";
  auto writer = ResultWriter::Create(path, meta);
  ASSERT_TRUE(writer.ok()) << writer.message();
  const Status written = WriteReport(Config{}, *e, **writer);
  ASSERT_TRUE(written.ok()) << written.message();
  ASSERT_TRUE((*writer)->Commit().ok());
  auto reader = ResultReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.message();
  for (const char* name : {"worked_example", "footnote1", "perfect_attack",
                           "privacy_estimates_readme", "erlingsson_table2", "accountant_table",
                           "table2_widths", "table2_ceilings", "table2_below_ceiling"}) {
    auto t = (*reader)->ReadTable(name);
    ASSERT_TRUE(t.ok()) << t.message();
    ASSERT_FALSE(t->columns.empty()) << name;
    for (const Column& c : t->columns) EXPECT_EQ(c.size(), t->columns[0].size()) << name;
  }
  auto acc = (*reader)->ReadTable("accountant_table");
  ASSERT_TRUE(acc.ok()) << acc.message();
  EXPECT_EQ(acc->columns[1].name, "accountant");
  EXPECT_EQ(acc->columns[0].size(), 5 * UpperBoundAccountantNames().size());
  auto footnote = (*reader)->ReadTable("footnote1");
  ASSERT_TRUE(footnote.ok()) << footnote.message();
  EXPECT_EQ(footnote->columns[1].doubles[2], e->footnote1.corner);
  auto lost = (*reader)->ReadStringAttribute("/meta", "lost_parameters");
  ASSERT_TRUE(lost.ok()) << lost.message();
  EXPECT_NE(lost->find("q = 0.02"), std::string::npos);
  EXPECT_NE(lost->find("TableOneRdpOrders()"), std::string::npos);
}

}  // namespace
}  // namespace privbench::published_examples
