#include "data_scripts/fashion_mnist.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "data_scripts/data_files.h"
#include "data_scripts/idx.h"
#include "data_scripts/test_util.h"

namespace privbench {
namespace {

using ::privbench::testing::HasSubstr;
using ::privbench::testing::MakeScratchDir;
using ::privbench::testing::WriteFile;

const char* const kFiles[] = {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
                              "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"};

TEST(FashionMnistTest, ShapesAndPixelRange) {
  auto r = LoadFashionMnist();
  ASSERT_TRUE(r.ok()) << r.message();
  const Dataset& d = r.value();
  EXPECT_EQ(d.provenance, "fashion-mnist");
  EXPECT_FALSE(d.is_surrogate);
  EXPECT_EQ(d.n_train(), 60000);
  EXPECT_EQ(d.n_population(), 10000);
  EXPECT_EQ(d.num_features, 784);
  EXPECT_EQ(d.num_classes, 10);
  float lo = 1, hi = 0;
  for (float v : d.train_x) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_EQ(lo, 0.0f);
  EXPECT_EQ(hi, 1.0f);
  // Fashion-MNIST is balanced: 6,000 / 1,000 images per class.
  for (int64_t c : LabelCounts(d.train_y, 10)) EXPECT_EQ(c, 6000);
  for (int64_t c : LabelCounts(d.population_y, 10)) EXPECT_EQ(c, 1000);
  // First training label is 9 (Ankle boot), first test label 9 too.
  EXPECT_EQ(d.train_y[0], 9);
  EXPECT_EQ(d.population_y[0], 9);
  EXPECT_TRUE(HasSubstr(d.checksums, "f4a8712d7a061bf5bd6d2ca38dc4d50a (verified)"));
}

TEST(FashionMnistTest, IdxHeaderChecks) {
  // A valid 2-item label file.
  std::string labels = std::string("\x00\x00\x08\x01\x00\x00\x00\x02", 8) + "\x03\x07";
  auto ok = ParseIdxUbyte(labels, "labels", 1);
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_EQ(ok.value().dims, std::vector<int64_t>{2});
  EXPECT_EQ(ok.value().data, (std::vector<uint8_t>{3, 7}));

  std::string bad_magic = labels;
  bad_magic[2] = '\x0d';  // float elements
  EXPECT_EQ(ParseIdxUbyte(bad_magic, "labels", 1).message(),
            "labels: bad IDX magic number 0x00000d01, expected 0x00000801 (unsigned bytes, "
            "rank 1)");
  EXPECT_EQ(ParseIdxUbyte(labels, "labels", 3).message(),
            "labels: bad IDX magic number 0x00000801, expected 0x00000803 (unsigned bytes, "
            "rank 3)");
  EXPECT_EQ(ParseIdxUbyte(labels.substr(0, 9), "labels", 1).message(),
            "labels: IDX payload has 1 bytes, expected 2 for dimensions 2");
  EXPECT_EQ(ParseIdxUbyte("ab", "labels", 1).message(),
            "labels: too short for an IDX header (2 bytes)");
}

TEST(FashionMnistTest, GzipRoundTripAndCorruption) {
  const std::string text(100000, 'z');
  auto gz = Gzip(text);
  ASSERT_TRUE(gz.ok());
  EXPECT_EQ(Gunzip(gz.value(), "x").value(), text);
  EXPECT_EQ(Gunzip(gz.value().substr(0, gz.value().size() / 2), "x.gz").message(),
            "x.gz: truncated gzip stream");
  EXPECT_TRUE(HasSubstr(Gunzip("not gzip at all", "y.gz").message(), "y.gz: corrupt gzip stream"));
  EXPECT_TRUE(HasSubstr(Gunzip(gz.value(), "x", 1000).message(), "exceeds 1000 bytes"));
}

// Copies of the Debian files in a scratch directory, one replaced.
std::string CopyWithReplacement(const std::string& replaced_name, const std::string& bytes) {
  const std::string dir = MakeScratchDir("fmnist");
  for (const char* f : kFiles) {
    if (f == replaced_name) {
      WriteFile(dir + "/" + f, bytes);
    } else {
      WriteFile(dir + "/" + f,
                ReadFileBytes(std::string(kFashionMnistDebianDir) + "/" + f).value());
    }
  }
  return dir;
}

TEST(FashionMnistTest, CorruptFilesAreRefused) {
  // Truncated .gz.
  const std::string labels_gz =
      ReadFileBytes(std::string(kFashionMnistDebianDir) + "/t10k-labels-idx1-ubyte.gz").value();
  const std::string dir1 =
      CopyWithReplacement("t10k-labels-idx1-ubyte.gz", labels_gz.substr(0, 3000));
  auto r1 = LoadFashionMnist({dir1});
  ASSERT_FALSE(r1.ok());
  EXPECT_TRUE(HasSubstr(r1.message(), "t10k-labels-idx1-ubyte.gz: truncated gzip stream"));

  // Valid gzip, wrong content (one label changed): checksum refusal.
  std::string payload = Gunzip(labels_gz, "labels").value();
  payload[100] = static_cast<char>((payload[100] + 1) % 10);
  const std::string dir2 = CopyWithReplacement("t10k-labels-idx1-ubyte.gz", Gzip(payload).value());
  auto r2 = LoadFashionMnist({dir2});
  ASSERT_FALSE(r2.ok());
  EXPECT_TRUE(
      HasSubstr(r2.message(), "t10k-labels-idx1-ubyte (decompressed t10k-labels-idx1-ubyte.gz)"));
  EXPECT_TRUE(HasSubstr(r2.message(),
                        "SHA-256 mismatch: expected "
                        "0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34"));

  // Missing file: the error lists the directory and the missing file.
  const std::string dir3 = MakeScratchDir("fmnist_empty");
  auto r3 = LoadFashionMnist({dir3});
  ASSERT_FALSE(r3.ok());
  EXPECT_TRUE(HasSubstr(r3.message(), "fashion-mnist data not found"));
  EXPECT_TRUE(HasSubstr(r3.message(), dir3 + " (missing train-images-idx3-ubyte.gz, "));
  EXPECT_TRUE(HasSubstr(r3.message(), "searched --data_dir=" + dir3));
  EXPECT_TRUE(
      HasSubstr(r3.message(), "Pass the directory with --data_dir=DIR or set PRIVBENCH_DATA_DIR"));
}

}  // namespace
}  // namespace privbench
