// A tiny sweep for sweep_resume_test.py: `units` units, each sleeping
// `unit_ms` and writing a value derived from its index and the seed.
//   sweep_fixture --parts_dir=D --units=20 --unit_ms=100 [--shard=i/n] [--merge_to=F]
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "core/flags.h"
#include "core/seeding.h"
#include "experiments/lib/framework/sweep.h"

int main(int argc, char** argv) {
  using namespace privbench;
  std::string parts_dir = "/tmp/sweep_fixture", shard_text = "0/1", merge_to;
  int64_t units = 20, unit_ms = 100, seed = 7, threads = 1;
  FlagSet flags("sweep_fixture", "test fixture for resumable sweeps");
  flags.AddString("parts_dir", &parts_dir, "parts directory");
  flags.AddString("shard", &shard_text, "i/n");
  flags.AddString("merge_to", &merge_to, "merge into this file when complete");
  flags.AddInt("units", &units, "units");
  flags.AddInt("unit_ms", &unit_ms, "milliseconds per unit");
  flags.AddInt("seed", &seed, "seed");
  flags.AddInt("threads", &threads, "threads");
  if (flags.Parse(argc, argv) != ParseOutcome::kOk) {
    std::fprintf(stderr, "%s\n", flags.error().c_str());
    return 2;
  }
  auto shard = ParseShard(shard_text);
  if (!shard.ok()) {
    std::fprintf(stderr, "%s\n", shard.message().c_str());
    return 2;
  }
  std::vector<SweepUnit> list;
  for (int64_t k = 0; k < units; ++k) list.push_back({"unit=" + std::to_string(k)});
  SweepOptions o;
  o.study = "sweep_fixture";
  o.parts_dir = parts_dir;
  o.config_text = "units = " + std::to_string(units) + "\nseed = " + std::to_string(seed) + "\n";
  o.shard = *shard;
  o.threads = static_cast<int>(threads);
  o.quiet = true;
  auto report = RunSweep(list, o, [&](int64_t k, const SweepUnit&, ResultWriter& part) {
    std::this_thread::sleep_for(std::chrono::milliseconds(unit_ms));
    const double value = static_cast<double>(DeriveSeed(seed, {static_cast<uint64_t>(k)}) % 1000);
    return part.WriteScalar("/value", value);
  });
  if (!report.ok()) {
    std::fprintf(stderr, "%s\n", report.message().c_str());
    return 1;
  }
  std::printf("total=%lld owned=%lld skipped=%lld ran=%lld complete=%lld\n",
              static_cast<long long>(report->total), static_cast<long long>(report->owned),
              static_cast<long long>(report->skipped), static_cast<long long>(report->ran),
              static_cast<long long>(report->complete));
  if (!merge_to.empty()) {
    auto parts = OpenSweepParts(list, o);
    if (!parts.ok()) {
      std::fprintf(stderr, "%s\n", parts.message().c_str());
      return 1;
    }
    std::vector<double> values;
    for (const auto& p : *parts) values.push_back(p->ReadDoubles("/value").value()[0]);
    RunMeta meta;
    meta.study = "sweep_fixture";
    auto w = ResultWriter::Create(merge_to, meta);
    if (!w.ok() || !w.value()->WriteDoubles("/values", values).ok() || !w.value()->Commit().ok()) {
      std::fprintf(stderr, "merge failed\n");
      return 1;
    }
  }
  return 0;
}
