#include "core/hdf5_guard.h"

#include <algorithm>

namespace privbench {

void SilenceHdf5() {
  thread_local bool silenced = false;
  if (!silenced) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    silenced = true;
  }
}

Result<size_t> BoundedDatasetCount(hid_t space, int64_t max_values, const std::string& what,
                                   const std::string& limit) {
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) return Error(what + " has no readable shape");
  if (n > max_values) {
    return Error(what + " holds " + std::to_string(n) + " values, more than the " +
                 std::to_string(max_values) + " " + limit);
  }
  return static_cast<size_t>(n);
}

Status CheckOwnStorage(hid_t dcpl, const std::string& what, const std::string& rule) {
  if (H5Pget_layout(dcpl) == H5D_VIRTUAL) {
    return Error(what + " is a virtual dataset (its values live in other files); " + rule);
  }
  if (H5Pget_external_count(dcpl) != 0) {
    return Error(what + " keeps its values in an external file; " + rule);
  }
  return Status::Ok();
}

Result<Hdf5LoadCap> Hdf5LoadCapOf(hid_t ds, const std::string& what) {
  Hdf5Handle file(H5Iget_file_id(ds), H5Fclose);
  Hdf5LoadCap cap;
  if (!file.ok() || H5Fget_filesize(file.get(), &cap.file_size) < 0) {
    return Error("cannot read the size of the file holding " + what);
  }
  cap.bytes = std::max(kHdf5AllocationFloor,
                       kHdf5AllocationPerFileByte * static_cast<double>(cap.file_size));
  return cap;
}

}  // namespace privbench
