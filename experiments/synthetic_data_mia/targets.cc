#include "experiments/synthetic_data_mia/targets.h"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "core/seeding.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

int64_t Hamming(const int32_t* a, const int32_t* b, int64_t d) {
  int64_t h = 0;
  for (int64_t j = 0; j < d; ++j) h += a[j] != b[j];
  return h;
}

// A uniformly random order of 0..n-1 (Fisher-Yates with Boost's integer draws).
std::vector<int64_t> Shuffled(int64_t n, Rng& rng) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  for (int64_t i = n - 1; i > 0; --i) {
    boost::random::uniform_int_distribution<int64_t> pick(0, i);
    std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(pick(rng))]);
  }
  return order;
}

// Mean Hamming distance of `record` to its k nearest rows of `table`, row
// `skip` (its own, when it is one of them) left out; -1: none.
double MeanDistanceToNearest(const int32_t* record, const CategoricalTable& table, int64_t k,
                             int64_t skip) {
  std::vector<int64_t> distances;
  distances.reserve(static_cast<size_t>(table.n()));
  for (int64_t o = 0; o < table.n(); ++o) {
    if (o != skip) distances.push_back(Hamming(record, table.row(o), table.d));
  }
  std::nth_element(distances.begin(), distances.begin() + (k - 1), distances.end());
  const int64_t sum = std::accumulate(distances.begin(), distances.begin() + k, int64_t{0});
  return static_cast<double>(sum) / static_cast<double>(k);
}

bool SameRecord(const int32_t* a, const std::vector<int32_t>& b) {
  return std::equal(b.begin(), b.end(), a);
}

}  // namespace

std::vector<double> OutlierScores(const CategoricalTable& table, int64_t k) {
  std::vector<double> scores(static_cast<size_t>(table.n()));
  for (int64_t i = 0; i < table.n(); ++i) {
    scores[static_cast<size_t>(i)] = MeanDistanceToNearest(table.row(i), table, k, i);
  }
  return scores;
}

std::vector<int32_t> RarestValueCanary(const CategoricalTable& pool,
                                       const CategoricalDomain& domain) {
  std::vector<int32_t> canary(static_cast<size_t>(domain.attributes()));
  for (int64_t j = 0; j < domain.attributes(); ++j) {
    const std::vector<int64_t> counts = Marginal1(pool, domain, j);
    canary[static_cast<size_t>(j)] =
        static_cast<int32_t>(std::min_element(counts.begin(), counts.end()) - counts.begin());
  }
  return canary;
}

Result<TargetSetup> ChooseTargets(const CategoricalTable& pool, const CategoricalDomain& domain,
                                  const Config& c, uint64_t seed) {
  if (c.outlier_pool > pool.n()) {
    return Error("outlier_pool must be at most the pool's " + std::to_string(pool.n()) +
                 " records, got " + std::to_string(c.outlier_pool));
  }
  if (c.knn_k >= c.outlier_pool) {
    return Error("knn_k must be below outlier_pool (" + std::to_string(c.outlier_pool) + "), got " +
                 std::to_string(c.knn_k));
  }
  if (c.outlier_targets + c.random_targets > c.outlier_pool) {
    return Error("outlier_targets + random_targets must be at most outlier_pool (" +
                 std::to_string(c.outlier_pool) + ")");
  }
  Rng rng = MakeRng(seed, {StableHash("targets")});
  std::vector<int64_t> order = Shuffled(pool.n(), rng);
  order.resize(static_cast<size_t>(c.outlier_pool));
  const CategoricalTable scored = SelectRows(pool, order);
  const std::vector<double> scores = OutlierScores(scored, c.knn_k);
  std::vector<int64_t> by_score(scores.size());
  std::iota(by_score.begin(), by_score.end(), int64_t{0});
  std::stable_sort(by_score.begin(), by_score.end(), [&](int64_t a, int64_t b) {
    return scores[static_cast<size_t>(a)] > scores[static_cast<size_t>(b)];
  });
  TargetSetup setup;
  auto add = [&](const char* kind, int64_t scored_row) {
    const int32_t* r = scored.row(scored_row);
    setup.targets.push_back(
        {kind, std::vector<int32_t>(r, r + scored.d), scores[static_cast<size_t>(scored_row)]});
  };
  for (int64_t t = 0; t < c.outlier_targets; ++t) add("outlier", by_score[static_cast<size_t>(t)]);
  // Random targets: the scored subset is in random order already; take the
  // first rows that are not outlier targets.
  std::vector<bool> taken(scores.size(), false);
  for (int64_t t = 0; t < c.outlier_targets; ++t) taken[static_cast<size_t>(by_score[t])] = true;
  for (int64_t row = 0, added = 0; added < c.random_targets; ++row) {
    if (taken[static_cast<size_t>(row)]) continue;
    add("random", row);
    ++added;
  }
  if (c.canary_target) {
    setup.targets.push_back({"canary", RarestValueCanary(pool, domain), 0.0});
    setup.targets.back().outlier_score =
        MeanDistanceToNearest(setup.targets.back().record.data(), scored, c.knn_k, -1);
  }
  setup.population = EmptyTable(domain);
  for (int64_t i = 0; i < pool.n(); ++i) {
    const bool is_target =
        std::any_of(setup.targets.begin(), setup.targets.end(),
                    [&](const Target& t) { return SameRecord(pool.row(i), t.record); });
    if (is_target) {
      ++setup.removed_duplicates;
    } else {
      setup.population.Append(pool.row(i));
    }
  }
  return setup;
}

}  // namespace synthetic_data_mia
}  // namespace privbench
