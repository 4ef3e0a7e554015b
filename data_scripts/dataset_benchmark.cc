// Load / generation times of the datasets (Google Benchmark; prints measured
// figures, asserts nothing). Single-threaded.
//
//   bazel run //data_scripts:dataset_benchmark
#include <benchmark/benchmark.h>

#include <string>

#include "data_scripts/adult.h"
#include "data_scripts/digests.h"
#include "data_scripts/fashion_mnist.h"
#include "data_scripts/purchase100_surrogate.h"

namespace privbench {
namespace {

void BM_LoadAdult(benchmark::State& state) {
  for (auto _ : state) {
    auto d = LoadAdult();
    if (!d.ok()) state.SkipWithError(d.message().c_str());
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_LoadAdult)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_LoadFashionMnist(benchmark::State& state) {
  for (auto _ : state) {
    auto d = LoadFashionMnist();
    if (!d.ok()) state.SkipWithError(d.message().c_str());
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_LoadFashionMnist)->Unit(benchmark::kMillisecond)->Iterations(3);

// args: n_train, n_population. 10k/10k (C1 quick) and Epsilon*'s paper scale
// 208,731 / 102,809 (311,540 rows).
void BM_Purchase100Surrogate(benchmark::State& state) {
  SurrogateOptions o;
  o.n_train = state.range(0);
  o.n_population = state.range(1);
  for (auto _ : state) {
    auto d = MakePurchase100Surrogate(o);
    if (!d.ok()) state.SkipWithError(d.message().c_str());
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(state.iterations() * (o.n_train + o.n_population));
}
BENCHMARK(BM_Purchase100Surrogate)
    ->Args({10000, 10000})
    ->Args({208731, 102809})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

void BM_Sha256(benchmark::State& state) {
  const std::string data(static_cast<size_t>(state.range(0)), 'x');
  for (auto _ : state) benchmark::DoNotOptimize(Sha256Hex(data));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Sha256)->Arg(1 << 24);

void BM_Md5(benchmark::State& state) {
  const std::string data(static_cast<size_t>(state.range(0)), 'x');
  for (auto _ : state) benchmark::DoNotOptimize(Md5Hex(data));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Md5)->Arg(1 << 24);

}  // namespace
}  // namespace privbench

BENCHMARK_MAIN();
