// Many models per pass (target: D2 paper scale <= 10 CPU-hours; 47
// with LibTorch 2.11.0 one model at a time, ~93 with 1.13): K DP-SGD runs of D2's MLP (784-32-2
// Tanh, batch 250 expected of 6,000 rows, per-example clipping) trained one at a time by TrainDpSgd
// vs all K together by TrainDpSgdBatched, side by side in one process on the same synthetic rows
// (timings do not depend on values), one LibTorch thread. Rounds alternate the two ways; medians of
// wall-clock seconds per model are printed with the ratio and its spread over the rounds.
// --device=cuda times both on the GPU (tools/gpu_check.sh), where one small
// model per pass leaves the GPU mostly idle.
//
// --rows, --batch and --hidden give other studies' shapes, e.g. E1's quick
// scale (--rows=512 --batch=64 --epochs=20 --k=1,32).
//
//   bazel run //mechanisms:dpsgd_batched_benchmark -- [--k=1,8,25,64] [--epochs=1]
#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/flags.h"
#include "mechanisms/bench_timing.h"
#include "mechanisms/device.h"
#include "mechanisms/dpsgd_batched.h"
#include "mechanisms/math_threads.h"

namespace privbench {
namespace {

struct Options {
  std::vector<int64_t> k = {1, 8, 25, 64};
  int64_t epochs = 1;
  int64_t rounds = 3;
  int64_t rows = 6000;
  int64_t features = 784;
  int64_t hidden = 32;
  int64_t batch = 250;
  std::string device = "cpu";
};

double Now() { return bench::Now(/*thread_cpu_clock=*/false); }
using bench::LoadAverage;

Status Run(const Options& o) {
  SetMathThreads(1);
  at::manual_seed(3);
  const torch::Tensor x = at::rand({o.rows, o.features});
  const torch::Tensor y = at::randint(0, 2, {o.rows}, torch::kLong);
  const ModelSpec spec = MlpSpec("d2_mlp", o.features, {o.hidden}, Activation::kTanh, 2);
  DpSgdConfig c;
  c.noise_multiplier = 1.0;
  c.clip_norm = 1.0;
  c.batch_size = o.batch;
  c.epochs = o.epochs;
  c.learning_rate = 0.15;
  c.momentum = 0.0;
  c.device = ParseDevice(o.device).value();  // checked in main
  std::printf(
      "dpsgd_batched_benchmark: %s, %lld rows x %lld, batch %lld, %lld epoch(s), one thread, "
      "device %s, load average at start %s\n",
      DescribeModel(spec).c_str(), static_cast<long long>(o.rows),
      static_cast<long long>(o.features), static_cast<long long>(o.batch),
      static_cast<long long>(o.epochs), DescribeDevice(c.device).c_str(), LoadAverage().c_str());
  std::printf("%6s %14s %14s %8s %16s\n", "K", "single s/model", "batched s/model", "ratio",
              "ratio min..max");
  for (int64_t k : o.k) {
    std::vector<DpSgdConfig> configs(static_cast<size_t>(k), c);
    for (int64_t i = 0; i < k; ++i) configs[static_cast<size_t>(i)].seed = 11 + i;
    std::vector<double> single, batched, ratio;
    for (int64_t r = 0; r < o.rounds; ++r) {
      std::vector<DpModel> models;
      for (int64_t i = 0; i < k; ++i) {
        PB_ASSIGN_OR_RETURN(DpModel m, DpModel::Create(spec, 100 + i));
        models.push_back(std::move(m));
      }
      double t0 = Now();
      for (int64_t i = 0; i < k; ++i) {
        PB_ASSIGN_OR_RETURN(DpModel m, DpModel::Create(spec, 100 + i));
        PB_RETURN_IF_ERROR(TrainDpSgd(m, x, y, configs[static_cast<size_t>(i)]).status());
      }
      single.push_back((Now() - t0) / static_cast<double>(k));
      t0 = Now();
      PB_RETURN_IF_ERROR(TrainDpSgdBatched(models, x, y, configs).status());
      batched.push_back((Now() - t0) / static_cast<double>(k));
      ratio.push_back(single.back() / batched.back());
    }
    std::printf("%6lld %14.4f %14.4f %7.2fx %8.2f..%.2f\n", static_cast<long long>(k),
                Median(single), Median(batched), Median(single) / Median(batched),
                *std::min_element(ratio.begin(), ratio.end()),
                *std::max_element(ratio.begin(), ratio.end()));
  }
  std::printf("load average at end %s\n", LoadAverage().c_str());
  return Status::Ok();
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  privbench::Options o;
  privbench::FlagSet flags("dpsgd_batched_benchmark",
                           "K DP-SGD MLPs one at a time vs in one batched pass");
  flags.AddIntList("k", &o.k, "models per batched pass").NonEmpty().Range(1, 4096);
  flags.AddInt("epochs", &o.epochs, "epochs per model").Range(1, 100);
  flags.AddInt("rows", &o.rows, "training rows (D2: 6,000; E1 quick: 512)").Min(1);
  flags.AddInt("batch", &o.batch, "expected Poisson batch size (D2: 250; E1 quick: 64)").Min(1);
  flags.AddInt("hidden", &o.hidden, "hidden units (D2, E1 quick: 32)").Min(1);
  flags.AddInt("rounds", &o.rounds, "alternating rounds (medians reported)").Range(1, 100);
  flags.AddString("device", &o.device, "cpu, or cuda (mechanisms/device.h)").OneOf({"cpu", "cuda"});
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  if (const privbench::Status d = privbench::EnsureDevice(privbench::ParseDevice(o.device).value());
      !d.ok()) {
    std::fprintf(stderr, "%s\n", d.message().c_str());
    return 2;
  }
  const privbench::Status s = privbench::Run(o);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  return 0;
}
