#include "estimators/score_audit/h5_scores.h"

#include <hdf5.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <new>

namespace privbench {

namespace {

constexpr int64_t kMaxValues = int64_t{1} << 27;  // 1 GiB of float64
constexpr double kAllocationPerFileByte = 16.0;
constexpr double kAllocationFloor = 16.0 * 1024 * 1024;

// RAII for an HDF5 identifier.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// Errors are reported as one line, not HDF5's stack on stderr (per thread
// in thread-safe builds of HDF5).
void SilenceHdf5() {
  thread_local bool silenced = false;
  if (!silenced) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    silenced = true;
  }
}

// Every component of `dataset` exists and is a hard link.
Status CheckHardLinks(hid_t file, const std::string& dataset, const std::string& what) {
  if (dataset.size() < 2 || dataset[0] != '/') {
    return Error(what + ": the dataset must be an absolute path such as /scores, got '" + dataset +
                 "'");
  }
  size_t at = 1;
  while (at <= dataset.size()) {
    size_t end = dataset.find('/', at);
    if (end == std::string::npos) end = dataset.size();
    const std::string so_far = dataset.substr(0, end);
    if (end == at) return Error(what + ": empty component in dataset path '" + dataset + "'");
    if (H5Lexists(file, so_far.c_str(), H5P_DEFAULT) <= 0) {
      return Error(what + ": no dataset '" + dataset + "' in the file ('" + so_far +
                   "' does not exist)");
    }
    H5L_info_t link;
    if (H5Lget_info(file, so_far.c_str(), &link, H5P_DEFAULT) < 0) {
      return Error(what + ": cannot read the link '" + so_far + "'");
    }
    if (link.type != H5L_TYPE_HARD) {
      return Error(what + ": '" + so_far + "' is " +
                   (link.type == H5L_TYPE_EXTERNAL ? "an external" : "a soft") +
                   " link; score datasets are read through hard links only");
    }
    at = end + 1;
  }
  return Status::Ok();
}

// 1-D, floating point, data in this file, within the allocation cap.
Result<size_t> CheckDataset(hid_t ds, const std::string& what) {
  Handle type(H5Dget_type(ds), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_FLOAT) {
    return Error(what + " is not a floating-point dataset; scores must be float64, float32 " +
                 "or float16");
  }
  Handle space(H5Dget_space(ds), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != 1) {
    return Error(what + " has " + std::to_string(rank) +
                 " dimensions; scores must be a 1-D dataset");
  }
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0) return Error(what + " has no readable shape");
  if (n > kMaxValues) {
    return Error(what + " holds " + std::to_string(n) + " values, more than the " +
                 std::to_string(kMaxValues) + " a score file may hold");
  }
  Handle dcpl(H5Dget_create_plist(ds), H5Pclose);
  if (!dcpl.ok()) return Error("cannot read the storage properties of " + what);
  if (H5Pget_layout(dcpl.get()) == H5D_VIRTUAL) {
    return Error(what + " is a virtual dataset (its values live in other files); score " +
                 "datasets must hold their own data");
  }
  if (H5Pget_external_count(dcpl.get()) != 0) {
    return Error(what + " keeps its values in an external file; score datasets must hold " +
                 "their own data");
  }
  Handle file(H5Iget_file_id(ds), H5Fclose);
  hsize_t file_size = 0;
  if (!file.ok() || H5Fget_filesize(file.get(), &file_size) < 0) {
    return Error("cannot read the size of the file holding " + what);
  }
  const double need = static_cast<double>(n) * sizeof(double);
  const double cap =
      std::max(kAllocationFloor, kAllocationPerFileByte * static_cast<double>(file_size));
  if (need > cap) {
    return Error(what + " declares " + std::to_string(n) + " values in a file of " +
                 std::to_string(file_size) + " bytes; at most 16 times the file's size is loaded");
  }
  return static_cast<size_t>(n);
}

}  // namespace

Result<std::vector<double>> ReadH5Scores(const std::string& file, const std::string& dataset,
                                         const std::string& what) {
  SilenceHdf5();
  struct stat st;
  if (stat(file.c_str(), &st) != 0) return Error(what + ": cannot read '" + file + "'");
  if (!S_ISREG(st.st_mode)) return Error(what + ": '" + file + "' is not a regular file");
  if (H5Fis_hdf5(file.c_str()) <= 0) {
    return Error(what + ": '" + file + "' is not an HDF5 file");
  }
  Handle f(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.ok()) return Error(what + ": '" + file + "' is not a readable HDF5 file");
  PB_RETURN_IF_ERROR(CheckHardLinks(f.get(), dataset, what));
  H5O_info_t info;
  if (H5Oget_info_by_name2(f.get(), dataset.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0 ||
      info.type != H5O_TYPE_DATASET) {
    return Error(what + ": '" + dataset + "' is not a dataset");
  }
  Handle ds(H5Dopen2(f.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) return Error(what + ": cannot open dataset '" + dataset + "'");
  PB_ASSIGN_OR_RETURN(const size_t n, CheckDataset(ds.get(), what));
  std::vector<double> out;
  try {
    out.resize(n);
  } catch (const std::bad_alloc&) {
    return Error(what + ": out of memory (" + std::to_string(n) + " values)");
  }
  if (n > 0 &&
      H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) {
    return Error(what + ": cannot read dataset '" + dataset + "'");
  }
  return out;
}

}  // namespace privbench
