// Thread count of LibTorch's math.
//
// The PyPI wheel's LibTorch (2.11.0, //third_party:libtorch.bzl) runs its
// matrix products on the oneMKL linked into libtorch_cpu.so and its
// element-wise kernels on OpenMP; at::set_num_threads sets both thread
// pools. With 1 thread, results do not depend on the machine's core count;
// studies parallelise over work units instead.
#ifndef PRIVBENCH_MECHANISMS_MATH_THREADS_H_
#define PRIVBENCH_MECHANISMS_MATH_THREADS_H_

namespace privbench {

// threads >= 1. Safe to call repeatedly and from any thread before work
// starts; a BLAS without a thread pool is left alone.
void SetMathThreads(int threads);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_MATH_THREADS_H_
