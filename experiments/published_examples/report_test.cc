#include "experiments/published_examples/report.h"

#include <set>

#include "estimators/accountants/accountant_registry.h"
#include "gtest/gtest.h"

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
  const size_t accountants = AllAccountantNames().size();
  EXPECT_EQ(b8.size(), 5 * accountants);
  EXPECT_EQ(b8.front(), "b8_row1_naive");
  EXPECT_EQ(b8.back(), "b8_row5_" + AllAccountantNames().back());
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

TEST(Tables, ColumnsOfEqualLength) {
  auto e = ComputeExamples();
  ASSERT_TRUE(e.ok()) << e.message();
  for (const SummaryTable& t :
       {EveryEstimatorTable("worked_example", "t", "c", e->worked.every),
        FootnoteOneTable(e->footnote1), PerfectAttackTable(e->perfect),
        ErlingssonTable2(e->ceiling), AccountantSummaryTable(e->accountants)}) {
    ASSERT_FALSE(t.columns.empty()) << t.name;
    for (const Column& c : t.columns) EXPECT_EQ(c.size(), t.columns[0].size()) << t.name;
  }
  const SummaryTable acc = AccountantSummaryTable(e->accountants);
  EXPECT_EQ(acc.columns[1].name, "accountant");
  EXPECT_EQ(acc.columns[0].size(), 5 * AllAccountantNames().size());
  EXPECT_EQ(FootnoteOneTable(e->footnote1).columns[1].doubles[2], e->footnote1.corner);
}

TEST(PublishedExamplesLostParameters, NamesTheB8Setting) {
  const std::string text = PublishedExamplesLostParameters();
  EXPECT_NE(text.find("q = 0.02"), std::string::npos);
  EXPECT_NE(text.find("TableOneRdpOrders()"), std::string::npos);
}

}  // namespace
}  // namespace privbench::published_examples
