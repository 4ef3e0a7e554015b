#include "mechanisms/classical/random_forest.h"

#include <algorithm>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>

#include "core/format.h"

namespace privbench {

int64_t BallsInBinsDepth(int64_t d, int64_t max_depth) {
  const double m = static_cast<double>(d);
  int64_t depth = 0;
  double expected_empty = m;
  while (expected_empty > m / 2) {
    expected_empty = m * std::pow((m - 1) / m, static_cast<double>(depth));
    ++depth;
  }
  return std::min<int64_t>(max_depth, depth / 2);
}

int64_t TreeOfRow(uint64_t partition_seed, int64_t row, int64_t trees) {
  return static_cast<int64_t>(DeriveSeed(partition_seed, {static_cast<uint64_t>(row)}) %
                              static_cast<uint64_t>(trees));
}

int PermuteAndFlip(Rng& rng, double count0, double count1, double eps) {
  const double best = std::max(count0, count1);
  boost::random::uniform_01<double> u;
  const int first = u(rng) < 0.5 ? 0 : 1;
  for (int step = 0;; step = 1 - step) {
    const int c = step == 0 ? first : 1 - first;
    const double q = c == 0 ? count0 : count1;
    if (u(rng) <= std::exp(eps * (q - best))) return c;
  }
}

namespace {

class RfSampler : public SummarySampler {
 public:
  RfSampler(const BinaryData& data, const DataBounds& bounds, std::vector<double> x,
            const MechanismOptions& o)
      : bounds_(bounds),
        x_(std::move(x)),
        trees_(o.trees),
        eps_(o.eps / o.noise_factor),
        depth_(BallsInBinsDepth(data.d)) {
    rows_.resize(trees_);
    for (int64_t i = 0; i < data.n(); ++i) {
      rows_[TreeOfRow(o.partition_seed, i, trees_)].push_back(i);
    }
    copy_ = data;  // the sampler outlives the caller's data
    data_ = &copy_;
  }
  int64_t dim() const override { return trees_; }
  Status Draw(Rng& rng, double* out) override {
    for (int64_t t = 0; t < trees_; ++t) out[t] = DrawTree(rng, t);
    return Status::Ok();
  }

 private:
  double DrawTree(Rng& rng, int64_t t) {
    const int64_t d = data_->d;
    lo_ = bounds_.lo;
    hi_ = bounds_.hi;
    boost::random::uniform_int_distribution<int64_t> feature(0, d - 1);
    boost::random::uniform_01<double> u;
    split_features_.clear();
    for (int64_t level = 0; level < depth_; ++level) {
      const int64_t f = feature(rng);
      split_features_.push_back(f);
      const double split = lo_[f] + u(rng) * (hi_[f] - lo_[f]);
      if (x_[f] < split) {
        hi_[f] = split;
      } else {
        lo_[f] = split;
      }
    }
    double counts[2] = {0, 0};
    for (int64_t i : rows_[t]) {
      const double* r = data_->row(i);
      bool inside = true;
      // Rows lie within the data bounds, so only the features split on can
      // exclude them. Cells are [lo, hi) except at the upper data bound.
      for (size_t s = 0; s < split_features_.size() && inside; ++s) {
        const int64_t j = split_features_[s];
        inside = r[j] >= lo_[j] && (r[j] < hi_[j] || (hi_[j] == bounds_.hi[j] && r[j] <= hi_[j]));
      }
      if (inside) counts[data_->y[i]] += 1;
    }
    return PermuteAndFlip(rng, counts[0], counts[1], eps_);
  }

  DataBounds bounds_;
  std::vector<double> x_;
  int64_t trees_;
  double eps_;
  int64_t depth_;
  std::vector<std::vector<int64_t>> rows_;
  const BinaryData* data_ = nullptr;
  BinaryData copy_;
  std::vector<double> lo_, hi_;
  std::vector<int64_t> split_features_;
};

class RandomForest : public ClassicalMechanism {
 public:
  explicit RandomForest(MechanismOptions o) : o_(std::move(o)) {}
  std::string name() const override { return "rf"; }
  Adjacency adjacency() const override { return Adjacency::kAddRemove; }
  std::string Describe() const override {
    return "random forest (Fletcher & Islam 2017 as in diffprivlib 0.5.2), " +
           std::to_string(o_.trees) +
           " trees, balls-in-bins depth, monotonic permute-and-flip leaves, eps = " +
           FormatDouble(o_.eps) + ", noise_factor = " + FormatDouble(o_.noise_factor) +
           ", partition_seed = " + std::to_string(o_.partition_seed) + ", adjacency add_remove";
  }
  Result<std::unique_ptr<SummarySampler>> Prepare(
      const BinaryData& data, const DataBounds& bounds,
      const std::vector<double>& target_x) const override {
    if (static_cast<int64_t>(target_x.size()) != data.d) {
      return Error("rf: the audit point x* must have d = " + std::to_string(data.d) + " features");
    }
    for (int64_t i = 0; i < data.n(); ++i) {
      for (int64_t j = 0; j < data.d; ++j) {
        if (data.row(i)[j] < bounds.lo[j] || data.row(i)[j] > bounds.hi[j]) {
          return Error("rf: row " + std::to_string(i) + " lies outside the data bounds");
        }
      }
    }
    return std::unique_ptr<SummarySampler>(new RfSampler(data, bounds, target_x, o_));
  }

 private:
  MechanismOptions o_;
};

}  // namespace

std::unique_ptr<ClassicalMechanism> MakeRandomForest(const MechanismOptions& options) {
  return std::make_unique<RandomForest>(options);
}

}  // namespace privbench
