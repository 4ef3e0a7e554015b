// File access shared by the dataset loaders: reading whole files, checking
// them against pinned digests, and finding a dataset's directory.
//
// Directory search (FindDataDir), in this order, stopping at the first
// source that is given:
//   1. an explicit directory (a loader option, set from a program's flag such
//      as a study's --data_dir): only it;
//   2. the environment variable PRIVBENCH_DATA_DIR: $PRIVBENCH_DATA_DIR/<name>
//      and then $PRIVBENCH_DATA_DIR itself (so it may point either at a tree
//      with one sub-directory per dataset or directly at one dataset);
//   3. the loader's own default places, which are part of the installation,
//      never of one machine: Debian's package directory for Fashion-MNIST
//      (/usr/share/datasets/fashion-mnist), the copy vendored in the
//      repository for Adult (data_scripts/adult/), none for Purchase-100.
// A directory qualifies when every required file exists in it. An explicit
// directory or PRIVBENCH_DATA_DIR never falls through to the defaults: a
// user who names a directory gets that data or an error. The error lists
// every place searched and names the flag and the environment variable that
// choose the directory.
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

// Digests of a byte string, lower-case hex (digests.h; an Error only if
// libcrypto refuses an algorithm).
struct ComputedDigests {
  std::string sha256;
  std::string md5;
};
Result<ComputedDigests> ComputeDigests(std::string_view bytes);

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

// The flag that sets a loader's explicit directory, named in its errors:
// the studies' --data_dir unless a program says otherwise (dataset_info has
// one flag per dataset).
inline constexpr const char* kDefaultDataDirFlag = "--data_dir";

// True if PRIVBENCH_DATA_DIR is set to a non-empty value.
bool DataDirEnvironmentSet();

// What FindDataDir searches for (see the file comment).
struct DataDirSearch {
  std::string name;          // the dataset's sub-directory name ("adult")
  std::string explicit_dir;  // may be empty
  std::string flag = kDefaultDataDirFlag;
  std::vector<std::string> required_files;
  std::vector<std::string> defaults;  // searched only without 1. and 2.
  // Appended to the error, e.g. "fetch the files with
  // `data_scripts/download_adult.py --target-dir DIR`".
  std::string how_to_get;
};

// The first directory containing all required files, as an absolute path
// (symbolic links resolved); otherwise an Error that lists every place
// searched and says to pass the directory with the flag or to set
// PRIVBENCH_DATA_DIR.
Result<std::string> FindDataDir(const DataDirSearch& search);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_DATA_FILES_H_
