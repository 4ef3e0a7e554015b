#include "data_scripts/cifar10.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <map>
#include <string>

#include "data_scripts/digests.h"
#include "data_scripts/test_util.h"

namespace privbench {
namespace {

using ::privbench::testing::HasSubstr;
using ::privbench::testing::MakeScratchDir;
using ::privbench::testing::WriteFile;

constexpr int64_t kRows = 3;  // records per file in these tests
constexpr int64_t kRecord = 1 + kCifar10Features;

// The bytes of file `f` (0..5): record i has label (f + i) % 10 and pixel j
// the byte (7 f + 3 i + j) % 256.
std::string FileBytes(int64_t f) {
  std::string bytes;
  for (int64_t i = 0; i < kRows; ++i) {
    bytes.push_back(static_cast<char>((f + i) % 10));
    for (int64_t j = 0; j < kCifar10Features; ++j) {
      bytes.push_back(static_cast<char>((7 * f + 3 * i + j) % 256));
    }
  }
  return bytes;
}

std::string Manifest(const std::map<std::string, std::string>& files) {
  std::string text;
  for (const auto& [name, bytes] : files) text += Sha256Hex(bytes).value() + "  " + name + "\n";
  return text;
}

// Writes the six files (with `replaced` substituted) and a SHA256SUMS of
// `recorded` (default: what was written); returns the directory.
std::string WriteCifar(const std::map<std::string, std::string>& replaced = {},
                       const std::map<std::string, std::string>& recorded = {}) {
  const std::string dir = MakeScratchDir("cifar10");
  std::map<std::string, std::string> files;
  const auto names = Cifar10Files();
  for (size_t f = 0; f < names.size(); ++f) files[names[f]] = FileBytes(static_cast<int64_t>(f));
  for (const auto& [name, bytes] : replaced) files[name] = bytes;
  for (const auto& [name, bytes] : files) WriteFile(dir + "/" + name, bytes);
  std::map<std::string, std::string> record = files;
  for (const auto& [name, bytes] : recorded) record[name] = bytes;
  WriteFile(dir + "/SHA256SUMS", Manifest(record));
  return dir;
}

Result<Dataset> Load(const std::string& dir) {
  Cifar10Options o;
  o.data_dir = dir;
  o.rows_per_batch = kRows;
  return LoadCifar10(o);
}

TEST(Cifar10Test, ReadsTheBinaryLayout) {
  auto r = Load(WriteCifar({}, {{"cifar-10-python.tar.gz", "archive"}}));
  ASSERT_TRUE(r.ok()) << r.message();
  const Dataset& d = r.value();
  EXPECT_EQ(d.provenance, "cifar10");
  EXPECT_FALSE(d.is_surrogate);
  EXPECT_EQ(d.num_features, 3072);
  EXPECT_EQ(d.num_classes, 10);
  ASSERT_EQ(d.n_train(), 5 * kRows);
  ASSERT_EQ(d.n_population(), kRows);
  // Training row 4 is record 1 of data_batch_2 (f = 1, i = 1): label 2,
  // pixel j = (7 + 3 + j) % 256 / 255, in the file's channel-planar order.
  EXPECT_EQ(d.train_y[4], 2);
  EXPECT_FLOAT_EQ(d.train_row(4)[0], 10 / 255.0f);
  EXPECT_FLOAT_EQ(d.train_row(4)[1024], (10 + 1024) % 256 / 255.0f);  // first green pixel
  EXPECT_FLOAT_EQ(d.train_row(4)[3071], (10 + 3071) % 256 / 255.0f);
  // Population row 2 is record 2 of test_batch (f = 5).
  EXPECT_EQ(d.population_y[2], 7);
  EXPECT_FLOAT_EQ(d.population_row(2)[5], (35 + 6 + 5) / 255.0f);
  EXPECT_TRUE(HasSubstr(d.checksums, "data_batch_1.bin sha256=" + Sha256Hex(FileBytes(0)).value() +
                                         " (verified against SHA256SUMS)"));
  EXPECT_TRUE(HasSubstr(d.checksums, "cifar-10-python.tar.gz sha256=" +
                                         Sha256Hex("archive").value() + " (as recorded"));
}

TEST(Cifar10Test, WrongSizeIsRefusedNamingTheFile) {
  const std::string short_file = FileBytes(2).substr(0, kRows * kRecord - 1);
  auto r = Load(WriteCifar({{"data_batch_3.bin", short_file}}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "data_batch_3.bin ("));
  EXPECT_TRUE(HasSubstr(r.message(), "9,218 bytes, expected 9,219 (3 records of 1 label byte"));
  EXPECT_TRUE(HasSubstr(r.message(), "python3 data_scripts/download_cifar10.py DIR"));
  // The real size: 10,000 records a file.
  Cifar10Options o;
  o.data_dir = WriteCifar();
  auto full = LoadCifar10(o);
  ASSERT_FALSE(full.ok());
  EXPECT_TRUE(HasSubstr(full.message(), "data_batch_1.bin ("));
  EXPECT_TRUE(HasSubstr(full.message(), "expected 30,730,000 (10,000 records"));
}

TEST(Cifar10Test, CorruptFileIsRefusedByItsRecordedDigest) {
  std::string flipped = FileBytes(5);
  flipped[100] ^= 1;
  auto r = Load(WriteCifar({{"test_batch.bin", flipped}}, {{"test_batch.bin", FileBytes(5)}}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "test_batch.bin ("));
  EXPECT_TRUE(
      HasSubstr(r.message(), "SHA-256 mismatch: expected " + Sha256Hex(FileBytes(5)).value()));
}

TEST(Cifar10Test, LabelAboveNineIsRefused) {
  std::string bad = FileBytes(5);
  bad[2 * kRecord] = 10;
  auto r = Load(WriteCifar({{"test_batch.bin", bad}}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "test_batch.bin: record 2 has label 10, expected 0..9"));
}

TEST(Cifar10Test, FileMissingFromTheRecordIsRefused) {
  const std::string dir = WriteCifar();
  WriteFile(dir + "/SHA256SUMS", Manifest({{"data_batch_1.bin", FileBytes(0)}}));
  auto r = Load(dir);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "/SHA256SUMS: SHA256SUMS has no entry for data_batch_2.bin"));
}

TEST(Cifar10Test, MissingDataNamesTheFlagAndTheDownloadCommand) {
  unsetenv("PRIVBENCH_DATA_DIR");
  const std::string empty = MakeScratchDir("cifar10_empty");
  auto r = Load(empty);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.message(), "cifar10 data not found"));
  EXPECT_TRUE(HasSubstr(r.message(), empty + " (missing data_batch_1.bin, "));
  EXPECT_TRUE(HasSubstr(r.message(), "SHA256SUMS)"));
  EXPECT_TRUE(HasSubstr(r.message(), "Pass the directory with --data_dir=DIR"));
  EXPECT_TRUE(HasSubstr(r.message(), "`python3 data_scripts/download_cifar10.py DIR`"));
  // No default place: without a directory or PRIVBENCH_DATA_DIR it is an error.
  auto none = FindCifar10Dir();
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(HasSubstr(none.message(), "cifar10 has no default place"));
  Cifar10Options o;
  o.data_dir_flag = "--cifar10_dir";
  EXPECT_TRUE(HasSubstr(FindCifar10Dir(o).message(), "--cifar10_dir=DIR"));
}

TEST(Cifar10Test, DataDirEnvironmentVariableFindsTheSubdirectory) {
  const std::string tree = MakeScratchDir("cifar10_tree");
  const std::string dir = WriteCifar();
  ASSERT_EQ(rename(dir.c_str(), (tree + "/cifar10").c_str()), 0);
  ASSERT_EQ(setenv("PRIVBENCH_DATA_DIR", tree.c_str(), 1), 0);
  auto found = FindCifar10Dir();
  unsetenv("PRIVBENCH_DATA_DIR");
  ASSERT_TRUE(found.ok()) << found.message();
  EXPECT_TRUE(HasSubstr(found.value(), "/cifar10"));
}

TEST(Cifar10Test, StandardizesEachChannelWithThePublicCodesConstants) {
  std::vector<float> rows(2 * 3072, 0.5f);
  rows[3072 + 1024] = 1.0f;  // second image, first green value
  ASSERT_TRUE(StandardizeCifar10Channels(&rows).ok());
  EXPECT_FLOAT_EQ(rows[0], static_cast<float>((0.5 - 0.49139968) / 0.24703223));
  EXPECT_FLOAT_EQ(rows[1023], static_cast<float>((0.5 - 0.49139968) / 0.24703223));
  EXPECT_FLOAT_EQ(rows[1024], static_cast<float>((0.5 - 0.48215841) / 0.24348513));
  EXPECT_FLOAT_EQ(rows[2048], static_cast<float>((0.5 - 0.44653091) / 0.26158784));
  EXPECT_FLOAT_EQ(rows[3072], rows[0]);
  EXPECT_FLOAT_EQ(rows[3072 + 1024], static_cast<float>((1.0 - 0.48215841) / 0.24348513));
  std::vector<float> partial(100, 0.0f);
  EXPECT_TRUE(HasSubstr(StandardizeCifar10Channels(&partial).message(),
                        "whole images of 3,072 values, got 100 values"));
}

}  // namespace
}  // namespace privbench
