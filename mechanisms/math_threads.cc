#include "mechanisms/math_threads.h"

#include <ATen/Parallel.h>

namespace privbench {

void SetMathThreads(int threads) {
  if (threads < 1) threads = 1;
  at::set_num_threads(threads);
}

}  // namespace privbench
