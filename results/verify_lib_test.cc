#include "results/verify_lib.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "core/files.h"
#include "results/h5_file.h"
#include "results/tables_lib.h"

namespace privbench {
namespace {

TEST(PrintedTest, HalfUnitOfTheLastDigit) {
  EXPECT_DOUBLE_EQ(PrintedHalfUnit("6.25"), 0.005);
  EXPECT_DOUBLE_EQ(PrintedHalfUnit("5.6"), 0.05);
  EXPECT_DOUBLE_EQ(PrintedHalfUnit("8421"), 0.5);
  EXPECT_DOUBLE_EQ(PrintedHalfUnit("3.5e8"), 0.05e8);
  EXPECT_DOUBLE_EQ(ParsePrinted("3.5e8").value(), 3.5e8);
  EXPECT_DOUBLE_EQ(ParsePrinted("52%").value(), 52.0);
  EXPECT_FALSE(ParsePrinted("about 500").ok());
}

TEST(ParseTest, ValidatesEntries) {
  EXPECT_FALSE(ParsePublishedList("{").ok());
  EXPECT_NE(ParsePublishedList(R"([{"id":"a"}])").message().find("missing field 'study'"),
            std::string::npos);
  const char* dup =
      R"([{"id":"a","study":"s","quantity":"q","source":"x","kind":"number","published":"1","h5":"/n"},
                        {"id":"a","study":"s","quantity":"q","source":"x","kind":"number","published":"1","h5":"/n"}])";
  EXPECT_NE(ParsePublishedList(dup).message().find("duplicate id"), std::string::npos);
  // A repeated field inside one entry is an error, not "the last one wins".
  const char* dup_field =
      R"([{"id":"a","study":"s","quantity":"q","source":"x","kind":"number","published":"1","published":"2","h5":"/n"}])";
  EXPECT_NE(ParsePublishedList(dup_field).message().find(
                "duplicate key \"published\" in the object at '/0'"),
            std::string::npos)
      << ParsePublishedList(dup_field).message();
  const char* bad_kind =
      R"([{"id":"a","study":"s","quantity":"q","source":"x","kind":"maybe","h5":"/n"}])";
  EXPECT_NE(ParsePublishedList(bad_kind).message().find("kind must be"), std::string::npos);
}

// A "sensitivity" entry (a claim's variant the study writes from its
// declaration) is parsed, with its h5 checked, but gets no verdict row.
TEST(ParseTest, SensitivityEntriesAreParsedButNotJudged) {
  const char* json =
      R"([{"id":"a","study":"s","quantity":"q","source":"x","kind":"sensitivity","h5":"/claims/a"}])";
  const auto entries = ParsePublishedList(json);
  ASSERT_TRUE(entries.ok()) << entries.message();
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].kind, "sensitivity");
  EXPECT_TRUE(VerifyAll(*entries, std::getenv("TEST_TMPDIR")).empty());
  const char* bad =
      R"([{"id":"a","study":"s","quantity":"q","source":"x","kind":"sensitivity","h5":"/n/a"}])";
  EXPECT_FALSE(ParsePublishedList(bad).ok());
}

TEST(VerifyTest, VerdictsForNumbersFindingsClaimsAndMissingStudies) {
  const std::string dir = std::getenv("TEST_TMPDIR");
  {
    RunMeta meta;
    meta.study = "s";
    meta.scale = "quick";
    auto w = ResultWriter::Create(dir + "/s.h5", meta);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(
        w.value()->SetAttribute("/meta", "dataset_provenance", "purchase100-surrogate").ok());
    ASSERT_TRUE(w.value()->WriteScalar("/numbers/good", 6.2543).ok());
    ASSERT_TRUE(w.value()->WriteScalar("/numbers/off", 6.4156).ok());
    ASSERT_TRUE(w.value()->WriteClaim({"c1", "x narrower", "src", false, "w=3 vs 2"}).ok());
    ASSERT_TRUE(w.value()->WriteClaim({"c2", "y rises", "src", true, "1 < 2"}).ok());
    ASSERT_TRUE(w.value()->WriteTable({"t", "T", "", {Column::Doubles("v", {1.5})}}).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  }
  const char* json = R"([
    {"id":"good","study":"s","quantity":"q1","source":"p","kind":"number","published":"6.25","tolerance":0.002,"h5":"/numbers/good"},
    {"id":"off","study":"s","quantity":"q2","source":"p","kind":"number","published":"6.399","tolerance":0.002,"h5":"/numbers/off","finding":"solver tolerance"},
    {"id":"bad","study":"s","quantity":"q3","source":"p","kind":"number","published":"6.399","tolerance":0.002,"h5":"/numbers/off"},
    {"id":"paper","study":"s","quantity":"q4","source":"p","kind":"number","published":"6.399","tolerance":0.002,"h5":"/numbers/off","min_scale":"paper"},
    {"id":"claim","study":"s","quantity":"q5","source":"p","kind":"claim","h5":"/claims/c1"},
    {"id":"claimp","study":"s","quantity":"q8","source":"p","kind":"claim","h5":"/claims/c2","min_scale":"paper"},
    {"id":"gone","study":"nostudy","quantity":"q6","source":"p","kind":"number","published":"1","h5":"/x"},
    {"id":"real","study":"s","quantity":"q7","source":"p","kind":"number","published":"7.79","tolerance":0.002,"h5":"/numbers/off","requires_dataset":"purchase100"}
  ])";
  const auto entries = ParsePublishedList(json).value();
  auto v = VerifyAll(entries, dir);
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[5].verdict, "needs paper scale");  // holds at quick scale: not judged
  // What the smaller run showed, then how to produce the paper-scale file.
  EXPECT_EQ(v[5].detail,
            "holds at scale quick: 1 < 2; no paper-scale shelf file: `tools/shelve.sh s` "
            "produces experiments/s/paper/s.h5");
  EXPECT_EQ(v[5].judged_from.find("results/raw/s.h5 (quick scale, commit "), 0u)
      << v[5].judged_from;
  v.erase(v.begin() + 5);
  EXPECT_EQ(v[6].verdict, "surrogate data");
  EXPECT_FALSE(v[6].failure);
  EXPECT_EQ(v[6].reproduced, "6.4156");
  EXPECT_NE(v[6].detail.find("purchase100-surrogate"), std::string::npos);
  EXPECT_EQ(v[0].verdict, "reproduced");  // 6.2543 prints as 6.25
  EXPECT_EQ(v[1].verdict, "FINDING");
  EXPECT_FALSE(v[1].failure);
  EXPECT_EQ(v[2].verdict, "MISMATCH");
  EXPECT_TRUE(v[2].failure);
  EXPECT_EQ(v[3].verdict, "needs paper scale");
  EXPECT_FALSE(v[3].failure);
  EXPECT_EQ(v[4].verdict, "not reproduced");
  EXPECT_FALSE(v[4].failure);
  EXPECT_EQ(v[4].detail, "w=3 vs 2");
  EXPECT_EQ(v[5].verdict, "missing");
  EXPECT_TRUE(v[5].failure);
  EXPECT_NE(VerdictsMarkdown(v).find("| s | q2 |"), std::string::npos);
  EXPECT_NE(VerdictsCsv(v).find("good,s,q1,p,6.25,6.2543,reproduced"), std::string::npos);

  auto reader = ResultReader::Open(dir + "/s.h5");
  const std::string md = StudyMarkdown(*reader.value()).value();
  EXPECT_NE(md.find("| v |"), std::string::npos);
  EXPECT_NE(md.find("not reproduced"), std::string::npos);
}

// A study with a paper-scale shelf file (experiments/<study>/paper/<study>.h5)
// has every entry judged from it, with the file named; a shelf file that is
// refused (here: another scale) makes them malformed, a failure naming the
// file; "out of scope" entries are said, never judged; a surrogate-data row
// names the command that gets the real dataset.
TEST(VerifyTest, ShelfFilesJudgeTheirStudyAndAreCheckedFirst) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/shelf_case";
  const std::string raw = dir + "/raw", shelf_root = dir + "/experiments";
  ASSERT_TRUE(MakeDirs(raw).ok());
  ASSERT_TRUE(MakeDirs(shelf_root + "/s/paper").ok());
  ASSERT_TRUE(MakeDirs(shelf_root + "/t/paper").ok());
  auto write = [](const std::string& path, const std::string& study, const std::string& scale,
                  double value) {
    RunMeta meta;
    meta.study = study;
    meta.scale = scale;
    meta.command_line = "/bin/" + study + " --scale=" + scale + " --threads=2";
    auto w = ResultWriter::Create(path, meta);
    ASSERT_TRUE(w.ok()) << w.message();
    ASSERT_TRUE(w.value()->WriteScalar("/n", value).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  };
  write(raw + "/s.h5", "s", "quick", 9.0);
  write(shelf_root + "/s/paper/s.h5", "s", "paper", 6.25);
  write(raw + "/t.h5", "t", "quick", 6.25);
  write(shelf_root + "/t/paper/t.h5", "t", "quick", 6.25);  // not paper scale: refused
  const auto entries = ParsePublishedList(R"([
    {"id":"s1","study":"s","quantity":"q","source":"p","kind":"number","published":"6.25","h5":"/n","min_scale":"paper"},
    {"id":"t1","study":"t","quantity":"q","source":"p","kind":"number","published":"6.25","h5":"/n"},
    {"id":"o1","study":"s","quantity":"q","source":"p","kind":"number","published":"6.25","h5":"/n","out_of_scope":"needs RoBERTa weights"},
    {"id":"d1","study":"s","quantity":"q","source":"p","kind":"number","published":"6.25","h5":"/n","requires_dataset":"cifar10","dataset_command":"python3 get.py DIR"}
  ])")
                           .value();
  const auto v = VerifyAll(entries, raw, shelf_root);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].verdict, "reproduced");  // the shelf's 6.25, not the quick file's 9
  EXPECT_EQ(v[0].judged_from.find("experiments/s/paper/s.h5 (paper scale, commit "), 0u)
      << v[0].judged_from;
  EXPECT_EQ(v[1].verdict, "malformed");
  EXPECT_TRUE(v[1].failure);
  EXPECT_NE(v[1].detail.find(shelf_root + "/t/paper/t.h5 refused: its scale is quick"),
            std::string::npos)
      << v[1].detail;
  EXPECT_EQ(v[2].verdict, "out of scope");
  EXPECT_FALSE(v[2].failure);
  EXPECT_EQ(v[2].detail, "needs RoBERTa weights");
  EXPECT_EQ(v[3].verdict, "surrogate data");
  EXPECT_NE(v[3].detail.find("(to judge it on cifar10: python3 get.py DIR)"), std::string::npos)
      << v[3].detail;
  EXPECT_NE(VerdictsCsv(v).find(",judged_from\n"), std::string::npos);
  // Without a shelf root only the raw files judge.
  EXPECT_EQ(VerifyAll(entries, raw)[0].verdict, "needs paper scale");
}

// A reproduced number that is NaN (or infinite against a finite published
// value) cannot be judged: malformed and a failure, even with a documented
// finding, never FINDING "|diff| nan" with exit 0.
TEST(VerifyTest, ANonFiniteNumberIsMalformedWhereItIsJudged) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/nonfinite";
  ASSERT_TRUE(MakeDirs(dir).ok());
  {
    RunMeta meta;
    meta.study = "s";
    meta.scale = "quick";
    auto w = ResultWriter::Create(dir + "/s.h5", meta);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->WriteScalar("/numbers/nan", std::nan("")).ok());
    ASSERT_TRUE(w.value()->WriteScalar("/numbers/inf", HUGE_VAL).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  }
  const char* json = R"([
    {"id":"nan_finding","study":"s","quantity":"q1","source":"p","kind":"number","published":"6.25","h5":"/numbers/nan","finding":"documented"},
    {"id":"inf_finite","study":"s","quantity":"q2","source":"p","kind":"number","published":"6.25","h5":"/numbers/inf"},
    {"id":"inf_inf","study":"s","quantity":"q3","source":"p","kind":"number","published":"inf","h5":"/numbers/inf"},
    {"id":"nan_paper","study":"s","quantity":"q4","source":"p","kind":"number","published":"6.25","h5":"/numbers/nan","min_scale":"paper"}
  ])";
  const auto v = VerifyAll(ParsePublishedList(json).value(), dir);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].verdict, "malformed");
  EXPECT_TRUE(v[0].failure);
  EXPECT_NE(v[0].detail.find("/numbers/nan holds nan"), std::string::npos) << v[0].detail;
  EXPECT_EQ(v[1].verdict, "malformed");
  EXPECT_TRUE(v[1].failure);
  EXPECT_EQ(v[2].verdict, "reproduced");
  // Awaiting paper scale does not hide a NaN either.
  EXPECT_EQ(v[3].verdict, "malformed");
  EXPECT_TRUE(v[3].failure);
}

// Present but the wrong thing: a number that is a string or holds two
// values, a claim stored as a dataset. Malformed (a failure) at any scale,
// never "missing" or "needs paper scale".
TEST(VerifyTest, WrongTypesAndShapesAreMalformedAtAnyScale) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/wrong_shapes";
  ASSERT_TRUE(MakeDirs(dir).ok());
  {
    RunMeta meta;
    meta.study = "s";
    meta.scale = "quick";
    auto w = ResultWriter::Create(dir + "/s.h5", meta);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->WriteStrings("/numbers/text", {"6.25"}).ok());
    ASSERT_TRUE(w.value()->WriteDoubles("/numbers/two", {6.25, 6.25}).ok());
    ASSERT_TRUE(w.value()->WriteScalar("/claims/as_dataset", 1.0).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  }
  const char* json = R"([
    {"id":"text","study":"s","quantity":"q1","source":"p","kind":"number","published":"6.25","h5":"/numbers/text"},
    {"id":"two","study":"s","quantity":"q2","source":"p","kind":"number","published":"6.25","h5":"/numbers/two","min_scale":"paper"},
    {"id":"claim","study":"s","quantity":"q3","source":"p","kind":"claim","h5":"/claims/as_dataset"},
    {"id":"absent","study":"s","quantity":"q4","source":"p","kind":"number","published":"6.25","h5":"/numbers/none","min_scale":"paper"}
  ])";
  const auto v = VerifyAll(ParsePublishedList(json).value(), dir);
  ASSERT_EQ(v.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(v[i].verdict, "malformed") << i << " " << v[i].detail;
    EXPECT_TRUE(v[i].failure) << i;
  }
  EXPECT_NE(v[1].detail.find("/numbers/two holds 2 values, not one number"), std::string::npos)
      << v[1].detail;
  EXPECT_NE(v[2].detail.find("/claims/as_dataset is a dataset"), std::string::npos) << v[2].detail;
  // Absent below its scale: still awaiting paper scale, not a failure.
  EXPECT_EQ(v[3].verdict, "needs paper scale");
  EXPECT_FALSE(v[3].failure);
}

// A claim marked inconclusive by its study (a test on random data that
// decided neither way) gets neither verdict, with the fraction it held on.
TEST(VerifyTest, InconclusiveClaim) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/inconclusive";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  {
    RunMeta meta;
    meta.study = "s";
    meta.scale = "quick";
    auto w = ResultWriter::Create(dir + "/s.h5", meta);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->WriteClaim({"c", "x overshoots", "src", true, "5 of 20"}).ok());
    ASSERT_TRUE(w.value()->SetAttribute("/claims/c", "inconclusive", 1.0).ok());
    ASSERT_TRUE(w.value()->SetAttribute("/claims/c", "holds_fraction", 0.25).ok());
    ASSERT_TRUE(w.value()->WriteClaim({"d", "y", "src", true, "ok"}).ok());
    ASSERT_TRUE(w.value()->SetAttribute("/claims/d", "inconclusive", 0.0).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  }
  const auto entries = ParsePublishedList(R"([
    {"id":"c","study":"s","quantity":"q","source":"p","kind":"claim","h5":"/claims/c"},
    {"id":"d","study":"s","quantity":"q","source":"p","kind":"claim","h5":"/claims/d"}
  ])")
                           .value();
  const auto v = VerifyAll(entries, dir);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].verdict, "inconclusive");
  EXPECT_FALSE(v[0].failure);
  EXPECT_EQ(v[0].reproduced, "holds on 25% of replicates");
  EXPECT_EQ(v[1].verdict, "reproduced");
  // Below its min_scale the claim still needs paper scale, and the detail
  // says the smaller run's test was inconclusive, not "does not hold".
  const auto paper = ParsePublishedList(R"([
    {"id":"c","study":"s","quantity":"q","source":"p","kind":"claim","h5":"/claims/c",
     "min_scale":"paper"}
  ])")
                         .value();
  const auto w = VerifyAll(paper, dir);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].verdict, "needs paper scale");
  EXPECT_FALSE(w[0].failure);
  EXPECT_EQ(w[0].reproduced, "holds on 25% of replicates");
  EXPECT_EQ(w[0].detail.find("inconclusive at scale quick: 5 of 20; no paper-scale shelf"), 0u)
      << w[0].detail;
}

// The inconclusive attributes are read with their values checked: NaN or 0.5
// for "inconclusive", a missing or out-of-range "holds_fraction" is a
// malformed claim (a failure naming the file and claim), never a verdict.
// A claim the study's data cannot decide (undecidable = 1) is inconclusive,
// never "not reproduced"; a value other than 0/1 is malformed.
TEST(VerifyTest, UndecidableClaim) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/undecidable";
  ASSERT_TRUE(MakeDirs(dir).ok());
  {
    RunMeta meta;
    meta.study = "s";
    meta.scale = "quick";
    auto w = ResultWriter::Create(dir + "/s.h5", meta);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->WriteClaim({"u", "x", "src", false, "ties only"}).ok());
    ASSERT_TRUE(w.value()->SetAttribute("/claims/u", "undecidable", int64_t{1}).ok());
    ASSERT_TRUE(w.value()->WriteClaim({"bad", "x", "src", false, "e"}).ok());
    ASSERT_TRUE(w.value()->SetAttribute("/claims/bad", "undecidable", int64_t{2}).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  }
  const char* json = R"([
    {"id":"u","study":"s","quantity":"q","source":"p","kind":"claim","h5":"/claims/u"},
    {"id":"bad","study":"s","quantity":"q","source":"p","kind":"claim","h5":"/claims/bad"}
  ])";
  const auto v = VerifyAll(ParsePublishedList(json).value(), dir);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].verdict, "inconclusive");
  EXPECT_EQ(v[0].reproduced, "cannot be decided on these data");
  EXPECT_FALSE(v[0].failure);
  EXPECT_EQ(v[1].verdict, "malformed");
  EXPECT_NE(v[1].detail.find("undecidable must be 0 or 1, got 2"), std::string::npos);
}

TEST(VerifyTest, MalformedInconclusiveAttributes) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/bad_inconclusive";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const std::vector<std::pair<double, double>> cases = {
      {NAN, 0.5}, {0.5, 0.5}, {1.0, NAN}, {1.0, 5.0}, {1.0, -1.0}};
  {
    RunMeta meta;
    meta.study = "s";
    meta.scale = "quick";
    auto w = ResultWriter::Create(dir + "/s.h5", meta);
    ASSERT_TRUE(w.ok());
    for (size_t i = 0; i < cases.size(); ++i) {
      const std::string id = "c" + std::to_string(i);
      ASSERT_TRUE(w.value()->WriteClaim({id, "x", "src", false, "e"}).ok());
      ASSERT_TRUE(w.value()->SetAttribute("/claims/" + id, "inconclusive", cases[i].first).ok());
      ASSERT_TRUE(w.value()->SetAttribute("/claims/" + id, "holds_fraction", cases[i].second).ok());
    }
    ASSERT_TRUE(w.value()->WriteClaim({"m", "x", "src", false, "e"}).ok());
    ASSERT_TRUE(w.value()->SetAttribute("/claims/m", "inconclusive", 1.0).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  }
  std::string list = "[";
  for (size_t i = 0; i <= cases.size(); ++i) {
    const std::string id = i < cases.size() ? "c" + std::to_string(i) : "m";
    list += std::string(i ? "," : "") + R"({"id":")" + id +
            R"(","study":"s","quantity":"q","source":"p","kind":"claim","h5":"/claims/)" + id +
            R"("})";
  }
  const auto v = VerifyAll(ParsePublishedList(list + "]").value(), dir);
  ASSERT_EQ(v.size(), cases.size() + 1);
  for (const auto& r : v) {
    EXPECT_EQ(r.verdict, "malformed") << r.entry_id << ": " << r.detail;
    EXPECT_TRUE(r.failure) << r.entry_id;
    EXPECT_NE(r.detail.find("s.h5"), std::string::npos) << r.detail;
  }
}

}  // namespace
}  // namespace privbench
