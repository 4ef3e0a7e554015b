#include "results/shelf.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "results/h5_file.h"

namespace privbench {
namespace {

std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

// A result file of `study` at `scale`, run with `command_line`, holding one
// number.
std::string WriteFile(const std::string& name, const std::string& study, const std::string& scale,
                      const std::string& command_line, double value = 1.5,
                      double train_seconds = 2.0) {
  const std::string path = TempDir() + "/" + name + ".h5";
  RunMeta meta;
  meta.study = study;
  meta.scale = scale;
  meta.config_text = "epochs = 10\nthreads = 2\noutput_dir = /x\n";
  meta.command_line = command_line;
  meta.seed = 7;
  auto w = ResultWriter::Create(path, meta);
  EXPECT_TRUE(w.ok()) << w.message();
  EXPECT_TRUE((*w)->WriteScalar("/value", value).ok());
  EXPECT_TRUE((*w)->WriteScalar("/unit/train_seconds", train_seconds).ok());
  EXPECT_TRUE((*w)->Commit().ok());
  return path;
}

TEST(ShelfTest, PathAndRunOnlyConfiguration) {
  EXPECT_EQ(ShelfPath("experiments", "c2"), "experiments/c2/paper/c2.h5");
  EXPECT_TRUE(IsRunOnlyFlag("threads"));
  EXPECT_TRUE(IsRunOnlyFlag("units"));
  EXPECT_FALSE(IsRunOnlyFlag("epochs"));
  EXPECT_FALSE(IsRunOnlyFlag("seed"));
  EXPECT_EQ(ResultConfig("epochs = 10\nthreads = 2\nseed = 7\nparts_dir = /p\n"),
            "epochs = 10\nseed = 7\n");
}

TEST(ShelfTest, AcceptsThePaperScaleDefaultsOfItsStudy) {
  const std::string path =
      WriteFile("good", "s", "paper", "/bin/s --scale=paper --seed=7 --threads=2 --parts_dir=/p");
  auto f = OpenShelfFile(path, "s");
  ASSERT_TRUE(f.ok()) << f.message();
  const std::string described = DescribeResultFile("experiments/s/paper/s.h5", **f);
  EXPECT_EQ(described.find("experiments/s/paper/s.h5 (paper scale, commit "), 0u) << described;
}

TEST(ShelfTest, RefusesOtherStudiesScalesConfigurationsAndDamage) {
  auto refusal = [](const std::string& path, const std::string& study) {
    auto f = OpenShelfFile(path, study);
    EXPECT_FALSE(f.ok());
    return f.ok() ? std::string() : f.message();
  };
  const std::string other = WriteFile("other", "t", "paper", "/bin/t --scale=paper");
  EXPECT_NE(refusal(other, "s").find("result file of study 't'"), std::string::npos);
  const std::string quick = WriteFile("quick", "s", "quick", "/bin/s");
  EXPECT_NE(refusal(quick, "s").find("its scale is quick, not paper"), std::string::npos);
  const std::string tuned = WriteFile("tuned", "s", "paper", "/bin/s --scale=paper --epochs=3");
  const std::string why = refusal(tuned, "s");
  EXPECT_NE(why.find("its run set --epochs=3"), std::string::npos) << why;
  EXPECT_NE(why.find(tuned), std::string::npos) << "the message names the file: " << why;
  EXPECT_NE(why.find("tools/shelve.sh s"), std::string::npos) << why;
  // A flipped bit in the stored value: the checksum refuses the file.
  const double marker = 1234.5678;
  const std::string damaged = WriteFile("damaged", "s", "paper", "/bin/s --scale=paper", marker);
  std::string bytes;
  {
    std::ifstream in(damaged, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const size_t at = bytes.find(std::string(reinterpret_cast<const char*>(&marker), sizeof(marker)));
  ASSERT_NE(at, std::string::npos);
  bytes[at + 3] ^= 0x10;
  {
    std::ofstream out(damaged, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  EXPECT_NE(refusal(damaged, "s").find("checksum mismatch"), std::string::npos);
}

TEST(ShelfTest, DataDigestIgnoresMetaAndSeesEveryValue) {
  const std::string a = WriteFile("digest_a", "s", "paper", "/bin/s --scale=paper --threads=1");
  const std::string b = WriteFile("digest_b", "s", "paper", "/bin/s --scale=paper --threads=2");
  const std::string c = WriteFile("digest_c", "s", "paper", "/bin/s --scale=paper", 1.5000001);
  auto digest = [](const std::string& path) {
    auto f = ResultReader::Open(path);
    EXPECT_TRUE(f.ok()) << f.message();
    return (*f)->DataDigest().value();
  };
  EXPECT_EQ(digest(a), digest(b));  // only /meta differs (command line, times)
  EXPECT_NE(digest(a), digest(c));
  // Wall-clock timings (names containing "seconds") are not data.
  const std::string t1 = WriteFile("timed_1", "s", "paper", "/bin/s --scale=paper", 1.5, 4.3);
  const std::string t2 = WriteFile("timed_2", "s", "paper", "/bin/s --scale=paper", 1.5, 10.8);
  EXPECT_EQ(digest(t1), digest(t2));
}

}  // namespace
}  // namespace privbench
