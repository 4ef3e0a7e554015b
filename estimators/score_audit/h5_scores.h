// Scores from a user's HDF5 file (the score auditor's "file.h5:/group/name"
// inputs, score_files.h): one 1-D floating-point dataset, read with the
// safety rules of the project's result reader (results/h5_file.h), minus its
// privbench-only checksum, since score files are the user's own (h5py,
// NumPy, ...):
//  - the file is the one score_path.h opened (resolved, regular, not a
//    FIFO); after HDF5 opens it by its resolved name, the descriptor HDF5
//    holds must be that same file (device and inode), so a name swapped in
//    between is refused;
//  - every component of the dataset path must be a hard link: soft and
//    external links (which could reach another file) are refused;
//  - the dataset keeps its values in this file: external raw storage and
//    virtual datasets are refused;
//  - it is 1-D and of a floating-point type of at most 16 bytes (float16/32/
//    64, converted to double; integers and strings are refused: scores are
//    real numbers);
//  - what is loaded is bounded before allocating: at most 2^27 values (1 GiB
//    as float64) and at most 16 times the file's size in bytes (16 MiB at
//    least), so a sparse chunked dataset declaring 10^9 values in a small
//    file is refused;
//  - DECOMPRESSION IS BOUNDED BEFORE READING (HDF5's deflate filter grows
//    its output buffer until the stream ends, so a small stored chunk could
//    inflate to gigabytes): a chunk may hold at most kMaxH5ChunkBytes (64
//    MiB); the chunks covering the dataset, at their full size, at most the
//    16x-the-file's-size cap above; the filter pipeline may hold only gzip
//    (deflate), LZF (h5py's, available where h5py is imported), shuffle (of
//    the dataset's element size) and fletcher32: szip, scale-offset, n-bit
//    and plugin filters (blosc, zstd, ...) are refused, their output size or
//    their decoders' handling of hostile bytes unchecked here. Shuffle must
//    come before the compression when writing, as h5py writes it. A chunked
//    dataset may have at most kMaxH5CheckedChunks chunks, and every stored
//    chunk is checked before HDF5 reads anything: unfiltered, its stored
//    size must be its chunk's size; filtered, it (stored in at most its
//    chunk size plus 1/16) is decoded once, counting bytes only (a 64 KiB
//    scratch buffer), and must decode to exactly its chunk's size. More
//    would be a decompression bomb; less would make HDF5 read past the
//    buffer (libhdf5 1.10.8 copies a whole chunk out of it; found by
//    tests/fuzz's score_file fuzzer).
// Only the named dataset is opened, never the rest of the file, so hard-link
// DAGs and cycles elsewhere in it cost nothing.
//
// A file that another process holds open for writing (HDF5 locks it, e.g. an
// h5py.File opened with 'w' or 'a') cannot be opened: the error says so,
// and that closing the writer (or HDF5_USE_FILE_LOCKING=FALSE, when nothing
// writes it) lets it be read.
//
// Layering: estimators/ must not depend on results/; the checks both
// readers apply (the handles, the silenced error stack, the bounded value
// count, the data held in the file itself and the load cap) come from the
// lower package core/ (core/hdf5_guard.h), the rest is on HDF5's C API
// directly (its other dependencies are //third_party:hdf5 and zlib).
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_H5_SCORES_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_H5_SCORES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "estimators/score_audit/score_path.h"

namespace privbench {

inline constexpr int64_t kMaxH5ChunkBytes = int64_t{64} << 20;
inline constexpr int64_t kMaxH5CheckedChunks = int64_t{1} << 16;

// The values of dataset `dataset` (absolute, e.g. "/attack/member") of the
// HDF5 file `file` (opened by OpenScoreFile). Errors start with `what`
// (e.g. "member_scores_path 'scores.h5:/member'"). Non-finite values are
// returned as they are (the caller checks them).
Result<std::vector<double>> ReadH5Scores(const ScoreFile& file, const std::string& dataset,
                                         const std::string& what);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_H5_SCORES_H_
