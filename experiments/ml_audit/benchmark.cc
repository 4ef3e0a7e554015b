// Benchmark of study ml_audit (docs/studies.md D1): times each mechanism's
// summary draws, each attack's design and the audit's classifier on every
// offline dataset, and projects the paper-scale grid's time on this machine
// (single thread; divide by the threads a run gets).
//
//   bazel build -c opt //experiments/ml_audit:benchmark
//   bazel-bin/experiments/ml_audit/benchmark [--datasets=iris,breast_cancer,adult]
//
// Projection: per (dataset, case) unit the paper grid runs 9 eps_th x 4 k x 3
// replicates = 108 audits; each audit prepares the mechanism twice, draws
// 4N summaries (N = 10,000: search and fresh, both sides) and fits the
// classifier once on 2N rows. Attack design runs once per unit.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "attacks/poisoning/poisoning.h"
#include "core/flags.h"
#include "core/seeding.h"
#include "estimators/ml_audit/ml_audit.h"
#include "experiments/ml_audit/compute.h"
#include "experiments/ml_audit/config.h"
#include "experiments/ml_audit/data.h"
#include "mechanisms/classical/mechanism.h"

namespace privbench {
namespace {

double Seconds(const std::function<void()>& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Costs {
  double prepare = 0, draw = 0, fit = 0;
  int64_t dim = 0;
};

Result<Costs> MechanismCosts(const AuditDataset& ds, const std::string& name, int64_t n) {
  MechanismOptions o;
  o.eps = 1;
  PB_ASSIGN_OR_RETURN(auto mech, MakeClassicalMechanism(name, o));
  std::vector<double> x(ds.data.row(0), ds.data.row(0) + ds.data.d);
  Costs c;
  Result<std::unique_ptr<SummarySampler>> s = Error("unset");
  c.prepare = Seconds([&] { s = mech->Prepare(ds.data, ds.bounds, x); });
  PB_RETURN_IF_ERROR(s.status());
  c.dim = (*s)->dim();
  const int64_t draws = name == "lr_objective" ? (ds.data.n() > 10000 ? 3 : 50) : 2000;
  std::vector<double> out(c.dim);
  Rng rng(1);
  Status st;
  c.draw = Seconds([&] {
             for (int64_t i = 0; i < draws && st.ok(); ++i) st = (*s)->Draw(rng, out.data());
           }) /
           static_cast<double>(draws);
  PB_RETURN_IF_ERROR(st);
  // The classifier on 2N rows of this summary's width (values from the draws'
  // scale do not change Newton's cost).
  // Timed on min(N, 1000) rows per side and scaled by N / that: Newton's
  // cost is linear in the rows (at a similar iteration count).
  const int64_t rows = std::min<int64_t>(n, 1000);
  std::vector<double> d1(rows * c.dim), d0(rows * c.dim);
  for (size_t i = 0; i < d1.size(); ++i) {
    d1[i] = static_cast<double>(rng() % 1000) / 1000.0;
    d0[i] = static_cast<double>(rng() % 1000) / 1000.0 + 0.01;
  }
  PB_ASSIGN_OR_RETURN(auto clf, MakeScoreClassifier("logistic_squares", 1e-3));
  c.fit = Seconds([&] { st = clf->Fit(d1, d0, c.dim); }) * static_cast<double>(n) /
          static_cast<double>(rows);
  PB_RETURN_IF_ERROR(st);
  return c;
}

Status Run(const std::string& datasets, int64_t n) {
  MlAuditConfig all;
  all.mechanisms = "lr_output,lr_objective,nb,rf";
  all.attacks = "influence,clipbkd,swapx,nb_flip,nb_mean,rf_flip";
  all.roles = "audit,bug1,bug2,weakened";
  const std::vector<AuditCase> cases = AuditCases(all);
  const double audits_per_unit = 9 * 4 * 3;
  double total = 0;
  std::printf("%-14s %-13s %6s %12s %12s %12s %12s\n", "dataset", "mechanism", "dim", "prepare_s",
              "draw_us", "clf_fit_s", "audit_s");
  for (const std::string& name : SplitList(datasets)) {
    PB_ASSIGN_OR_RETURN(AuditDataset ds, LoadAuditDataset(name, ""));
    std::map<std::string, double> audit_seconds;
    for (const std::string& m : ClassicalMechanismNames()) {
      PB_ASSIGN_OR_RETURN(Costs c, MechanismCosts(ds, m, n));
      const double audit = 2 * c.prepare + 4.0 * static_cast<double>(n) * c.draw + c.fit;
      audit_seconds[m] = audit;
      std::printf("%-14s %-13s %6lld %12.4f %12.2f %12.3f %12.2f\n", name.c_str(), m.c_str(),
                  static_cast<long long>(c.dim), c.prepare, c.draw * 1e6, c.fit, audit);
    }
    for (const std::string& a : PoisoningAttackNames()) {
      Status st;
      const double s = Seconds([&] { st = DesignPoison(a, ds.data, ds.bounds, 0, 1).status(); });
      PB_RETURN_IF_ERROR(st);
      std::printf("%-14s attack %-12s design %.3f s\n", name.c_str(), a.c_str(), s);
      total += s * 4;  // about four cases per attack
    }
    double dataset_total = 0;
    for (const AuditCase& c : cases) dataset_total += audits_per_unit * audit_seconds[c.mechanism];
    std::printf(
        "%-14s paper grid (%zu cases x %.0f audits, N = %lld): %.0f s = %.2f h on 1 thread\n",
        name.c_str(), cases.size(), audits_per_unit, static_cast<long long>(n), dataset_total,
        dataset_total / 3600);
    total += dataset_total;
  }
  std::printf("TOTAL projected paper grid: %.2f h on 1 thread, %.2f h on 2 threads\n", total / 3600,
              total / 7200);
  return Status::Ok();
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  std::string datasets = "iris,breast_cancer,adult";
  int64_t n = 10000;
  FlagSet flags("benchmark", "ml_audit draw, attack and classifier timings; paper-grid projection");
  flags.AddString("datasets", &datasets, "datasets to time").NonEmpty();
  flags.AddInt("n", &n, "N per side of the projection").Range(2, 1e7);
  if (auto code = flags.ParseForMain(argc, argv)) return *code;
  Status st = Run(datasets, n);
  if (!st.ok()) {
    std::fprintf(stderr, "benchmark: error: %s\n", st.message().c_str());
    return 1;
  }
  return 0;
}
