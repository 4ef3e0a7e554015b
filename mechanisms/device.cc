#include "mechanisms/device.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <dlfcn.h>
#include <torch/version.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace privbench {
namespace {

// The directory libtorch_cpu.so was loaded from ("" if unknown).
std::string TorchLibraryDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&at::set_num_threads), &info) == 0 ||
      info.dli_fname == nullptr) {
    return "";
  }
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

void MakeCudaDeterministic() {
  // cuBLAS needs a fixed workspace for run-to-run determinism; it reads the
  // variable when its first handle is created.
  setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", /*overwrite=*/0);
  at::globalContext().setDeterministicAlgorithms(true, /*warn_only=*/false);
  at::globalContext().setDeterministicCuDNN(true);
  at::globalContext().setBenchmarkCuDNN(false);
  // Full float32: no TF32 in cuDNN convolutions (LibTorch's default) or
  // cuBLAS products, so GPU runs differ from CPU runs by float32 rounding.
  at::globalContext().setAllowTF32CuDNN(false);
  at::globalContext().setAllowTF32CuBLAS(false);
  at::globalContext().setFloat32MatmulPrecision("highest");
}

// dlopen's libtorch_cuda.so next to libtorch_cpu.so; "" on success, else
// the loader's message. Loaded once per process (RTLD_GLOBAL: its kernels
// and hooks register themselves with libtorch_cpu), then the determinism
// settings are made once. LibTorch looks its CUDA hooks up once per
// process, so the backend must be loaded before anything asks for them
// (autograd does, at its first backward pass): the studies call
// EnsureDevice from their flag checks.
std::string LoadCudaBackendOnce() {
  static std::once_flag once;
  static std::string error;
  std::call_once(once, [] {
    const std::string dir = TorchLibraryDir();
    const std::string path = dir.empty() ? "libtorch_cuda.so" : dir + "/libtorch_cuda.so";
    if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      const char* why = dlerror();
      error = "cannot load LibTorch's CUDA backend " + path + ": " + (why ? why : "unknown error");
      return;
    }
    if (at::detail::getCUDAHooks().hasCUDA()) MakeCudaDeterministic();
  });
  return error;
}

// The first GPU's name through the CUDA runtime libtorch_cpu.so already
// loaded (cudaDeviceProp begins with char name[256] in every version).
std::string GpuName() {
  using GetProperties = int (*)(void*, int);
  for (const char* symbol : {"cudaGetDeviceProperties_v2", "cudaGetDeviceProperties"}) {
    if (void* f = dlsym(RTLD_DEFAULT, symbol)) {
      std::vector<char> props(16384, '\0');
      if (reinterpret_cast<GetProperties>(f)(props.data(), 0) == 0) {
        return std::string(props.data(), strnlen(props.data(), 256));
      }
    }
  }
  return "unknown GPU";
}

}  // namespace

std::string_view DeviceName(ComputeDevice device) {
  return device == ComputeDevice::kCuda ? "cuda" : "cpu";
}

Result<ComputeDevice> ParseDevice(std::string_view text) {
  if (text == "cpu") return ComputeDevice::kCpu;
  if (text == "cuda") return ComputeDevice::kCuda;
  return Error("--device: '" + std::string(text) + "' is not a device (use cpu or cuda)");
}

Status EnsureDevice(ComputeDevice device) {
  if (device == ComputeDevice::kCpu) return Status::Ok();
  const std::string load_error = LoadCudaBackendOnce();
  if (!load_error.empty()) {
    return Error("--device=cuda: " + load_error +
                 " (this machine has no usable CUDA installation; use --device=cpu)");
  }
  if (!at::detail::getCUDAHooks().hasCUDA() || at::detail::getCUDAHooks().getNumGPUs() < 1) {
    return Error(
        "--device=cuda: LibTorch's CUDA backend loaded but reports no GPU (none visible: check "
        "CUDA_VISIBLE_DEVICES and the driver; or LibTorch ran before the device was checked, "
        "and EnsureDevice must come first in the process; use --device=cpu)");
  }
  return Status::Ok();
}

void SynchronizeDevice(ComputeDevice device) {
  if (device == ComputeDevice::kCuda) at::detail::getCUDAHooks().deviceSynchronize(0);
}

std::string DescribeDevice(ComputeDevice device) {
  if (device == ComputeDevice::kCpu) {
    return "cpu (LibTorch " TORCH_VERSION "; same seed, same bytes at one math thread)";
  }
  static const std::string name = GpuName();  // one query per process
  return "cuda:0 " + name + " (LibTorch " TORCH_VERSION ", CUDA runtime " +
         std::to_string(at::detail::getCUDAHooks().versionCUDART()) +
         "; deterministic algorithms on: a rerun on the same GPU and libraries repeats, "
         "other GPUs or versions and the CPU differ by float32 rounding)";
}

}  // namespace privbench
