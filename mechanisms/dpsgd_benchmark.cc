// DP-SGD speed benchmark (the targets below), measured side by side in one run:
//  1. one DP-SGD step vs one non-private step, same model, same batch:
//     Adult MLP (Linear(d->128) Tanh Linear(128->2), batch 512): <= 1.5x;
//     Fashion-MNIST CNN (dp_model.h, batch 256): <= 2x; the Bayesian
//     paper's CNN (BayesPaperCnnSpec, 934,538 parameters, batch 512):
//     <= 1.3x, with a few repeats (--paper_cnn_repeats; a step takes
//     seconds). On the CPU with one thread, each model's peak memory of a
//     DP step vs a non-private step too (<= 1.5x): the resident memory a
//     warm step adds, each kind in its own forked process (StepPeakKiB),
//     the median of three such processes per kind. For the CNNs, vectorised
//     clipping with every convolution's gradients materialised vs the mixed rule
//     (per_example_grads.h) is printed for information.
//     Both steps start from a prepared batch tensor (sampling excluded from
//     both) and include the momentum-SGD update. Non-private: forward,
//     backward to the parameters, finiteness check, update. DP-SGD:
//     forward, backward to the layer outputs, per-example norms, clipped
//     sum, Gaussian noise (Boost.Random), normalisation, update.
//  2. vectorised per-example clipping (ComputeClippedGradientSum's engine)
//     vs the per-example autograd loop: >= 5x. Timed in alternating blocks
//     (each function in its steady state); the call-by-call alternation is
//     printed too, for information: there the vectorised call always
//     follows a loop call and pays for its cold caches and allocator state.
// Both sides run with freed tensor memory kept for reuse, as the DP-SGD
// engine trains (tensor_memory.h); --keep_freed_memory=false shows glibc's
// defaults, under which page faults on fresh allocations dominate the
// CNN's vectorised path (CNN DP step ~1.4x, loop/vectorised ~4.3x there).
// Synthetic data of the right shapes (timings do not depend on values).
// Repeats alternate between the compared functions after a warm-up;
// medians are reported with the spread of the ratio ("[q25, q75]" of the
// per-pair ratios of calls adjacent in time; for the block comparison the
// min and max over its 5 rounds of the blocks' median ratio); the thread
// count is fixed and printed. With one
// thread (default) the clock is the thread's CPU time, so that other
// processes on the shared 2-core machine do not distort the figures;
// --clock=wall gives wall-clock medians.
// --device=cuda runs the same steps on the GPU (mechanisms/device.h): wall
// clock, each timed call ends with a device synchronisation; the noise is
// still drawn on the CPU and copied, as in training.
//
//   bazel run //mechanisms:dpsgd_benchmark -- --threads=1 --repeats=200
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
#include "mechanisms/per_example_grads.h"
#include "mechanisms/tensor_memory.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {
namespace {

struct Options {
  int64_t threads = 1;
  int64_t repeats = 200;
  int64_t warmup = 20;
  int64_t loop_repeats = 15;
  int64_t adult_features = 108;
  int64_t adult_batch = 512;
  int64_t cnn_batch = 256;
  int64_t paper_cnn_batch = 512;
  int64_t paper_cnn_repeats = 5;
  bool keep_freed_memory = true;
  std::string clock = "";  // "cpu" or "wall"; default cpu with 1 thread
  std::string device = "cpu";
};

ComputeDevice g_device = ComputeDevice::kCpu;

// The clock: thread CPU time with one thread on the CPU, else wall clock
// (bench_timing.h).
bool g_cpu_clock = true;

double Seconds(const std::function<void()>& f) { return bench::Seconds(f, g_cpu_clock, g_device); }
using bench::LoadAverage;

using bench::Timings;
Timings TimeSideBySide(const std::vector<std::function<void()>>& fs, int64_t warmup,
                       int64_t repeats) {
  return bench::TimeSideBySide(fs, warmup, repeats, g_cpu_clock, g_device);
}

// Medians of `fs` timed in blocks: for each of `rounds` rounds, each f runs
// `warmup` untimed then `per_block` timed calls back to back (its steady
// state), and the blocks alternate between the fs so that drift in the
// machine's load is shared.
// Returns the medians and, per round, the ratio of the blocks' medians
// f0 / f1 (its min and max over the rounds are the spread).
struct BlockTimings {
  std::vector<double> median;
  double round_ratio_min = 0.0, round_ratio_max = 0.0;
};
BlockTimings TimeInBlocks(const std::vector<std::function<void()>>& fs, int64_t warmup,
                          const std::vector<int64_t>& per_block, int64_t rounds) {
  std::vector<std::vector<double>> t(fs.size());
  std::vector<double> round_ratio;
  for (int64_t r = 0; r < rounds; ++r) {
    std::vector<double> block_median;
    for (size_t i = 0; i < fs.size(); ++i) {
      for (int64_t w = 0; w < warmup; ++w) fs[i]();
      std::vector<double> block;
      for (int64_t k = 0; k < per_block[i]; ++k) block.push_back(Seconds(fs[i]));
      t[i].insert(t[i].end(), block.begin(), block.end());
      block_median.push_back(Median(block));
    }
    round_ratio.push_back(block_median[0] / block_median[1]);
  }
  BlockTimings out;
  for (const auto& v : t) out.median.push_back(Median(v));
  out.round_ratio_min = *std::min_element(round_ratio.begin(), round_ratio.end());
  out.round_ratio_max = *std::max_element(round_ratio.begin(), round_ratio.end());
  return out;
}

struct Row {
  std::string what;
  double base_ms, test_ms, ratio;
  std::string target;
  bool met;
  std::string spread;  // of the ratio, see the header
};

void PrintRow(const Row& r) {
  std::printf("%-52s %10.3f %10.3f %8.2fx %-14s %9s  %s\n", r.what.c_str(), r.base_ms, r.test_ms,
              r.ratio, r.spread.c_str(), r.target.c_str(),
              r.target == "(info)" ? "-" : (r.met ? "met" : "MISSED"));
}

// A value in kB from /proc/self/status ("VmRSS", "VmHWM"); -1 if absent.
long StatusKiB(const char* key) {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  long value = -1;
  const size_t n = std::strlen(key);
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::strncmp(line, key, n) == 0 && line[n] == ':') value = std::atol(line + n + 1);
  }
  std::fclose(f);
  return value;
}

// Peak resident memory (KiB) one call of `step` adds, measured in a forked
// child so that neither step kind inherits the other's heap: the child runs
// the step once (its code pages and one-time initialisation become
// resident), returns the freed heap to the OS (malloc_trim, also what the
// parent's earlier steps left), resets its peak (/proc/self/clear_refs,
// Linux >= 4.0), runs the step again and reports VmHWM - VmRSS before it.
// -1 if not measurable here; only with one LibTorch thread (a child forked
// from a process whose OpenMP pool ran would hang in its first parallel
// region).
long StepPeakKiB(const std::function<void()>& step) {
  if (at::get_num_threads() != 1) return -1;
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    close(fds[0]);
    long added = -1;
    try {
      step();
      malloc_trim(0);
      if (std::FILE* c = std::fopen("/proc/self/clear_refs", "w")) {
        const bool reset = std::fputs("5", c) >= 0;
        std::fclose(c);
        const long start = StatusKiB("VmRSS");
        step();
        if (reset && start >= 0) added = StatusKiB("VmHWM") - start;
      }
    } catch (...) {
      added = -1;
    }
    const ssize_t w = write(fds[1], &added, sizeof(added));
    _exit(w == sizeof(added) ? 0 : 1);
  }
  close(fds[1]);
  long added = -1;
  if (read(fds[0], &added, sizeof(added)) != sizeof(added)) added = -1;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? added : -1;
}

struct Case {
  std::string name;
  ModelSpec spec;
  std::vector<int64_t> shape;
  double target;
  int64_t repeats, warmup;
  bool loop_comparison;  // the per-example loop is too slow for the paper CNN
};

// A model of `c` on the benchmark's device with a synthetic batch.
struct Prepared {
  DpModel model;
  torch::Tensor x, y;
};
Result<Prepared> Prepare(const Case& c) {
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(c.spec, 1));
  const torch::Device device = g_device == ComputeDevice::kCuda ? torch::Device(torch::kCUDA, 0)
                                                                : torch::Device(torch::kCPU);
  PB_RETURN_IF_ERROR(model.MoveTo(device));
  at::manual_seed(7);
  const torch::Tensor x = at::randn(c.shape).to(device);
  const torch::Tensor y = at::randint(0, c.spec.num_classes, {c.shape[0]}, torch::kLong).to(device);
  return Prepared{std::move(model), x, y};
}

// Peak memory of a DP step vs a non-private step (StepPeakKiB): one row, or
// none with a note if it cannot be measured here.
std::vector<Row> CompareMemory(const std::string& label, const std::function<void()>& nonprivate,
                               const std::function<void()>& dp) {
  // The median of three children per kind: one child's figure moves by
  // ~15% with the allocator's state.
  std::vector<long> np, pr;
  for (int r = 0; r < 3; ++r) {
    np.push_back(StepPeakKiB(nonprivate));
    pr.push_back(StepPeakKiB(dp));
  }
  std::sort(np.begin(), np.end());
  std::sort(pr.begin(), pr.end());
  const long mem0 = np[1], mem1 = pr[1];
  if (mem0 <= 0 || mem1 < 0) {
    std::printf(
        "%s: peak memory not measured (it needs one thread, fork and Linux's "
        "/proc/self/clear_refs)\n",
        label.c_str());
    return {};
  }
  const double ratio = static_cast<double>(mem1) / static_cast<double>(mem0);
  return {{label + ": peak memory DP / non-private (MiB)", mem0 / 1024.0, mem1 / 1024.0, ratio,
           "<= 1.5x", ratio <= 1.5, "(median of 3)"}};
}

// DP-SGD step vs non-private step (per-example and m = 32), and their
// peak memory on the CPU.
Status CompareSteps(const Case& c, Prepared& p, std::vector<Row>* rows) {
  DpSgdConfig opt_config;
  opt_config.learning_rate = 1e-3;
  opt_config.momentum = 0.9;
  internal::Optimizer opt(p.model.parameters(), opt_config);
  Rng noise_rng = MakeRng(8, {});
  const int64_t batch = c.shape[0];
  const Microbatching per_example = Microbatching::PerExample();
  PB_ASSIGN_OR_RETURN(Microbatching mb32, Microbatching::Contiguous(batch, 32));
  const double bs = static_cast<double>(batch);
  const std::function<void()> nonprivate = [&] {
    internal::NonPrivateStep(p.model, p.x, p.y, opt);
  };
  const std::function<void()> dp = [&] {
    internal::DpSgdStep(p.model, p.x, p.y, per_example, 1.0, 1.0, bs, noise_rng, opt);
  };
  const std::string label = c.name + " batch " + std::to_string(batch);
  // Memory first (each child returns inherited free heap to the OS anyway).
  const std::vector<Row> memory =
      g_device == ComputeDevice::kCpu ? CompareMemory(label, nonprivate, dp) : std::vector<Row>{};
  const Timings steps = TimeSideBySide(
      {nonprivate, dp,
       [&] { internal::DpSgdStep(p.model, p.x, p.y, mb32, 1.0, 1.0, 32.0, noise_rng, opt); }},
      c.warmup, c.repeats);
  const std::vector<double> med = {steps.median(0), steps.median(1), steps.median(2)};
  rows->push_back({label + ": DP-SGD step / non-private", 1e3 * med[0], 1e3 * med[1],
                   med[1] / med[0], "<= " + std::to_string(c.target).substr(0, 4) + "x",
                   med[1] / med[0] <= c.target, steps.RatioSpread(1, 0)});
  PrintRow(rows->back());
  rows->push_back({label + ": DP-SGD m=32 / non-private", 1e3 * med[0], 1e3 * med[2],
                   med[2] / med[0], "(info)", true, steps.RatioSpread(2, 0)});
  PrintRow(rows->back());
  // What the Gaussian noise alone costs (one draw per parameter, on the CPU).
  std::vector<float> buffer(static_cast<size_t>(p.model.num_parameters()), 0.0f);
  boost::random::normal_distribution<double> normal(0.0, 1.0);
  const Timings noise = TimeSideBySide({nonprivate,
                                        [&] {
                                          internal::AddNoiseAndNormalise(
                                              buffer.data(), static_cast<int64_t>(buffer.size()),
                                              1.0, 1.0, normal, noise_rng);
                                        }},
                                       c.warmup, c.repeats);
  rows->push_back({label + ": the DP step's noise alone / non-private", 1e3 * noise.median(0),
                   1e3 * noise.median(1), noise.median(1) / noise.median(0), "(info)", true,
                   noise.RatioSpread(1, 0)});
  PrintRow(rows->back());
  for (const Row& r : memory) {
    rows->push_back(r);
    PrintRow(r);
  }
  return Status::Ok();
}

// Each way to the convolutions' norms (per_example_grads.h), vectorised
// clipping only: materialised vs the mixed rule (the engine's default).
void CompareConvNorms(const Case& c, Prepared& p, std::vector<Row>* rows) {
  const Microbatching per_example = Microbatching::PerExample();
  const Timings t = TimeSideBySide(
      {[&] {
         internal::ClippedGradientSumUnchecked(p.model, p.x, p.y, per_example, 1.0,
                                               ConvNorms::kMaterialise);
       },
       [&] { internal::ClippedGradientSumUnchecked(p.model, p.x, p.y, per_example, 1.0); }},
      c.warmup, c.repeats);
  rows->push_back(
      {c.name + ": clipping, convs materialised / mixed (" + DescribeGradientNorms(c.spec, 1) + ")",
       1e3 * t.median(1), 1e3 * t.median(0), t.median(0) / t.median(1), "(info)", true,
       t.RatioSpread(0, 1)});
  PrintRow(rows->back());
}

// Vectorised clipping vs the per-example autograd loop (same batch),
// (a) each in its steady state, blocks alternating (the target
// measurement), (b) call by call alternating, where the vectorised call
// runs right after a loop call (cold caches, allocator state).
void CompareWithLoop(const Case& c, Prepared& p, const Options& o, std::vector<Row>* rows) {
  const Microbatching per_example = Microbatching::PerExample();
  const std::string label = c.name + " batch " + std::to_string(c.shape[0]);
  const std::function<void()> loop = [&] {
    internal::ClippedGradientSumLoopUnchecked(p.model, p.x, p.y, per_example, 1.0);
  };
  const std::function<void()> vectorised = [&] {
    internal::ClippedGradientSumUnchecked(p.model, p.x, p.y, per_example, 1.0);
  };
  const BlockTimings bt =
      TimeInBlocks({loop, vectorised}, 2, {o.loop_repeats / 5 + 1, o.repeats / 5 + 1}, 5);
  const std::vector<double>& blocks = bt.median;
  char spread[64];
  std::snprintf(spread, sizeof(spread), "[%.2f, %.2f]", bt.round_ratio_min, bt.round_ratio_max);
  rows->push_back({label + ": per-example loop / vectorised", 1e3 * blocks[0], 1e3 * blocks[1],
                   blocks[0] / blocks[1], ">= 5x", blocks[0] / blocks[1] >= 5.0, spread});
  PrintRow(rows->back());
  const Timings alt = TimeSideBySide({loop, vectorised}, 2, o.loop_repeats);
  rows->push_back({label + ": same, call-by-call alternation", 1e3 * alt.median(0),
                   1e3 * alt.median(1), alt.median(0) / alt.median(1), "(info)", true,
                   alt.RatioSpread(0, 1)});
  PrintRow(rows->back());
}

std::vector<Case> Cases(const Options& o) {
  std::vector<Case> cases = {
      {"adult_mlp",
       AdultMlpSpec(o.adult_features),
       {o.adult_batch, o.adult_features},
       1.5,
       o.repeats,
       o.warmup,
       true},
      {"fashion_mnist_cnn",
       FashionMnistCnnSpec(),
       {o.cnn_batch, 1, 28, 28},
       2.0,
       o.repeats,
       o.warmup,
       true},
  };
  if (o.paper_cnn_repeats > 0) {
    cases.push_back({"bayes_paper_cnn",
                     BayesPaperCnnSpec(10),
                     {o.paper_cnn_batch, 1, 28, 28},
                     1.3,
                     o.paper_cnn_repeats,
                     1,
                     false});
  }
  return cases;
}

Status Run(const Options& o) {
  return GuardTorch("dpsgd_benchmark", [&]() -> Status {
    at::set_num_threads(static_cast<int>(o.threads));
    if (o.keep_freed_memory) PB_RETURN_IF_ERROR(KeepFreedTensorMemory());
    std::printf(
        "dpsgd_benchmark: device %s, at::get_num_threads() = %d, repeats = %lld "
        "(warm-up %lld; paper CNN %lld, warm-up 1), loop repeats = %lld; medians of %s time in "
        "ms per call; load average at start %s; freed tensor memory %s\n\n",
        DescribeDevice(g_device).c_str(), at::get_num_threads(), static_cast<long long>(o.repeats),
        static_cast<long long>(o.warmup), static_cast<long long>(o.paper_cnn_repeats),
        static_cast<long long>(o.loop_repeats), g_cpu_clock ? "thread CPU" : "wall-clock",
        LoadAverage().c_str(),
        o.keep_freed_memory ? "kept for reuse (as in training)"
                            : "returned to the OS (glibc defaults)");
    std::printf("%-52s %10s %10s %9s %-14s %9s  %s\n", "comparison", "baseline", "measured",
                "ratio", "spread", "target", "verdict");
    std::vector<Row> rows;
    for (const Case& c : Cases(o)) {
      PB_ASSIGN_OR_RETURN(Prepared p, Prepare(c));
      PB_RETURN_IF_ERROR(CompareSteps(c, p, &rows));
      if (c.spec.layers.front().kind == LayerKind::kConv2d) CompareConvNorms(c, p, &rows);
      if (c.loop_comparison) CompareWithLoop(c, p, o, &rows);
    }
    bool all = true;
    for (const Row& r : rows) all = all && r.met;
    std::printf("\nload average at end %s\n%s\n", LoadAverage().c_str(),
                all ? "all targets met" : "SOME TARGETS MISSED (see above)");
    return Status::Ok();
  });
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  privbench::Options o;
  privbench::FlagSet flags("dpsgd_benchmark",
                           "DP-SGD step vs non-private step, vectorised vs looped clipping");
  flags.AddInt("threads", &o.threads, "LibTorch intra-op threads");
  flags.AddInt("repeats", &o.repeats, "timed repeats per step kind");
  flags.AddInt("warmup", &o.warmup, "untimed warm-up repeats");
  flags.AddInt("loop_repeats", &o.loop_repeats, "timed repeats of the per-example loop");
  flags.AddInt("adult_features", &o.adult_features, "Adult MLP input dimension");
  flags.AddInt("adult_batch", &o.adult_batch, "Adult MLP batch size");
  flags.AddInt("cnn_batch", &o.cnn_batch, "CNN batch size (divisible by 32)");
  flags
      .AddInt("paper_cnn_batch", &o.paper_cnn_batch,
              "the Bayesian paper's CNN: batch size (divisible by 32)")
      .Min(32);
  flags
      .AddInt("paper_cnn_repeats", &o.paper_cnn_repeats,
              "the Bayesian paper's CNN: timed repeats (a step takes seconds); 0 skips it")
      .Min(0);
  flags.AddBool("keep_freed_memory", &o.keep_freed_memory,
                "reuse freed tensor memory as the DP-SGD engine does (KeepFreedTensorMemory); "
                "false: glibc's defaults, to see the difference");
  flags.AddString("clock", &o.clock,
                  "cpu (thread CPU time; default with --threads=1 on the CPU) or wall (default "
                  "otherwise; the only clock with --device=cuda)");
  flags.AddString("device", &o.device, "cpu, or cuda (mechanisms/device.h)").OneOf({"cpu", "cuda"});
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  if (o.threads < 1 || o.repeats < 1 || o.warmup < 0 || o.loop_repeats < 1) {
    std::fprintf(stderr, "threads, repeats, loop_repeats must be >= 1 and warmup >= 0\n");
    return 2;
  }
  privbench::g_device = privbench::ParseDevice(o.device).value();
  if (const privbench::Status d = privbench::EnsureDevice(privbench::g_device); !d.ok()) {
    std::fprintf(stderr, "%s\n", d.message().c_str());
    return 2;
  }
  const bool gpu = privbench::g_device == privbench::ComputeDevice::kCuda;
  if (o.clock.empty()) o.clock = o.threads == 1 && !gpu ? "cpu" : "wall";
  if (o.clock == "cpu" && gpu) {
    std::fprintf(stderr,
                 "--clock=cpu does not see GPU work: use --clock=wall with --device=cuda\n");
    return 2;
  }
  if (o.clock != "cpu" && o.clock != "wall") {
    std::fprintf(stderr, "--clock must be cpu or wall, got %s\n", o.clock.c_str());
    return 2;
  }
  if (o.clock == "cpu" && o.threads != 1) {
    std::fprintf(stderr, "--clock=cpu measures only the calling thread: use it with --threads=1\n");
    return 2;
  }
  privbench::g_cpu_clock = o.clock == "cpu";
  const privbench::Status s = privbench::Run(o);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  return 0;
}
