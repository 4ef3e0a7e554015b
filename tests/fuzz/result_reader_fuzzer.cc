// libFuzzer target for the result-file readers (results/h5_file,
// tables_lib, verify_lib). The input is a recipe, not raw HDF5 bytes: it
// starts from a valid study file and applies up to 12 edits through the
// HDF5 API (attributes of any type or value — NaN claims, missing scale,
// odd column lists; datasets of any type, rank and size — ragged, 2^40
// values, strings where numbers belong; deleted objects, extra groups, soft
// links, hard-link cycles), then reseals it (recomputes the checksum, as
// anyone editing a file can) or leaves the checksum to catch the edits. Every file is valid HDF5,
// so what is fuzzed is our readers' handling of hostile content, not libhdf5's parser. The oracle,
// beyond "no crash, no sanitizer report": a table that reads has equal-length columns, a claim that
// reads is 0/1, and verify never calls a file with a bad scale or claim anything but a failure.
// Seed corpus: tests/fuzz/corpus/result_reader.
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "results/h5_file.h"
#include "results/tables_lib.h"
#include "results/verify_lib.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

using privbench::Column;

// Consumes the input byte by byte; zeros once it runs out.
class Recipe {
 public:
  Recipe(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  uint8_t U8() { return n_ > 0 ? (--n_, *p_++) : 0; }
  uint64_t U64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | U8();
    return v;
  }
  double F64() {
    const uint64_t bits = U64();
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
  }
  std::string Str() {
    const size_t len = U8() % 24;
    std::string s;
    for (size_t i = 0; i < len; ++i) s += static_cast<char>(U8());
    return s;
  }
  template <size_t N>
  const char* Pick(const char* const (&options)[N]) {
    return options[U8() % N];
  }
  bool done() const { return n_ == 0; }

 private:
  const uint8_t* p_;
  size_t n_;
};

const char* const kObjects[] = {"/meta",      "/claims/c1",   "/claims/c2",
                                "/summary/t", "/summary/t/a", "/numbers/x"};
const char* const kAttributes[] = {"holds", "scale",   "format_version", "checksum", "columns",
                                   "title", "caption", "statement",      "evidence", "source"};
const char* const kDatasets[] = {"/summary/t/a", "/summary/t/b", "/summary/t/c", "/numbers/x",
                                 "/claims/c1/extra"};
const char* const kLinks[] = {"/summary/t/a", "/summary/t", "/claims/c1", "/meta",
                              "/numbers/x",   "/summary",   "/claims"};

void WriteBase(const std::string& path) {
  privbench::RunMeta meta;
  meta.study = "fuzz";
  meta.scale = "quick";
  auto w = privbench::ResultWriter::Create(path, meta);
  if (!w.ok()) std::abort();
  privbench::ResultWriter& f = *w.value();
  const bool ok = f.WriteScalar("/numbers/x", 6.25).ok() &&
                  f.WriteTable({"t",
                                "T",
                                "caption",
                                {Column::Doubles("a", {1.5, 2.5}), Column::Ints("b", {3, 4}),
                                 Column::Strings("c", {"x", "y"})}})
                      .ok() &&
                  f.WriteClaim({"c1", "s", "src", true, "e"}).ok() &&
                  f.WriteClaim({"c2", "s", "src", false, "e"}).ok() && f.Commit().ok();
  if (!ok) std::abort();
}

void SetAttribute(hid_t file, Recipe& r) {
  const hid_t obj = H5Oopen(file, r.Pick(kObjects), H5P_DEFAULT);
  if (obj < 0) return;
  const char* name = r.Pick(kAttributes);
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  const hid_t space = H5Screate(H5S_SCALAR);
  const uint8_t kind = r.U8() % 4;
  if (kind == 0 || kind == 1) {
    const hid_t type = kind == 0 ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
    const int64_t i = static_cast<int64_t>(r.U64() % 4) - 1;  // -1, 0, 1, 2
    const double d = r.U8() % 2 ? NAN : r.F64();
    const hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, type, kind == 0 ? static_cast<const void*>(&i) : &d);
    H5Aclose(a);
  } else {
    const hid_t type = H5Tcopy(H5T_C_S1);
    const std::string s = kind == 2 ? r.Str() : std::string(r.Pick(kAttributes));
    H5Tset_size(type, H5T_VARIABLE);
    const char* ptr = s.c_str();
    const hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, type, &ptr);
    H5Aclose(a);
    H5Tclose(type);
  }
  H5Sclose(space);
  H5Oclose(obj);
}

void ReplaceDataset(hid_t file, Recipe& r) {
  const char* path = r.Pick(kDatasets);
  if (H5Lexists(file, path, H5P_DEFAULT) > 0) H5Ldelete(file, path, H5P_DEFAULT);
  const int rank = r.U8() % 3;
  const bool huge = r.U8() % 8 == 0;
  hsize_t dims[2] = {1, 1}, total = 1;
  for (int i = 0; i < rank; ++i) {
    dims[i] = huge && i == 0 ? (hsize_t{1} << 40) : r.U8() % 6;
    total *= dims[i];
  }
  const hid_t space = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (huge && rank > 0) {
    hsize_t chunk[2] = {64, 1};
    H5Pset_chunk(dcpl, rank, chunk);
  }
  const uint8_t kind = r.U8() % 4;
  const hid_t type = kind == 0   ? H5Tcopy(H5T_IEEE_F64LE)
                     : kind == 1 ? H5Tcopy(H5T_STD_I64LE)
                     : kind == 2 ? H5Tcopy(H5T_STD_I8LE)
                                 : H5Tcopy(H5T_C_S1);
  if (kind == 3) H5Tset_size(type, 4);  // fixed-length strings
  const hid_t ds = H5Dcreate2(file, path, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (ds >= 0 && !huge && total > 0) {
    std::vector<uint8_t> bytes(total * 8);
    for (auto& b : bytes) b = r.U8();
    H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
  }
  if (ds >= 0) H5Dclose(ds);
  H5Tclose(type);
  H5Pclose(dcpl);
  H5Sclose(space);
}

void EditLinks(hid_t file, Recipe& r) {
  const uint8_t kind = r.U8() % 4;
  const char* target = r.Pick(kLinks);
  if (kind == 0 && H5Lexists(file, target, H5P_DEFAULT) > 0) {
    H5Ldelete(file, target, H5P_DEFAULT);
  } else if (kind == 1) {
    const std::string name = std::string(r.U8() % 2 ? "/summary/" : "/claims/") + r.Str();
    const hid_t g = H5Gcreate2(file, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g >= 0) H5Gclose(g);
  } else if (kind == 2) {
    H5Lcreate_soft(target, file, "/summary/t/soft", H5P_DEFAULT, H5P_DEFAULT);
  } else {
    H5Lcreate_hard(file, target, file, "/summary/t/loop", H5P_DEFAULT, H5P_DEFAULT);
  }
}

void Edit(const std::string& path, Recipe& r) {
  const bool reseal = r.U8() % 4 != 0;  // mostly: get past the checksum
  const int edits = r.U8() % 12;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) std::abort();
  for (int i = 0; i < edits && !r.done(); ++i) {
    switch (r.U8() % 3) {
      case 0:
        SetAttribute(file, r);
        break;
      case 1:
        ReplaceDataset(file, r);
        break;
      default:
        EditLinks(file, r);
    }
  }
  H5Fclose(file);
  // A structure the digest refuses cannot be resealed; the reader must then
  // refuse it on Open.
  if (reseal) (void)privbench::RecomputeChecksum(path);
}

void Read(const std::string& dir, const std::string& path) {
  auto opened = privbench::ResultReader::Open(path);
  if (opened.ok()) {
    const privbench::ResultReader& f = *opened.value();
    auto tables = f.ReadAllTables();
    if (tables.ok()) {
      for (const auto& t : *tables) {
        if (t.columns.empty()) std::abort();
        for (const Column& c : t.columns) {
          if (c.size() != t.columns[0].size()) std::abort();  // ragged table read
        }
        privbench::TableMarkdown(t);
        privbench::TableCsv(t);
      }
    }
    (void)f.ReadAllClaims();
    (void)f.ReadDoubles("/numbers/x");
    (void)f.Shape("/summary/t/a");
    (void)privbench::StudyMarkdown(f);
  }
  static const auto entries = privbench::ParsePublishedList(R"([
    {"id":"n","study":"fuzz","quantity":"q","source":"p","kind":"number","published":"6.25","h5":"/numbers/x"},
    {"id":"c","study":"fuzz","quantity":"q","source":"p","kind":"claim","h5":"/claims/c1"}])")
                                  .value();
  for (const auto& v : privbench::VerifyAll(entries, dir)) {
    const bool judged = v.verdict == "reproduced" || v.verdict == "not reproduced" ||
                        v.verdict == "needs paper scale" || v.verdict == "MISMATCH";
    if (judged && !opened.ok()) std::abort();  // a file we refuse must not be judged
    if (v.verdict == "reproduced" && !opened.value()->Scale().ok()) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    const char* t = std::getenv("TEST_TMPDIR");
    std::string d = std::string(t ? t : "/tmp") + "/result_reader_fuzz." + std::to_string(getpid());
    mkdir(d.c_str(), 0755);
    return d;
  }();
  const std::string path = dir + "/fuzz.h5";
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  // The valid base file is written once (Commit fsyncs); each input starts
  // from a plain copy of its bytes.
  static const std::string base = [&] {
    WriteBase(path);
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(base.data(), static_cast<std::streamsize>(base.size()));
    if (!out) std::abort();
  }
  Recipe r(data, size);
  Edit(path, r);
  Read(dir, path);
  return 0;
}
