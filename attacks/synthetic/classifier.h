// The attack's binary classifier (the decision rule B of the review's
// "Shadow modeling and attack logic"): trained on feature vectors of shadow
// synthetic tables (feature_sets.h, targeted_queries.h) labelled 1 when the
// target was in the private table, 0 when not; returns a score per test
// vector, higher = more likely "target in". Non-private, deterministic in
// its seed.
//
//  - kLogistic: L2-regularised logistic regression (numerics/logistic.h,
//    Newton's method) on features standardised with the TRAINING mean and
//    sample standard deviation (a feature with sd 0 in training is
//    dropped to 0), plus an intercept column; lambda = 1e-3 by default
//    (F(w) = mean log-loss + lambda/2 ||w||^2, the intercept penalised
//    too, negligibly at that lambda), which keeps separable problems
//    bounded. Score = the fitted log-odds w.z + w_0 (not the probability,
//    which saturates at 1 on separable data and would tie). Cost per Newton
//    step O(n m^2) for m features: fine for histograms and queries (m up to
//    a few hundred), slow for the correlations of large domains (m in the
//    thousands), where kRandomForest is the cheaper choice.
//  - kRandomForest: Breiman's random forest as in scikit-learn's
//    RandomForestClassifier, which Stadler et al. (USENIX Security 2022)
//    and TAPAS's Groundhog attack use (100 trees): each tree a CART tree
//    grown on a bootstrap sample (n draws with replacement), at every node
//    max_features (default floor(sqrt(m)), at least 1) features drawn
//    without replacement, more drawn while those drawn are constant on the
//    node (scikit-learn's rule), the split minimising the weighted Gini
//    impurity over thresholds halfway between consecutive distinct values
//    (x <= threshold goes left; zero-gain splits allowed, as in
//    scikit-learn); a node is a leaf when pure, at max_depth, or with fewer
//    than 2 min_samples_leaf rows. Leaf probability = the fraction of "in"
//    rows among its bootstrap rows; score = the mean over trees of the
//    leaf probability. Defaults (ours, smaller than scikit-learn's
//    unbounded depth): 100 trees, depth 8, min_samples_leaf 1. Tree t draws
//    from Rng(DeriveSeed(seed, {t})), so the forest does not depend on the
//    order trees are grown in.
#ifndef PRIVBENCH_ATTACKS_SYNTHETIC_CLASSIFIER_H_
#define PRIVBENCH_ATTACKS_SYNTHETIC_CLASSIFIER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "core/result.h"

namespace privbench {

// n rows of m features, row-major.
struct FeatureMatrix {
  int64_t m = 0;
  std::vector<double> x;
  int64_t n() const { return m <= 0 ? 0 : static_cast<int64_t>(x.size()) / m; }
};

enum class AttackClassifierKind { kLogistic, kRandomForest };

struct AttackClassifierOptions {
  AttackClassifierKind kind = AttackClassifierKind::kRandomForest;
  double lambda = 1e-3;   // kLogistic: > 0
  int64_t trees = 100;    // kRandomForest: >= 1
  int64_t max_depth = 8;  // kRandomForest: >= 1 (root at depth 0)
  int64_t min_samples_leaf = 1;
  int64_t max_features = 0;  // kRandomForest: 0 = floor(sqrt(m)); else in [1, m]
  uint64_t seed = 0;         // kRandomForest
};

class AttackClassifier {
 public:
  virtual ~AttackClassifier() = default;
  int64_t features() const { return m_; }
  // Scores of the rows of x (x.m == features(), finite; errors name "x").
  Result<std::vector<double>> Score(const FeatureMatrix& x) const;

 protected:
  explicit AttackClassifier(int64_t m) : m_(m) {}
  virtual double ScoreRow(const double* row) const = 0;

 private:
  int64_t m_ = 0;
};

// Trains on (features, labels): features non-empty (n >= 2, m >= 1, finite;
// errors name "features"), labels n entries in {0, 1} with both present
// (errors name "labels"), options in range (errors name the option).
Result<std::unique_ptr<AttackClassifier>> TrainAttackClassifier(
    const FeatureMatrix& features, const std::vector<uint8_t>& labels,
    const AttackClassifierOptions& options);

// Trains on (train, labels) and scores `test` (convenience).
Result<std::vector<double>> TrainAndScore(const FeatureMatrix& train,
                                          const std::vector<uint8_t>& labels,
                                          const FeatureMatrix& test,
                                          const AttackClassifierOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_SYNTHETIC_CLASSIFIER_H_
