#include "core/hdf5_guard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace privbench {
namespace {

// An HDF5 file in memory (the core driver, no backing store).
hid_t MemoryFile() {
  Hdf5Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_fapl_core(fapl.get(), size_t{1} << 16, 0);
  return H5Fcreate("hdf5_guard_test.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
}

TEST(Hdf5GuardTest, HandleClosesItsIdentifier) {
  hid_t id = -1;
  {
    Hdf5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    ASSERT_TRUE(space.ok());
    id = space.get();
    EXPECT_GT(H5Iis_valid(id), 0);
  }
  EXPECT_LE(H5Iis_valid(id), 0);
  Hdf5Handle failed(-1, H5Sclose);  // a failed call: nothing to close
  EXPECT_FALSE(failed.ok());
}

TEST(Hdf5GuardTest, SilencedErrorsPrintNothing) {
  SilenceHdf5();
  testing::internal::CaptureStderr();
  const hid_t f = H5Fopen("no/such/file.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_LT(f, 0);
}

TEST(Hdf5GuardTest, CountIsBounded) {
  const hsize_t dims[1] = {10};
  Hdf5Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
  auto n = BoundedDatasetCount(space.get(), 10, "dataset 'x'", "a reader loads");
  ASSERT_TRUE(n.ok()) << n.message();
  EXPECT_EQ(*n, 10u);
  auto over = BoundedDatasetCount(space.get(), 9, "dataset 'x'", "a reader loads");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.message(), "dataset 'x' holds 10 values, more than the 9 a reader loads");
}

TEST(Hdf5GuardTest, ExternalStorageIsRefused) {
  Hdf5Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  EXPECT_TRUE(CheckOwnStorage(dcpl.get(), "dataset 'x'", "files hold their own data").ok());
  ASSERT_GE(H5Pset_external(dcpl.get(), "elsewhere.bin", 0, 80), 0);
  const Status s = CheckOwnStorage(dcpl.get(), "dataset 'x'", "files hold their own data");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "dataset 'x' keeps its values in an external file; files hold their own data");
}

TEST(Hdf5GuardTest, LoadCapFollowsTheFileSize) {
  SilenceHdf5();
  Hdf5Handle file(MemoryFile(), H5Fclose);
  ASSERT_TRUE(file.ok());
  const hsize_t dims[1] = {4};
  Hdf5Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
  Hdf5Handle ds(H5Dcreate2(file.get(), "x", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT),
                H5Dclose);
  ASSERT_TRUE(ds.ok());
  auto cap = Hdf5LoadCapOf(ds.get(), "dataset 'x'");
  ASSERT_TRUE(cap.ok()) << cap.message();
  EXPECT_GT(cap->file_size, 0u);
  EXPECT_EQ(cap->bytes, std::max(kHdf5AllocationFloor,
                                 kHdf5AllocationPerFileByte * static_cast<double>(cap->file_size)));
  EXPECT_EQ(cap->bytes, kHdf5AllocationFloor);  // a tiny file: the floor
}

}  // namespace
}  // namespace privbench
