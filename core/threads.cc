#include "core/threads.h"

#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace privbench {

int RunOnThreads(int extra_threads, const std::function<void()>& worker) {
  std::vector<std::thread> pool;
  for (int k = 0; k < extra_threads; ++k) {
    try {
      pool.emplace_back(worker);
    } catch (const std::exception&) {  // std::system_error, or bad_alloc for its state
      break;  // the system gives no more threads: the ones running share the work
    }
  }
  worker();
  for (std::thread& th : pool) th.join();
  return 1 + static_cast<int>(pool.size());
}

}  // namespace privbench
