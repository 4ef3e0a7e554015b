#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

#include "core/files.h"
#include "core/flags.h"
#include "core/format.h"
#include "core/progress.h"
#include "core/quote.h"
#include "core/result.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "core/threads.h"
#include "core/validate.h"

namespace privbench {
namespace {

Result<int> Half(int x) {
  if (x % 2) return Error("x must be even, got " + std::to_string(x));
  return x / 2;
}

Result<int> Quarter(int x) {
  PB_ASSIGN_OR_RETURN(int h, Half(x));
  PB_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(ResultTest, PropagatesErrors) {
  EXPECT_EQ(Quarter(8).value(), 2);
  auto r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "x must be even, got 3");
  EXPECT_THROW(r.value(), std::logic_error);
}

TEST(ValidateTest, MessagesNameTheArgument) {
  EXPECT_EQ(CheckDelta(1.5).message(), "delta must be in [0, 1), got 1.5");
  EXPECT_FALSE(CheckDelta(1.0).ok());
  EXPECT_TRUE(CheckDelta(0.0).ok());
  EXPECT_EQ(CheckAlpha(std::nan("")).message(), "alpha must be in (0, 1), got nan");
  EXPECT_FALSE(CheckAlpha(0.0).ok());
  EXPECT_EQ(CheckProbability("fpr", -0.1).message(), "fpr must be in [0, 1], got -0.1");
  EXPECT_EQ(CheckNonNegativeCount("tp", -3).message(), "tp must be >= 0, got -3");
  EXPECT_FALSE(CheckPositive("sigma", std::numeric_limits<double>::infinity()).ok());
  EXPECT_EQ(CheckFiniteSamples("train", {1.0, std::nan("")}).message(),
            "train[1] must be finite, got nan");
  EXPECT_EQ(CheckFiniteSamples("train", {}).message(), "train must be non-empty");
}

TEST(FormatDoubleTest, ShortestRoundTrip) {
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(1e-5), "1e-05");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(FormatTest, SignificantFixedAndRounded) {
  EXPECT_EQ(FormatSignificant(0.123456, 3), "0.123");
  EXPECT_EQ(FormatSignificant(12345.0, 3), "1.23e+04");
  EXPECT_EQ(FormatSignificant(std::nan(""), 3), "nan");
  EXPECT_EQ(FormatFixed(2.0 / 3.0, 2), "0.67");
  EXPECT_EQ(FormatFixed(-INFINITY, 2), "-inf");
  EXPECT_EQ(FormatRounded(0.123456, 4), "0.1235");
  EXPECT_EQ(FormatRounded(0.25, 4), "0.25");
  EXPECT_EQ(FormatRounded(0.123456, 4), FormatDouble(std::round(0.123456 * 1e4) / 1e4));
}

TEST(StatsTest, MeanSdMedianQuantileCorrelation) {
  EXPECT_DOUBLE_EQ(Mean({1, 2, 3, 4}), 2.5);
  EXPECT_TRUE(std::isnan(Mean({})));
  EXPECT_DOUBLE_EQ(SampleSd({2, 4, 4, 4, 5, 5, 7, 9}), std::sqrt(32.0 / 7.0));
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(Median({})));
  // NumPy: np.quantile([1, 2, 3, 4], [0, 0.25, 0.5, 1]) = 1, 1.75, 2.5, 4.
  EXPECT_DOUBLE_EQ(Quantile({4, 1, 3, 2}, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(Quantile({4, 1, 3, 2}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(Quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(Quantile({4, 1, 3, 2}, 1.0), 4.0);
  EXPECT_TRUE(std::isnan(Quantile({1, 2}, 1.5)));
  EXPECT_DOUBLE_EQ(Correlation({1, 2, 3}, {2, 4, 6}), 1.0);
  EXPECT_DOUBLE_EQ(Correlation({1, 2, 3}, {3, 2, 1}), -1.0);
  EXPECT_TRUE(std::isnan(Correlation({1, 1, 1}, {1, 2, 3})));
  EXPECT_TRUE(std::isnan(Correlation({1, 2}, {1, 2, 3})));
}

TEST(SeedingTest, DeterministicAndDistinct) {
  EXPECT_EQ(DeriveSeed(7, {1, 2}), DeriveSeed(7, {1, 2}));
  EXPECT_NE(DeriveSeed(7, {1, 2}), DeriveSeed(7, {2, 1}));
  EXPECT_NE(DeriveSeed(7, {1}), DeriveSeed(8, {1}));
  // SplitMix64 reference value (seed 0 -> first output of the generator).
  EXPECT_EQ(SplitMix64(0), 0xE220A8397B1DCDAFULL);
}

TEST(FlagsTest, ParsesOverridesAndRejectsUnknown) {
  int64_t n = 10;
  double d = 0.5;
  std::vector<int64_t> sizes{1, 2};
  bool verbose = false;
  FlagSet flags("prog", "desc");
  flags.AddInt("n", &n, "count");
  flags.AddDouble("delta", &d, "delta");
  flags.AddIntList("sizes", &sizes, "sizes");
  flags.AddBool("verbose", &verbose, "verbose");
  const char* argv[] = {"prog", "--n=5", "--delta", "1e-5", "--sizes=3,4,5", "--verbose"};
  ASSERT_EQ(flags.Parse(6, argv), ParseOutcome::kOk) << flags.error();
  EXPECT_EQ(n, 5);
  EXPECT_DOUBLE_EQ(d, 1e-5);
  EXPECT_EQ(sizes, (std::vector<int64_t>{3, 4, 5}));
  EXPECT_TRUE(verbose);
  EXPECT_NE(flags.ConfigText().find("sizes = 3,4,5"), std::string::npos);

  const char* bad[] = {"prog", "--nope=1"};
  EXPECT_EQ(flags.Parse(2, bad), ParseOutcome::kError);
  EXPECT_NE(flags.error().find("unknown parameter --nope"), std::string::npos);
  const char* junk[] = {"prog", "--n=5x"};
  EXPECT_EQ(flags.Parse(2, junk), ParseOutcome::kError);
  EXPECT_NE(flags.error().find("--n"), std::string::npos);
  const char* help[] = {"prog", "--help"};
  EXPECT_EQ(flags.Parse(2, help), ParseOutcome::kHelp);
  EXPECT_NE(flags.Help().find("--delta"), std::string::npos);
  EXPECT_EQ(FlagSet::PeekValue(6, argv, "delta"), "1e-5");

  // ParseForMain: the exit codes of a tool's main().
  EXPECT_EQ(flags.ParseForMain(2, bad), std::optional<int>(2));
  EXPECT_EQ(flags.ParseForMain(2, help), std::optional<int>(0));
  EXPECT_EQ(flags.ParseForMain(6, argv), std::nullopt);
}

// "--verbose" alone is true; "--verbose=" (an empty value) is refused
// rather than read as true (the bad-flag campaign's --merge_only='' ran a
// merge).
TEST(FlagsTest, BoolWithAnEmptyValueIsRefused) {
  bool verbose = false;
  FlagSet flags("prog", "desc");
  flags.AddBool("verbose", &verbose, "verbose");
  const char* empty[] = {"prog", "--verbose="};
  EXPECT_EQ(flags.Parse(2, empty), ParseOutcome::kError);
  EXPECT_NE(flags.error().find("bad value for --verbose: expected true or false, got ''"),
            std::string::npos)
      << flags.error();
  EXPECT_FALSE(verbose);
  FlagSet again("prog", "desc");
  again.AddBool("verbose", &verbose, "verbose");
  const char* bare[] = {"prog", "--verbose"};
  ASSERT_EQ(again.Parse(2, bare), ParseOutcome::kOk) << again.error();
  EXPECT_TRUE(verbose);
}

TEST(FlagsTest, ConstraintsNameTheParameterAndTheElement) {
  int64_t n = 5;
  double alpha = 0.1;
  std::string mode = "fast";
  std::vector<int64_t> sizes = {1, 2};
  FlagSet flags("prog", "test");
  flags.AddInt("n", &n, "count").Min(1);
  flags.AddDouble("alpha", &alpha, "significance").OpenRange(0, 1);
  flags.AddString("mode", &mode, "mode").OneOf({"fast", "slow"});
  flags.AddIntList("sizes", &sizes, "sizes").Min(1).NonEmpty();
  EXPECT_TRUE(flags.Validate().ok());
  EXPECT_NE(flags.Help().find("[in (0, 1)]"), std::string::npos);

  alpha = 1.5;
  EXPECT_EQ(flags.Validate().message(), "alpha must be in (0, 1), got 1.5");
  alpha = std::nan("");
  EXPECT_FALSE(flags.Validate().ok());
  alpha = 0.1;
  n = 0;
  EXPECT_EQ(flags.Validate().message(), "n must be >= 1, got 0");
  n = 1;
  mode = "medium";
  EXPECT_EQ(flags.Validate().message(), "mode must be one of fast, slow, got 'medium'");
  mode = "slow";
  sizes = {3, 0};
  EXPECT_EQ(flags.Validate().message(), "sizes[1] must be >= 1, got 0");
  sizes = {};
  EXPECT_EQ(flags.Validate().message(), "sizes must be non-empty");
}

TEST(FlagsTest, StringListsParseAndCheckEveryElement) {
  std::vector<std::string> names = {"a"};
  FlagSet flags("prog", "test");
  flags.AddStringList("names", &names, "names").NonEmpty().OneOf({"a", "b", "c"});
  const char* argv[] = {"prog", "--names=b,c"};
  ASSERT_EQ(flags.Parse(2, argv), ParseOutcome::kOk) << flags.error();
  EXPECT_EQ(names, (std::vector<std::string>{"b", "c"}));
  EXPECT_TRUE(flags.Validate().ok());
  EXPECT_NE(flags.ConfigText().find("names = b,c"), std::string::npos);
  const char* bad[] = {"prog", "--names=b,x"};
  ASSERT_EQ(flags.Parse(2, bad), ParseOutcome::kOk);
  EXPECT_NE(flags.Validate().message().find("names"), std::string::npos);
  EXPECT_FALSE(flags.Validate().ok());
  const char* empty[] = {"prog", "--names="};
  EXPECT_EQ(flags.Parse(2, empty), ParseOutcome::kError);
}

TEST(ThreadsTest, EveryItemIsDoneOnceWhateverTheThreadCount) {
  for (int extra : {0, 1, 7}) {
    std::atomic<int> next{0};
    std::vector<int> done(1000, 0);
    const int ran = RunOnThreads(extra, [&] {
      for (int i = next.fetch_add(1); i < 1000; i = next.fetch_add(1)) ++done[i];
    });
    EXPECT_GE(ran, 1);
    EXPECT_LE(ran, extra + 1);
    EXPECT_EQ(std::count(done.begin(), done.end(), 1), 1000) << extra;
  }
}

TEST(FlagsTest, ARepeatedParameterIsAnErrorNamingIt) {
  int64_t n = 1;
  FlagSet flags("prog", "test");
  flags.AddInt("n", &n, "count");
  const char* argv[] = {"prog", "--n=2", "--n", "3"};
  ASSERT_EQ(flags.Parse(4, argv), ParseOutcome::kError);
  EXPECT_NE(flags.error().find("--n is given more than once"), std::string::npos) << flags.error();
}

TEST(FlagsTest, SatisfiesRunsTheCheckOnTheTextAndNamesTheParameter) {
  std::string shard = "0/1";
  FlagSet flags("prog", "test");
  flags.AddString("shard", &shard, "i/n").Satisfies("i/n", [](const std::string& t) {
    return t.find('/') == std::string::npos ? Error("must be i/n, got '" + t + "'") : Status::Ok();
  });
  EXPECT_TRUE(flags.Validate().ok());
  EXPECT_NE(flags.Help().find("[i/n]"), std::string::npos) << flags.Help();
  shard = "3";
  const Status s = flags.Validate();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "shard: must be i/n, got '3'");
}

TEST(FlagsTest, ParseForMainRefusesAViolatedConstraint) {
  double delta = 0.0;
  FlagSet flags("prog", "test");
  flags.AddDouble("delta", &delta, "delta").Min(0).Below(1);
  const char* ok[] = {"prog", "--delta=0.5"};
  EXPECT_EQ(flags.ParseForMain(2, ok), std::nullopt);
  const char* bad[] = {"prog", "--delta=1"};
  testing::internal::CaptureStderr();
  EXPECT_EQ(flags.ParseForMain(2, bad), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("delta must be < 1, got 1"),
            std::string::npos);
}

TEST(FilesTest, AtomicWriteAndList) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/a/b";
  ASSERT_TRUE(MakeDirs(dir).ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/x.md", "hello").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/x.md", "again").ok());
  EXPECT_EQ(ReadFile(dir + "/x.md").value(), "again");
  EXPECT_EQ(ListFiles(dir, ".md").value(), std::vector<std::string>{"x.md"});
  EXPECT_FALSE(WriteFileAtomic("/nonexistent_dir_x/y", "z").ok());
  EXPECT_FALSE(ReadFile(dir + "/missing").ok());
}

TEST(FlagsTest, DirectoryRulesRefuseMissingPathsAndFilesNamingTheParameter) {
  const std::string tmp = std::string(std::getenv("TEST_TMPDIR")) + "/dirs";
  ASSERT_TRUE(MakeDirs(tmp).ok());
  const std::string file = tmp + "/regular";
  ASSERT_TRUE(WriteFileAtomic(file, "x").ok());
  std::string data_dir;
  std::string parts_dir;
  std::string cache_dir;
  FlagSet flags("t", "test");
  flags.AddString("data_dir", &data_dir, "input").ExistingDirectoryOrEmpty();
  flags.AddString("parts_dir", &parts_dir, "output").CreatableDirectoryOrEmpty();
  flags.AddString("cache_dir", &cache_dir, "undeclared: gets the default rule");
  flags.DefaultDirectoryRules();
  // Empty keeps meaning the default; existing directories pass; a missing
  // parts_dir that mkdir -p can create passes.
  EXPECT_TRUE(flags.Validate().ok());
  data_dir = cache_dir = tmp;
  parts_dir = tmp + "/new/parts";
  EXPECT_TRUE(flags.Validate().ok());
  EXPECT_FALSE(IsDirectory(parts_dir));  // checking creates nothing
  auto refused = [&](const std::string& name, const std::string& what) {
    const Status s = flags.Validate();
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.message().rfind(name + ": ", 0), 0u) << s.message();
    EXPECT_NE(s.message().find(what), std::string::npos) << s.message();
  };
  data_dir = tmp + "/missing";
  refused("data_dir", "is missing");
  data_dir = file;
  refused("data_dir", "not a directory");
  data_dir = "";
  cache_dir = tmp + "/missing";
  refused("cache_dir", "is missing");
  cache_dir = "";
  parts_dir = file;
  refused("parts_dir", "not a directory");
  parts_dir = file + "/sub";
  refused("parts_dir", "cannot be created");
  // --help shows the rules.
  EXPECT_NE(flags.Help().find("empty (the default) or an existing directory"), std::string::npos);
  EXPECT_TRUE(CheckExistingDirectory("").ok());
  EXPECT_TRUE(CheckCreatableDirectory("relative/new/dir").ok());
}

// --synthesizers=mst,mst and --epsilons=4,4 ran every case
// twice; a list's entries are distinct unless the list says otherwise.
TEST(FlagsTest, ListEntriesMustBeDistinct) {
  std::vector<std::string> names = {"a"};
  std::vector<double> eps = {1}, p1 = {0.5}, p0 = {0.1}, boxes = {0, 1};
  std::vector<int64_t> k = {1};
  FlagSet flags("prog", "test");
  flags.AddStringList("names", &names, "names");
  flags.AddDoubleList("eps", &eps, "eps");
  flags.AddDoubleList("p1", &p1, "p1").PairedWith("p0");
  flags.AddDoubleList("p0", &p0, "p0");
  flags.AddDoubleList("boxes", &boxes, "pairs").DistinctGroupsOf(2);
  flags.AddIntList("k", &k, "k").EntriesMayRepeat();
  const auto error = [&](std::vector<const char*> argv) {
    names = {"a"};
    eps = {1};
    p1 = {0.5};
    p0 = {0.1};
    boxes = {0, 1};
    k = {1};
    argv.insert(argv.begin(), "prog");
    EXPECT_EQ(flags.Parse(static_cast<int>(argv.size()), argv.data()), ParseOutcome::kOk);
    return flags.Validate().message();
  };
  EXPECT_EQ(error({"--names=mst,a,mst"}),
            "names lists 'mst' twice (positions 0 and 2); each entry must be distinct");
  EXPECT_EQ(error({"--eps=4,4.0"}),
            "eps lists '4' twice (positions 0 and 1); each entry must be distinct");
  EXPECT_EQ(error({"--p1=0.5,0.5,0.5", "--p0=0.1,0.2,0.1"}),
            "p1 and p0 give the pair (0.5, 0.1) twice (positions 0 and 2); each pair must be "
            "distinct");
  EXPECT_EQ(error({"--p1=0.5,0.5", "--p0=0.1,0.2", "--boxes=0,1,0,2,0,1"}),
            "boxes repeats the group (0, 1) (positions 0 and 2); each group of 2 must be "
            "distinct");
  EXPECT_EQ(error({"--p1=0.5,0.5", "--p0=0.1,0.2", "--boxes=0,0,1,1", "--k=3,3"}), "");
  EXPECT_NE(flags.Help().find("[entries distinct]"), std::string::npos);
  EXPECT_NE(flags.Help().find("[pairs with --p0 distinct]"), std::string::npos);
  EXPECT_NE(flags.Help().find("[pairs with --p1 distinct]"), std::string::npos);
}

// Untrusted text in messages: bounded, escaped, valid UTF-8.
TEST(QuoteTest, BoundedEscapedValidUtf8) {
  EXPECT_EQ(QuoteText(std::string("a\0b", 3)), "'a\\x00b'");
  EXPECT_EQ(QuoteText("it's"), "'it\\'s'");
  EXPECT_EQ(QuoteText("caf\xc3\xa9 \xff"), "'caf\xc3\xa9 \\xff'");
  EXPECT_EQ(QuoteText(std::string(100, 'x'), 3), "'xxx'... (100 bytes)");
  EXPECT_LT(QuoteText(std::string(1 << 20, '\0')).size(), 400u);
}

TEST(ProgressTest, LineShowsDoneTotal) {
  ProgressReporter p("unit", 10, /*quiet=*/true);
  p.Advance(3);
  EXPECT_NE(p.Line().find("unit: 3/10 (30.0%)"), std::string::npos);
}

}  // namespace
}  // namespace privbench
