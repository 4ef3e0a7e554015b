#include "mechanisms/math_threads.h"

#include <ATen/Parallel.h>
#include <dlfcn.h>

namespace privbench {

void SetMathThreads(int threads) {
  if (threads < 1) threads = 1;
  at::set_num_threads(threads);
  // openblas_set_num_threads exists only when OpenBLAS provides libblas.so.3
  // (Debian's alternatives); look it up instead of linking against it.
  using SetThreads = void (*)(int);
  if (void* f = dlsym(RTLD_DEFAULT, "openblas_set_num_threads")) {
    reinterpret_cast<SetThreads>(f)(threads);
  }
}

}  // namespace privbench
