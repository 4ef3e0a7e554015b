#include "data_scripts/dataset.h"

#include <gtest/gtest.h>

#include <cmath>

#include "data_scripts/test_util.h"

namespace privbench {
namespace {

using ::privbench::testing::HasSubstr;

Dataset Tiny() {
  Dataset d;
  d.name = "tiny";
  d.provenance = "test";
  d.num_features = 2;
  d.num_classes = 3;
  d.train_x = {0, 1, 2, 3, 4, 5};
  d.train_y = {0, 2, 2};
  d.population_x = {6, 7};
  d.population_y = {1};
  return d;
}

TEST(DatasetTest, CheckDatasetAcceptsConsistentShapes) {
  const Dataset d = Tiny();
  EXPECT_TRUE(CheckDataset(d).ok());
  EXPECT_EQ(d.n_train(), 3);
  EXPECT_EQ(d.n_population(), 1);
  EXPECT_EQ(d.train_row(2)[1], 5.0f);
  EXPECT_EQ(d.population_row(0)[0], 6.0f);
}

TEST(DatasetTest, CheckDatasetRefusesInconsistencies) {
  Dataset d = Tiny();
  d.train_x.pop_back();
  EXPECT_EQ(CheckDataset(d).message(), "train_x has 5 values, expected 3 rows x 2 features");
  d = Tiny();
  d.population_y[0] = 3;
  EXPECT_EQ(CheckDataset(d).message(), "population_y[0] must be in [0, 3), got 3");
  d = Tiny();
  d.train_x[4] = NAN;
  EXPECT_EQ(CheckDataset(d).message(), "train_x[4] must be finite, got nan");
  d = Tiny();
  d.feature_names = {"a"};
  EXPECT_EQ(CheckDataset(d).message(), "feature_names has 1 entries, expected 2");
  d = Tiny();
  d.provenance.clear();
  EXPECT_EQ(CheckDataset(d).message(), "dataset provenance must be set");
}

TEST(DatasetTest, LabelCountsAndHeadSubset) {
  const Dataset d = Tiny();
  EXPECT_EQ(LabelCounts(d.train_y, 3), (std::vector<int64_t>{1, 0, 2}));
  auto h = HeadSubset(d, 2, 0);
  ASSERT_TRUE(h.ok()) << h.message();
  EXPECT_EQ(h.value().train_x, (std::vector<float>{0, 1, 2, 3}));
  EXPECT_EQ(h.value().train_y, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(h.value().n_population(), 0);
  EXPECT_EQ(h.value().provenance, "test");
  EXPECT_TRUE(CheckDataset(h.value()).ok());
  EXPECT_EQ(HeadSubset(d, 4, 0).message(), "n_train must be <= 3 (rows in tiny train), got 4");
  EXPECT_EQ(HeadSubset(d, 1, -1).message(), "n_population must be >= 0, got -1");
}

TEST(DatasetTest, DescribeNamesProvenanceAndSurrogate) {
  Dataset d = Tiny();
  d.is_surrogate = true;
  d.checksums = "a sha256=1\nb sha256=2\n";
  const std::string text = DescribeDataset(d);
  EXPECT_TRUE(HasSubstr(text, "tiny [provenance: test, SURROGATE]"));
  EXPECT_TRUE(HasSubstr(text, "train: 3 rows"));
  EXPECT_TRUE(HasSubstr(text, "verified: b sha256=2"));
}

}  // namespace
}  // namespace privbench
