// Regression tests of the result files against damage and hostile content
// ("nothing crashes, nothing lies"): every reader error names the file,
// and no malformed file yields a verdict or a table.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>

#include "core/files.h"
#include "results/h5_file.h"
#include "results/tables_lib.h"
#include "results/verify_lib.h"

namespace privbench {
namespace {

std::string FreshDir(const std::string& name) {
  const char* t = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(t ? t : "/tmp") + "/" + name;
  EXPECT_TRUE(MakeDirs(dir).ok());
  return dir;
}

// A valid study file: one table, two claims, a scalar.
void WriteStudy(const std::string& path, const std::string& scale = "quick") {
  RunMeta meta;
  meta.study = "s";
  meta.scale = scale;
  auto w = ResultWriter::Create(path, meta);
  ASSERT_TRUE(w.ok()) << w.message();
  ASSERT_TRUE(w.value()->WriteScalar("/numbers/x", 6.25).ok());
  ASSERT_TRUE(w.value()->WriteDoubles("/raw/marker", {1234.5678, 8765.4321}).ok());
  ASSERT_TRUE(w.value()->WriteClaim({"c1", "x narrower", "src", false, "evidence-text"}).ok());
  ASSERT_TRUE(w.value()->WriteClaim({"c2", "y rises", "src", true, "1 < 2"}).ok());
  ASSERT_TRUE(
      w.value()
          ->WriteTable({"t", "T", "", {Column::Doubles("a", {1, 2}), Column::Ints("b", {3, 4})}})
          .ok());
  ASSERT_TRUE(w.value()->Commit().ok());
}

// Edits a committed file with raw HDF5 calls. With `reseal`, the checksum is
// recomputed afterwards (as anyone editing a file can), so the readers'
// other checks are what must catch the edit.
void Tamper(const std::string& path, bool reseal, const std::function<void(hid_t)>& edit) {
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  edit(f);
  H5Fclose(f);
  if (reseal) {
    const Status resealed = RecomputeChecksum(path);
    ASSERT_TRUE(resealed.ok()) << resealed.message();
  }
}

void SetAttr(hid_t f, const char* obj_path, const char* name, hid_t type, const void* value) {
  const hid_t obj = H5Oopen(f, obj_path, H5P_DEFAULT);
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, type, value);
  H5Aclose(a);
  H5Sclose(space);
  H5Oclose(obj);
}

const char kEntries[] = R"([
  {"id":"n","study":"s","quantity":"q","source":"p","kind":"number","published":"6.25","h5":"/numbers/x"},
  {"id":"c","study":"s","quantity":"q","source":"p","kind":"claim","h5":"/claims/c2"}
])";

TEST(HostileFiles, NanClaimIsAnErrorNotReproduced) {  // item 8
  const std::string dir = FreshDir("nan_claim");
  WriteStudy(dir + "/s.h5");
  Tamper(dir + "/s.h5", true, [](hid_t f) {
    const double nan = std::nan("");
    SetAttr(f, "/claims/c2", "holds", H5T_NATIVE_DOUBLE, &nan);
  });
  auto r = ResultReader::Open(dir + "/s.h5");
  ASSERT_TRUE(r.ok()) << r.message();
  auto claims = r.value()->ReadAllClaims();
  ASSERT_FALSE(claims.ok());
  EXPECT_NE(claims.message().find(dir + "/s.h5: attribute 'holds' on '/claims/c2'"),
            std::string::npos)
      << claims.message();
  EXPECT_FALSE(StudyMarkdown(*r.value()).ok());
  const auto v = VerifyAll(ParsePublishedList(kEntries).value(), dir);
  EXPECT_EQ(v[1].verdict, "malformed");
  EXPECT_TRUE(v[1].failure);
  r = Error("closed");  // HDF5 opens a file read-write only once nobody reads it
  // An integer other than 0/1 too.
  Tamper(dir + "/s.h5", true, [](hid_t f) {
    const int64_t two = 2;
    SetAttr(f, "/claims/c2", "holds", H5T_NATIVE_INT64, &two);
  });
  EXPECT_NE(ResultReader::Open(dir + "/s.h5")
                .value()
                ->ReadAllClaims()
                .message()
                .find("claim '/claims/c2': holds must be 0 or 1, got 2"),
            std::string::npos);
}

TEST(HostileFiles, MissingScaleIsRefused) {  // item 9
  const std::string dir = FreshDir("no_scale");
  WriteStudy(dir + "/s.h5");
  Tamper(dir + "/s.h5", true, [](hid_t f) {
    const hid_t meta = H5Oopen(f, "/meta", H5P_DEFAULT);
    H5Adelete(meta, "scale");
    H5Oclose(meta);
  });
  const auto v = VerifyAll(ParsePublishedList(kEntries).value(), dir);
  for (const Verdict& x : v) {
    EXPECT_EQ(x.verdict, "malformed");
    EXPECT_TRUE(x.failure);
    EXPECT_NE(x.detail.find("no attribute 'scale' on '/meta'"), std::string::npos) << x.detail;
  }
  EXPECT_FALSE(StudyMarkdown(*ResultReader::Open(dir + "/s.h5").value()).ok());
  WriteStudy(dir + "/s.h5", "huge");
  EXPECT_EQ(VerifyAll(ParsePublishedList(kEntries).value(), dir)[0].verdict, "malformed");
}

TEST(HostileFiles, RaggedColumnsAreRefused) {  // item 10
  const std::string dir = FreshDir("ragged");
  WriteStudy(dir + "/s.h5");
  Tamper(dir + "/s.h5", true, [](hid_t f) {
    H5Ldelete(f, "/summary/t/b", H5P_DEFAULT);
    const hsize_t dims[1] = {1};
    const hid_t space = H5Screate_simple(1, dims, nullptr);
    const hid_t ds =
        H5Dcreate2(f, "/summary/t/b", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const int64_t v = 9;
    H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v);
    H5Dclose(ds);
    H5Sclose(space);
  });
  auto t = ResultReader::Open(dir + "/s.h5").value()->ReadAllTables();
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.message().find("s.h5: table 't': column 'b' has 1 rows, column 'a' has 2"),
            std::string::npos)
      << t.message();
}

// Replaces /summary/t/a by a sparse chunked dataset of `values` doubles
// (nothing written: the file stays small).
void MakeSparse(hid_t f, hsize_t values) {
  H5Ldelete(f, "/summary/t/a", H5P_DEFAULT);
  const hsize_t dims[1] = {values}, chunk[1] = {1024};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, chunk);
  const hid_t ds =
      H5Dcreate2(f, "/summary/t/a", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5Dclose(ds);
  H5Pclose(dcpl);
  H5Sclose(space);
}

TEST(HostileFiles, HugeDatasetIsRefusedBeforeAllocating) {  // item 11
  const std::string dir = FreshDir("huge");
  WriteStudy(dir + "/s.h5");
  // Beyond the absolute cap: refused on Open (the checksum pass reads
  // every dataset), before any allocation.
  Tamper(dir + "/s.h5", false, [](hid_t f) { MakeSparse(f, hsize_t{1} << 40); });
  auto r = ResultReader::Open(dir + "/s.h5");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("dataset '/summary/t/a' holds 1099511627776 values"),
            std::string::npos)
      << r.message();
  // Under the absolute cap but far beyond the file's size (2^27 doubles,
  // 1 GiB, in a file of a few KB): refused relative to the file's size.
  WriteStudy(dir + "/s.h5");
  Tamper(dir + "/s.h5", false, [](hid_t f) { MakeSparse(f, hsize_t{1} << 27); });
  r = ResultReader::Open(dir + "/s.h5");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("dataset '/summary/t/a' declares 134217728 values (1073741824 "
                             "bytes to load) in a file of "),
            std::string::npos)
      << r.message();
}

// Objects linked twice (a DAG whose traversal doubles per level, or a
// cycle) are refused on Open, after one visit of each object.
TEST(HostileFiles, SharedAndCyclicLinksAreRefused) {
  const std::string dir = FreshDir("links");
  WriteStudy(dir + "/s.h5");
  Tamper(dir + "/s.h5", false, [](hid_t f) {
    // 31 groups, each linking twice to the next: 2^31 paths.
    std::string prev = "/dag0";
    H5Gclose(H5Gcreate2(f, prev.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    for (int i = 1; i <= 31; ++i) {
      const std::string g = "/dag" + std::to_string(i);
      H5Gclose(H5Gcreate2(f, g.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      H5Lcreate_hard(f, g.c_str(), f, (prev + "/a").c_str(), H5P_DEFAULT, H5P_DEFAULT);
      H5Lcreate_hard(f, g.c_str(), f, (prev + "/b").c_str(), H5P_DEFAULT, H5P_DEFAULT);
      prev = g;
    }
  });
  auto r = ResultReader::Open(dir + "/s.h5");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("hard links; every object of a result file has exactly one"),
            std::string::npos)
      << r.message();
  WriteStudy(dir + "/s.h5");
  Tamper(dir + "/s.h5", false, [](hid_t f) {
    H5Lcreate_hard(f, "/numbers", f, "/numbers/loop", H5P_DEFAULT, H5P_DEFAULT);
  });
  r = ResultReader::Open(dir + "/s.h5");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("'/numbers' has 2 hard links"), std::string::npos) << r.message();
}

// A dataset whose values live outside the file (external raw storage, a
// virtual dataset) is refused: its bytes could be any file on the machine.
TEST(HostileFiles, DataOutsideTheFileIsRefused) {
  const std::string dir = FreshDir("external");
  WriteStudy(dir + "/s.h5");
  Tamper(dir + "/s.h5", false, [](hid_t f) {
    H5Ldelete(f, "/raw/marker", H5P_DEFAULT);
    const hsize_t dims[1] = {8};
    const hid_t space = H5Screate_simple(1, dims, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_external(dcpl, "/etc/passwd", 0, 64);
    const hid_t ds =
        H5Dcreate2(f, "/raw/marker", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
  });
  auto r = ResultReader::Open(dir + "/s.h5");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("dataset '/raw/marker' keeps its values in an external file"),
            std::string::npos)
      << r.message();
  WriteStudy(dir + "/s.h5");
  WriteStudy(dir + "/source.h5");
  Tamper(dir + "/s.h5", false, [&](hid_t f) {
    H5Ldelete(f, "/raw/marker", H5P_DEFAULT);
    const hsize_t dims[1] = {2};
    const hid_t space = H5Screate_simple(1, dims, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_virtual(dcpl, space, (dir + "/source.h5").c_str(), "/raw/marker", space);
    const hid_t ds =
        H5Dcreate2(f, "/raw/marker", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
  });
  r = ResultReader::Open(dir + "/s.h5");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("dataset '/raw/marker' is a virtual dataset"), std::string::npos)
      << r.message();
}

// format_version 1 (written before checksums) is no longer read: claiming
// it skipped every integrity check.
TEST(HostileFiles, FormatVersionsWithoutChecksumAreRefused) {
  const std::string dir = FreshDir("version1");
  WriteStudy(dir + "/s.h5");
  Tamper(dir + "/s.h5", false, [](hid_t f) {
    const hid_t meta = H5Oopen(f, "/meta", H5P_DEFAULT);
    const int64_t one = 1;
    const hid_t a = H5Aopen(meta, "format_version", H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &one);
    H5Aclose(a);
    H5Oclose(meta);
  });
  auto r = ResultReader::Open(dir + "/s.h5");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("format_version 1 is not read"), std::string::npos) << r.message();
}

TEST(HostileFiles, FifoIsNotOpened) {  // item 12
  const std::string dir = FreshDir("fifo");
  ASSERT_EQ(mkfifo((dir + "/trap.h5").c_str(), 0644), 0);
  auto r = ResultReader::Open(dir + "/trap.h5");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "'" + dir + "/trap.h5' is not a regular file");
  EXPECT_TRUE(ListFiles(dir, ".h5").value().empty());
}

// A directory or FIFO named <study>.h5 is malformed for the tables as for
// verify: an index row and exit code 1, never a silent skip.
TEST(HostileFiles, TablesCallNonRegularEntriesMalformedAsVerifyDoes) {
  const std::string dir = FreshDir("tables_nonregular");
  const std::string out = dir + "/out";
  WriteStudy(dir + "/good.h5");
  ASSERT_TRUE(MakeDirs(dir + "/s.h5").ok());
  ASSERT_EQ(mkfifo((dir + "/trap.h5").c_str(), 0644), 0);
  EXPECT_EQ(WriteTables(dir, out), 1);
  const std::string index = ReadFile(out + "/index.md").value();
  EXPECT_NE(index.find("| s | malformed: '" + dir + "/s.h5' is not a regular file |"),
            std::string::npos)
      << index;
  EXPECT_NE(index.find("| trap | malformed: '" + dir + "/trap.h5' is not a regular file |"),
            std::string::npos)
      << index;
  EXPECT_NE(index.find("[good](good.md)"), std::string::npos) << index;
  EXPECT_TRUE(IsRegularFile(out + "/good.md"));
  EXPECT_EQ(VerifyAll(ParsePublishedList(kEntries).value(), dir)[0].verdict, "malformed");
  // Without the bad entries the same directory is clean.
  ASSERT_EQ(rmdir((dir + "/s.h5").c_str()), 0);
  ASSERT_EQ(unlink((dir + "/trap.h5").c_str()), 0);
  EXPECT_EQ(WriteTables(dir, out), 0);
}

TEST(HostileFiles, BitFlipsAreDetectedByTheChecksum) {  // item 13
  const std::string dir = FreshDir("flip");
  const std::string path = dir + "/s.h5";
  WriteStudy(path);
  std::ifstream in(path, std::ios::binary);
  const std::string clean((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(ResultReader::Open(path).ok());
  // Flip one bit in the raw data of /raw/marker and in a claim's evidence.
  const double marker = 1234.5678;
  const std::string marker_bytes(reinterpret_cast<const char*>(&marker), sizeof(marker));
  for (const std::string& needle : {marker_bytes, std::string("evidence-text")}) {
    const size_t at = clean.find(needle);
    ASSERT_NE(at, std::string::npos);
    std::string damaged = clean;
    damaged[at + 3] ^= 0x10;
    ASSERT_TRUE(WriteFileAtomic(path, damaged).ok());
    auto r = ResultReader::Open(path);
    ASSERT_FALSE(r.ok()) << "a flipped bit went unnoticed";
    EXPECT_NE(r.message().find(path + ": checksum mismatch, the file is damaged"),
              std::string::npos)
        << r.message();
    const auto v = VerifyAll(ParsePublishedList(kEntries).value(), dir);
    EXPECT_EQ(v[0].verdict, "malformed");
    EXPECT_TRUE(v[0].failure);
  }
}

TEST(HostileFiles, FullDiskFailsCleanlyAndKeepsTheOldFile) {  // item 14
  const std::string dir = FreshDir("full");
  const std::string path = dir + "/s.h5";
  WriteStudy(path);
  std::ifstream in(path, std::ios::binary);
  const std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  RunMeta meta;
  meta.study = "s";
  meta.scale = "quick";
  auto w = ResultWriter::Create(path, meta);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(w.value()->WriteDoubles("/big", std::vector<double>(100000, 1.0)).ok());
  // A file-size limit makes write() fail (EFBIG) as a full disk would.
  signal(SIGXFSZ, SIG_IGN);
  rlimit saved;
  getrlimit(RLIMIT_FSIZE, &saved);
  rlimit small = saved;
  small.rlim_cur = 64 * 1024;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const Status s = w.value()->Commit();
  setrlimit(RLIMIT_FSIZE, &saved);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot write result file '" + path + ".tmp."), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("File too large"), std::string::npos) << s.message();
  w.value().reset();
  EXPECT_EQ(ReadFile(path).value(), old) << "the previous result must stay intact";
  EXPECT_EQ(ListFiles(dir, "").value(), std::vector<std::string>{"s.h5"}) << "no temporary left";
}

TEST(HostileFiles, StaleTemporariesOfDeadProcessesAreRemoved) {  // item 15
  const std::string dir = FreshDir("stale");
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);  // `child` is now a dead pid
  const std::string dead = dir + "/s.h5.tmp." + std::to_string(child);
  const std::string part = dir + "/unit=3.h5.tmp." + std::to_string(child);
  const std::string alive = dir + "/s.h5.tmp." + std::to_string(getppid());
  for (const auto& p : {dead, part, alive}) ASSERT_TRUE(WriteFileAtomic(p, "partial").ok());
  WriteStudy(dir + "/s.h5");
  EXPECT_FALSE(FileExists(dead));
  EXPECT_FALSE(FileExists(part));
  EXPECT_TRUE(FileExists(alive)) << "a live process's temporary is kept";
  EXPECT_EQ(ListFiles(dir, ".h5").value(), std::vector<std::string>{"s.h5"});
}

TEST(HostileFiles, Hdf5ErrorStacksStayQuietInWorkerThreads) {  // item 16
  const std::string dir = FreshDir("quiet");
  RunMeta meta;
  meta.scale = "quick";
  auto w = ResultWriter::Create(dir + "/q.h5", meta);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(w.value()->WriteDoubles("/x", {1.0}).ok());
  testing::internal::CaptureStderr();
  Status s;
  std::thread worker([&] { s = w.value()->WriteDoubles("/x/y", {2.0}); });  // /x is a dataset
  worker.join();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(err, "") << "HDF5 printed its error stack";
}

}  // namespace
}  // namespace privbench
