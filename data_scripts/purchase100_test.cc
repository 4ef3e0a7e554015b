#include "data_scripts/purchase100.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <set>
#include <string>
#include <vector>

#include "data_scripts/data_files.h"
#include "data_scripts/digests.h"
#include "data_scripts/test_util.h"

namespace privbench {
namespace {

using ::privbench::testing::HasSubstr;
using ::privbench::testing::MakeScratchDir;
using ::privbench::testing::ReplaceLine;
using ::privbench::testing::WriteFile;

// A small file in the published format: `rows` records, labels cycling
// through 1..100, deterministic 0/1 features.
std::string FixtureText(int rows) {
  std::string text;
  for (int i = 0; i < rows; ++i) {
    text += std::to_string(i % 100 + 1);
    for (int j = 0; j < 600; ++j) text += ((i * 7 + j * 13) % 11 == 0) ? ",1" : ",0";
    text += "\n";
  }
  return text;
}

// Directory with dataset_purchase and a SHA256SUMS entry for `recorded`.
std::string FixtureDir(const std::string& text, const std::string& recorded) {
  const std::string dir = MakeScratchDir("purchase");
  WriteFile(dir + "/dataset_purchase", text);
  WriteFile(dir + "/SHA256SUMS",
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            "  dataset_purchase.tgz\n" +
                Sha256Hex(recorded).value() + "  dataset_purchase\n");
  return dir;
}

Purchase100Options Options(const std::string& dir, int rows) {
  Purchase100Options o;
  o.data_dir = dir;
  o.expected_rows = rows;
  return o;
}

TEST(Purchase100Test, LoadsAndSplits) {
  const std::string text = FixtureText(250);
  Purchase100Options o = Options(FixtureDir(text, text), 250);
  o.n_train = 150;
  o.n_population = 80;
  auto r = LoadPurchase100(o);
  ASSERT_TRUE(r.ok()) << r.message();
  const Dataset& d = r.value();
  EXPECT_EQ(d.provenance, "purchase100-shokri");
  EXPECT_FALSE(d.is_surrogate);
  EXPECT_EQ(d.n_train(), 150);
  EXPECT_EQ(d.n_population(), 80);
  EXPECT_EQ(d.num_features, 600);
  EXPECT_EQ(d.num_classes, 100);
  EXPECT_TRUE(HasSubstr(d.checksums, "trust-on-first-use"));

  // Each output row is some file row i (identified by its label i % 100 and
  // features), used at most once.
  std::set<int> used;
  auto find_row = [&](const float* x, int64_t label) {
    for (int i = static_cast<int>(label); i < 250; i += 100) {
      bool same = true;
      for (int j = 0; j < 600 && same; ++j)
        same = (x[j] == (((i * 7 + j * 13) % 11 == 0) ? 1.f : 0.f));
      if (same) return i;
    }
    return -1;
  };
  for (int64_t i = 0; i < d.n_train(); ++i) {
    const int row = find_row(d.train_row(i), d.train_y[i]);
    ASSERT_GE(row, 0);
    EXPECT_TRUE(used.insert(row).second);
  }
  for (int64_t i = 0; i < d.n_population(); ++i) {
    const int row = find_row(d.population_row(i), d.population_y[i]);
    ASSERT_GE(row, 0);
    EXPECT_TRUE(used.insert(row).second);
  }

  // Same seed, same split; another seed, another split.
  auto again = LoadPurchase100(o);
  EXPECT_EQ(again.value().train_y, d.train_y);
  o.seed = 1;
  EXPECT_NE(LoadPurchase100(o).value().train_y, d.train_y);

  // Default split: Epsilon*'s ratio, rest to the population.
  o.n_train = -1;
  o.n_population = -1;
  auto def = LoadPurchase100(o);
  ASSERT_TRUE(def.ok()) << def.message();
  EXPECT_EQ(def.value().n_train(), 167);  // round(250 * 208731 / 311540)
  EXPECT_EQ(def.value().n_population(), 83);
}

TEST(Purchase100Test, ChecksumIsEnforced) {
  const std::string text = FixtureText(120);
  std::string tampered = text;
  tampered[10] = tampered[10] == '0' ? '1' : '0';
  auto r = LoadPurchase100(Options(FixtureDir(tampered, text), 120));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "dataset_purchase ("));
  EXPECT_TRUE(HasSubstr(r.message(), "SHA-256 mismatch: expected " + Sha256Hex(text).value()));
  EXPECT_TRUE(HasSubstr(r.message(), "download_purchase100.py"));

  // An explicit expected digest overrides the manifest.
  Purchase100Options o = Options(FixtureDir(text, text), 120);
  o.expected_sha256 = Sha256Hex("something else").value();
  EXPECT_TRUE(HasSubstr(LoadPurchase100(o).message(), "SHA-256 mismatch"));

  // No manifest, no digest: refused (the directory does not qualify).
  const std::string bare = MakeScratchDir("purchase_bare");
  WriteFile(bare + "/dataset_purchase", text);
  auto none = LoadPurchase100(Options(bare, 120));
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(HasSubstr(none.message(), bare + " (missing SHA256SUMS)"));
}

TEST(Purchase100Test, MalformedFilesAreRefusedWithLineNumbers) {
  const std::string text = FixtureText(120);
  auto load = [](const std::string& bad, int rows) {
    return LoadPurchase100(Options(FixtureDir(bad, bad), rows)).message();
  };
  const std::string line17 = text.substr(0, text.find('\n'));  // any valid line
  EXPECT_EQ(load(ReplaceLine(text, 17, line17.substr(0, line17.size() - 2)), 120),
            "dataset_purchase line 17: expected 601 comma-separated fields (label + 600 "
            "features), got 600");
  EXPECT_EQ(load(ReplaceLine(text, 3, "0" + line17.substr(1)), 120),
            "dataset_purchase line 3: label must be an integer in 1..100, got '0'");
  EXPECT_EQ(load(ReplaceLine(text, 5, "101" + line17.substr(1)), 120),
            "dataset_purchase line 5: label must be an integer in 1..100, got '101'");
  EXPECT_EQ(load(ReplaceLine(text, 8, "1,0,0,0,2" + line17.substr(9)), 120),
            "dataset_purchase line 8: feature 4 must be 0 or 1, got '2'");
  EXPECT_EQ(load(text, 121), "dataset_purchase: expected 121 records, got 120");
  // Only classes 1..50 present.
  EXPECT_EQ(load(FixtureText(50), 50), "dataset_purchase: only 50 of the 100 classes occur");
}

TEST(Purchase100Test, RefusesImpossibleSplits) {
  const std::string text = FixtureText(120);
  Purchase100Options o = Options(FixtureDir(text, text), 120);
  o.n_train = 100;
  o.n_population = 30;
  EXPECT_TRUE(HasSubstr(LoadPurchase100(o).message(),
                        "n_train + n_population must be <= 120 (rows of Purchase-100), got 100 + "
                        "30"));
  o.n_train = 0;
  EXPECT_EQ(LoadPurchase100(o).message(),
            "n_train must be >= 1 (or -1 for the default split), got 0");
}

TEST(Purchase100Test, ManifestParsing) {
  const std::string h(64, 'a');
  EXPECT_EQ(ManifestDigest(h + "  x\n" + std::string(64, 'b') + " *dataset_purchase\n",
                           "dataset_purchase")
                .value(),
            std::string(64, 'b'));
  EXPECT_EQ(ManifestDigest(h + "  x\n", "dataset_purchase").message(),
            "SHA256SUMS has no entry for dataset_purchase");
  EXPECT_EQ(ManifestDigest("ABC  dataset_purchase\n", "dataset_purchase").message(),
            "SHA256SUMS line 1: expected '<64 lower-case hex digits>  <file name>'");
}

TEST(Purchase100Test, MissingDataListsPlacesSearched) {
  auto r = LoadPurchase100(Options("/nonexistent/purchase", kPurchase100Rows));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(),
                        "purchase100 data not found: need dataset_purchase, "
                        "SHA256SUMS"));
  EXPECT_TRUE(HasSubstr(r.message(), "MakePurchase100Surrogate"));
  EXPECT_TRUE(HasSubstr(r.message(), "searched --data_dir=/nonexistent/purchase: "));

  // No directory named and no PRIVBENCH_DATA_DIR: there is no default place,
  // and the error says which flag or variable to set (the program's flag).
  unsetenv("PRIVBENCH_DATA_DIR");
  Purchase100Options o;
  o.data_dir_flag = "--purchase100_dir";
  auto none = LoadPurchase100(o);
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(HasSubstr(none.message(),
                        "purchase100 data not found: neither --purchase100_dir nor "
                        "PRIVBENCH_DATA_DIR is set, and purchase100 has no default place. Pass "
                        "the directory with --purchase100_dir=DIR or set PRIVBENCH_DATA_DIR=DIR"));
  EXPECT_FALSE(Purchase100Present(o));
}

TEST(Purchase100PresentTest, AbsentDirectoryIsNotPresent) {
  Purchase100Options o;
  o.data_dir = "/nonexistent/purchase100";
  EXPECT_FALSE(Purchase100Present(o));
}

}  // namespace
}  // namespace privbench
