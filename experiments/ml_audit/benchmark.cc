// Benchmark of study ml_audit (README.md): times each mechanism's
// preparation and summary draws, the rest of an audit (the classifier's fit
// on 2N summaries and the threshold search, RunMlAudit) and each attack's
// design on every offline dataset, and projects the paper-scale grid's time
// on this machine, per dataset and mechanism, on 1 thread and on --threads
// threads, against the target (the whole grid in 4 h on 2 cores).
//
//   bazel build --config=ci -c opt //experiments/ml_audit:benchmark
//   bazel-bin/experiments/ml_audit/benchmark [--datasets=...] [--threads=2]
//
// Projection, per (dataset, case) unit as RunAuditUnit (compute.cc) runs it
// at paper scale (main.cc: 9 eps_th x 4 k x 3 replicates, N = bug_n =
// 10,000): the attack's design once; per (eps_th, k) the mechanism prepared
// on D and D' (and for lr_output the max_loss column's two non-private fits,
// each the cost of lr_output's preparation); per audit 4N draws and the rest
// of RunMlAudit at N. The study runs units on --threads threads, each unit
// handed to the next free thread in the study's order: the multi-thread
// figure replays that schedule on the projected unit times. Banknote, credit
// and thoracic (paper scale when downloaded) are not in the projection.
//
// What is measured how: a draw's time is the mean over the nine eps_th of as
// many draws as fit in about 0.25 s on each side, and so is the
// preparation's; draws are timed both ways: in blocks of 64 through
// SummarySampler::DrawMany, as the study asks for them (draw_us, the
// projection's; lr_objective solves a block together, FitLogisticBatch), and
// one at a time through Draw (draw1_us, at least 3 and at most 2000 draws:
// the single-solve figure, projected beside it as h_*_single); the rest of an
// audit is
// RunMlAudit at N on those real draws recycled (served in a cycle), one side
// from D and one from D' = D with row 0's label flipped (for lr_objective on
// Adult, a few draws recycled: the classifier's cost depends on N and the
// summary's width, less on the values).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "attacks/poisoning/poisoning.h"
#include "core/flags.h"
#include "core/seeding.h"
#include "estimators/output_set_audit/output_set_audit.h"
#include "experiments/ml_audit/compute.h"
#include "experiments/ml_audit/config.h"
#include "experiments/ml_audit/data.h"
#include "mechanisms/classical/mechanism.h"

namespace privbench::ml_audit {
namespace {

// The paper scale's grid (main.cc, Defaults(kPaper)).
constexpr double kPaperEps[] = {0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 50};
constexpr double kEps = 9, kK = 4, kReplicates = 3;
constexpr double kTargetHours = 4;

double Seconds(const std::function<void()>& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Costs {
  double prepare = 0, draw = 0, rest = 0, max_loss = 0;
  double draw_single = 0;  // one at a time (Draw)
  int64_t dim = 0, pool = 0;
};

constexpr int64_t kBlock = 64;  // draws per DrawMany in the batched timing

// Blocks of kBlock draws (DrawMany) until ~0.25 s has passed (at least one);
// returns the mean seconds per draw.
Result<double> TimedBlocks(SummarySampler& s, Rng& rng) {
  std::vector<double> out(kBlock * s.dim());
  int64_t count = 0;
  double total = 0;
  while (count == 0 || total < 0.25) {
    Status st;
    total += Seconds([&] { st = s.DrawMany(rng, kBlock, out.data()); });
    PB_RETURN_IF_ERROR(st);
    count += kBlock;
  }
  return total / static_cast<double>(count);
}

// Draws until ~0.25 s has passed (3 to 2000 draws) into pool; returns the
// mean seconds per draw.
Result<double> TimedDraws(SummarySampler& s, Rng& rng, std::vector<double>* pool) {
  const int64_t dim = s.dim();
  int64_t count = 0;
  double total = 0;
  while (count < 2000 && (count < 3 || total < 0.25)) {
    pool->resize((count + 1) * dim);
    Status st;
    total += Seconds([&] { st = s.Draw(rng, pool->data() + count * dim); });
    PB_RETURN_IF_ERROR(st);
    ++count;
  }
  return total / static_cast<double>(count);
}

// Serves `pool` (rows of width dim) in a cycle.
SummaryDraws Recycled(const std::vector<double>* pool, int64_t dim) {
  auto next = std::make_shared<int64_t>(0);
  return [pool, dim, next](int64_t count, Rng&, std::vector<double>* out) -> Status {
    const int64_t rows = static_cast<int64_t>(pool->size()) / dim;
    out->resize(count * dim);
    for (int64_t i = 0; i < count; ++i, *next = (*next + 1) % rows) {
      std::copy_n(pool->data() + *next * dim, dim, out->data() + i * dim);
    }
    return Status::Ok();
  };
}

// Preparation and draw costs are means over the paper's eps_th (a solve's
// iterations depend on it); the pools for the rest of the audit come from
// eps_th = 1.
Result<Costs> MechanismCosts(const AuditDataset& ds, const std::string& mechanism,
                             const std::string& variant, const Config& config) {
  const std::vector<double> x(ds.data.row(0), ds.data.row(0) + ds.data.d);
  BinaryData dprime = ds.data;
  dprime.y[0] = 1 - dprime.y[0];
  Costs c;
  Rng rng(1);
  std::vector<double> pool_d, pool_dp;
  for (double eps : kPaperEps) {
    MechanismOptions o;
    o.eps = eps;
    o.variant = variant;
    PB_ASSIGN_OR_RETURN(auto mech, MakeClassicalMechanism(mechanism, o));
    Result<std::unique_ptr<SummarySampler>> sd = Error("unset"), sdp = Error("unset");
    const double prepare = Seconds([&] { sd = mech->Prepare(ds.data, ds.bounds, x); });
    PB_RETURN_IF_ERROR(sd.status());
    PB_ASSIGN_OR_RETURN(sdp, mech->Prepare(dprime, ds.bounds, x));
    c.dim = (*sd)->dim();
    std::vector<double> pd, pdp;
    PB_ASSIGN_OR_RETURN(double draw_d, TimedDraws(**sd, rng, &pd));
    PB_ASSIGN_OR_RETURN(double draw_dp, TimedDraws(**sdp, rng, &pdp));
    PB_ASSIGN_OR_RETURN(double many_d, TimedBlocks(**sd, rng));
    PB_ASSIGN_OR_RETURN(double many_dp, TimedBlocks(**sdp, rng));
    c.prepare += prepare / kEps;
    c.draw_single += (draw_d + draw_dp) / 2 / kEps;
    c.draw += (many_d + many_dp) / 2 / kEps;
    if (eps == 1) pool_d = std::move(pd), pool_dp = std::move(pdp);
  }
  if (mechanism == "lr_output") c.max_loss = 2 * c.prepare;
  c.pool = static_cast<int64_t>(std::min(pool_d.size(), pool_dp.size())) / c.dim;
  MlAuditOptions ao;
  ao.n = config.n;
  ao.alpha = config.alpha;
  ao.min_prob = config.min_prob;
  ao.classifier = config.classifier;
  ao.l2 = config.classifier_l2;
  Status st;
  c.rest = Seconds([&] {
    st = RunMlAudit(c.dim, Recycled(&pool_d, c.dim), Recycled(&pool_dp, c.dim), ao, rng).status();
  });
  PB_RETURN_IF_ERROR(st);
  return c;
}

// The projected seconds of one unit (single: with one-at-a-time draws).
double UnitSeconds(const Costs& c, double design, int64_t n, bool single) {
  const double draw = single ? c.draw_single : c.draw;
  const double audit = 4.0 * static_cast<double>(n) * draw + c.rest;
  return design + kEps * kK * (2 * c.prepare + c.max_loss) + kEps * kK * kReplicates * audit;
}

// The study's schedule: units in order, each to the first free thread.
double Makespan(const std::vector<double>& units, int threads) {
  std::vector<double> free_at(static_cast<size_t>(threads), 0.0);
  for (double u : units) *std::min_element(free_at.begin(), free_at.end()) += u;
  return *std::max_element(free_at.begin(), free_at.end());
}

struct Unit {
  std::string dataset, mechanism;  // mechanism with its variant, e.g. "nb-expose_counts"
  std::string id;                  // UnitId
  double seconds = 0;
  double seconds_single = 0;  // with one-at-a-time draws
};

std::string Key(const AuditCase& c) {
  return c.mechanism + (c.variant.empty() ? "" : "-" + c.variant);
}

// Times one dataset's mechanisms and attacks; appends its units in the
// study's order.
Status TimeDataset(const std::string& name, const std::vector<AuditCase>& cases,
                   const Config& config, std::vector<Unit>* units) {
  const int64_t n = config.n;
  PB_ASSIGN_OR_RETURN(AuditDataset ds, LoadAuditDataset(name, ""));
  std::map<std::string, Costs> costs;
  std::map<std::string, double> design;
  for (const AuditCase& c : cases) {
    if (costs.count(Key(c)) == 0) {
      PB_ASSIGN_OR_RETURN(costs[Key(c)], MechanismCosts(ds, c.mechanism, c.variant, config));
      const Costs& m = costs[Key(c)];
      std::printf("%-14s %-30s %5lld %10.4f %12.2f %12.2f %6.1f %6lld %10.3f %10.2f\n",
                  name.c_str(), Key(c).c_str(), static_cast<long long>(m.dim), m.prepare,
                  m.draw * 1e6, m.draw_single * 1e6, m.draw_single / m.draw,
                  static_cast<long long>(m.pool), m.rest,
                  4.0 * static_cast<double>(n) * m.draw + m.rest);
    }
    if (design.count(c.attack) == 0) {
      Status st;
      design[c.attack] =
          Seconds([&] { st = DesignPoison(c.attack, ds.data, ds.bounds, 0, 1).status(); });
      PB_RETURN_IF_ERROR(st);
      std::printf("%-14s attack %-23s design %.3f s\n", name.c_str(), c.attack.c_str(),
                  design[c.attack]);
    }
    units->push_back({name, Key(c), UnitId(name, c),
                      UnitSeconds(costs[Key(c)], design[c.attack], n, false),
                      UnitSeconds(costs[Key(c)], design[c.attack], n, true)});
  }
  return Status::Ok();
}

// One group's line: hours on 1 and on `threads` threads, batched draws and
// (last two columns) one-at-a-time draws.
void PrintLine(const std::string& what, const std::vector<const Unit*>& units, int threads) {
  double total = 0, total_single = 0;
  std::vector<double> batched, single;
  for (const Unit* u : units) {
    total += u->seconds, total_single += u->seconds_single;
    batched.push_back(u->seconds), single.push_back(u->seconds_single);
  }
  std::printf("%-44s %5zu %10.3f %10.3f %10.3f %10.3f\n", what.c_str(), units.size(), total / 3600,
              Makespan(batched, threads) / 3600, total_single / 3600,
              Makespan(single, threads) / 3600);
}

double MakespanOf(const std::vector<const Unit*>& units, int threads, bool single) {
  std::vector<double> s;
  for (const Unit* u : units) s.push_back(single ? u->seconds_single : u->seconds);
  return Makespan(s, threads);
}

void PrintProjection(const std::vector<Unit>& units, int threads, int64_t n) {
  const std::string t = std::to_string(threads);
  std::printf(
      "\nPaper grid projection (N = %lld, %.0f eps_th x %.0f k x %.0f replicates "
      "per unit; *_single: draws one at a time)\n%-44s %5s %10s %10s %10s %10s\n",
      static_cast<long long>(n), kEps, kK, kReplicates, "group", "units", "h_1thr",
      ("h_" + t + "thr").c_str(), "h_1_single", ("h_" + t + "_single").c_str());
  std::vector<std::string> datasets, mechanisms;
  for (const Unit& u : units) {
    if (std::find(datasets.begin(), datasets.end(), u.dataset) == datasets.end())
      datasets.push_back(u.dataset);
    if (std::find(mechanisms.begin(), mechanisms.end(), u.mechanism) == mechanisms.end())
      mechanisms.push_back(u.mechanism);
  }
  std::vector<const Unit*> all, without;
  for (const std::string& d : datasets) {
    std::vector<const Unit*> in_dataset;
    for (const std::string& m : mechanisms) {
      std::vector<const Unit*> group;
      for (const Unit& u : units) {
        if (u.dataset == d && u.mechanism == m) group.push_back(&u);
      }
      if (!group.empty()) PrintLine("  " + d + " " + m, group, threads);
    }
    for (const Unit& u : units) {
      if (u.dataset == d) in_dataset.push_back(&u);
    }
    PrintLine(d + " (all its units)", in_dataset, threads);
  }
  for (const Unit& u : units) {
    all.push_back(&u);
    const bool lr_objective = u.mechanism.rfind("lr_objective", 0) == 0;
    if (!(u.dataset == "adult" && lr_objective)) without.push_back(&u);
  }
  const Unit& longest =
      *std::max_element(units.begin(), units.end(),
                        [](const Unit& a, const Unit& b) { return a.seconds < b.seconds; });
  std::printf("longest unit (no run is shorter on any number of threads): %s %.3f h\n",
              longest.id.c_str(), longest.seconds / 3600);
  PrintLine("TOTAL", all, threads);
  PrintLine("TOTAL without lr_objective on adult", without, threads);
  const double hours = MakespanOf(all, threads, false) / 3600;
  const double hours_single = MakespanOf(all, threads, true) / 3600;
  std::printf(
      "target: %.0f h on %d threads; TOTAL / target = %.2f (one-at-a-time draws: %.2f; "
      "batched speed-up of the grid %.2fx); without lr_objective on adult / target = %.2f\n",
      kTargetHours, threads, hours / kTargetHours, hours_single / kTargetHours,
      hours_single / hours, MakespanOf(without, threads, false) / 3600 / kTargetHours);
}

// config: n, the classifier and its penalty, the mechanisms.
Status Run(const std::string& datasets, Config config, int threads) {
  const int64_t n = config.n;
  for (const std::string& a : PoisoningAttackNames()) config.attacks += a + ",";
  config.roles = "audit,bug1,bug2,weakened,library";
  const std::vector<AuditCase> cases = AuditCases(config);
  std::printf("%-14s %-30s %5s %10s %12s %12s %6s %6s %10s %10s\n", "dataset", "mechanism", "dim",
              "prepare_s", "draw_us", "draw1_us", "ratio", "pool", "rest_s", "audit_s");
  std::vector<Unit> units;
  for (const std::string& name : SplitList(datasets)) {
    PB_RETURN_IF_ERROR(TimeDataset(name, cases, config, &units));
  }
  PrintProjection(units, threads, n);
  return Status::Ok();
}

}  // namespace
}  // namespace privbench::ml_audit

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::ml_audit;
  std::string datasets = "iris,breast_cancer,adult";
  Config config;  // the study's defaults for the audit's options
  config.mechanisms = "lr_output,lr_objective,nb,rf";
  config.n = 10000;
  int64_t threads = 2;
  FlagSet flags("benchmark",
                "ml_audit draw, audit and attack timings; paper-grid projection per dataset and "
                "mechanism on 1 and --threads threads against the 4 h target");
  flags.AddString("datasets", &datasets, "datasets to time and project").NonEmpty();
  flags
      .AddString("mechanisms", &config.mechanisms, "mechanisms whose cases are timed and projected")
      .NonEmpty();
  flags.AddInt("n", &config.n, "N per side of the projection (the paper's 10,000)").Range(2, 1e7);
  flags.AddString("classifier", &config.classifier, "the audit's classifier")
      .OneOf(ScoreClassifierNames());
  flags.AddDouble("classifier_l2", &config.classifier_l2, "the classifier's L2 penalty")
      .Above(0)
      .Finite();
  flags.AddInt("threads", &threads, "threads of the projected study run").Range(1, 1024);
  if (auto code = flags.ParseForMain(argc, argv)) return *code;
  for (const auto& [flag, list, valid] :
       {std::make_tuple("datasets", datasets, AuditDatasetNames()),
        std::make_tuple("mechanisms", config.mechanisms, ClassicalMechanismNames())}) {
    for (const std::string& item : SplitList(list)) {
      if (std::find(valid.begin(), valid.end(), item) == valid.end()) {
        std::fprintf(stderr, "benchmark: error: %s: unknown name '%s'\n", flag, item.c_str());
        return 2;
      }
    }
  }
  Status st = Run(datasets, config, static_cast<int>(threads));
  if (!st.ok()) {
    std::fprintf(stderr, "benchmark: error: %s\n", st.message().c_str());
    return 1;
  }
  return 0;
}
