// The data wiring of --dataset: CIFAR-10 files in the binary layout reach the
// audit standardised per channel and shaped 3 x 32 x 32, and the paper's CNN
// trains on them; Fashion-MNIST keeps its pixels; the start-up check and the
// pool bound name what is wrong.
#include "experiments/lira_bayes_audit/run.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <string>
#include <vector>

#include "data_scripts/cifar10.h"
#include "data_scripts/data_files.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

constexpr int64_t kRows = 8;  // records per file

std::string ScratchDir() {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/e1_cifar10_XXXXXX";
  EXPECT_NE(mkdtemp(templ.data()), nullptr);
  return templ;
}

void Write(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

// Record i of file f: label (f + i) % 10, pixel j the byte (5 f + 11 i + j) % 256.
uint8_t Pixel(int64_t f, int64_t i, int64_t j) { return (5 * f + 11 * i + j) % 256; }

// The six files and their SHA256SUMS, kRows records each.
std::string WriteCifar10() {
  const std::string dir = ScratchDir();
  const std::vector<std::string> names = Cifar10Files();
  std::string manifest;
  for (size_t f = 0; f < names.size(); ++f) {
    std::string bytes;
    for (int64_t i = 0; i < kRows; ++i) {
      bytes.push_back(static_cast<char>((static_cast<int64_t>(f) + i) % 10));
      for (int64_t j = 0; j < kCifar10Features; ++j) {
        bytes.push_back(static_cast<char>(Pixel(static_cast<int64_t>(f), i, j)));
      }
    }
    Write(dir + "/" + names[f], bytes);
    manifest += ComputeDigests(bytes).value().sha256 + "  " + names[f] + "\n";
  }
  Write(dir + "/SHA256SUMS", manifest);
  return dir;
}

Config Cifar10Config(const std::string& dir) {
  Config c;
  c.dataset = "cifar10";
  c.data_dir = dir;
  c.pool_size = 16;
  c.test_size = 4;
  return c;
}

TEST(RunTest, Cifar10ReachesThePaperCnnStandardised) {
  const std::string dir = WriteCifar10();
  Cifar10Options o;
  o.data_dir = dir;
  o.rows_per_batch = kRows;
  auto d = LoadCifar10(o);
  ASSERT_TRUE(d.ok()) << d.message();
  const Config c = Cifar10Config(dir);
  auto l = PrepareAuditData(*d, c, 5);
  ASSERT_TRUE(l.ok()) << l.message();
  EXPECT_EQ(l->provenance, "cifar10");
  EXPECT_EQ(l->data.input_shape, (std::vector<int64_t>{3, 32, 32}));
  EXPECT_EQ(l->data.num_features, 3072);
  EXPECT_NE(l->preprocessing.find("(0.49139968, 0.48215841, 0.44653091)"), std::string::npos);
  ASSERT_EQ(l->pool_rows.size(), 16u);
  for (size_t k = 0; k < l->pool_rows.size(); ++k) {
    const int64_t row = l->pool_rows[k], f = row / kRows, i = row % kRows;
    EXPECT_EQ(l->data.pool_y[k], (f + i) % 10);
    for (int64_t j : {0, 1023, 1024, 2048, 3071}) {
      const int64_t channel = j / 1024;
      const double want =
          (Pixel(f, i, j) / 255.0 - kCifar10ChannelMean[channel]) / kCifar10ChannelStd[channel];
      EXPECT_NEAR(l->data.pool_x[k * 3072 + j], want, 1e-5) << "pool row " << row << " j " << j;
    }
  }
  // The paper's CNN, built for 3 x 32 x 32, takes one step on them.
  TrainSpec spec;
  spec.model = "paper_cnn";
  spec.epochs = 1;
  spec.batch_size = 8;
  auto s = TrainAndScore(l->data, {0, 1, 2, 3, 4, 5, 6, 7}, {8, 9}, spec, 1, 2);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->phi.size(), 2u);
  EXPECT_EQ(s->test_prob.size(), 4u);
}

TEST(RunTest, FashionMnistKeepsItsPixels) {
  Dataset d;
  d.name = "fashion-mnist";
  d.provenance = "fashion-mnist";
  d.num_features = 784;
  d.num_classes = 10;
  d.train_x.assign(20 * 784, 0.25f);
  d.train_y.assign(20, 3);
  d.population_x.assign(5 * 784, 0.75f);
  d.population_y.assign(5, 4);
  Config c;
  c.pool_size = 8;
  c.test_size = 2;
  auto l = PrepareAuditData(d, c, 5);
  ASSERT_TRUE(l.ok()) << l.message();
  EXPECT_EQ(l->data.input_shape, (std::vector<int64_t>{1, 28, 28}));
  EXPECT_EQ(l->preprocessing, "pixels / 255");
  EXPECT_EQ(l->data.pool_x, std::vector<float>(8 * 784, 0.25f));
  EXPECT_EQ(l->data.test_x, std::vector<float>(2 * 784, 0.75f));
  c.pool_size = 21;
  auto too_many = PrepareAuditData(d, c, 5);
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.message().find("must be at most the fashion-mnist data's 20 training"),
            std::string::npos)
      << too_many.message();
}

TEST(RunTest, StartUpCheckNamesTheDownloadCommand) {
  unsetenv("PRIVBENCH_DATA_DIR");
  Config fashion;
  EXPECT_TRUE(CheckDatasetFound(fashion).ok());
  const std::string empty = ScratchDir();
  auto missing = CheckDatasetFound(Cifar10Config(empty));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("searched --data_dir=" + empty), std::string::npos)
      << missing.message();
  EXPECT_NE(missing.message().find("`python3 data_scripts/download_cifar10.py DIR`"),
            std::string::npos)
      << missing.message();
  EXPECT_TRUE(CheckDatasetFound(Cifar10Config(WriteCifar10())).ok());
  EXPECT_EQ(TrainImages("cifar10"), 50000);
  EXPECT_EQ(TrainImages("fashion_mnist"), 60000);
}

}  // namespace
}  // namespace lira_bayes_audit
}  // namespace privbench
