// Benchmark of study lira_bayes_audit (README.md): seconds per
// shadow model at quick scale (the study's own configuration, trained and
// scored exactly as in a run) and the projected time of the paper-scale
// sweep, from timed DP-SGD and non-private steps of the paper's CNN and a
// timed batched scoring pass.
//
//   bazel build --config=ci //experiments/lira_bayes_audit:lira_benchmark
//   bazel-bin/experiments/lira_bayes_audit/lira_benchmark [--cnn_epochs=2] [--device=cuda]
//
// Prints the 1-minute load average first: the 2-core machine is shared, so
// times are only comparable at similar load. One LibTorch thread per model,
// as the study trains (units run in parallel, one per core). --device picks
// where DP-SGD trains, as the study's flag (mechanisms/device.h).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/bench_clock.h"
#include "core/flags.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lira_bayes_audit/compute.h"
#include "experiments/lira_bayes_audit/run.h"
#include "experiments/lira_bayes_audit/training.h"
#include "mechanisms/device.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

struct Options {
  int64_t models = 2;       // quick-scale shadows timed per setting
  int64_t cnn_pool = 2048;  // pool of the timed paper-CNN runs
  int64_t cnn_epochs = 2;
  int64_t score_rows = 2048;
  int64_t cores = 2;
  std::string device = "cpu";  // where DP-SGD trains: cpu | cuda (mechanisms/device.h)
};

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<int64_t> Range(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  return v;
}

TrainSpec Spec(const Config& c, bool priv, double sigma) {
  TrainSpec t;
  t.model = c.model;
  t.hidden = c.hidden;
  t.private_training = priv;
  t.noise_multiplier = sigma;
  t.clip_norm = c.clip_norm;
  t.batch_size = c.batch_size;
  t.epochs = c.epochs;
  t.learning_rate = priv ? c.dp_learning_rate : c.learning_rate;
  t.momentum = c.momentum;
  t.device = ParseDevice(c.device).value();  // checked in main
  return t;
}

// Mean seconds to train and score one model of `spec` on the first n/2 pool rows.
Result<double> TimeModels(const AuditData& d, const TrainSpec& spec, int64_t models,
                          const std::vector<int64_t>& score) {
  const std::vector<int64_t> train = Range(d.pool_size() / 2);
  const auto t0 = std::chrono::steady_clock::now();
  for (int64_t m = 0; m < models; ++m) {
    PB_RETURN_IF_ERROR(TrainAndScore(d, train, score, spec, 1 + m, 2 + m).status());
  }
  return Seconds(t0) / static_cast<double>(models);
}

Status Quick(const Options& o) {
  Config c;  // quick scale = config.h defaults
  c.device = o.device;
  PB_ASSIGN_OR_RETURN(LoadedData l, LoadAuditData(c, 1));
  PB_ASSIGN_OR_RETURN(Accounting a, CalibrateNoise(c));
  const std::vector<int64_t> all = Range(c.pool_size);
  PB_ASSIGN_OR_RETURN(double s0, TimeModels(l.data, Spec(c, false, 0), o.models, all));
  PB_ASSIGN_OR_RETURN(double s1, TimeModels(l.data, Spec(c, true, a.sigma), o.models, all));
  const double models = static_cast<double>(c.shadows + c.trials);
  const double cpu = models * (s0 + s1);
  std::printf(
      "quick scale (MLP, pool %lld, %lld epochs): %.3f s per shadow model without DP, "
      "%.3f s with DP-SGD (sigma %.3f)\n",
      static_cast<long long>(c.pool_size), static_cast<long long>(c.epochs), s0, s1, a.sigma);
  std::printf("quick scale projected: %.0f models, %.1f CPU-s, %.1f s on %lld cores\n", 2 * models,
              cpu, cpu / static_cast<double>(o.cores), static_cast<long long>(o.cores));
  return Status::Ok();
}

Status Paper(const Options& o) {
  Config p;  // the paper scale's training configuration (main.cc)
  p.model = "paper_cnn";
  p.pool_size = 60000;
  p.shadows = 512;
  p.trials = 1024;
  p.epochs = 50;
  p.batch_size = 512;
  p.dp_learning_rate = 0.5;
  p.clip_norm = 2.6;
  p.device = o.device;
  PB_ASSIGN_OR_RETURN(Accounting a, CalibrateNoise(p));
  Config timed = p;
  timed.pool_size = o.cnn_pool;
  timed.test_size = 1;
  timed.epochs = o.cnn_epochs;
  PB_ASSIGN_OR_RETURN(LoadedData l, LoadAuditData(timed, 1));
  const double steps_timed = std::ceil(static_cast<double>(o.cnn_epochs * o.cnn_pool / 2) /
                                       static_cast<double>(p.batch_size));
  // Untimed first run: a GPU's first kernels pay their loading and cuDNN's
  // handle creation, which no model of the sweep pays again.
  if (o.device == "cuda") {
    PB_RETURN_IF_ERROR(TimeModels(l.data, Spec(timed, true, a.sigma), 1, {0}).status());
  }
  PB_ASSIGN_OR_RETURN(double t0, TimeModels(l.data, Spec(timed, false, 0), 1, {0}));
  PB_ASSIGN_OR_RETURN(double t1, TimeModels(l.data, Spec(timed, true, a.sigma), 1, {0}));
  PB_ASSIGN_OR_RETURN(double with_scoring,
                      TimeModels(l.data, Spec(timed, false, 0), 1, Range(o.score_rows)));
  const double score_per_row = std::max(0.0, with_scoring - t0) / static_cast<double>(o.score_rows);
  const double step0 = t0 / steps_timed, step1 = t1 / steps_timed;
  const double shadow0 = step0 * a.steps + score_per_row * p.pool_size;
  const double shadow1 = step1 * a.steps + score_per_row * p.pool_size;
  const double cpu = p.shadows * (shadow0 + shadow1) + p.trials * (step0 + step1) * a.steps;
  std::printf(
      "paper CNN (934,538 parameters), batch %lld: %.3f s per non-private step, %.3f s "
      "per DP-SGD step; scoring %.2f ms per point\n",
      static_cast<long long>(p.batch_size), step0, step1, 1e3 * score_per_row);
  std::printf(
      "paper scale: %lld steps per model (50 epochs of 30,000); %.0f s per shadow "
      "model without DP, %.0f s with DP-SGD (sigma %.3f)\n",
      static_cast<long long>(a.steps), shadow0, shadow1, a.sigma);
  if (o.device == "cuda") {  // training on the GPU, scoring on the CPU (one core)
    std::printf("paper scale projected: %lld models, %.1f GPU-hours on one GPU\n",
                static_cast<long long>(2 * (p.shadows + p.trials)), cpu / 3600.0);
    return Status::Ok();
  }
  std::printf("paper scale projected: %lld models, %.0f CPU-hours, %.1f days on %lld cores\n",
              static_cast<long long>(2 * (p.shadows + p.trials)), cpu / 3600.0,
              cpu / 86400.0 / static_cast<double>(o.cores), static_cast<long long>(o.cores));
  return Status::Ok();
}

}  // namespace
}  // namespace lira_bayes_audit
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::lira_bayes_audit;
  Options o;
  FlagSet flags("lira_benchmark", "Seconds per shadow model and the paper-scale projection");
  flags.AddInt("models", &o.models, "quick-scale models timed per setting").Min(1);
  flags.AddInt("cnn_pool", &o.cnn_pool, "pool of the timed paper-CNN runs").Min(1026);
  flags.AddInt("cnn_epochs", &o.cnn_epochs, "epochs of the timed paper-CNN runs").Min(1);
  flags.AddInt("score_rows", &o.score_rows, "rows of the timed scoring pass").Range(1, 2048);
  flags.AddInt("cores", &o.cores, "cores of the projection").Min(1);
  flags
      .AddString("device", &o.device,
                 "where DP-SGD trains: cpu, or cuda (LibTorch's CUDA backend, loaded at run time; "
                 "same batches and noise as on the CPU)")
      .OneOf({"cpu", "cuda"});
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  const Result<ComputeDevice> device = ParseDevice(o.device);
  const Status ready = device.ok() ? EnsureDevice(*device) : device.status();
  if (!ready.ok()) {
    std::fprintf(stderr, "lira_benchmark: %s\n", ready.message().c_str());
    return 2;
  }
  std::printf("device: %s\n", DescribeDevice(*device).c_str());
  std::printf("load average (1 min): %s\n", bench::LoadAverage().c_str());
  for (const Status& s : {Quick(o), Paper(o)}) {
    if (!s.ok()) {
      std::fprintf(stderr, "lira_benchmark: %s\n", s.message().c_str());
      return 1;
    }
  }
  return 0;
}
