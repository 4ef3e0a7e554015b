#include "attacks/synthetic/classifier.h"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <string>
#include <utility>

#include "core/seeding.h"
#include "core/validate.h"
#include "numerics/logistic.h"

namespace privbench {

Result<std::vector<double>> AttackClassifier::Score(const FeatureMatrix& x) const {
  if (x.m != m_) {
    return Error("x has " + std::to_string(x.m) + " features per row, the classifier " +
                 std::to_string(m_));
  }
  if (x.x.size() % static_cast<size_t>(m_) != 0) {
    return Error("x holds " + std::to_string(x.x.size()) + " values, not a multiple of its " +
                 std::to_string(m_) + " features");
  }
  for (size_t i = 0; i < x.x.size(); ++i) {
    if (!std::isfinite(x.x[i])) {
      return Error("x row " + std::to_string(i / m_) + ", feature " + std::to_string(i % m_) +
                   " is not finite");
    }
  }
  std::vector<double> scores(x.n());
  for (int64_t i = 0; i < x.n(); ++i) scores[i] = ScoreRow(x.x.data() + i * m_);
  return scores;
}

namespace {

// ---------------------------------------------------------------------------
// Logistic regression on standardised features.

class LogisticClassifier : public AttackClassifier {
 public:
  LogisticClassifier(std::vector<double> mean, std::vector<double> inv_sd, std::vector<double> w)
      : AttackClassifier(static_cast<int64_t>(mean.size())),
        mean_(std::move(mean)),
        inv_sd_(std::move(inv_sd)),
        w_(std::move(w)) {}

 protected:
  double ScoreRow(const double* row) const override {
    const int64_t m = features();
    double s = w_[m];
    for (int64_t j = 0; j < m; ++j) s += w_[j] * (row[j] - mean_[j]) * inv_sd_[j];
    return s;
  }

 private:
  std::vector<double> mean_, inv_sd_, w_;  // w_: m weights then the intercept
};

Result<std::unique_ptr<AttackClassifier>> TrainLogistic(const FeatureMatrix& f,
                                                        const std::vector<uint8_t>& labels,
                                                        double lambda) {
  const int64_t n = f.n(), m = f.m;
  std::vector<double> mean(m, 0.0), inv_sd(m, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) mean[j] += f.x[i * m + j];
  }
  for (int64_t j = 0; j < m; ++j) mean[j] /= static_cast<double>(n);
  std::vector<double> ss(m, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      const double c = f.x[i * m + j] - mean[j];
      ss[j] += c * c;
    }
  }
  for (int64_t j = 0; j < m; ++j) {
    const double sd = std::sqrt(ss[j] / static_cast<double>(n - 1));
    inv_sd[j] = sd > 0.0 ? 1.0 / sd : 0.0;  // constant in training: dropped
  }
  LogisticProblem p;
  p.m = m + 1;
  p.lambda = lambda;
  p.x.resize(n * (m + 1));
  p.sign.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    double* row = p.x.data() + i * (m + 1);
    for (int64_t j = 0; j < m; ++j) row[j] = (f.x[i * m + j] - mean[j]) * inv_sd[j];
    row[m] = 1.0;
    p.sign[i] = labels[i] ? 1.0 : -1.0;
  }
  PB_ASSIGN_OR_RETURN(LogisticFit fit, FitLogistic(p, {}, {}, 1e-9));
  return std::unique_ptr<AttackClassifier>(
      new LogisticClassifier(std::move(mean), std::move(inv_sd), std::move(fit.w)));
}

// ---------------------------------------------------------------------------
// Random forest of CART trees.

struct TreeNode {
  int32_t feature = -1;  // -1: leaf
  int32_t left = -1, right = -1;
  double threshold = 0.0;
  double probability = 0.0;  // leaf: fraction of "in" rows
};

struct Split {
  int64_t feature = -1;
  double threshold = 0.0;
};

// Grows one tree; scratch buffers are reused across trees.
class TreeBuilder {
 public:
  TreeBuilder(const FeatureMatrix& f, const std::vector<uint8_t>& labels,
              const AttackClassifierOptions& o, int64_t max_features)
      : f_(f), labels_(labels), o_(o), max_features_(max_features), perm_(f.m) {
    for (int64_t j = 0; j < f.m; ++j) perm_[j] = j;
  }

  std::vector<TreeNode> Grow(Rng& rng);

 private:
  Split BestSplit(int64_t begin, int64_t end, Rng& rng);

  const FeatureMatrix& f_;
  const std::vector<uint8_t>& labels_;
  const AttackClassifierOptions& o_;
  int64_t max_features_;
  std::vector<int64_t> perm_;                    // features, partially shuffled per node
  std::vector<int64_t> rows_;                    // the bootstrap sample, partitioned by node
  std::vector<std::pair<double, uint8_t>> buf_;  // one node's (value, label), sorted
};

Split TreeBuilder::BestSplit(int64_t begin, int64_t end, Rng& rng) {
  const int64_t n = end - begin, m = f_.m, leaf = o_.min_samples_leaf;
  int64_t positives = 0;
  for (int64_t i = begin; i < end; ++i) positives += labels_[rows_[i]];
  Split best;
  double best_score = -1.0;  // sum over children of (pos^2 + neg^2) / size: maximised
  int64_t evaluated = 0;
  for (int64_t k = 0; k < m && evaluated < max_features_; ++k) {
    boost::random::uniform_int_distribution<int64_t> pick(k, m - 1);
    std::swap(perm_[k], perm_[pick(rng)]);
    const int64_t j = perm_[k];
    buf_.clear();
    for (int64_t i = begin; i < end; ++i) {
      buf_.emplace_back(f_.x[rows_[i] * m + j], labels_[rows_[i]]);
    }
    std::sort(buf_.begin(), buf_.end());
    if (buf_.front().first == buf_.back().first) continue;  // constant here: draw another
    ++evaluated;
    int64_t left_pos = 0;
    for (int64_t i = 1; i < n; ++i) {
      left_pos += buf_[i - 1].second;
      if (buf_[i].first == buf_[i - 1].first || i < leaf || n - i < leaf) continue;
      const double l = static_cast<double>(i), r = static_cast<double>(n - i);
      const double lp = static_cast<double>(left_pos), rp = static_cast<double>(positives) - lp;
      const double score =
          (lp * lp + (l - lp) * (l - lp)) / l + (rp * rp + (r - rp) * (r - rp)) / r;
      if (score > best_score) {
        best_score = score;
        best.feature = j;
        const double lo = buf_[i - 1].first, hi = buf_[i].first;
        const double mid = lo + (hi - lo) / 2.0;
        best.threshold = (mid < hi) ? mid : lo;
      }
    }
  }
  return best;
}

std::vector<TreeNode> TreeBuilder::Grow(Rng& rng) {
  const int64_t n = f_.n();
  rows_.resize(n);
  boost::random::uniform_int_distribution<int64_t> draw(0, n - 1);
  for (int64_t i = 0; i < n; ++i) rows_[i] = draw(rng);
  struct Pending {
    int32_t node;
    int64_t begin, end, depth;
  };
  std::vector<TreeNode> nodes(1);
  std::vector<Pending> stack = {{0, 0, n, 0}};
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    int64_t positives = 0;
    for (int64_t i = p.begin; i < p.end; ++i) positives += labels_[rows_[i]];
    const int64_t size = p.end - p.begin;
    nodes[p.node].probability = static_cast<double>(positives) / static_cast<double>(size);
    if (p.depth >= o_.max_depth || positives == 0 || positives == size ||
        size < 2 * o_.min_samples_leaf) {
      continue;
    }
    const Split s = BestSplit(p.begin, p.end, rng);
    if (s.feature < 0) continue;
    const int64_t m = f_.m;
    const auto mid_it =
        std::partition(rows_.begin() + p.begin, rows_.begin() + p.end,
                       [&](int64_t r) { return f_.x[r * m + s.feature] <= s.threshold; });
    const int64_t mid = mid_it - rows_.begin();
    const int32_t left = static_cast<int32_t>(nodes.size());
    nodes.resize(nodes.size() + 2);
    nodes[p.node].feature = static_cast<int32_t>(s.feature);
    nodes[p.node].threshold = s.threshold;
    nodes[p.node].left = left;
    nodes[p.node].right = left + 1;
    stack.push_back({left + 1, mid, p.end, p.depth + 1});
    stack.push_back({left, p.begin, mid, p.depth + 1});
  }
  return nodes;
}

class ForestClassifier : public AttackClassifier {
 public:
  ForestClassifier(int64_t m, std::vector<std::vector<TreeNode>> trees)
      : AttackClassifier(m), trees_(std::move(trees)) {}

 protected:
  double ScoreRow(const double* row) const override {
    double sum = 0.0;
    for (const std::vector<TreeNode>& tree : trees_) {
      int32_t k = 0;
      while (tree[k].feature >= 0) {
        k = row[tree[k].feature] <= tree[k].threshold ? tree[k].left : tree[k].right;
      }
      sum += tree[k].probability;
    }
    return sum / static_cast<double>(trees_.size());
  }

 private:
  std::vector<std::vector<TreeNode>> trees_;
};

Result<std::unique_ptr<AttackClassifier>> TrainForest(const FeatureMatrix& f,
                                                      const std::vector<uint8_t>& labels,
                                                      const AttackClassifierOptions& o) {
  int64_t max_features = o.max_features;
  if (max_features == 0) {
    max_features = std::max<int64_t>(1, static_cast<int64_t>(std::sqrt(static_cast<double>(f.m))));
  }
  TreeBuilder builder(f, labels, o, max_features);
  std::vector<std::vector<TreeNode>> trees(o.trees);
  for (int64_t t = 0; t < o.trees; ++t) {
    Rng rng = MakeRng(o.seed, {static_cast<uint64_t>(t)});
    trees[t] = builder.Grow(rng);
  }
  return std::unique_ptr<AttackClassifier>(new ForestClassifier(f.m, std::move(trees)));
}

Status CheckTrainingSet(const FeatureMatrix& f, const std::vector<uint8_t>& labels) {
  if (f.m < 1 || f.x.empty()) return Error("features is empty");
  if (f.x.size() % static_cast<size_t>(f.m) != 0) {
    return Error("features holds " + std::to_string(f.x.size()) +
                 " values, not a multiple of its " + std::to_string(f.m) + " features");
  }
  if (f.n() < 2) return Error("features must have at least 2 rows, got " + std::to_string(f.n()));
  for (size_t i = 0; i < f.x.size(); ++i) {
    if (!std::isfinite(f.x[i])) {
      return Error("features row " + std::to_string(i / f.m) + ", feature " +
                   std::to_string(i % f.m) + " is not finite");
    }
  }
  if (static_cast<int64_t>(labels.size()) != f.n()) {
    return Error("labels has " + std::to_string(labels.size()) + " entries, features " +
                 std::to_string(f.n()) + " rows");
  }
  int64_t ones = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] > 1) {
      return Error("labels[" + std::to_string(i) + "] = " + std::to_string(labels[i]) +
                   " is not 0 or 1");
    }
    ones += labels[i];
  }
  if (ones == 0 || ones == f.n()) {
    return Error("labels must hold both classes (0 = target out, 1 = target in), got only " +
                 std::string(ones == 0 ? "0s" : "1s"));
  }
  return Status::Ok();
}

Status CheckOptions(const AttackClassifierOptions& o, int64_t m) {
  if (o.kind == AttackClassifierKind::kLogistic) {
    return CheckPositive("lambda", o.lambda);
  }
  if (o.kind != AttackClassifierKind::kRandomForest) {
    return Error("kind must be kLogistic or kRandomForest");
  }
  if (o.trees < 1 || o.trees > 100000) {
    return Error("trees must be in [1, 100000], got " + std::to_string(o.trees));
  }
  if (o.max_depth < 1 || o.max_depth > 30) {
    return Error("max_depth must be in [1, 30], got " + std::to_string(o.max_depth));
  }
  if (o.min_samples_leaf < 1) {
    return Error("min_samples_leaf must be >= 1, got " + std::to_string(o.min_samples_leaf));
  }
  if (o.max_features < 0 || o.max_features > m) {
    return Error("max_features must be 0 (sqrt) or in [1, " + std::to_string(m) + "], got " +
                 std::to_string(o.max_features));
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<AttackClassifier>> TrainAttackClassifier(
    const FeatureMatrix& features, const std::vector<uint8_t>& labels,
    const AttackClassifierOptions& options) {
  PB_RETURN_IF_ERROR(CheckTrainingSet(features, labels));
  PB_RETURN_IF_ERROR(CheckOptions(options, features.m));
  if (options.kind == AttackClassifierKind::kLogistic) {
    return TrainLogistic(features, labels, options.lambda);
  }
  return TrainForest(features, labels, options);
}

Result<std::vector<double>> TrainAndScore(const FeatureMatrix& train,
                                          const std::vector<uint8_t>& labels,
                                          const FeatureMatrix& test,
                                          const AttackClassifierOptions& options) {
  PB_ASSIGN_OR_RETURN(std::unique_ptr<AttackClassifier> c,
                      TrainAttackClassifier(train, labels, options));
  return c->Score(test);
}

}  // namespace privbench
