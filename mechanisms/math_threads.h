// Thread count of LibTorch's math, including the system BLAS.
//
// LibTorch's matrix products run on the system BLAS (OpenBLAS when
// libopenblas0-pthread is installed), whose thread pool at::set_num_threads
// does not control. SetMathThreads sets both. With 1 thread, results do not
// depend on the machine's core count; studies parallelise over work units
// instead.
#ifndef PRIVBENCH_MECHANISMS_MATH_THREADS_H_
#define PRIVBENCH_MECHANISMS_MATH_THREADS_H_

namespace privbench {

// threads >= 1. Safe to call repeatedly and from any thread before work
// starts; a BLAS without a thread pool is left alone.
void SetMathThreads(int threads);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_MATH_THREADS_H_
