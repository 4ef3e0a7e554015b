// Where a privbench binary came from, fixed when it was built: the git
// commit of the checkout and whether its tracked files had uncommitted
// changes. Every result file records both (/meta git_commit, git_dirty).
//
// The values are stamped in by Bazel (build stamping): .bazelrc runs
// tools/workspace_status.sh before each build, which prints
// STABLE_GIT_COMMIT / STABLE_GIT_DIRTY; the genrule //core:build_stamp_cc
// (stamp = 1) turns bazel-out/stable-status.txt into a C++ source compiled
// into this library. So the answer is the same however the binary is
// started (`bazel run`, `bazel test`, bazel-bin/... directly, a copy
// elsewhere) and needs neither git nor the checkout at run time.
#ifndef PRIVBENCH_CORE_PROVENANCE_H_
#define PRIVBENCH_CORE_PROVENANCE_H_

#include <string>

namespace privbench {

// The git commit the binary was built from (40 lower-case hex digits), or
// "unknown" when it was built outside a git checkout or without git.
std::string BuildCommit();

// True if tracked files differed from BuildCommit() when the binary was
// built; false when they did not or when that is unknown.
bool BuildDirty();

}  // namespace privbench

#endif  // PRIVBENCH_CORE_PROVENANCE_H_
