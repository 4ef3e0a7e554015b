// provenance_info: prints what core/provenance.h says about this binary,
// one "key value" line each:
//   commit <40 hex digits | unknown>
//   dirty <0 | 1>
// `bazel run //core:provenance_info`; core/provenance_test.sh runs it.
#include <cstdio>

#include "core/provenance.h"

int main() {
  std::printf("commit %s\ndirty %d\n", privbench::BuildCommit().c_str(),
              privbench::BuildDirty() ? 1 : 0);
  return 0;
}
