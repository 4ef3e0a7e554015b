// privbench's side of the Opacus anchor benchmark (anchors/opacus/README.md):
// times one non-private step and one DP-SGD step of privbench's engine on
// one model and batch, interleaved call by call after a warm-up
// (bench::TimeSideBySide, mechanisms/bench_timing.h, which
// //mechanisms:dpsgd_benchmark uses too), and prints ONE JSON line
//   {"model": ..., "batch": ..., "threads": ..., "device": ...,
//    "libtorch": ..., "clock": ..., "keep_freed_memory": ...,
//    "num_parameters": ..., "nonprivate_s": ..., "dp_s": ..., "repeats": ..., "warmup": ...}
// with the medians in seconds. anchors/opacus/opacus_benchmark.py runs it
// next to Opacus and divides.
//
// The steps are the engine's own (mechanisms/dpsgd.h): internal::NonPrivateStep
// (forward, backward of the mean cross-entropy, finiteness check,
// momentum-SGD update) and internal::DpSgdStep with per-example clipping
// (forward, backward to the layer outputs, per-example norms, clipped sum,
// Gaussian noise, normalisation by the batch size, update); clip norm 1,
// noise multiplier 1, learning rate 1e-3, momentum 0.9. Both start from a
// prepared batch of synthetic data (no sampling on either side).
// Freed tensor memory is kept for reuse as the engine does when it trains
// (mechanisms/tensor_memory.h: the same two mallopt thresholds, set here
// directly); --keep_freed_memory=false gives glibc's defaults.
// Clock: thread CPU time with --threads=1 on the CPU (other processes on a
// shared machine do not count); wall clock otherwise, and with
// --device=cuda every timed call ends with a device synchronisation.
//
//   bazel build -c opt //anchors/opacus:privbench_steps
//   bazel-bin/anchors/opacus/privbench_steps --model=adult_mlp --batch=512
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <malloc.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/seeding.h"
#include "mechanisms/bench_timing.h"
#include "mechanisms/device.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {
namespace {

struct Options {
  std::string model = "adult_mlp";
  int64_t batch = 512;
  int64_t repeats = 50;
  int64_t warmup = 5;
  int64_t threads = 1;
  int64_t adult_features = 108;
  bool keep_freed_memory = true;
  std::string device = "cpu";
};

ComputeDevice g_device = ComputeDevice::kCpu;
bool g_cpu_clock = true;

// `fs` timed interleaved call by call (bench_timing.h); per function, the
// median of its `repeats` calls.
std::vector<double> TimeSideBySide(const std::vector<std::function<void()>>& fs, int64_t warmup,
                                   int64_t repeats) {
  const bench::Timings t = bench::TimeSideBySide(fs, warmup, repeats, g_cpu_clock, g_device);
  std::vector<double> medians;
  for (size_t i = 0; i < fs.size(); ++i) medians.push_back(t.median(i));
  return medians;
}

ModelSpec SpecOf(const Options& o) {
  if (o.model == "adult_mlp") return AdultMlpSpec(o.adult_features);
  if (o.model == "fashion_mnist_cnn") return FashionMnistCnnSpec();
  return BayesPaperCnnSpec(10);
}

Status Run(const Options& o) {
  return GuardTorch("privbench_steps", [&]() -> Status {
    at::set_num_threads(static_cast<int>(o.threads));
    if (o.keep_freed_memory) {
      // As KeepFreedTensorMemory (mechanisms/tensor_memory.h), which the
      // engine calls when training starts.
      if (mallopt(M_MMAP_THRESHOLD, 64 << 20) != 1 || mallopt(M_TRIM_THRESHOLD, 256 << 20) != 1) {
        return Error("mallopt failed: use --keep_freed_memory=false");
      }
    }
    const ModelSpec spec = SpecOf(o);
    PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(spec, 1));
    const torch::Device device = g_device == ComputeDevice::kCuda ? torch::Device(torch::kCUDA, 0)
                                                                  : torch::Device(torch::kCPU);
    PB_RETURN_IF_ERROR(model.MoveTo(device));
    std::vector<int64_t> shape = {o.batch};
    shape.insert(shape.end(), spec.input_shape.begin(), spec.input_shape.end());
    at::manual_seed(7);
    const torch::Tensor x = at::randn(shape).to(device);
    const torch::Tensor y = at::randint(0, spec.num_classes, {o.batch}, torch::kLong).to(device);
    DpSgdConfig opt_config;
    opt_config.learning_rate = 1e-3;
    opt_config.momentum = 0.9;
    // Two optimizers, so that each step kind keeps its own momentum, as in
    // two separate training runs.
    internal::Optimizer nonprivate_opt(model.parameters(), opt_config);
    internal::Optimizer dp_opt(model.parameters(), opt_config);
    Rng noise_rng = MakeRng(8, {});
    const Microbatching per_example = Microbatching::PerExample();
    const double bs = static_cast<double>(o.batch);
    const std::vector<double> med = TimeSideBySide(
        {[&] { internal::NonPrivateStep(model, x, y, nonprivate_opt); },
         [&] { internal::DpSgdStep(model, x, y, per_example, 1.0, 1.0, bs, noise_rng, dp_opt); }},
        o.warmup, o.repeats);
    std::printf(
        "{\"model\": \"%s\", \"batch\": %lld, \"threads\": %d, \"device\": \"%s\", "
        "\"libtorch\": \"%s\", \"clock\": \"%s\", \"keep_freed_memory\": %s, \"num_parameters\": "
        "%lld, "
        "\"nonprivate_s\": %.9g, \"dp_s\": %.9g, \"repeats\": %lld, \"warmup\": %lld}\n",
        o.model.c_str(), static_cast<long long>(o.batch), at::get_num_threads(),
        std::string(DeviceName(g_device)).c_str(), TORCH_VERSION,
        g_cpu_clock ? "thread_cpu" : "wall", o.keep_freed_memory ? "true" : "false",
        static_cast<long long>(model.num_parameters()), med[0], med[1],
        static_cast<long long>(o.repeats), static_cast<long long>(o.warmup));
    return Status::Ok();
  });
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  privbench::Options o;
  privbench::FlagSet flags("privbench_steps",
                           "privbench's non-private and DP-SGD step times as one JSON line "
                           "(the Opacus anchor benchmark, anchors/opacus/README.md)");
  flags.AddString("model", &o.model, "the model (mechanisms/dp_model.h)")
      .OneOf({"adult_mlp", "fashion_mnist_cnn", "bayes_paper_cnn"});
  flags.AddInt("batch", &o.batch, "batch size (a prepared batch of synthetic data)").Min(1);
  flags.AddInt("repeats", &o.repeats, "timed calls per step kind").Min(1);
  flags.AddInt("warmup", &o.warmup, "untimed calls per step kind first").Min(0);
  flags.AddInt("threads", &o.threads, "LibTorch intra-op threads (thread CPU clock only with 1)")
      .Min(1);
  flags.AddInt("adult_features", &o.adult_features, "Adult MLP input dimension").Min(1);
  flags.AddBool("keep_freed_memory", &o.keep_freed_memory,
                "keep freed tensor memory for reuse as the engine does in training "
                "(mechanisms/tensor_memory.h); false: glibc's defaults");
  flags.AddString("device", &o.device, "cpu, or cuda (mechanisms/device.h; wall clock)")
      .OneOf({"cpu", "cuda"});
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  privbench::g_device = privbench::ParseDevice(o.device).value();
  if (const privbench::Status d = privbench::EnsureDevice(privbench::g_device); !d.ok()) {
    std::fprintf(stderr, "privbench_steps: error: %s\n", d.message().c_str());
    return 2;
  }
  privbench::g_cpu_clock = o.threads == 1 && privbench::g_device == privbench::ComputeDevice::kCpu;
  const privbench::Status s = privbench::Run(o);
  if (!s.ok()) {
    std::fprintf(stderr, "privbench_steps: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}
