#include "results/h5_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "core/provenance.h"

namespace privbench {
namespace {

std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

bool FileExists(const std::string& p) { return access(p.c_str(), F_OK) == 0; }

RunMeta Meta() {
  RunMeta m;
  m.study = "unit";
  m.paper = "none";
  m.section = "-";
  m.config_text = "n = 3\n";
  m.scale = "test";
  m.seed = 18446744073709551615ULL;  // 2^64 - 1 survives as text
  return m;
}

// Once a study's declaration is attached, a claim's statement and source
// are the declared ones, an undeclared claim is refused by name, and so is a
// claim that brings a statement of its own (a second copy that could drift).
TEST(ResultFileTest, DeclaredClaimsSupplyStatementAndRefuseUndeclaredIds) {
  const std::string path = TempDir() + "/declared.h5";
  {
    auto w = ResultWriter::Create(path, Meta());
    ASSERT_TRUE(w.ok()) << w.message();
    ResultWriter& f = *w.value();
    f.DeclareClaims({{"narrower", {"declared statement", "declared source", "x < y"}}});
    const Status own_statement =
        f.WriteClaim({"narrower", "code's statement", "code's source", true, "1<2"});
    ASSERT_FALSE(own_statement.ok());
    EXPECT_NE(own_statement.message().find("'narrower' carries its own statement"),
              std::string::npos)
        << own_statement.message();
    ASSERT_TRUE(f.WriteClaim(ClaimEvidence("narrower", true, "1<2")).ok());
    const Status undeclared = f.WriteClaim(ClaimEvidence("other", false, "e"));
    ASSERT_FALSE(undeclared.ok());
    EXPECT_NE(undeclared.message().find("'other'"), std::string::npos) << undeclared.message();
    ASSERT_TRUE(f.Commit().ok());
  }
  auto r = ResultReader::Open(path);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r.value()->ReadStringAttribute("/claims/narrower", "statement").value(),
            "declared statement");
  EXPECT_EQ(r.value()->ReadStringAttribute("/claims/narrower", "source").value(),
            "declared source");
  EXPECT_EQ(r.value()->ReadStringAttribute("/claims/narrower", "criterion").value(), "x < y");
  EXPECT_EQ(r.value()->ReadStringAttribute("/claims/narrower", "evidence").value(), "1<2");
  EXPECT_FALSE(r.value()->Exists("/claims/other"));
}

TEST(ResultFileTest, RoundTripsDatasetsAttributesTablesAndClaims) {
  const std::string path = TempDir() + "/roundtrip.h5";
  {
    auto w = ResultWriter::Create(path, Meta());
    ASSERT_TRUE(w.ok()) << w.message();
    ResultWriter& f = *w.value();
    ASSERT_TRUE(f.WriteDoubles("/a/b/x", {1.5, 2.5, 3.5, 4.5, 5.5, 6.5}, {2, 3}).ok());
    ASSERT_TRUE(f.WriteInts("/a/n", {1, -2, 3}).ok());
    ASSERT_TRUE(f.WriteStrings("/a/names", {"clopper_pearson", "bayesian", "ε"}).ok());
    ASSERT_TRUE(f.SetAttribute("/a/b/x", "unit", "nats").ok());
    SummaryTable t{"main",
                   "Title",
                   "Caption",
                   {Column::Strings("method", {"cp", "bayes"}),
                    Column::Doubles("lower", {0.1, 0.2}), Column::Ints("n", {10, 20})}};
    ASSERT_TRUE(f.WriteTable(t).ok());
    ASSERT_TRUE(f.WriteClaim({"narrower", "Bayesian is narrower", "Sec. 3.4", true, "w=1<2"}).ok());
    EXPECT_FALSE(FileExists(path)) << "nothing may appear at the final path before Commit()";
    ASSERT_TRUE(f.Commit().ok());
  }
  ASSERT_TRUE(FileExists(path));
  auto r = ResultReader::Open(path);
  ASSERT_TRUE(r.ok()) << r.message();
  const ResultReader& f = *r.value();
  EXPECT_EQ(f.ReadDoubles("/a/b/x").value(), (std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}));
  EXPECT_EQ(f.Shape("/a/b/x").value(), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(f.ReadInts("/a/n").value(), (std::vector<int64_t>{1, -2, 3}));
  EXPECT_EQ(f.ReadStrings("/a/names").value()[2], "ε");
  EXPECT_EQ(f.ReadStringAttribute("/a/b/x", "unit").value(), "nats");
  EXPECT_EQ(f.ReadStringAttribute("/meta", "study").value(), "unit");
  EXPECT_EQ(f.ReadStringAttribute("/meta", "seed").value(), "18446744073709551615");
  EXPECT_EQ(f.ReadStringAttribute("/meta", "config").value(), "n = 3\n");
  EXPECT_TRUE(f.ReadStringAttribute("/meta", "end_time").ok());
  // Provenance comes from the build stamp (core/provenance.h), not from git
  // at run time.
  EXPECT_EQ(f.ReadStringAttribute("/meta", "git_commit").value(), BuildCommit());
  EXPECT_EQ(f.ReadIntAttribute("/meta", "git_dirty").value(), BuildDirty() ? 1 : 0);
  const SummaryTable t = f.ReadTable("main").value();
  ASSERT_EQ(t.columns.size(), 3u);
  EXPECT_EQ(t.columns[0].strings[1], "bayes");
  EXPECT_EQ(t.columns[2].ints[1], 20);
  const auto claims = f.ReadAllClaims().value();
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_TRUE(claims[0].holds);
  EXPECT_EQ(claims[0].evidence, "w=1<2");
  EXPECT_FALSE(f.ReadDoubles("/missing/x").ok());
  EXPECT_NE(f.ReadDoubles("/missing/x").message().find("no dataset '/missing/x'"),
            std::string::npos);
}

TEST(ResultFileTest, UncommittedWriterLeavesNothingBehind) {
  const std::string path = TempDir() + "/abandoned.h5";
  {
    auto w = ResultWriter::Create(path, Meta());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->WriteDoubles("/x", {1.0}).ok());
  }
  EXPECT_FALSE(FileExists(path));
  EXPECT_FALSE(FileExists(path + ".tmp." + std::to_string(getpid())));
}

TEST(ResultFileTest, RefusesUnwritableDirectoryAndBadShapes) {
  auto w = ResultWriter::Create("/nonexistent_dir_for_test/x.h5", Meta());
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.message().find("'/nonexistent_dir_for_test' does not exist or is not writable"),
            std::string::npos);
  auto ok = ResultWriter::Create(TempDir() + "/shape.h5", Meta());
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok.value()->WriteDoubles("/x", {1, 2, 3}, {2, 2}).ok());
  EXPECT_TRUE(ok.value()->WriteDoubles("/y", {1, 2}).ok());
  EXPECT_NE(ok.value()->WriteDoubles("/y", {1, 2}).message().find("written twice"),
            std::string::npos);
  SummaryTable ragged{"t", "", "", {Column::Doubles("a", {1, 2}), Column::Doubles("b", {1})}};
  EXPECT_NE(ok.value()->WriteTable(ragged).message().find("column 'b' has 1 rows, expected 2"),
            std::string::npos);
}

TEST(ResultFileTest, SameContentSameBytesApartFromMetaTimes) {
  // Object times are not tracked, so files differ only in /meta attributes.
  auto write = [](const std::string& path) {
    auto w = ResultWriter::Create(path, Meta());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value()->WriteDoubles("/data/x", {1, 2, 3}).ok());
    ASSERT_TRUE(w.value()->Commit().ok());
  };
  const std::string a = TempDir() + "/same_a.h5", b = TempDir() + "/same_b.h5";
  write(a);
  write(b);
  auto ra = ResultReader::Open(a), rb = ResultReader::Open(b);
  EXPECT_EQ(ra.value()->ReadDoubles("/data/x").value(), rb.value()->ReadDoubles("/data/x").value());
  struct stat sa, sb;
  ASSERT_EQ(stat(a.c_str(), &sa), 0);
  ASSERT_EQ(stat(b.c_str(), &sb), 0);
  EXPECT_EQ(sa.st_size, sb.st_size);
}

}  // namespace
}  // namespace privbench
