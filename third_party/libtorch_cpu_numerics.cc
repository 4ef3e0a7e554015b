// Same seed, same bytes on every x86-64 CPU: pins LibTorch's CPU numerics
// before the first tensor operation of any program that links LibTorch
// (//third_party:torch depends on this file, alwayslink).
//
// Why: LibTorch picks its CPU kernels by what the CPU offers, and the
// kernels sum in different orders, so one seed gave different DP-SGD models
// on an AVX-512 machine than on an AVX2 one (measured 2026-11-28 on
// //experiments/ml_audit_dpsgd at quick scale: the largest audit bound 0.042
// with MKL's automatic branch on an AVX-512 Xeon, 0.0 with MKL_CBWR=AVX2 on
// the same machine; the poison's clean probability 0.349, 0.396, 0.459 and
// 0.494 under the AUTO/AVX512, AVX2, COMPATIBLE and AVX/SSE4_2 branches).
// Three sources, three pins:
//   - oneMKL's GEMM (linear layers, bmm, the im2col products): its
//     conditional numerical reproducibility mode COMPATIBLE gives the same
//     results on every x86 CPU, Intel or not, for a fixed number of threads
//     (oneMKL Developer Guide, "Getting Started with Conditional Numerical
//     Reproducibility"; the AVX2 branch is guaranteed on Intel CPUs only);
//   - ATen's own vectorised kernels (tanh, sums, softmax): the AVX2 kernels
//     (ATEN_CPU_CAPABILITY=avx2), the same instructions on every CPU that has
//     AVX2 and FMA; a CPU without them falls back to the default kernels
//     (different bytes, so say so when comparing files across such machines);
//   - oneDNN's convolutions, whose JIT kernels choose their blocking from the
//     CPU's ISA and cache sizes: turned off, so convolutions use ATen's own
//     im2col + GEMM path (the GEMM pinned above); PRIVBENCH_ONEDNN=1 keeps
//     them on.
// A variable already set in the environment is left as it is (a user may
// choose speed, e.g. MKL_CBWR=AUTO), and every result file records the
// values in force (/meta cpu_numerics).
#include <ATen/Context.h>

#include <cstdlib>
#include <string>

namespace {

struct PinLibTorchCpuNumerics {
  PinLibTorchCpuNumerics() {
    setenv("MKL_CBWR", "COMPATIBLE", /*overwrite=*/0);
    setenv("ATEN_CPU_CAPABILITY", "avx2", /*overwrite=*/0);
    const char* onednn = std::getenv("PRIVBENCH_ONEDNN");
    if (onednn == nullptr || std::string(onednn) != "1") {
      at::globalContext().setUserEnabledMkldnn(false);
    }
  }
};

// Runs after LibTorch's own static initialisation (a shared library the
// program depends on is initialised first) and before main, so before the
// first call that reads the variables (oneMKL reads MKL_CBWR at its first
// call, ATen its capability at its first dispatch).
const PinLibTorchCpuNumerics pin_libtorch_cpu_numerics;

}  // namespace
