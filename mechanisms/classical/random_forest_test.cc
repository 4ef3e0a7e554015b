// The random forest's fast leaf counts (ForestCells, random_forest.h) against
// a naive reference that tests every row of the tree, and the forest's draws
// against a naive sampler consuming the same random numbers (Fletcher &
// Islam 2017 as in diffprivlib 0.5.2; experiments/ml_audit/README.md). Exact
// comparisons, no statistics: the fast path must give the same integers.
#include "mechanisms/classical/random_forest.h"

#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <random>

#include "core/seeding.h"
#include "gtest/gtest.h"
#include "mechanisms/classical/data.h"
#include "mechanisms/classical/mechanism.h"

namespace privbench {
namespace {

// Columns of every kind the fast path distinguishes: binary (one-hot),
// a few integer levels (ties with split points), many levels (kMaskValues
// and one more), continuous (value-tested), constant, and values on the
// upper bound.
BinaryData MixedData(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const int64_t levels = ForestCells::kMaskValues;
  BinaryData d;
  d.d = 9;
  for (int64_t i = 0; i < n; ++i) {
    const double c = u(rng);
    d.Append({u(rng) < 0.2 ? 1.0 : 0.0, u(rng) < 0.6 ? 1.0 : 0.0, std::floor(u(rng) * 5),
              static_cast<double>(i % levels), static_cast<double>(i % (levels + 1)), c,
              2 * u(rng) - 1, 3.0, u(rng) < 0.3 ? 1.0 : u(rng)},
             u(rng) < 0.4 + 0.3 * c ? 1 : 0);
  }
  return d;
}

// The original draw's counting: every row of tree t against every feature
// split on.
void NaiveCounts(const BinaryData& data, const DataBounds& b, int64_t trees, uint64_t seed,
                 int64_t t, const std::vector<double>& lo, const std::vector<double>& hi,
                 const std::vector<int64_t>& features, double counts[2]) {
  counts[0] = counts[1] = 0;
  for (int64_t i = 0; i < data.n(); ++i) {
    if (TreeOfRow(seed, i, trees) != t) continue;
    bool inside = true;
    for (int64_t j : features) {
      const double r = data.row(i)[j];
      inside = inside && r >= lo[j] && (r < hi[j] || (hi[j] == b.hi[j] && r <= hi[j]));
    }
    if (inside) counts[data.y[i]] += 1;
  }
}

// A path of `depth` splits towards x: uniform in the cell, or on a data value
// (ties), as the forest's structure narrows it.
void RandomPath(std::mt19937_64& rng, const BinaryData& data, const DataBounds& b,
                const std::vector<double>& x, int64_t depth, std::vector<double>* lo,
                std::vector<double>* hi, std::vector<int64_t>* features) {
  std::uniform_real_distribution<double> u(0, 1);
  *lo = b.lo;
  *hi = b.hi;
  features->clear();
  for (int64_t level = 0; level < depth; ++level) {
    const int64_t f = static_cast<int64_t>(rng() % static_cast<uint64_t>(data.d));
    double split = (*lo)[f] + u(rng) * ((*hi)[f] - (*lo)[f]);
    const double v = data.row(static_cast<int64_t>(rng() % data.n()))[f];
    if (u(rng) < 0.5 && v >= (*lo)[f] && v <= (*hi)[f]) split = v;
    features->push_back(f);
    (x[f] < split ? (*hi)[f] : (*lo)[f]) = split;
  }
}

TEST(ForestCellsTest, CountsMatchNaiveReference) {
  for (uint64_t seed : {1, 2, 3}) {
    const BinaryData data = MixedData(1500 + 700 * seed, seed);
    const DataBounds b = BoundsOf(data);
    const int64_t trees = 1 + 4 * static_cast<int64_t>(seed - 1);  // 1, 5, 9
    ForestCells cells(data, b, trees, seed);
    std::mt19937_64 rng(seed);
    std::vector<double> lo, hi;
    std::vector<int64_t> features;
    int64_t nonempty = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const int64_t row = static_cast<int64_t>(rng() % data.n());
      const std::vector<double> x(data.row(row), data.row(row) + data.d);
      RandomPath(rng, data, b, x, 1 + trial % 12, &lo, &hi, &features);
      const int64_t t = trial % trees;
      double fast[2], naive[2];
      cells.Count(t, lo, hi, features, fast);
      NaiveCounts(data, b, trees, seed, t, lo, hi, features, naive);
      ASSERT_EQ(fast[0], naive[0]) << "seed " << seed << " trial " << trial;
      ASSERT_EQ(fast[1], naive[1]) << "seed " << seed << " trial " << trial;
      nonempty += naive[0] + naive[1] > 0;
    }
    EXPECT_GT(nonempty, 100);  // the cells are not all empty
  }
}

// The forest's draw before ForestCells, kept as the reference: the same
// random numbers in the same order, counts from every row.
std::vector<double> NaiveDraw(Rng& rng, const BinaryData& data, const DataBounds& b,
                              const std::vector<double>& x, const MechanismOptions& o) {
  std::vector<double> out;
  boost::random::uniform_int_distribution<int64_t> feature(0, data.d - 1);
  boost::random::uniform_01<double> u;
  for (int64_t t = 0; t < o.trees; ++t) {
    std::vector<double> lo = b.lo, hi = b.hi;
    std::vector<int64_t> features;
    for (int64_t level = 0; level < BallsInBinsDepth(data.d); ++level) {
      const int64_t f = feature(rng);
      features.push_back(f);
      const double split = lo[f] + u(rng) * (hi[f] - lo[f]);
      (x[f] < split ? hi[f] : lo[f]) = split;
    }
    double counts[2];
    NaiveCounts(data, b, o.trees, o.partition_seed, t, lo, hi, features, counts);
    out.push_back(PermuteAndFlip(rng, counts[0], counts[1], o.eps));
  }
  return out;
}

TEST(ForestCellsTest, DrawsMatchNaiveSampler) {
  const BinaryData data = MixedData(3000, 7);
  const DataBounds b = BoundsOf(data);
  MechanismOptions o;
  o.eps = 0.5;
  o.partition_seed = 11;
  auto mech = MakeClassicalMechanism("rf", o);
  ASSERT_TRUE(mech.ok());
  const std::vector<double> x(data.row(5), data.row(5) + data.d);
  auto sampler = (*mech)->Prepare(data, b, x);
  ASSERT_TRUE(sampler.ok()) << sampler.message();
  Rng fast_rng(3), naive_rng(3);
  std::vector<double> fast(o.trees);
  for (int draw = 0; draw < 200; ++draw) {
    ASSERT_TRUE((*sampler)->Draw(fast_rng, fast.data()).ok());
    ASSERT_EQ(fast, NaiveDraw(naive_rng, data, b, x, o)) << "draw " << draw;
  }
  EXPECT_EQ(fast_rng(), naive_rng());  // the same random numbers consumed
}

}  // namespace
}  // namespace privbench
