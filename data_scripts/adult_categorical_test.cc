#include "data_scripts/adult_categorical.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

#include "data_scripts/adult.h"
#include "data_scripts/categorical.h"

namespace privbench {
namespace {

AdultRecord Record() {
  AdultRecord r;
  r.numeric = {52, 100000, 13, 0, 0, 40};
  r.categorical = {"Private",       "Bachelors", "Never-married", "Sales",
                   "Not-in-family", "White",     "Female",        "Canada"};
  r.label = 1;
  return r;
}

TEST(AdultCategorical, DomainIsValidAndPublic) {
  const CategoricalDomain d = AdultCategoricalDomain();
  ASSERT_TRUE(CheckDomain(d).ok()) << CheckDomain(d).message();
  EXPECT_EQ(d.attributes(), 13);
  EXPECT_EQ(d.sizes[2], 16);  // education, adult.names' 16 values
  EXPECT_EQ(d.sizes[8], 4);   // native-country collapsed
}

TEST(AdultCategorical, CodesOneRecord) {
  auto t = DiscretiseAdult({Record()}, "x");
  ASSERT_TRUE(t.ok()) << t.message();
  const CategoricalTable& table = t.value();
  ASSERT_EQ(table.n(), 1);
  EXPECT_EQ(table.at(0, 0), 3);   // 52 in [45, 55)
  EXPECT_EQ(table.at(0, 1), 0);   // Private
  EXPECT_EQ(table.at(0, 7), 0);   // Female
  EXPECT_EQ(table.at(0, 8), 2);   // Canada -> other
  EXPECT_EQ(table.at(0, 9), 0);   // no capital gain
  EXPECT_EQ(table.at(0, 11), 2);  // 40 h in [35, 41)
  EXPECT_EQ(table.at(0, 12), 1);
}

TEST(AdultCategorical, BinEdgesAreLeftClosed) {
  AdultRecord r = Record();
  r.numeric[0] = 25;
  r.numeric[3] = 5000;
  r.numeric[4] = 1;
  r.numeric[5] = 41;
  auto t = DiscretiseAdult({r}, "x");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.value().at(0, 0), 1);
  EXPECT_EQ(t.value().at(0, 9), 2);
  EXPECT_EQ(t.value().at(0, 10), 1);
  EXPECT_EQ(t.value().at(0, 11), 3);
}

TEST(AdultCategorical, UnknownValueNamesFileRecordAndColumn) {
  AdultRecord r = Record();
  r.categorical[2] = "Engaged";
  auto t = DiscretiseAdult({Record(), r}, "adult.data");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.message().find("adult.data record 2: marital-status 'Engaged'"), std::string::npos)
      << t.message();
}

TEST(AdultCategorical, VendoredFilesAgreeWithTheOneHotLoader) {
  auto cat = LoadAdultCategorical();
  ASSERT_TRUE(cat.ok()) << cat.message();
  auto onehot = LoadAdult();
  ASSERT_TRUE(onehot.ok()) << onehot.message();
  EXPECT_EQ(cat.value().train.n(), kAdultTrainRows);
  EXPECT_EQ(cat.value().test.n(), kAdultPopulationRows);
  ASSERT_TRUE(CheckTable(cat.value().train, cat.value().domain).ok());
  // Income via the other loader's labels.
  const auto income = Marginal1(cat.value().train, cat.value().domain, 12);
  const int64_t positives =
      std::accumulate(onehot.value().train_y.begin(), onehot.value().train_y.end(), int64_t{0});
  EXPECT_EQ(income[1], positives);
  EXPECT_EQ(income[0] + income[1], kAdultTrainRows);
}

}  // namespace
}  // namespace privbench
