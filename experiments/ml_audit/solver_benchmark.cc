// Benchmark of the logistic-regression solves of study ml_audit (README.md
// (D1)): per dataset and eps, the cost of one lr_objective draw (Chaudhuri et
// al. 2011 Alg. 2: a fresh exact minimisation with a new random linear term,
// mechanisms/classical/logistic_regression.h), its iterations and passes over
// the data, the same draws solved together (FitLogisticBatch: time, passes and
// Hessians per draw, largest difference to the single solves), the cost of one pass and of one
// Hessian, and the audit classifier's dense Hessian (fast path vs row by row). Single thread.
//
//   bazel build -c opt //experiments/ml_audit:solver_benchmark
//   bazel-bin/experiments/ml_audit/solver_benchmark [--datasets=adult] [--draws=20]
//
// Projection: the paper grid solves 5 lr_objective cases x 108 audits x 4 x
// 10,000 draws per dataset = 2.16e7 solves; printed for the mean over eps.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/flags.h"
#include "core/seeding.h"
#include "experiments/ml_audit/config.h"
#include "experiments/ml_audit/data.h"
#include "mechanisms/classical/logistic_regression.h"
#include "mechanisms/classical/mechanism.h"

namespace privbench::ml_audit {
namespace {

double Seconds(const std::function<void()>& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

constexpr double kSolvesPerDataset = 5 * 108 * 4 * 10000.0;

// One eps: mean draw time, iterations, passes and Hessians over `draws`
// solves one at a time (Solve), then the same draws solved together
// (SolveMany, FitLogisticBatch): time, passes and Hessians per draw, and the
// largest |w_batch - w_single|. Returns the two mean times.
Result<std::pair<double, double>> TimeEps(const AuditDataset& ds, double eps, int64_t draws) {
  PB_ASSIGN_OR_RETURN(ObjectiveSolver s, PrepareObjectiveSolver(ds.data, ds.bounds, eps, 0, 1));
  Rng rng(7);
  const int64_t m = s.p.m;
  std::vector<double> bs(draws * m), single(draws * m), batch(draws * m);
  for (int64_t k = 0; k < draws; ++k) DrawGammaNormVector(rng, m, s.noise_scale, &bs[k * m]);
  double iters = 0, passes = 0, hessians = 0, norm = 0;
  Status st;
  const double t = Seconds([&] {
    for (int64_t k = 0; k < draws && st.ok(); ++k) {
      Result<LogisticFit> fit = s.Solve(std::vector<double>(&bs[k * m], &bs[(k + 1) * m]));
      st = fit.status();
      if (!st.ok()) break;
      iters += fit->iterations;
      passes += fit->passes;
      hessians += fit->hessians;
      norm += Norm2(fit->w);
      std::copy(fit->w.begin(), fit->w.end(), &single[k * m]);
    }
  });
  PB_RETURN_IF_ERROR(st);
  std::vector<LogisticFit> fits;
  const double tb = Seconds([&] { st = s.SolveMany(bs.data(), draws, batch.data(), &fits); });
  PB_RETURN_IF_ERROR(st);
  double bpasses = 0, bhessians = 0, diff = 0;
  for (const LogisticFit& f : fits) bpasses += f.passes, bhessians += f.hessians;
  for (int64_t k = 0; k < draws * m; ++k) diff = std::max(diff, std::fabs(single[k] - batch[k]));
  const double d = static_cast<double>(draws);
  std::printf(
      "%-14s eps %6.2f  draw %9.3f ms  iters %5.1f  passes %5.1f  hessians %5.1f  ||w|| %8.1f"
      "  | batched %8.3f ms  passes %5.1f  hessians %5.1f  max|dw| %.2g\n",
      ds.name.c_str(), eps, t / d * 1e3, iters / d, passes / d, hessians / d, norm / d,
      tb / d * 1e3, bpasses / d, bhessians / d, diff);
  return std::make_pair(t / d, tb / d);
}

// One pass (F and grad F at the solution) and one Hessian, in ms.
Status TimePass(const AuditDataset& ds) {
  PB_ASSIGN_OR_RETURN(ObjectiveSolver s, PrepareObjectiveSolver(ds.data, ds.bounds, 1, 0, 1));
  const int reps = 20;
  Status st;
  const double pass = Seconds([&] {
    for (int k = 0; k < reps; ++k) st = FitLogistic(s.p, {}, s.start, 1e-3).status();
  });
  PB_RETURN_IF_ERROR(st);
  const double hess = Seconds([&] {
    for (int k = 0; k < reps; ++k) LogisticHessian(s.p, s.start);
  });
  LogisticProblem copy = s.p;
  const double density = CompressRows(&copy, 1.0);
  const int64_t nnz = static_cast<int64_t>(copy.val.size());
  std::printf("%-14s n %lld m %lld nnz/row %.1f (density %.3f, %s) pass %.3f ms  Hessian %.3f ms\n",
              ds.name.c_str(), static_cast<long long>(s.p.n()), static_cast<long long>(s.p.m),
              static_cast<double>(nnz) / static_cast<double>(s.p.n()), density,
              s.p.compressed() ? "compressed" : "dense", pass / reps * 1e3, hess / reps * 1e3);
  return Status::Ok();
}

// The classifier's dense Hessian at m features over n rows: fast vs naive.
void TimeDenseGram(int64_t n, int64_t m) {
  LogisticProblem p;
  p.m = m;
  Rng rng(3);
  p.x.resize(n * m);
  for (double& v : p.x) v = static_cast<double>(rng() % 2001) / 1000.0 - 1;
  p.sign.assign(n, 1.0);
  std::vector<double> r(n, 0.2);
  SquareMatrix fast, naive;
  const double tf = Seconds([&] { fast = WeightedGram(p, r); });
  const double tn = Seconds([&] { naive = WeightedGramNaive(p, r); });
  double diff = 0, scale = 0;
  for (size_t k = 0; k < fast.a.size(); ++k) {
    diff = std::max(diff, std::fabs(fast.a[k] - naive.a[k]));
    scale = std::max(scale, std::fabs(naive.a[k]));
  }
  std::printf(
      "dense Hessian n %lld m %lld: fast %.3f s, row by row %.3f s (x%.1f), max rel diff %.2g\n",
      static_cast<long long>(n), static_cast<long long>(m), tf, tn, tn / tf, diff / scale);
}

Status Run(const std::string& datasets, int64_t draws, const std::string& eps_list) {
  for (const std::string& name : SplitList(datasets)) {
    PB_ASSIGN_OR_RETURN(AuditDataset ds, LoadAuditDataset(name, ""));
    PB_RETURN_IF_ERROR(TimePass(ds));
    double sum = 0, sum_batch = 0;
    int count = 0;
    for (const std::string& e : SplitList(eps_list)) {
      PB_ASSIGN_OR_RETURN(auto t, TimeEps(ds, std::stod(e), draws));
      sum += t.first;
      sum_batch += t.second;
      ++count;
    }
    const double mean = sum / count, mean_batch = sum_batch / count;
    std::printf(
        "%-14s mean draw %.3f ms (batched %.3f ms, x%.2f) -> %.3g lr_objective solves: %.1f h "
        "(batched %.1f h) on 1 thread\n",
        name.c_str(), mean * 1e3, mean_batch * 1e3, mean / mean_batch, kSolvesPerDataset,
        mean * kSolvesPerDataset / 3600, mean_batch * kSolvesPerDataset / 3600);
  }
  TimeDenseGram(2000, 866);
  return Status::Ok();
}

}  // namespace
}  // namespace privbench::ml_audit

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::ml_audit;
  std::string datasets = "breast_cancer,adult", eps = "0.1,0.25,0.5,1,2,4,8,16,50";
  int64_t draws = 64;
  FlagSet flags("solver_benchmark", "lr_objective solve costs, iterations and passes");
  flags.AddString("datasets", &datasets, "datasets to time").NonEmpty();
  flags.AddString("eps", &eps, "eps values (comma-separated)").NonEmpty();
  flags.AddInt("draws", &draws, "solves timed per eps").Range(1, 1e6);
  if (auto code = flags.ParseForMain(argc, argv)) return *code;
  Status st = Run(datasets, draws, eps);
  if (!st.ok()) {
    std::fprintf(stderr, "solver_benchmark: error: %s\n", st.message().c_str());
    return 1;
  }
  return 0;
}
