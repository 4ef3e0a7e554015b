#include "core/provenance.h"

#include "core/build_stamp.h"

namespace privbench {

std::string BuildCommit() { return build_stamp::kGitCommit; }

bool BuildDirty() { return std::string(build_stamp::kGitDirty) == "1"; }

}  // namespace privbench
