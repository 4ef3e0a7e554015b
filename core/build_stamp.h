// The values stamped into a binary when it is built (core/BUILD,
// //core:build_stamp_cc, generated from tools/workspace_status.sh's output).
// Private to core:provenance; use core/provenance.h.
#ifndef PRIVBENCH_CORE_BUILD_STAMP_H_
#define PRIVBENCH_CORE_BUILD_STAMP_H_

namespace privbench::build_stamp {

// The git commit (hex) or "unknown".
extern const char kGitCommit[];
// "1" (uncommitted changes to tracked files), "0", or "unknown".
extern const char kGitDirty[];

}  // namespace privbench::build_stamp

#endif  // PRIVBENCH_CORE_BUILD_STAMP_H_
