#include "estimators/score_audit/score_files.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace privbench {
namespace {

std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t != nullptr ? t : "/tmp";
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A fresh HDF5 file (default properties, as h5py writes one).
hid_t NewFile(const std::string& path) {
  return H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
}

// A dataset of `dims` of `file_type` from `values` (converted from double).
void WriteDataset(hid_t loc, const std::string& name, const std::vector<double>& values,
                  std::vector<hsize_t> dims, hid_t file_type = H5T_IEEE_F64LE,
                  hid_t dcpl = H5P_DEFAULT) {
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  const hid_t ds = H5Dcreate2(loc, name.c_str(), file_type, space, lcpl, dcpl, H5P_DEFAULT);
  ASSERT_GE(ds, 0) << name;
  ASSERT_GE(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  H5Dclose(ds);
  H5Pclose(lcpl);
  H5Sclose(space);
}

// scores.h5: /attack/member (float64), /attack/nonmember (float32),
// /two_d (2x2), /ints (int64), /names (strings), /soft -> /attack/member,
// /outside -> other.h5:/member (external), /external_storage (raw data in a
// separate file), /attack/has_nan.
std::string ScoreFile() {
  const std::string dir = TempDir();
  const std::string other = dir + "/other.h5", path = dir + "/scores.h5";
  hid_t o = NewFile(other);
  WriteDataset(o, "/member", {9.0}, {1});
  H5Fclose(o);
  hid_t f = NewFile(path);
  WriteDataset(f, "/attack/member", {0.5, 1.5, 2.5}, {3});
  WriteDataset(f, "/attack/nonmember", {0.25, -1.0}, {2}, H5T_IEEE_F32LE);
  WriteDataset(f, "/attack/has_nan", {0.25, NAN}, {2});
  WriteDataset(f, "/two_d", {1, 2, 3, 4}, {2, 2});
  WriteDataset(f, "/ints", {1, 2}, {2}, H5T_STD_I64LE);
  const hid_t str = H5Tcopy(H5T_C_S1);
  H5Tset_size(str, H5T_VARIABLE);
  const hsize_t two = 2;
  const hid_t space = H5Screate_simple(1, &two, nullptr);
  const hid_t names = H5Dcreate2(f, "/names", str, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const char* values[] = {"a", "b"};
  H5Dwrite(names, str, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  H5Dclose(names);
  H5Sclose(space);
  H5Tclose(str);
  H5Lcreate_soft("/attack/member", f, "/soft", H5P_DEFAULT, H5P_DEFAULT);
  H5Lcreate_external(other.c_str(), "/member", f, "/outside", H5P_DEFAULT, H5P_DEFAULT);
  const std::string raw = dir + "/raw.bin";
  std::ofstream(raw, std::ios::binary) << std::string(16, '\0');
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_external(dcpl, raw.c_str(), 0, 16);
  WriteDataset(f, "/external_storage", {1.0, 2.0}, {2}, H5T_IEEE_F64LE, dcpl);
  H5Pclose(dcpl);
  H5Fclose(f);
  return path;
}

TEST(ScoreFilesTest, ReadsHdf5Datasets) {
  const std::string path = ScoreFile();
  const Result<std::vector<double>> m =
      ReadScoreFile(path + ":/attack/member", "member_scores_path");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(*m, (std::vector<double>{0.5, 1.5, 2.5}));
  const Result<std::vector<double>> n =
      ReadScoreFile(path + ":/attack/nonmember", "nonmember_scores_path");
  ASSERT_TRUE(n.ok()) << n.message();
  EXPECT_EQ(*n, (std::vector<double>{0.25, -1.0}));
}

TEST(ScoreFilesTest, RefusesBadHdf5Inputs) {
  const std::string path = ScoreFile();
  const auto error = [&](const std::string& dataset) {
    return ReadScoreFile(path + dataset, "member_scores_path").message();
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "names no dataset"},
      {":", "must be an absolute path"},
      {":attack/member", "must be an absolute path"},
      {":/attack/missing", "no dataset '/attack/missing'"},
      {":/nope/member", "no dataset '/nope/member'"},
      {":/attack", "is not a dataset"},
      {":/two_d", "scores must be a 1-D dataset"},
      {":/ints", "is not a floating-point dataset"},
      {":/names", "is not a floating-point dataset"},
      {":/soft", "is a soft link"},
      {":/outside", "is an external link"},
      {":/external_storage", "keeps its values in an external file"},
      {":/attack/has_nan", "score 1 is not finite"},
  };
  for (const auto& [dataset, want] : cases) {
    const std::string e = error(dataset);
    EXPECT_TRUE(Contains(e, "member_scores_path")) << dataset << ": " << e;
    EXPECT_TRUE(Contains(e, want)) << dataset << ": " << e;
  }
  EXPECT_TRUE(Contains(ReadScoreFile(TempDir() + "/none.h5:/x", "a").message(), "cannot read"));
  const std::string not_h5 = TempDir() + "/text.h5";
  std::ofstream(not_h5) << "0.5\n";
  EXPECT_TRUE(Contains(ReadScoreFile(not_h5 + ":/x", "a").message(), "is not an HDF5 file"));
  EXPECT_TRUE(Contains(ReadScoreFile(TempDir() + "/s.json", "a").message(), "must end in .npy"));
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string RawF8(const std::vector<double>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

// A version 1.0 .npy file with this header dict (padded as numpy pads it).
std::string Npy(std::string dict, const std::string& data) {
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + data;
}

std::string ErrorOf(const std::string& path) {
  return ReadScoreFile(path, "member_scores_path").message();
}

double PeakRssMiB() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

template <typename F>
double Seconds(F f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ScoreFilesTest, ReadsTextAndNpy) {
  const std::string csv = TempDir() + "/s.csv";
  std::ofstream(csv) << "0.5\n1.5\n";
  const Result<std::vector<double>> r = ReadScoreFile(csv, "a");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, (std::vector<double>{0.5, 1.5}));
  const std::string npy = TempDir() + "/s.npy";
  WriteBytes(npy,
             Npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", RawF8({0.25, -3.0})));
  ASSERT_TRUE(ReadScoreFile(npy, "a").ok()) << ErrorOf(npy);
  EXPECT_EQ(*ReadScoreFile(npy, "a"), (std::vector<double>{0.25, -3.0}));
  // Big-endian float32: 1.5f is 3f c0 00 00.
  WriteBytes(npy, Npy("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
                      std::string("\x3f\xc0\x00\x00", 4)));
  ASSERT_TRUE(ReadScoreFile(npy, "a").ok()) << ErrorOf(npy);
  EXPECT_EQ(*ReadScoreFile(npy, "a"), (std::vector<double>{1.5}));
}

// The extension was checked on the whole string and the
// file opened up to the NUL, so "secret.dat\0.csv" read secret.dat.
TEST(ScoreFilesTest, APathWithANulByteIsRefused) {
  const std::string secret = TempDir() + "/secret.dat";
  WriteBytes(secret, "1\n2\n");
  const std::string e = ErrorOf(secret + std::string(1, '\0') + ".csv");
  EXPECT_TRUE(Contains(e, "member_scores_path must not contain a NUL byte")) << e;
  EXPECT_TRUE(Contains(e, "\\x00")) << e;
}

// Symbolic links were followed to any file, whose content
// the error then quoted. The policy (score_path.h): the resolved name must
// still be a score file's.
TEST(ScoreFilesTest, LinksToOtherKindsOfFilesAreRefused) {
  const std::string dir = TempDir();
  const std::string secret = dir + "/passwd_copy";
  WriteBytes(secret, "root:x:0:0:root:/root:/bin/bash\n");
  unlink((dir + "/passwd.csv").c_str());
  ASSERT_EQ(symlink(secret.c_str(), (dir + "/passwd.csv").c_str()), 0);
  std::string e = ErrorOf(dir + "/passwd.csv");
  EXPECT_TRUE(Contains(e, "resolves to")) << e;
  EXPECT_FALSE(Contains(e, "root:x")) << e;
  unlink((dir + "/status.txt").c_str());
  ASSERT_EQ(symlink("/proc/self/status", (dir + "/status.txt").c_str()), 0);
  e = ErrorOf(dir + "/status.txt");
  EXPECT_TRUE(Contains(e, "resolves to")) << e;
  // A link to another score file of the same format is read.
  WriteBytes(dir + "/real.csv", "0.5\n");
  unlink((dir + "/alias.csv").c_str());
  ASSERT_EQ(symlink((dir + "/real.csv").c_str(), (dir + "/alias.csv").c_str()), 0);
  ASSERT_TRUE(ReadScoreFile(dir + "/alias.csv", "a").ok()) << ErrorOf(dir + "/alias.csv");
  // A FIFO is refused without blocking.
  unlink((dir + "/fifo.csv").c_str());
  ASSERT_EQ(mkfifo((dir + "/fifo.csv").c_str(), 0600), 0);
  EXPECT_TRUE(Contains(ErrorOf(dir + "/fifo.csv"), "is not a regular file"));
}

// A small file whose gzip chunk inflates to far more than
// the chunk (HDF5's deflate filter grows its buffer until the stream ends),
// and a chunk of 1 GiB, were read at 1 GB of memory.
TEST(ScoreFilesTest, DecompressionBombsAreRefusedBeforeReading) {
  const std::string path = TempDir() + "/bomb.h5";
  hid_t f = NewFile(path);
  const hsize_t n = 1000, chunk = 1000, bomb_n = 100000;
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &bomb_n);
  H5Pset_deflate(dcpl, 6);
  WriteDataset(f, "/bomb", std::vector<double>(bomb_n, 0.5), {bomb_n}, H5T_IEEE_F64LE, dcpl);
  H5Pclose(dcpl);
  dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  H5Pset_deflate(dcpl, 6);
  WriteDataset(f, "/small_chunk", std::vector<double>(n, 0.5), {n}, H5T_IEEE_F64LE, dcpl);
  H5Pclose(dcpl);
  // 64 MiB of zeros deflated (about 64 KB), written as the chunk's bytes.
  std::vector<unsigned char> zeros(1 << 20, 0), out(1 << 20);
  std::string stream;
  z_stream z{};
  ASSERT_EQ(deflateInit(&z, 9), Z_OK);
  for (int i = 0; i < 64; ++i) {
    z.next_in = zeros.data();
    z.avail_in = static_cast<uInt>(zeros.size());
    do {
      z.next_out = out.data();
      z.avail_out = static_cast<uInt>(out.size());
      deflate(&z, i == 63 ? Z_FINISH : Z_NO_FLUSH);
      stream.append(reinterpret_cast<char*>(out.data()), out.size() - z.avail_out);
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  const hsize_t offset = 0;
  for (const char* name : {"/bomb", "/small_chunk"}) {
    const hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
    ASSERT_GE(H5Dwrite_chunk(ds, H5P_DEFAULT, 0, &offset, stream.size(), stream.data()), 0);
    H5Dclose(ds);
  }
  // A 1 GiB chunk (unlimited extent) holding 1,000 fill values.
  dcpl = H5Pcreate(H5P_DATASET_CREATE);
  const hsize_t big_chunk = hsize_t{1} << 27, max = H5S_UNLIMITED;
  H5Pset_chunk(dcpl, 1, &big_chunk);
  const hid_t space = H5Screate_simple(1, &n, &max);
  H5Dclose(H5Dcreate2(f, "/big_chunk", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
  H5Sclose(space);
  H5Pclose(dcpl);
  // Szip's output size is not checked: refused.
  dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  H5Pset_szip(dcpl, H5_SZIP_NN_OPTION_MASK, 8);
  WriteDataset(f, "/szip", std::vector<double>(n, 0.5), {n}, H5T_IEEE_F64LE, dcpl);
  H5Pclose(dcpl);
  H5Fclose(f);
  std::string e;
  const double seconds = Seconds([&] { e = ErrorOf(path + ":/bomb"); });
  EXPECT_TRUE(Contains(e, "chunk 0 inflates to more than its 800000 bytes")) << e;
  EXPECT_LT(seconds, 5.0);
  e = ErrorOf(path + ":/small_chunk");
  EXPECT_TRUE(Contains(e, "chunk 0 claims " + std::to_string(stream.size()) + " stored bytes"))
      << e;
  // Found by the score_file fuzzer: a chunk that holds or decodes to fewer
  // bytes than the chunk made libhdf5 read past its buffer (a short gzip
  // stream, a short stored chunk of a shuffle-only and of an unfiltered
  // dataset).
  for (const char* name : {"/short_gzip", "/short_shuffle", "/short_plain"}) {
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    if (std::string(name) == "/short_gzip") {
      H5Pset_deflate(dcpl, 6);
    } else if (std::string(name) == "/short_shuffle") {
      H5Pset_shuffle(dcpl);
    }
    f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    if (std::string(name) == "/short_plain") {  // no chunk allocated before the direct write
      const hid_t plain_space = H5Screate_simple(1, &n, nullptr);
      H5Dclose(H5Dcreate2(f, name, H5T_IEEE_F64LE, plain_space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
      H5Sclose(plain_space);
    } else {
      WriteDataset(f, name, std::vector<double>(n, 0.5), {n}, H5T_IEEE_F64LE, dcpl);
    }
    const hid_t short_ds = H5Dopen2(f, name, H5P_DEFAULT);
    const std::string nine(9, '\0');
    uLongf packed_size = compressBound(9);
    std::vector<Bytef> packed(packed_size);
    compress(packed.data(), &packed_size, reinterpret_cast<const Bytef*>(nine.data()), 9);
    const std::string stored =
        std::string(name) == "/short_gzip"
            ? std::string(reinterpret_cast<char*>(packed.data()), packed_size)
            : nine;
    ASSERT_GE(H5Dwrite_chunk(short_ds, H5P_DEFAULT, 0, &offset, stored.size(), stored.data()), 0);
    H5Dclose(short_ds);
    H5Pclose(dcpl);
    H5Fclose(f);
    e = ErrorOf(path + ":" + name);
    EXPECT_TRUE(Contains(e, std::string(name) == "/short_plain"
                                ? "chunk 0 stores 9 bytes, not its chunk's 8000"
                                : "chunk 0 decodes to 9 bytes, not its chunk's 8000"))
        << e;
  }
  e = ErrorOf(path + ":/big_chunk");
  EXPECT_TRUE(Contains(e, "more than the 64 MiB a chunk may have")) << e;
  e = ErrorOf(path + ":/szip");
  EXPECT_TRUE(Contains(e, "may use gzip (deflate), lzf, shuffle and fletcher32 only")) << e;
  EXPECT_LT(PeakRssMiB(), 256.0);
}

TEST(ScoreFilesTest, CompressedDatasetsAsH5pyWritesThemAreRead) {
  const std::string path = TempDir() + "/gzip.h5";
  hid_t f = NewFile(path);
  std::vector<double> values(5000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = std::sin(static_cast<double>(i));
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  const hsize_t chunk = 1000;
  H5Pset_chunk(dcpl, 1, &chunk);
  H5Pset_shuffle(dcpl);
  H5Pset_deflate(dcpl, 4);
  H5Pset_fletcher32(dcpl);
  WriteDataset(f, "/scores", values, {values.size()}, H5T_IEEE_F64LE, dcpl);
  H5Pclose(dcpl);
  dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  H5Pset_scaleoffset(dcpl, H5Z_SO_FLOAT_DSCALE, 3);
  WriteDataset(f, "/scaleoffset", values, {values.size()}, H5T_IEEE_F64LE, dcpl);
  H5Pclose(dcpl);
  H5Fclose(f);
  const Result<std::vector<double>> r = ReadScoreFile(path + ":/scores", "a");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, values);
  // Scale-offset's decoder trusts the stored bytes: refused.
  EXPECT_TRUE(Contains(ReadScoreFile(path + ":/scaleoffset", "a").message(),
                       "may use gzip (deflate), lzf, shuffle and fletcher32 only"));
}

// Text was read whole (200 MB of text took 1.69 GB),
// a sparse 1 GiB .npy was read before its header was checked, and a 100 MB
// line came back inside a 100 MB error message.
TEST(ScoreFilesTest, BigFilesCostBoundedMemoryTimeAndMessages) {
  const std::string dir = TempDir();
  const std::string npy = dir + "/sparse.npy";
  WriteBytes(npy, Npy("{'descr': '<f8', 'fortran_order': False, 'shape': (10,), }", ""));
  ASSERT_EQ(truncate(npy.c_str(), (int64_t{1} << 30) - 1), 0);
  std::string e;
  EXPECT_LT(Seconds([&] { e = ErrorOf(npy); }), 1.0);
  EXPECT_TRUE(Contains(e, "declares 10 values (80 bytes) but holds")) << e;
  const std::string zeros = dir + "/zeros.csv";
  WriteBytes(zeros, "");
  ASSERT_EQ(truncate(zeros.c_str(), int64_t{1022} << 20), 0);
  EXPECT_LT(Seconds([&] { e = ErrorOf(zeros); }), 1.0);
  EXPECT_TRUE(Contains(e, "line 1 is longer than 65536 bytes")) << e;
  EXPECT_LT(e.size(), 400u) << e;
  const std::string wide = dir + "/wide.csv";
  WriteBytes(wide, "0.5\n" + std::string(1 << 20, '7') + "x\n");
  e = ErrorOf(wide);
  EXPECT_TRUE(Contains(e, "line 2 is longer than 65536 bytes")) << e;
  EXPECT_LT(e.size(), 400u);
  const std::string bad = dir + "/bad.csv";
  WriteBytes(bad, "0.5\n" + std::string(60000, 'y') + "\n");
  e = ErrorOf(bad);
  EXPECT_TRUE(Contains(e, "line 2: 'yyyy")) << e;
  EXPECT_LT(e.size(), 400u);
  EXPECT_LT(ErrorOf(dir + "/" + std::string(4000, 'p') + ".csv").size(), 400u);
  // Two million scores as text: streamed, memory about the scores' 16 MB.
  std::string many;
  for (int i = 0; i < 2000000; ++i) many += "0.123456789\n";
  WriteBytes(dir + "/many.txt", many);
  many.clear();
  many.shrink_to_fit();
  const Result<std::vector<double>> r = ReadScoreFile(dir + "/many.txt", "a");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->size(), 2000000u);
  EXPECT_LT(PeakRssMiB(), 256.0);
}

// A shape of 2305843009213693953 wrapped n * 8 and ended in
// an internal error naming neither file nor argument; a repeated key kept
// its first value.
TEST(ScoreFilesTest, NpyHeadersAreParsedAndSizesCheckedBeforeAllocating) {
  const std::string npy = TempDir() + "/huge.npy";
  WriteBytes(npy, Npy("{'descr': '<f8', 'fortran_order': False, 'shape': "
                      "(2305843009213693953,), }",
                      RawF8({1.0})));
  std::string e = ErrorOf(npy);
  EXPECT_TRUE(Contains(e, "member_scores_path")) << e;
  EXPECT_TRUE(Contains(e, "declares 2305843009213693953 values, more than the 2^27")) << e;
  WriteBytes(npy, Npy("{'descr': '<i8', 'descr': '<f8', 'fortran_order': False, 'shape': (1,), }",
                      RawF8({1.0})));
  e = ErrorOf(npy);
  EXPECT_TRUE(Contains(e, "repeats the key 'descr'")) << e;
  WriteBytes(npy,
             Npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 1), }", RawF8({1.0, 2.0})));
  EXPECT_TRUE(Contains(ErrorOf(npy), "has shape (2, 1); scores must be a 1-D array"));
}

// "0,5\n0,7" was read as four scores and an "id,score"
// file flattened. One number per line, or a named column.
TEST(ScoreFilesTest, CommasAreRefusedUnlessAColumnIsNamed) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/commas.csv", "0,5\n0,7\n");
  std::string e = ErrorOf(dir + "/commas.csv");
  EXPECT_TRUE(Contains(e, "line 1: '0,5' holds 2 comma-separated fields")) << e;
  WriteBytes(dir + "/table.csv", "id,\"score\",label\n1, 0.5 ,a\n2,0.75,b\r\n");
  const Result<std::vector<double>> r = ReadScoreFile(dir + "/table.csv:score", "a");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, (std::vector<double>{0.5, 0.75}));
  EXPECT_TRUE(Contains(ErrorOf(dir + "/table.csv:id,score"), "has no column 'id,score'"));
  EXPECT_TRUE(Contains(ErrorOf(dir + "/table.csv:label"), "line 2: 'a' is not a number"));
  WriteBytes(dir + "/ragged.csv", "id,score\n1,0.5\n2\n");
  EXPECT_TRUE(Contains(ErrorOf(dir + "/ragged.csv:score"), "line 3 has 1 fields, the header 2"));
  WriteBytes(dir + "/header.csv", "score\n0.5\n");
  EXPECT_TRUE(Contains(ErrorOf(dir + "/header.csv"), "a header line? name the column"));
}

// Subnormals were refused (strtod's ERANGE), hexadecimal
// floats accepted, a byte-order mark refused.
TEST(ScoreFilesTest, TextNumbersReadAsPythonReadsThem) {
  const std::string path = TempDir() + "/numbers.txt";
  WriteBytes(path,
             "\xEF\xBB\xBF"
             "4.9e-324\r\n1e-310\n+2\n.5\n-1E3\n1e-400\n");
  const Result<std::vector<double>> r = ReadScoreFile(path, "a");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, (std::vector<double>{4.9e-324, 1e-310, 2.0, 0.5, -1000.0, 0.0}));
  for (const std::string bad : {"0x1p3", "1_000", "1e400", "1.5.2", "--1", "inf", "nan"}) {
    WriteBytes(path, "0.5\n" + bad + "\n");
    const std::string e = ErrorOf(path);
    EXPECT_TRUE(Contains(e, "line 2: '" + bad + "'")) << e;
  }
  WriteBytes(path, "0.5\n\n1\n");
  EXPECT_TRUE(Contains(ErrorOf(path), "line 2 is blank"));
}

// A file another process holds open for writing was
// reported as "not a readable HDF5 file"; the cause is HDF5's file lock.
TEST(ScoreFilesTest, ALockedHdf5FileNamesTheLock) {
  const std::string path = ScoreFile();
  const int fd = open(path.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  const std::string e = ErrorOf(path + ":/attack/member");
  EXPECT_TRUE(Contains(e, "locked by another process that has it open for writing")) << e;
  EXPECT_TRUE(Contains(e, "HDF5_USE_FILE_LOCKING=FALSE")) << e;
  close(fd);
  EXPECT_TRUE(ReadScoreFile(path + ":/attack/member", "a").ok());
}
}  // namespace
}  // namespace privbench
