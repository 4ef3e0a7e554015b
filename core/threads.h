// Running one worker function on several threads, where the system may not
// give them all: a thread it cannot create (std::system_error from
// std::thread, e.g. under an address-space or process limit) is not an
// error and never an abort; the work is shared by the threads that did
// start and the calling thread, which always works too. Workers must
// therefore take their work from a shared counter (not a fixed share per
// thread), so the result does not depend on how many threads ran.
#ifndef PRIVBENCH_CORE_THREADS_H_
#define PRIVBENCH_CORE_THREADS_H_

#include <functional>

namespace privbench {

// Runs `worker` on the calling thread and on up to `extra_threads` more;
// returns when all have returned. The number of threads that actually ran
// (1 + those created) is returned.
int RunOnThreads(int extra_threads, const std::function<void()>& worker);

}  // namespace privbench

#endif  // PRIVBENCH_CORE_THREADS_H_
