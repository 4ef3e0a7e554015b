// Reading attack scores from files for the score auditor's interfaces
// (epsilon_cli's audit_scores, privbench.audit): one score per trial.
//
// FORMATS (the extension of the named path decides; a file that is not what
// its extension says is an error naming the argument):
//  - .npy: a 1-D NumPy array of float64 or float32, little- or big-endian,
//    C order, format version 1.0-3.0. The header is parsed as the Python
//    literal dict numpy writes ({'descr': ..., 'fortran_order': ...,
//    'shape': (n,)}): exactly those three keys, each once (a repeated key is
//    refused, not "last wins"), string values without escapes, at most 64
//    KiB of header. The declared size is checked (overflow-free) against the
//    file's size before anything is allocated.
//  - .csv / .txt: text, ONE NUMBER PER LINE (a line with a comma is refused,
//    naming it: "0,5" is not read as two scores), or, for a CSV with several
//    columns, NAMED COLUMN: "file.csv:score" reads the column whose header
//    (line 1, comma-separated, names optionally in double quotes) is "score";
//    every later line must have as many fields as the header. Numbers are
//    decimal as Python's float() writes and reads them (123, -1.5, .5, 1e-3,
//    +2; subnormals such as 4.9e-324 are read; a value too small for a
//    double reads as 0; hexadecimal floats such as 0x1p3 are NOT accepted;
//    inf and nan parse and are then refused as non-finite). Spaces and tabs
//    around a field, a trailing \r (CRLF files) and a UTF-8 byte-order mark
//    at the start are ignored; a blank line, or a header line without a named
//    column, is refused naming the line. The file is streamed: memory is the
//    scores (8 bytes each) and one line, which may have at most 64 KiB.
//  - HDF5: a 1-D floating-point dataset of any HDF5 file (h5py, ...),
//    written "file.h5:/group/name" (or .hdf5; split at the last ".h5:" /
//    ".hdf5:"), read with the safety rules of h5_scores.h (no checksum).
// Likewise "file.csv:column" is split at the last ".csv:".
//
// WHICH FILE IS READ: the named file only (score_path.h): a path with a NUL
// byte is refused; the path is resolved and must still end in the format's
// extension (a symbolic link "x.csv -> /etc/passwd" is refused); the file is
// opened once, must be a regular file, and is read only up to the size it
// had when opened. Messages quote at most a short escaped prefix of a path
// or a line (core/quote.h), never unbounded content.
//
// BOUNDS (refused beyond, naming the argument): a .npy or text file of at
// most 1 GiB (kMaxScoreFileBytes); at most 2^27 scores per file in every
// format (kMaxScoreValues: 1 GiB as float64). Also refused: a non-finite
// score (named by index, or by line for text), an empty file, a 2-D array.
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_FILES_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_FILES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

inline constexpr int64_t kMaxScoreFileBytes = int64_t{1} << 30;
inline constexpr int64_t kMaxScoreValues = int64_t{1} << 27;
inline constexpr size_t kMaxScoreLineBytes = size_t{1} << 16;

// The scores in `path`; `argument` names the request's field in errors
// (e.g. "member_scores_path").
Result<std::vector<double>> ReadScoreFile(const std::string& path, const std::string& argument);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_FILES_H_
