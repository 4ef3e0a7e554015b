// Keeps the memory of freed tensors in the process for reuse.
//
// LibTorch's CPU allocator takes every tensor from malloc. Under glibc's
// defaults a block above the mmap threshold (128 KiB, raised adaptively) is
// mmap'ed and unmapped again when the tensor dies, and the heap top is
// trimmed back to the OS above 128 KiB of free space. A training step
// allocates its activations, output gradients and per-example gradients
// afresh every time, so each step page-faults and zero-fills megabytes of
// new pages: measured by //mechanisms:dpsgd_benchmark, this made the
// Fashion-MNIST CNN's vectorised clipping ~1.5x slower than its compute
// (and hid the DP step's true cost).
//
// KeepFreedTensorMemory raises both thresholds (mallopt M_MMAP_THRESHOLD =
// 64 MiB, M_TRIM_THRESHOLD = 256 MiB), so blocks below 64 MiB are reused
// from the heap. The price is resident memory: up to 256 MiB of free heap per
// malloc arena may stay with the process. Results are unaffected (same
// bytes). Process-wide; idempotent; thread-safe. The DP-SGD engine calls it
// when training starts; a no-op with an error status on a C library without
// mallopt.
#ifndef PRIVBENCH_MECHANISMS_TENSOR_MEMORY_H_
#define PRIVBENCH_MECHANISMS_TENSOR_MEMORY_H_

#include "core/result.h"

namespace privbench {

inline constexpr int kKeepFreedMmapThresholdBytes = 64 << 20;
inline constexpr int kKeepFreedTrimThresholdBytes = 256 << 20;

Status KeepFreedTensorMemory();

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_TENSOR_MEMORY_H_
