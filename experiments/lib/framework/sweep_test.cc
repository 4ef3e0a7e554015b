#include "experiments/lib/framework/sweep.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/provenance.h"

namespace privbench {
namespace {

TEST(ShardTest, ParsesAndRefuses) {
  EXPECT_EQ(ParseShard("2/5").value().index, 2);
  EXPECT_EQ(ParseShard("2/5").value().count, 5);
  EXPECT_FALSE(ParseShard("5/5").ok());
  EXPECT_FALSE(ParseShard("-1/5").ok());
  EXPECT_FALSE(ParseShard("1").ok());
  EXPECT_NE(ParseShard("x/y").message().find("shard must be i/n"), std::string::npos);
  Shard s{1, 3};
  EXPECT_TRUE(s.Owns(4));
  EXPECT_FALSE(s.Owns(5));
}

TEST(SweepTest, RunsOnceSkipsAfterwardsAndKeysPartsByConfiguration) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/sweep";
  std::vector<SweepUnit> units = {{"a=1"}, {"a=2"}, {"a=3"}};
  SweepOptions o{"s", dir, "config 1\n", Shard{}, 2, true, "test", 7, {}, {}};
  int calls = 0;
  auto fn = [&](int64_t k, const SweepUnit&, ResultWriter& part) {
    ++calls;
    return part.WriteScalar("/k", static_cast<double>(k));
  };
  auto r = RunSweep(units, o, fn);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->ran, 3);
  EXPECT_TRUE(r->all_complete());
  r = RunSweep(units, o, fn);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ran, 0);
  EXPECT_EQ(r->skipped, 3);
  EXPECT_EQ(calls, 3);
  auto parts = OpenSweepParts(units, o);
  ASSERT_TRUE(parts.ok());
  EXPECT_EQ((*parts)[2]->ReadDoubles("/k").value()[0], 2.0);

  // Another configuration gets a parts directory of its own: it runs every
  // unit afresh instead of failing on (or reusing) the first one's parts.
  SweepOptions other = o;
  other.config_text = "config 2\n";
  EXPECT_NE(PartsDirectory(other), PartsDirectory(o));
  EXPECT_EQ(PartsDirectory(o).rfind(dir + "/s.", 0), 0u) << PartsDirectory(o);
  auto fresh = RunSweep(units, other, fn);
  ASSERT_TRUE(fresh.ok()) << fresh.message();
  EXPECT_EQ(fresh->ran, 3);
  EXPECT_EQ(calls, 6);

  EXPECT_FALSE(RunSweep({{"x/y"}}, o, fn).ok());       // unsafe id
  EXPECT_FALSE(RunSweep({{"a"}, {"a"}}, o, fn).ok());  // duplicate ids
  auto failing = RunSweep(
      {{"f=1"}}, o, [](int64_t, const SweepUnit&, ResultWriter&) { return Status(Error("boom")); });
  ASSERT_FALSE(failing.ok());
  EXPECT_NE(failing.message().find("unit f=1: boom"), std::string::npos);
  EXPECT_FALSE(OpenSweepParts({{"f=1"}}, o).ok());  // the failed unit left no part
}

// The parts as they are on disk, without OpenSweepParts' checks (which
// refuse parts of another commit).
SweepParts ReadParts(const std::vector<SweepUnit>& units, const SweepOptions& o) {
  SweepParts out;
  for (const auto& u : units) {
    auto r = ResultReader::Open(PartPath(o, u));
    EXPECT_TRUE(r.ok()) << r.message();
    if (r.ok()) out.push_back(std::move(r).value());
  }
  return out;
}

TEST(SweepTest, NamesTheCodeVersionsThatMadeTheParts) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/versions";
  const std::vector<SweepUnit> units = {{"a=1"}, {"a=2"}, {"a=3"}};
  SweepOptions o{"s", dir, "config\n", Shard{}, 1, true, "test", 7, {}, {}};
  // Units 0 and 1 as if made by commit aaa, unit 2 by bbb with local edits.
  auto fn = [](int64_t k, const SweepUnit&, ResultWriter& part) -> Status {
    PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "git_commit", k < 2 ? "aaa" : "bbb"));
    return part.SetAttribute("/meta", "git_dirty", int64_t{k < 2 ? 0 : 1});
  };
  ASSERT_TRUE(RunSweep({units[0], units[1]}, o, fn).ok());
  auto two = ReadParts({units[0], units[1]}, o);
  const PartVersions same = DescribePartVersions(two);
  EXPECT_FALSE(same.mixed);
  // The versions, then where the parts were made (shard, host, Slurm job if any).
  const std::string made = "2 parts, all from commit aaa; made by shard 0/1 on ";
  EXPECT_EQ(same.description.substr(0, made.size()), made) << same.description;
  const std::string time = ": 2 parts; units' wall time ";
  EXPECT_NE(same.description.find(time), std::string::npos) << same.description;
  const std::string tail = " s in all (sum over parts)";
  EXPECT_EQ(same.description.substr(same.description.size() - tail.size()), tail)
      << same.description;
  auto part = ResultReader::Open(PartPath(o, units[0]));
  ASSERT_TRUE(part.ok()) << part.message();
  EXPECT_EQ((*part)->ReadStringAttribute("/meta", "shard").value_or(""), "0/1");
  EXPECT_EQ((*part)->ReadStringAttribute("/meta", "scale").value_or(""), "test");
  EXPECT_EQ((*part)->ReadStringAttribute("/meta", "seed").value_or(""), "7");

  // (A fresh directory: resuming would refuse the parts of commit aaa.)
  o.parts_dir = dir + "/three";
  ASSERT_TRUE(RunSweep(units, o, fn).ok());
  auto three = ReadParts(units, o);
  const PartVersions mixed = DescribePartVersions(three);
  EXPECT_TRUE(mixed.mixed);
  const std::string versions = "aaa: 2 parts; bbb +uncommitted changes: 1 parts; made by shard 0/1";
  EXPECT_EQ(mixed.description.substr(0, versions.size()), versions) << mixed.description;
}

// Parts written by an older binary with another layout used to be resumed
// and then failed in the merge ("no dataset '/audits/max_loss'"). A part of
// another commit is now refused on resume and on merge, naming the part, both
// commits and the fix; parts of this commit are reused, whatever their
// uncommitted-changes flag (a rebuild, or work in a dirty tree).
// --units runs exactly the named units, whatever the shard, and names an id
// the plan lacks.
TEST(SweepTest, UnitsSelectsTheNamedUnitsOnly) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/selected";
  const std::vector<SweepUnit> units = {{"u=1"}, {"u=2"}, {"u=3"}};
  SweepOptions o{"s", dir, "config\n", Shard{0, 2}, 1, true, "test", 7, {}, {}};
  o.only_units = {"u=2"};  // shard 0/2 would own u=1 and u=3
  std::vector<int64_t> ran;
  auto fn = [&](int64_t k, const SweepUnit&, ResultWriter&) -> Status {
    ran.push_back(k);
    return Status::Ok();
  };
  auto report = RunSweep(units, o, fn);
  ASSERT_TRUE(report.ok()) << report.message();
  EXPECT_EQ(ran, std::vector<int64_t>{1});
  EXPECT_EQ(report->complete, 1);
  o.only_units = {"u=9"};
  auto unknown = RunSweep(units, o, fn);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("--units: 'u=9' is not a unit of this sweep"), std::string::npos)
      << unknown.message();
}

TEST(SweepTest, RefusesPartsOfAnotherCommit) {
  const std::string ours = BuildCommit();
  if (ours == "unknown") GTEST_SKIP() << "binary built outside git: no commit to compare";
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/stale";
  const std::vector<SweepUnit> units = {{"u=1"}, {"u=2"}};
  SweepOptions o{"s", dir, "config\n", Shard{}, 1, true, "test", 7, {}, {}};
  const std::string old_commit(40, 'a');
  auto old_binary = [&](int64_t, const SweepUnit&, ResultWriter& part) -> Status {
    PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "git_commit", old_commit));
    return part.SetAttribute("/meta", "git_dirty", int64_t{0});
  };
  ASSERT_TRUE(RunSweep({units[0]}, o, old_binary).ok());
  int ran = 0;
  auto fn = [&](int64_t, const SweepUnit&, ResultWriter&) -> Status {
    ++ran;
    return Status::Ok();
  };
  const std::string expected = "part '" + PartPath(o, units[0]) + "' was made by commit " +
                               old_commit + ", this binary by commit " + ours;
  auto resumed = RunSweep(units, o, fn);
  ASSERT_FALSE(resumed.ok());
  EXPECT_EQ(resumed.message().rfind(expected, 0), 0u) << resumed.message();
  EXPECT_NE(
      resumed.message().find("Remove " + PartsDirectory(o) + " (or choose another --parts_dir)"),
      std::string::npos)
      << resumed.message();
  EXPECT_EQ(ran, 0);
  auto merged = OpenSweepParts({units[0]}, o);
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.message().rfind(expected, 0), 0u) << merged.message();
  EXPECT_NE(merged.message().find("--accept_parts_from=" + old_commit), std::string::npos);

  // Named with --accept_parts_from (a prefix of 7 or more digits), the old
  // commit's part is reused: only the missing unit runs; a 6-digit prefix
  // names nothing.
  o.accept_parts_from = old_commit.substr(0, 6);
  EXPECT_FALSE(RunSweep(units, o, fn).ok());
  o.accept_parts_from = old_commit.substr(0, 7);
  auto accepted = RunSweep(units, o, fn);
  ASSERT_TRUE(accepted.ok()) << accepted.message();
  EXPECT_EQ(accepted->skipped, 1);
  EXPECT_EQ(ran, 1);
  EXPECT_TRUE(OpenSweepParts(units, o).ok());
  // One of several comma-separated commits.
  o.accept_parts_from = "abcdef0," + old_commit.substr(0, 8);
  EXPECT_TRUE(OpenSweepParts(units, o).ok());
  o.accept_parts_from = "abcdef0,1234567";
  EXPECT_FALSE(OpenSweepParts(units, o).ok());
  o.accept_parts_from.clear();

  // This commit, with or without uncommitted changes, and an unknown commit
  // (a binary built outside git): reused.
  o.parts_dir = dir + "/same";
  for (const char* commit : {"ours", "ours-dirty", "unknown"}) {
    auto maker = [&](int64_t, const SweepUnit&, ResultWriter& part) -> Status {
      const std::string c = commit[0] == 'o' ? ours : commit;
      PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "git_commit", c));
      return part.SetAttribute("/meta", "git_dirty", int64_t{commit[4] == '-' ? 1 : 0});
    };
    o.config_text = std::string("config ") + commit + "\n";
    ASSERT_TRUE(RunSweep({units[0]}, o, maker).ok()) << commit;
    ran = 0;
    auto report = RunSweep(units, o, fn);
    ASSERT_TRUE(report.ok()) << commit << ": " << report.message();
    EXPECT_EQ(report->skipped, 1) << commit;
    EXPECT_EQ(ran, 1) << commit;
    EXPECT_TRUE(OpenSweepParts(units, o).ok()) << commit;
  }
}

}  // namespace
}  // namespace privbench
