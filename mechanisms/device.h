// Where DP-SGD trains: the CPU (default) or a CUDA GPU, one binary for both.
//
// The binaries link only LibTorch's CPU libraries (libtorch_cpu, libc10;
// //third_party:libtorch.bzl), so they start on machines without CUDA.
// EnsureDevice(kCuda) loads LibTorch's CUDA backend at run time:
// libtorch_cuda.so from the directory libtorch_cpu.so was loaded from
// (the PyPI wheel's torch/lib, or a GPU machine's own PyTorch through
// LD_LIBRARY_PATH), whose static initialisers register the CUDA kernels and
// hooks; then it checks that a GPU is visible. Either failing is an error
// naming --device (studies exit 2 before any work).
//
// EnsureDevice(kCuda) must run before any other LibTorch work in the
// process: LibTorch looks its CUDA hooks up once, and autograd asks at its
// first backward pass (the studies check --device with their flags).
//
// Determinism: on the CPU a run is the same bytes for the same seed (one
// math thread). On CUDA, EnsureDevice turns on LibTorch's deterministic
// algorithms (at::globalContext().setDeterministicAlgorithms, cuDNN
// deterministic, no cuDNN benchmark), turns TF32 off (cuDNN and cuBLAS:
// full float32) and sets CUBLAS_WORKSPACE_CONFIG (unless set) so that a
// rerun on the same GPU, driver and library versions repeats; a different GPU model or library
// version may differ in the last bits, and CUDA runs differ from CPU runs by float32 rounding
// (cuBLAS and MKL sum in different orders). The random draws (Poisson batches, noise, initial
// weights) are made on the CPU from the run's seed in either case, so both devices train on the
// same batches with the same noise.
#ifndef PRIVBENCH_MECHANISMS_DEVICE_H_
#define PRIVBENCH_MECHANISMS_DEVICE_H_

#include <string>
#include <string_view>

#include "core/result.h"

// torch-free: study configurations and flag checks include it.

namespace privbench {

enum class ComputeDevice { kCpu, kCuda };

// "cpu", "cuda".
std::string_view DeviceName(ComputeDevice device);
// Parses "cpu" / "cuda"; the error names --device.
Result<ComputeDevice> ParseDevice(std::string_view text);
// kCpu: always OK. kCuda: loads the CUDA backend once and checks that a GPU
// is visible; the error names --device and says why (the backend library
// could not be loaded, with the loader's message, or no GPU was found).
Status EnsureDevice(ComputeDevice device);
// Waits until the device's queued work is done (kCpu: nothing to wait
// for); timings of GPU work need it.
void SynchronizeDevice(ComputeDevice device);
// One line for /meta: the device, the GPU's name for CUDA, and what is
// deterministic there (above).
std::string DescribeDevice(ComputeDevice device);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_DEVICE_H_
