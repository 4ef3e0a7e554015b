// Reading attack scores from files for the score auditor's interfaces
// (epsilon_cli's audit_scores, privbench.audit): one score per trial, as a
// 1-D NumPy array (.npy: little-endian float64 or float32, C order, format
// version 1.0-3.0) or as text (.csv/.txt: one number per line, or one
// comma-separated line; blank lines and a header line that is not a number
// are refused, not skipped). The extension decides the format; a file that
// is not what its extension says is an error naming the argument, as is a
// non-finite score (named by index), an empty file, a 2-D array, or a file
// larger than 1 GiB (the work bound).
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
