// The study framework's contract with its users (study.h): exit codes,
// --help, errors that name the parameter, and a result file that exists
// only when the study succeeded.
#include "experiments/lib/framework/study.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/files.h"
#include "core/validate.h"

namespace privbench {
namespace {

struct ToyConfig {
  int64_t n = 3;
  double alpha = 0.1;
  int64_t lo = 1;
  int64_t hi = 5;
  std::string behaviour = "write";  // write, fail, skip
};

Study<ToyConfig> ToyStudy() {
  Study<ToyConfig> study;
  study.info = {"toy_study", "A paper", "Sec. 1", "a study for the framework's tests"};
  study.defaults = [](Scale scale) {
    ToyConfig c;
    if (scale == Scale::kPaper) c.n = 30;
    return c;
  };
  study.register_flags = [](FlagSet& f, ToyConfig& c) {
    f.AddInt("n", &c.n, "values to write").Min(1);
    f.AddDouble("alpha", &c.alpha, "significance").OpenRange(0, 1);
    f.AddInt("lo", &c.lo, "lower end");
    f.AddInt("hi", &c.hi, "upper end");
    f.AddString("behaviour", &c.behaviour, "what run does").OneOf({"write", "fail", "skip"});
  };
  study.validate = [](const ToyConfig& c) -> Status {
    if (c.lo > c.hi) return Error("lo must be <= hi, got lo=" + std::to_string(c.lo));
    return Status::Ok();
  };
  study.run = [](const ToyConfig& c, StudyContext& ctx) -> Status {
    if (c.behaviour == "fail") return Error("the toy failed on purpose");
    if (c.behaviour == "skip") {
      ctx.SkipOutput("nothing to write");
      return Status::Ok();
    }
    return ctx.out().WriteDoubles("/values", std::vector<double>(c.n, c.alpha));
  };
  return study;
}

class StudyMainTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(std::getenv("TEST_TMPDIR")) + "/" +
           testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(MakeDirs(dir_).ok());
  }
  // Runs the toy study's main with `args` (and --output_dir, --quiet);
  // returns its exit code, capturing stdout and stderr.
  int Run(std::vector<std::string> args, bool add_output_dir = true) {
    args.insert(args.begin(), "toy_study");
    if (add_output_dir) args.push_back("--output_dir=" + dir_);
    args.push_back("--quiet");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    const int code = RunStudyMain(ToyStudy(), static_cast<int>(argv.size()), argv.data());
    stdout_ = testing::internal::GetCapturedStdout();
    stderr_ = testing::internal::GetCapturedStderr();
    return code;
  }
  std::string ResultPath() const { return dir_ + "/toy_study.h5"; }
  std::string dir_, stdout_, stderr_;
};

TEST_F(StudyMainTest, WritesTheFileWithTheScalesDefaultsAndExitsZero) {
  EXPECT_EQ(Run({"--scale=paper"}), 0) << stderr_;
  auto reader = ResultReader::Open(ResultPath());
  ASSERT_TRUE(reader.ok()) << reader.message();
  EXPECT_EQ(reader.value()->ReadDoubles("/values").value().size(), 30u);
  EXPECT_EQ(reader.value()->ReadStringAttribute("/meta", "scale").value(), "paper");
}

TEST_F(StudyMainTest, HelpListsEveryParameterWithItsConstraintAndExitsZero) {
  EXPECT_EQ(Run({"--help"}), 0);
  for (const char* p : {"--n=", "--alpha=", "--scale=", "--seed=", "--threads=", "[in (0, 1)]"}) {
    EXPECT_NE(stdout_.find(p), std::string::npos) << p << " missing from:\n" << stdout_;
  }
  EXPECT_FALSE(FileExists(ResultPath()));
}

TEST_F(StudyMainTest, BadInputExitsTwoNamingTheParameterAndLeavesNoFile) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--no_such=1", "unknown parameter --no_such"},
      {"--n=abc", "bad value for --n"},
      {"--n=0", "n must be >= 1, got 0"},
      {"--alpha=1.5", "alpha must be in (0, 1), got 1.5"},
      {"--behaviour=explode", "behaviour must be one of write, fail, skip"},
      {"--scale=huge", "scale must be quick, paper or test"},
      {"--seed=-1", "seed must be >= 0, got -1"},
      {"--threads=0", "threads must be >= 1, got 0"},
      {"--lo=9", "lo must be <= hi"},  // the study's own cross-field rule
  };
  for (const auto& [arg, message] : cases) {
    EXPECT_EQ(Run({arg}), 2) << arg;
    EXPECT_NE(stderr_.find(message), std::string::npos) << arg << ": " << stderr_;
    EXPECT_FALSE(FileExists(ResultPath())) << arg;
    EXPECT_TRUE(ListFiles(dir_, "").value().empty()) << arg << ": a temporary was left behind";
  }
}

// A repeated flag would take its value from one occurrence and record
// another (--scale sets the defaults before parsing): refused by name.
TEST_F(StudyMainTest, ARepeatedParameterExitsTwoNamingIt) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--scale=test", "--scale=paper"}, {"--seed=1", "--seed=2"}, {"--n=2", "--n", "3"}}) {
    EXPECT_EQ(Run(args), 2) << args[0];
    const std::string name = args[0].substr(0, args[0].find('='));
    EXPECT_NE(stderr_.find("parameter " + name + " is given more than once"), std::string::npos)
        << stderr_;
    EXPECT_TRUE(ListFiles(dir_, "").value().empty());
  }
}

// An --output_dir that is a regular file or a missing path is refused before
// any work, naming the flag (exit 2), not after the study ran.
TEST_F(StudyMainTest, AnOutputDirThatIsAFileOrMissingExitsTwoNamingTheFlag) {
  const std::string file = dir_ + "/a_file";
  ASSERT_TRUE(WriteFileAtomic(file, "x").ok());
  EXPECT_EQ(Run({"--output_dir=" + file}, /*add_output_dir=*/false), 2);
  EXPECT_NE(stderr_.find("--output_dir: '" + file + "' is not a directory"), std::string::npos)
      << stderr_;
  EXPECT_EQ(Run({"--output_dir=" + dir_ + "/missing/sub"}, false), 2);
  EXPECT_NE(stderr_.find("--output_dir"), std::string::npos) << stderr_;
  EXPECT_NE(stderr_.find("is missing"), std::string::npos) << stderr_;
}

TEST_F(StudyMainTest, AFailedRunExitsOneAndLeavesNoFile) {
  EXPECT_EQ(Run({"--behaviour=fail"}), 1);
  EXPECT_NE(stderr_.find("the toy failed on purpose"), std::string::npos) << stderr_;
  EXPECT_TRUE(ListFiles(dir_, "").value().empty());
}

TEST_F(StudyMainTest, ASkippedRunExitsZeroWithoutAFile) {
  EXPECT_EQ(Run({"--behaviour=skip"}), 0);
  EXPECT_NE(stderr_.find("nothing to write"), std::string::npos) << stderr_;
  EXPECT_TRUE(ListFiles(dir_, "").value().empty());
}

TEST_F(StudyMainTest, AnUnwritableOutputDirectoryExitsTwo) {
  std::vector<std::string> args = {"toy_study", "--output_dir=/proc/no/such/dir", "--quiet"};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  testing::internal::CaptureStderr();
  EXPECT_EQ(RunStudyMain(ToyStudy(), static_cast<int>(argv.size()), argv.data()), 2);
  testing::internal::GetCapturedStderr();
}

}  // namespace
}  // namespace privbench
