// The HDF5 safety layer shared by the project's two readers of HDF5 files
// it may not have written: the result reader (results/h5_file.h) and the
// score auditor's HDF5 score datasets (estimators/score_audit/h5_scores.h).
// Each reader keeps its own rules on top (the result reader its checksum,
// the score reader its resolved-file and chunk checks) and its own words in
// messages; what is here is what both apply, on HDF5's C API:
//  - Hdf5Handle closes an identifier whatever path a function returns by;
//  - SilenceHdf5 turns off HDF5's error stack on stderr, since errors are
//    reported as one line;
//  - BoundedDatasetCount bounds the number of values a dataspace declares
//    before anything is allocated;
//  - CheckOwnStorage refuses datasets whose values live outside the file
//    (virtual datasets, external raw storage, which could point at any file);
//  - Hdf5LoadCapOf bounds what one read may allocate by the size of the file
//    holding the dataset (kHdf5AllocationPerFileByte times it, at least
//    kHdf5AllocationFloor), so a sparse dataset declaring 10^9 values in a
//    small file is refused.
#ifndef PRIVBENCH_CORE_HDF5_GUARD_H_
#define PRIVBENCH_CORE_HDF5_GUARD_H_

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/result.h"

namespace privbench {

// RAII for an HDF5 identifier: `close` (H5Dclose, H5Fclose, ...) runs on
// destruction unless the identifier is negative (a failed call).
class Hdf5Handle {
 public:
  Hdf5Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Hdf5Handle() {
    if (id_ >= 0) close_(id_);
  }
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// HDF5 prints an error stack on stderr by default; the readers report errors
// themselves, as one line. The setting is per thread in thread-safe builds
// of HDF5 (Debian's is one; sweep workers printed whole stacks), so every
// public entry point calls this for its thread (once per thread takes
// effect).
void SilenceHdf5();

// The number of values `space` declares, refused past `max_values`: "<what>
// has no readable shape", or "<what> holds N values, more than the
// <max_values> <limit>" (`limit` says whose bound it is, e.g. "a reader
// loads").
Result<size_t> BoundedDatasetCount(hid_t space, int64_t max_values, const std::string& what,
                                   const std::string& limit);

// The dataset with creation properties `dcpl` holds its values in its own
// file: a virtual dataset or one with external raw storage is refused,
// "<what> is a virtual dataset (its values live in other files); <rule>" or
// "<what> keeps its values in an external file; <rule>" (`rule` states the
// reader's requirement, e.g. "result files hold their own data").
Status CheckOwnStorage(hid_t dcpl, const std::string& what, const std::string& rule);

// What a reader may allocate for one dataset: kHdf5AllocationPerFileByte
// times the size of the file holding it, and at least kHdf5AllocationFloor
// (tiny files stay readable).
inline constexpr double kHdf5AllocationPerFileByte = 16.0;
inline constexpr double kHdf5AllocationFloor = 16.0 * 1024 * 1024;

struct Hdf5LoadCap {
  hsize_t file_size = 0;  // bytes of the file holding the dataset
  double bytes = 0.0;     // the most bytes a read of the dataset may allocate
};

// The load cap of dataset `ds`; "cannot read the size of the file holding
// <what>" when HDF5 does not say.
Result<Hdf5LoadCap> Hdf5LoadCapOf(hid_t ds, const std::string& what);

}  // namespace privbench

#endif  // PRIVBENCH_CORE_HDF5_GUARD_H_
