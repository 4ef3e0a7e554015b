#include "data_scripts/adult.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmath>
#include <string>

#include "data_scripts/data_files.h"
#include "data_scripts/digests.h"
#include "data_scripts/idx.h"
#include "data_scripts/test_util.h"

namespace privbench {
namespace {

using ::privbench::testing::HasSubstr;
using ::privbench::testing::MakeScratchDir;
using ::privbench::testing::ReplaceLine;
using ::privbench::testing::WriteFile;

// Loaded once: the vendored gzip copy (the default place).
const Dataset& Adult() {
  static const Dataset* d = [] {
    auto r = LoadAdult();
    if (!r.ok()) {
      ADD_FAILURE() << r.message();
      return new Dataset();
    }
    return new Dataset(std::move(r).value());
  }();
  return *d;
}

std::string ReadOrDie(const std::string& path) {
  auto r = ReadFileBytes(path);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? r.value() : std::string();
}

// The vendored file `name` (adult.data or adult.test), decompressed.
std::string VendoredFile(const std::string& name) {
  const std::string path = "data_scripts/adult/" + name + ".gz";
  auto r = Gunzip(ReadOrDie(path), path);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? r.value() : std::string();
}

std::string Sha(const std::string& data) { return Sha256Hex(data).value(); }

// A scratch directory with (possibly modified) copies of both files.
std::string CopyWith(const std::string& data, const std::string& test) {
  const std::string dir = MakeScratchDir("adult");
  WriteFile(dir + "/adult.data", data);
  WriteFile(dir + "/adult.test", test);
  return dir;
}

TEST(AdultTest, UciSplitShapes) {
  const Dataset& d = Adult();
  ASSERT_TRUE(CheckDataset(d).ok());
  EXPECT_EQ(d.name, "adult");
  EXPECT_EQ(d.provenance, "uci-adult");
  EXPECT_FALSE(d.is_surrogate);
  EXPECT_EQ(d.n_train(), 32561);
  EXPECT_EQ(d.n_population(), 16281);
  // 6 numeric + 9 workclass + 16 education + 7 marital + 15 occupation +
  // 6 relationship + 5 race + 2 sex + 42 native-country (incl. "?").
  EXPECT_EQ(d.num_features, 108);
  EXPECT_EQ(d.num_classes, 2);
  ASSERT_EQ(d.feature_names.size(), 108u);
  EXPECT_EQ(d.feature_names[0], "age");
  EXPECT_EQ(d.feature_names[6], "workclass=?");
  EXPECT_TRUE(HasSubstr(d.checksums, AdultTrainDigests().sha256));
  EXPECT_TRUE(HasSubstr(d.checksums, AdultTestDigests().md5));
}

// The vendored files have the pinned digests of the UCI originals (SHA-256
// and MD5 of the decompressed bytes, computed here directly).
TEST(AdultTest, VendoredFilesHaveThePinnedDigests) {
  const std::string data = VendoredFile("adult.data");
  const std::string test = VendoredFile("adult.test");
  EXPECT_EQ(data.size(), 3974305u);
  EXPECT_EQ(test.size(), 2003153u);
  EXPECT_EQ(Sha(data), AdultTrainDigests().sha256);
  EXPECT_EQ(Md5Hex(data).value(), AdultTrainDigests().md5);
  EXPECT_EQ(Sha(test), AdultTestDigests().sha256);
  EXPECT_EQ(Md5Hex(test).value(), AdultTestDigests().md5);
  EXPECT_TRUE(HasSubstr(Adult().source, "data_scripts/adult (vendored gzip copy)"));
}

// Exact class counts of the UCI files (adult.names: 23.93% / 24.78% >50K
// over the combined set; here per split).
TEST(AdultTest, LabelBalance) {
  const Dataset& d = Adult();
  EXPECT_EQ(LabelCounts(d.train_y, 2)[1], 7841);
  EXPECT_EQ(LabelCounts(d.population_y, 2)[1], 3846);
  EXPECT_NEAR(7841.0 / 32561.0, 0.2408, 1e-4);
}

TEST(AdultTest, TrainNumericColumnsAreStandardised) {
  const Dataset& d = Adult();
  for (int c = 0; c < kAdultNumericColumns; ++c) {
    double sum = 0, sum_sq = 0;
    for (int64_t i = 0; i < d.n_train(); ++i) {
      const double v = d.train_row(i)[c];
      sum += v;
      sum_sq += v * v;
    }
    const double mean = sum / d.n_train();
    const double sd = std::sqrt(sum_sq / d.n_train() - mean * mean);
    // float storage: relative error ~1e-7 per value.
    EXPECT_NEAR(mean, 0.0, 1e-5) << d.feature_names[c];
    EXPECT_NEAR(sd, 1.0, 1e-5) << d.feature_names[c];
  }
  // Age: training mean 38.5816 years, so a 38-year-old is slightly below 0.
  EXPECT_LT(d.train_row(2)[0], 0.0f);  // line 3: age 38
}

TEST(AdultTest, OneHotBlocksSumToOne) {
  const Dataset& d = Adult();
  for (const auto* split : {&d.train_x, &d.population_x}) {
    const int64_t n = static_cast<int64_t>(split->size()) / d.num_features;
    for (int64_t i = 0; i < n; ++i) {
      const float* row = split->data() + i * d.num_features;
      double total = 0;
      for (int64_t j = kAdultNumericColumns; j < d.num_features; ++j) {
        ASSERT_TRUE(row[j] == 0.0f || row[j] == 1.0f);
        total += row[j];
      }
      // One category per categorical column: 8 (no unseen values in UCI).
      ASSERT_EQ(total, 8.0) << "row " << i;
    }
  }
  // Missing values are kept: 1836 training rows have workclass '?'.
  double missing = 0;
  for (int64_t i = 0; i < d.n_train(); ++i) missing += d.train_row(i)[6];
  EXPECT_EQ(missing, 1836.0);
  EXPECT_TRUE(HasSubstr(d.notes.back(), "unseen in training (encoded as all zeros): 0"));
}

TEST(AdultTest, CorruptedByteIsRefusedWithChecksumMessage) {
  std::string data = VendoredFile("adult.data");
  const std::string test = VendoredFile("adult.test");
  data[1000] ^= 0x01;
  const std::string dir = CopyWith(data, test);
  auto r = LoadAdult({dir});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "adult.data (" + dir + "/adult.data"));
  EXPECT_TRUE(HasSubstr(r.message(), "SHA-256 mismatch: expected " + AdultTrainDigests().sha256 +
                                         ", got " + Sha(data)));
  EXPECT_TRUE(HasSubstr(r.message(), "download_adult.py"));
}

TEST(AdultTest, TruncatedFileIsRefused) {
  const std::string data = VendoredFile("adult.data");
  const std::string test = VendoredFile("adult.test");
  const std::string dir = CopyWith(data, test.substr(0, test.size() / 2));
  auto r = LoadAdult({dir});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "adult.test ("));
  EXPECT_TRUE(HasSubstr(r.message(), "SHA-256 mismatch"));
}

// With digests vouched for (as a user with a modified copy would), the
// parser's own checks still refuse malformed lines, naming file and line.
TEST(AdultTest, MalformedLineIsRefusedWithLineNumber) {
  const std::string data = VendoredFile("adult.data");
  const std::string test = VendoredFile("adult.test");
  // Line 124 loses its last field.
  const std::string bad =
      ReplaceLine(data, 124,
                  "29, State-gov, 267989, Bachelors, 13, Married-civ-spouse, Prof-specialty, "
                  "Husband, White, Male, 0, 0, 50, United-States");
  const std::string dir = CopyWith(bad, test);
  AdultOptions options{dir};
  options.train_digests = {Sha(bad), ""};
  auto r = LoadAdult(options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "adult.data line 124: expected 15 comma-separated fields, got 14");
}

TEST(AdultTest, WrongRecordCountIsRefused) {
  const std::string data = VendoredFile("adult.data");
  const std::string test = VendoredFile("adult.test");
  const std::string shorter = data.substr(data.find('\n') + 1);  // drop line 1
  const std::string dir = CopyWith(shorter, test);
  AdultOptions options{dir};
  options.train_digests = {Sha(shorter), ""};
  auto r = LoadAdult(options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "adult.data: expected 32561 records, got 32560");
}

TEST(AdultTest, ParserMessages) {
  const std::string good =
      "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, "
      "Male, 2174, 0, 40, United-States, <=50K\n";
  auto ok = ParseAdultFile(good + good + "\n\n", "adult.data", false);
  ASSERT_TRUE(ok.ok()) << ok.message();
  ASSERT_EQ(ok.value().size(), 2u);
  EXPECT_EQ(ok.value()[0].numeric[1], 77516.0);
  EXPECT_EQ(ok.value()[0].categorical[7], "United-States");
  EXPECT_EQ(ok.value()[0].label, 0);

  auto bad_int = ParseAdultFile(
      good + ReplaceLine(good, 1, "39x" + good.substr(2, good.size() - 3)), "adult.data", false);
  ASSERT_FALSE(bad_int.ok());
  EXPECT_EQ(bad_int.message(), "adult.data line 2: age must be an integer, got '39x'");

  std::string wrong_label = good;
  wrong_label.replace(wrong_label.find("<=50K"), 5, "<=50K.");
  auto bad_label = ParseAdultFile(wrong_label, "adult.data", false);
  ASSERT_FALSE(bad_label.ok());
  EXPECT_EQ(bad_label.message(),
            "adult.data line 1: income must be '<=50K' or '>50K', got '<=50K.'");

  // adult.test: comment line skipped, labels with a period.
  auto test_ok = ParseAdultFile("|1x3 Cross validator\n" + wrong_label, "adult.test", true);
  ASSERT_TRUE(test_ok.ok()) << test_ok.message();
  EXPECT_EQ(test_ok.value().size(), 1u);

  auto blank_inside = ParseAdultFile(good + "\n" + good, "adult.data", false);
  ASSERT_FALSE(blank_inside.ok());
  EXPECT_EQ(blank_inside.message(),
            "adult.data line 2: blank line inside the data (blank lines may only end the file)");

  auto negative = ParseAdultFile(ReplaceLine(good, 1, "-1" + good.substr(2, good.size() - 3)),
                                 "adult.data", false);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.message(), "adult.data line 1: age must be >= 0, got -1");
}

TEST(AdultTest, MissingDirectoryListsPlacesSearched) {
  auto r = LoadAdult({"/nonexistent/adult_dir"});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "adult data not found: need adult.data, adult.test"));
  EXPECT_TRUE(HasSubstr(r.message(),
                        "searched --data_dir=/nonexistent/adult_dir: /nonexistent/adult_dir "
                        "(no such directory). Pass the directory with --data_dir=DIR or set "
                        "PRIVBENCH_DATA_DIR=DIR"));
  EXPECT_TRUE(HasSubstr(r.message(), "download_adult.py"));

  // A directory with only one of the files; a program's own flag name.
  const std::string dir = MakeScratchDir("adult_half");
  WriteFile(dir + "/adult.data", "x");
  AdultOptions half_options{dir};
  half_options.data_dir_flag = "--adult_dir";
  auto half = LoadAdult(half_options);
  ASSERT_FALSE(half.ok());
  EXPECT_TRUE(
      HasSubstr(half.message(), "--adult_dir=" + dir + ": " + dir + " (missing adult.test)"));
  EXPECT_TRUE(HasSubstr(half.message(), "Pass the directory with --adult_dir=DIR"));

  // PRIVBENCH_DATA_DIR: both <env>/adult and <env> are searched, and nothing
  // else (no silent fallback to the vendored copy).
  ASSERT_EQ(setenv("PRIVBENCH_DATA_DIR", "/nonexistent/tree", 1), 0);
  auto env = LoadAdult();
  unsetenv("PRIVBENCH_DATA_DIR");
  ASSERT_FALSE(env.ok());
  EXPECT_TRUE(HasSubstr(env.message(), "PRIVBENCH_DATA_DIR=/nonexistent/tree"));
  EXPECT_TRUE(HasSubstr(env.message(),
                        "/nonexistent/tree/adult (no such directory); "
                        "/nonexistent/tree (no such directory)"));

  // The default list is searched in order and every entry is reported.
  DataDirSearch search;
  search.name = "adult";
  search.required_files = {"adult.data"};
  search.defaults = {"/nonexistent/a", "/nonexistent/b"};
  auto fb = FindDataDir(search);
  ASSERT_FALSE(fb.ok());
  EXPECT_TRUE(HasSubstr(fb.message(),
                        "searched the default places (neither --data_dir nor PRIVBENCH_DATA_DIR "
                        "is set): /nonexistent/a (no such directory); /nonexistent/b"));
}

TEST(AdultTest, EnvironmentVariableFindsEitherLayout) {
  // $PRIVBENCH_DATA_DIR/adult/...
  const std::string tree = MakeScratchDir("tree");
  const std::string data = VendoredFile("adult.data");
  const std::string test = VendoredFile("adult.test");
  ASSERT_EQ(::mkdir((tree + "/adult").c_str(), 0755), 0);
  WriteFile(tree + "/adult/adult.data", data);
  WriteFile(tree + "/adult/adult.test", test);
  DataDirSearch search;
  search.name = "adult";
  search.required_files = {"adult.data", "adult.test"};
  ASSERT_EQ(setenv("PRIVBENCH_DATA_DIR", tree.c_str(), 1), 0);
  auto nested = FindDataDir(search);
  auto loaded = LoadAdult();
  // ... or the files directly in $PRIVBENCH_DATA_DIR.
  const std::string flat = CopyWith(data, test);
  ASSERT_EQ(setenv("PRIVBENCH_DATA_DIR", flat.c_str(), 1), 0);
  auto direct = FindDataDir(search);
  unsetenv("PRIVBENCH_DATA_DIR");
  ASSERT_TRUE(nested.ok()) << nested.message();
  EXPECT_EQ(nested.value(), tree + "/adult");
  ASSERT_TRUE(direct.ok()) << direct.message();
  EXPECT_EQ(direct.value(), flat);
  // The plain files load to the same data as the vendored copy.
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  EXPECT_EQ(loaded->source, tree + "/adult");
  EXPECT_EQ(loaded->train_x, Adult().train_x);
  EXPECT_EQ(loaded->population_y, Adult().population_y);
  EXPECT_EQ(loaded->checksums, Adult().checksums);
}

TEST(AdultVendoredTest, MissingVendoredCopyNamesFlagAndVariable) {
  unsetenv("PRIVBENCH_DATA_DIR");
  AdultOptions options;
  options.vendored_dirs = {"/nonexistent/vendored"};
  auto r = LoadAdult(options);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(),
                        "adult data not found: need adult.data.gz, adult.test.gz; searched the "
                        "default places (neither --data_dir nor PRIVBENCH_DATA_DIR is set): "
                        "/nonexistent/vendored (no such directory). Pass the directory with "
                        "--data_dir=DIR or set PRIVBENCH_DATA_DIR=DIR"));
}

}  // namespace
}  // namespace privbench
