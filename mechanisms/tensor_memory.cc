#include "mechanisms/tensor_memory.h"

#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace privbench {

Status KeepFreedTensorMemory() {
  static std::once_flag once;
  static Status result = Status::Ok();
  std::call_once(once, [] {
#if defined(__GLIBC__)
    if (mallopt(M_MMAP_THRESHOLD, kKeepFreedMmapThresholdBytes) != 1 ||
        mallopt(M_TRIM_THRESHOLD, kKeepFreedTrimThresholdBytes) != 1) {
      result = Error("KeepFreedTensorMemory: mallopt refused the thresholds");
    }
#else
    result = Error("KeepFreedTensorMemory: needs glibc's mallopt");
#endif
  });
  return result;
}

}  // namespace privbench
