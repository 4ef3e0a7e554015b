// Reading attack scores from files for the score auditor's interfaces
// (epsilon_cli's audit_scores, privbench.audit): one score per trial, as a
// 1-D NumPy array (.npy: little-endian float64 or float32, C order, format
// version 1.0-3.0), as text (.csv/.txt: one number per line, or one
// comma-separated line; blank lines and a header line that is not a number
// are refused, not skipped), or as a 1-D floating-point dataset of an HDF5
// file, written "file.h5:/group/name" (or "file.hdf5:/group/name"; the
// split is at the last ".h5:"; read with the safety rules of h5_scores.h,
// no checksum: any h5py-written file is read). The extension decides the
// format; a file that is not what its extension says is an error naming the
// argument, as is a non-finite score (named by index), an empty file, a 2-D
// array, an HDF5 path without a dataset or with a missing one, or a file
// larger than 1 GiB (the work bound; HDF5: a dataset of at most 2^27 values).
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_FILES_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_FILES_H_

#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

// The scores in `path`; `argument` names the request's field in errors
// (e.g. "member_scores_path").
Result<std::vector<double>> ReadScoreFile(const std::string& path, const std::string& argument);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_FILES_H_
