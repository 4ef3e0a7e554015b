// libFuzzer target for the score auditor's file readers
// (//estimators/score_audit:score_files: .npy, .csv/.txt, CSV columns, HDF5
// datasets). The first input byte picks the case:
//   0-3  the rest of the input is a file's bytes: .npy, .csv, .txt, or a CSV
//        read by its column "score" ("file.csv:score");
//   4    a .npy, .csv or .txt file (the next byte), of the bytes after the
//        next 4, then extended (sparse) to the size those 4 bytes give (up to
//        1 GiB + 7): big files cost no disk and must be refused or streamed;
//   5    an HDF5 file built by a recipe (the next bytes): the dataset's type,
//        rank, extent, chunk shape (up to 1 GiB chunks), filters (gzip,
//        shuffle, fletcher32, scale-offset, n-bit), values, its first
//        chunk's raw stored bytes (fuzzed, or a generated gzip bomb), soft
//        and external links, and a writer's lock on the file. Every file is
//        valid HDF5, so what is fuzzed is our reader's handling of hostile
//        content, not libhdf5's parser;
//   6    paths: a NUL byte in the name, or a link named *.csv to a secret
//        file, to /proc/self/status or to a FIFO: always refused.
// The oracle, beyond "no crash, no sanitizer report": an accepted file gives
// at most 2^27 finite scores; a refusal names the argument in a message of
// at most 2 KiB that is valid UTF-8 without control bytes; the case 6 paths
// are always refused and their messages never quote the secret file.
// Seed corpus: tests/fuzz/corpus/score_file (every reading defect of issue
// 37 as a regression case).
#include <fcntl.h>
#include <hdf5.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "estimators/score_audit/score_files.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

constexpr char kArgument[] = "member_scores_path";
constexpr char kSecret[] = "root:x:0:0:SECRET";

// Consumes the input byte by byte; zeros once it runs out.
class Recipe {
 public:
  Recipe(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  uint8_t U8() { return n_ > 0 ? (--n_, *p_++) : 0; }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | U8();
    return v;
  }
  double F64() {
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | U8();
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
  }
  std::string Rest() {
    std::string s(reinterpret_cast<const char*>(p_), n_);
    p_ += n_;
    n_ = 0;
    return s;
  }
  std::string Bytes(size_t max) {
    const size_t len = std::min<size_t>(U8() % (max + 1), n_);
    std::string s(reinterpret_cast<const char*>(p_), len);
    p_ += len;
    n_ -= len;
    return s;
  }

 private:
  const uint8_t* p_;
  size_t n_;
};

bool ValidUtf8WithoutControls(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x20 || b == 0x7f) return false;
    size_t len = b < 0x80           ? 1
                 : (b >> 5) == 0x6  ? 2
                 : (b >> 4) == 0xe  ? 3
                 : (b >> 3) == 0x1e ? 4
                                    : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

// The oracle; `must_refuse` for the hostile paths of case 6. With
// SCORE_FILE_FUZZ_VERBOSE set, each outcome is printed (to see what a seed
// exercises).
void Check(const privbench::Result<std::vector<double>>& r, bool must_refuse,
           bool secret_elsewhere = false) {
  if (std::getenv("SCORE_FILE_FUZZ_VERBOSE") != nullptr) {
    std::fprintf(
        stderr, "%s\n",
        r.ok() ? ("read " + std::to_string(r->size()) + " scores").c_str() : r.message().c_str());
  }
  if (r.ok()) {
    if (must_refuse) std::abort();
    if (r->empty() || static_cast<int64_t>(r->size()) > privbench::kMaxScoreValues) std::abort();
    for (double v : *r) {
      if (!std::isfinite(v)) std::abort();
    }
    return;
  }
  const std::string& e = r.message();
  if (e.rfind(kArgument, 0) != 0 || e.size() > 2048) std::abort();
  if (!ValidUtf8WithoutControls(e)) std::abort();
  // (Only where the secret is in another file than the named one: an input
  // may well write the marker into the named file itself.)
  if (secret_elsewhere && e.find(kSecret) != std::string::npos) std::abort();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  unlink(path.c_str());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) std::abort();
}

// `mib` MiB of zeros, deflated: a stream far larger inflated than stored.
std::string ZeroBomb(int mib) {
  std::vector<unsigned char> zeros(1 << 20, 0), out(1 << 16);
  std::string stream;
  z_stream z{};
  deflateInit(&z, 9);
  for (int i = 0; i < mib; ++i) {
    z.next_in = zeros.data();
    z.avail_in = static_cast<uInt>(zeros.size());
    do {
      z.next_out = out.data();
      z.avail_out = static_cast<uInt>(out.size());
      deflate(&z, i + 1 == mib ? Z_FINISH : Z_NO_FLUSH);
      stream.append(reinterpret_cast<char*>(out.data()), out.size() - z.avail_out);
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  return stream;
}

hid_t PickType(uint8_t kind) {
  switch (kind % 6) {
    case 0:
      return H5Tcopy(H5T_IEEE_F64LE);
    case 1:
      return H5Tcopy(H5T_IEEE_F32BE);
    case 2: {
      const hid_t half = H5Tcopy(H5T_IEEE_F32LE);  // float16, as h5py writes it
      H5Tset_fields(half, 15, 10, 5, 0, 10);
      H5Tset_size(half, 2);
      H5Tset_ebias(half, 15);
      return half;
    }
    case 3:
      return H5Tcopy(H5T_STD_I32LE);
    case 4: {
      const hid_t s = H5Tcopy(H5T_C_S1);
      H5Tset_size(s, 4);
      return s;
    }
    default:
      return H5Tcopy(H5T_IEEE_F64BE);
  }
}

// (libhdf5 1.10.8's own writer overflows heap buffers when it writes
// arbitrary doubles through scale-offset or n-bit: a recipe with either
// writes nothing into the dataset, *writable false; the reader refuses both
// filters before reading anyway.)
hid_t DatasetProperties(Recipe& r, int rank, bool* chunked, bool* huge_chunk, bool* writable) {
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  *chunked = r.U8() % 3 != 0;
  if (!*chunked) return dcpl;
  hsize_t chunk[2] = {1, 1};
  const uint8_t shape = r.U8() % 4;
  *huge_chunk = shape == 0;
  for (int i = 0; i < rank; ++i) {
    chunk[i] = shape == 0 ? (i == 0 ? hsize_t{1} << 27 : 1) : shape == 1 ? 1 : 1 + r.U32() % 4096;
  }
  H5Pset_chunk(dcpl, rank, chunk);
  uint8_t filters = r.U8();
  if (*huge_chunk) filters = 0;
  *writable = (filters & 24) == 0 && !*huge_chunk;
  if (filters & 1) H5Pset_shuffle(dcpl);
  if (filters & 2) H5Pset_deflate(dcpl, 1 + r.U8() % 9);
  if (filters & 4) H5Pset_fletcher32(dcpl);
  if (filters & 8) H5Pset_scaleoffset(dcpl, H5Z_SO_FLOAT_DSCALE, r.U8() % 6);
  if (filters & 16) H5Pset_nbit(dcpl);
  if (filters & 32) H5Pset_shuffle(dcpl);  // after gzip: shuffled compressed bytes
  return dcpl;
}

// An HDF5 file holding "/s" (and maybe links to it) at `path`. The recipe's
// decisions come first, the values (as many as the input still has) last.
void BuildHdf5(const std::string& path, const std::string& other, Recipe& r) {
  unlink(path.c_str());
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) std::abort();
  const int rank = 1 + (r.U8() % 5 == 0 ? 1 : 0);
  const uint8_t extent = r.U8();
  hsize_t dims[2] = {extent % 8 == 0 ? r.U32() : extent % 200, hsize_t{1} + r.U8() % 3};
  hsize_t max[2] = {H5S_UNLIMITED, H5S_UNLIMITED};
  const hid_t type = PickType(r.U8());
  bool chunked = false, huge_chunk = false, writable = true;
  const hid_t dcpl = DatasetProperties(r, rank, &chunked, &huge_chunk, &writable);
  const uint8_t raw = r.U8() % 4;
  const std::string raw_bytes = raw == 1 ? ZeroBomb(1 + r.U8() % 16) : raw > 1 ? r.Bytes(255) : "";
  const bool soft = r.U8() % 4 == 0, external = r.U8() % 4 == 0;
  if (std::getenv("SCORE_FILE_FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr,
                 "hdf5 recipe: rank %d, dims %llu x %llu, chunked %d%s, raw %d (%zu bytes)\n", rank,
                 static_cast<unsigned long long>(dims[0]), static_cast<unsigned long long>(dims[1]),
                 chunked ? 1 : 0, huge_chunk ? " (1 GiB chunk)" : "", raw, raw_bytes.size());
  }
  const hid_t space = H5Screate_simple(rank, dims, chunked ? max : nullptr);
  const hid_t ds = H5Dcreate2(f, "/s", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  const hsize_t total = rank == 1 ? dims[0] : dims[0] * dims[1];
  // (A write through a 1 GiB chunk would cost the harness 1 GiB.)
  if (ds >= 0 && total > 0 && total <= 4096 && writable) {
    std::vector<double> values(total);
    for (double& v : values) v = r.U8() % 4 == 3 ? r.F64() : static_cast<double>(r.U8()) / 7.0;
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  }
  // (H5Dwrite_chunk into an empty extent crashes libhdf5's writer.)
  if (ds >= 0 && chunked && raw != 0 && writable && total > 0) {
    const hsize_t offset[2] = {0, 0};
    H5Dwrite_chunk(ds, H5P_DEFAULT, 0, offset, raw_bytes.size(), raw_bytes.data());
  }
  if (ds >= 0) H5Dclose(ds);
  if (soft) H5Lcreate_soft("/s", f, "/soft", H5P_DEFAULT, H5P_DEFAULT);
  if (external) H5Lcreate_external(other.c_str(), "/s", f, "/ext", H5P_DEFAULT, H5P_DEFAULT);
  H5Pclose(dcpl);
  H5Tclose(type);
  H5Sclose(space);
  H5Fclose(f);
}

void Hdf5Case(const std::string& dir, Recipe& r) {
  const std::string path = dir + "/s.h5", other = dir + "/other.h5";
  static const bool other_written = [&] {
    const hid_t f = H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t one = 1;
    const hid_t space = H5Screate_simple(1, &one, nullptr);
    const double v = 31337;
    const hid_t ds =
        H5Dcreate2(f, "/s", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v);
    H5Dclose(ds);
    H5Sclose(space);
    return H5Fclose(f) >= 0;
  }();
  if (!other_written) std::abort();
  const char* names[] = {":/s", ":/soft", ":/ext", ":/", ":s", ":/s/x"};
  const std::string target = path + names[r.U8() % 6];
  const bool lock = r.U8() % 8 == 7;
  BuildHdf5(path, other, r);
  const int fd = lock ? open(path.c_str(), O_RDWR) : -1;
  if (fd >= 0) flock(fd, LOCK_EX);
  const auto result = privbench::ReadScoreFile(target, kArgument);
  Check(result, lock || target.find(":/ext") != std::string::npos ||
                    target.find(":/soft") != std::string::npos);
  if (fd >= 0) close(fd);
}

void PathCase(const std::string& dir, Recipe& r) {
  const std::string secret = dir + "/secret.dat", link = dir + "/link.csv", fifo = dir + "/f.csv";
  WriteFile(secret, std::string(kSecret) + "\n1\n");
  unlink(link.c_str());
  unlink(fifo.c_str());
  std::string path;
  switch (r.U8() % 4) {
    case 0:
      path = secret + std::string(1, '\0') + ".csv";
      break;
    case 1:
      if (symlink(secret.c_str(), link.c_str()) != 0) return;  // nothing to test
      path = link;
      break;
    case 2:
      if (symlink("/proc/self/status", link.c_str()) != 0) return;
      path = link;
      break;
    default:
      mkfifo(fifo.c_str(), 0600);
      path = fifo;
  }
  Check(privbench::ReadScoreFile(path, kArgument), true, true);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    const char* t = std::getenv("TEST_TMPDIR");
    std::string d = std::string(t ? t : "/tmp") + "/score_file_fuzz." + std::to_string(getpid());
    mkdir(d.c_str(), 0755);
    return d;
  }();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Recipe r(data, size);
  const uint8_t kind = r.U8() % 7;
  if (kind == 5) return Hdf5Case(dir, r), 0;
  if (kind == 6) return PathCase(dir, r), 0;
  const char* names[] = {"s.npy", "s.csv", "s.txt", "s.csv"};
  const std::string path = dir + "/" + names[kind == 4 ? r.U8() % 3 : kind];
  if (kind == 4) {
    const uint32_t extend = r.U32();
    WriteFile(path, r.Rest());
    if (truncate(path.c_str(), static_cast<off_t>(extend % (uint32_t{1} << 30)) + 8) != 0) {
      std::abort();
    }
  } else {
    WriteFile(path, r.Rest());
  }
  Check(privbench::ReadScoreFile(kind == 3 ? path + ":score" : path, kArgument), false);
  return 0;
}
