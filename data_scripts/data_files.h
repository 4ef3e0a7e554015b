// File access shared by the dataset loaders: reading whole files, checking
// them against pinned digests, and finding a dataset's directory.
//
// Directory search (FindDataDir), in this order, stopping at the first
// source that is given:
//   1. an explicit directory (a loader option / command-line flag): only it;
//   2. the environment variable PRIVBENCH_DATA_DIR: $PRIVBENCH_DATA_DIR/<name>
//      and then $PRIVBENCH_DATA_DIR itself (so it may point either at a tree
//      with one sub-directory per dataset or directly at one dataset);
//   3. the loader's fallback list (DefaultFallbackDirs), e.g. for Adult
//      $BUILD_WORKSPACE_DIRECTORY/../shared/data/adult (set by `bazel run`),
//      ../shared/data/adult (relative to the working directory) and
//      /work/shared/data/adult.
// A directory qualifies when every required file exists in it. An explicit
// directory or PRIVBENCH_DATA_DIR never falls through to the fallbacks: a
// user who names a directory gets that data or an error. The error lists
// every place searched.
#ifndef PRIVBENCH_DATA_SCRIPTS_DATA_FILES_H_
#define PRIVBENCH_DATA_SCRIPTS_DATA_FILES_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/files.h"  // IsDirectory, IsRegularFile
#include "core/result.h"

namespace privbench {

// Environment variable naming the data directory.
inline constexpr const char* kDataDirEnvVar = "PRIVBENCH_DATA_DIR";

// Digests a file must have. sha256 is required; md5 may be empty (not
// checked). Lower-case hex.
struct PinnedDigests {
  std::string sha256;
  std::string md5;
};

// Digests of a byte string, lower-case hex.
struct ComputedDigests {
  std::string sha256;
  std::string md5;
};
ComputedDigests ComputeDigests(std::string_view bytes);

// The whole file as bytes. Error names the path and the OS reason.
Result<std::string> ReadFileBytes(const std::string& path);

// OK if `bytes` (the content of `path`, called `label` in messages) has the
// pinned digests; otherwise an Error naming the file, the algorithm, the
// expected and the actual digest. `remedy` (may be empty) is appended, e.g.
// "re-download it with data_scripts/download_adult.py".
Status VerifyDigests(std::string_view label, const std::string& path, std::string_view bytes,
                     const PinnedDigests& expected, std::string_view remedy);

// "label sha256=<hex> md5=<hex>" for Dataset::checksums.
std::string DescribeDigests(std::string_view label, const ComputedDigests& digests);

// a + "/" + b (no doubled slash); b alone if a is empty.
std::string JoinPath(std::string_view a, std::string_view b);

// Default fallbacks for dataset `name` (see the file comment).
std::vector<std::string> DefaultFallbackDirs(std::string_view name);

// The first directory containing all `required_files`, searched as in the
// file comment, as an absolute path (symbolic links resolved). `name` is the dataset's
// sub-directory name ("adult"), `explicit_dir` may be empty. `how_to_get` is appended to the error
// (e.g. "run data_scripts/download_adult.py --target-dir=DIR").
Result<std::string> FindDataDir(std::string_view name, const std::string& explicit_dir,
                                const std::vector<std::string>& required_files,
                                const std::vector<std::string>& fallbacks,
                                std::string_view how_to_get);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_DATA_FILES_H_
