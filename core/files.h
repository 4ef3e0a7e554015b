// Small filesystem helpers: mkdir -p, whole-file reads, atomic writes.
#ifndef PRIVBENCH_CORE_FILES_H_
#define PRIVBENCH_CORE_FILES_H_

#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

// Creates `path` and its missing parents (like mkdir -p).
Status MakeDirs(const std::string& path);
bool IsDirectory(const std::string& path);
bool IsRegularFile(const std::string& path);
bool FileExists(const std::string& path);

Result<std::string> ReadFile(const std::string& path);

// Writes `contents` to "<path>.tmp.<pid>", fsyncs and renames onto `path`:
// readers see the old file or the new one, never a partial one.
Status WriteFileAtomic(const std::string& path, const std::string& contents);

// Regular files in `dir` whose names end with `suffix`, sorted by name
// (a FIFO or device is never listed: opening one could block forever).
Result<std::vector<std::string>> ListFiles(const std::string& dir, const std::string& suffix);

// Names of the directories in `dir` (not "." or ".."), sorted by name.
Result<std::vector<std::string>> ListSubdirectories(const std::string& dir);

}  // namespace privbench

#endif  // PRIVBENCH_CORE_FILES_H_
