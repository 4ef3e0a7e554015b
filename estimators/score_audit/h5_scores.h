// Scores from a user's HDF5 file (the score auditor's "file.h5:/group/name"
// inputs, score_files.h): one 1-D floating-point dataset, read with the
// safety rules of the project's result reader (results/h5_file.h), minus its
// privbench-only checksum, since score files are the user's own (h5py,
// NumPy, ...):
//  - only a regular file is opened (a FIFO named *.h5 would block);
//  - every component of the dataset path must be a hard link: soft and
//    external links (which could reach another file) are refused;
//  - the dataset keeps its values in this file: external raw storage and
//    virtual datasets are refused;
//  - it is 1-D and of a floating-point type (float16/32/64, converted to
//    double; integers and strings are refused: scores are real numbers);
//  - what is loaded is bounded before allocating: at most 2^27 values (1 GiB as float64) and
//    at most 16 times the file's size in bytes (16 MiB at least), so a
//    sparse chunked dataset declaring 10^9 values in a small file is refused.
// Only the named dataset is opened, never the rest of the file, so hard-link
// DAGs and cycles elsewhere in it cost nothing.
//
// Layering: estimators/ must not depend on results/, and results/h5_file's
// low-level checks are private to it; this file repeats those few checks on
// HDF5's C API directly (its only dependency is //third_party:hdf5).
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_H5_SCORES_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_H5_SCORES_H_

#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

// The values of dataset `dataset` (absolute, e.g. "/attack/member") of the
// HDF5 file `file`. Errors start with `what` (e.g. "member_scores_path
// 'scores.h5:/member'"). Non-finite values are returned as they are (the
// caller checks them).
Result<std::vector<double>> ReadH5Scores(const std::string& file, const std::string& dataset,
                                         const std::string& what);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_H5_SCORES_H_
