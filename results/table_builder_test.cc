#include "results/table_builder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace privbench {
namespace {

TableBuilder Endpoints() {
  return TableBuilder("endpoints", "Title", "Caption",
                      {{"method", Column::Type::kString},
                       {"n", Column::Type::kInt},
                       {"eps_lower", Column::Type::kDouble}});
}

TEST(TableBuilder, RowsBecomeTheSameColumnsAsHandBuiltOnes) {
  TableBuilder t = Endpoints();
  t.Row({"cp", int64_t{100}, 0.25});
  t.Row({std::string("bayes"), 200, 0.5});
  auto built = t.Build();
  ASSERT_TRUE(built.ok()) << built.message();
  const SummaryTable by_hand{
      "endpoints",
      "Title",
      "Caption",
      {Column::Strings("method", {"cp", "bayes"}), Column::Ints("n", {100, 200}),
       Column::Doubles("eps_lower", {0.25, 0.5})}};
  ASSERT_EQ(built->columns.size(), by_hand.columns.size());
  for (size_t i = 0; i < by_hand.columns.size(); ++i) {
    EXPECT_EQ(built->columns[i].name, by_hand.columns[i].name);
    EXPECT_EQ(built->columns[i].type(), by_hand.columns[i].type());
    EXPECT_EQ(built->columns[i].strings, by_hand.columns[i].strings);
    EXPECT_EQ(built->columns[i].ints, by_hand.columns[i].ints);
    EXPECT_EQ(built->columns[i].doubles, by_hand.columns[i].doubles);
  }
  EXPECT_EQ(t.rows(), 2u);
}

TEST(TableBuilder, ATypeMismatchIsAnErrorNamingTableRowAndColumn) {
  TableBuilder t = Endpoints();
  t.Row({"cp", 100, 0.25});
  t.Row({"cp", 100.0, 0.25});  // a double in the int column
  auto built = t.Build();
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.message().find("'endpoints' row 1, column 'n'"), std::string::npos)
      << built.message();
  TableBuilder u = Endpoints();
  u.Row({"cp", 100, 1});  // an int in the double column: no silent conversion
  EXPECT_FALSE(u.Build().ok());
}

TEST(TableBuilder, AWrongCellCountIsAnError) {
  TableBuilder t = Endpoints();
  t.Row({"cp", 100});
  auto built = t.Build();
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.message().find("2 cells for 3 columns"), std::string::npos) << built.message();
}

// A row assembled at run time (one cell per registered method) is checked
// the same way.
TEST(TableBuilder, RuntimeRowsAreCheckedLikeLiteralOnes) {
  TableBuilder t(
      "wide", "Wide", "one column per method",
      {{"n", Column::Type::kInt}, {"a", Column::Type::kDouble}, {"b", Column::Type::kDouble}});
  std::vector<Cell> row = {int64_t{10}};
  for (double w : {0.5, 0.25}) row.emplace_back(w);
  t.Row(row);
  auto built = t.Build();
  ASSERT_TRUE(built.ok()) << built.message();
  EXPECT_EQ(built->columns[2].doubles, std::vector<double>{0.25});
  row.pop_back();
  t.Row(row);
  EXPECT_NE(t.Build().message().find("row 1: 2 cells for 3 columns"), std::string::npos);
}

}  // namespace
}  // namespace privbench
