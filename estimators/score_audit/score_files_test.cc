#include "estimators/score_audit/score_files.h"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
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

TEST(ScoreFilesTest, ReadsTextAndNpy) {
  const std::string csv = TempDir() + "/s.csv";
  std::ofstream(csv) << "0.5\n1.5\n";
  const Result<std::vector<double>> r = ReadScoreFile(csv, "a");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, (std::vector<double>{0.5, 1.5}));
}

}  // namespace
}  // namespace privbench
