// purchase100-surrogate: a synthetic stand-in with the shape of Shokri et
// al.'s Purchase-100 (600 binary purchase features, 100 classes), for
// offline use where the real data (download_purchase100.py) cannot be
// fetched. Every table and figure built on it must say
// "purchase100-surrogate" (Dataset::provenance; is_surrogate = true).
//
// Generative model (all parameters in SurrogateOptions; defaults shown):
//   items j = 0..599, shopper profiles k = 0..99, segments g = 0..G-1
//   (G = 10), profile k belongs to segment g(k) = floor(k * G / 100).
//   Drawn once per `seed` (the "model"):
//     base popularity   b_j ~ Normal(-2.4, 1.0^2)           (logit scale)
//     segment items     A_g = { j : Bernoulli(0.15) },  boost +1.5
//     profile items     S_k = { j : Bernoulli(0.08) },  boost +1.2
//     p_{k,l,j} = sigmoid(b_j + 1.5 [j in A_g(k)] + 1.2 [j in S_k] + a_l)
//   with 5 activity levels a_l = 0.5 * Phi^-1((2l + 1) / 10), l = 0..4
//   (basket-size heterogeneity: light to heavy shoppers).
//   Per record: profile k ~ Uniform{0..99}, level l ~ Uniform{0..4},
//   x_j ~ Bernoulli(p_{k,l,j}) independently; label = k.
// Shokri et al. labelled real baskets by k-means clustering (100 clusters);
// here the generating profile plays the role of the cluster label.
//
// Calibration (10,000 training / 5,000 held-out records of this generator,
// seed 0, analysed with numpy/sklearn): density 0.158 (real Purchase-100:
// roughly 15-20% ones), Bayes-optimal accuracy 0.89, logistic regression
// (sklearn lbfgs, C = 10) train 1.00 / test 0.71: learnable but overfitting
// at J&E's 10k training size (experiments/region_of_privacy/README.md), as the real data is. It is
// NOT the real data: absolute accuracies and attack rates on it are not comparable with published
// Purchase-100 numbers.
//
// Determinism: the model depends only on `seed`; records come from
// per-chunk streams DeriveSeed(seed, {1, sample_stream, split, chunk}), so
// the same options give the same bytes, a larger n_train extends (does not
// reshuffle) a smaller one, and another `sample_stream` draws fresh records
// from the same distribution (e.g. shadow models' data). Bernoulli draws
// compare 32-bit halves of std::mt19937_64 outputs with per-item thresholds
// floor(p * 2^32) (exact to 2^-32; fixed by the C++ standard's engine);
// profile, level and model parameters use Boost.Random distributions.
#ifndef PRIVBENCH_DATA_SCRIPTS_PURCHASE100_SURROGATE_H_
#define PRIVBENCH_DATA_SCRIPTS_PURCHASE100_SURROGATE_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "data_scripts/dataset.h"

namespace privbench {

inline constexpr int64_t kPurchase100Features = 600;
inline constexpr int64_t kPurchase100Classes = 100;
inline constexpr int kSurrogateActivityLevels = 5;

struct SurrogateOptions {
  int64_t n_train = 10000;       // J&E's training size (experiments/region_of_privacy/README.md)
  int64_t n_population = 10000;  // Epsilon* paper scale: 208,731 / 102,809
  uint64_t seed = 0;             // the model (profiles) and the records
  uint64_t sample_stream = 0;    // independent record streams, same model
  double base_logit_mean = -2.4;
  double base_logit_sd = 1.0;
  int64_t num_segments = 10;
  double segment_item_fraction = 0.15;
  double segment_boost = 1.5;
  double profile_item_fraction = 0.08;
  double profile_boost = 1.2;
  double activity_sd = 0.5;
};

// The purchase probabilities of the model: p(k, l, j) =
// probability[(k * kSurrogateActivityLevels + l) * 600 + j].
struct SurrogateModel {
  std::vector<double> probability;
  std::vector<double> activity_offsets;  // a_l
  double Probability(int64_t profile, int level, int64_t item) const {
    return probability[(profile * kSurrogateActivityLevels + level) * kPurchase100Features + item];
  }
  // Expected fraction of ones per record.
  double ExpectedDensity() const;
};

// Validates the options (sizes >= 0 with n_train >= 1, fractions in [0, 1],
// finite boosts, sd >= 0, 1 <= num_segments <= 100).
Status CheckSurrogateOptions(const SurrogateOptions& options);

Result<SurrogateModel> MakeSurrogateModel(const SurrogateOptions& options);

// The dataset: name "purchase100", provenance "purchase100-surrogate".
Result<Dataset> MakePurchase100Surrogate(const SurrogateOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_PURCHASE100_SURROGATE_H_
