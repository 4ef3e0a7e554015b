#include "data_scripts/purchase100_surrogate.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/seeding.h"
#include "core/validate.h"

namespace privbench {

namespace {

constexpr int64_t kChunkRows = 1024;
constexpr uint64_t kModelStream = 0;
constexpr uint64_t kSampleStream = 1;

double Sigmoid(double x) {
  return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x));
}

// floor(p * 2^32), so that P(u < threshold) = threshold / 2^32 for a uniform
// 32-bit u; p in (0, 1).
uint32_t Threshold(double p) {
  const double t = std::floor(p * 4294967296.0);
  if (t <= 0.0) return 0;
  if (t >= 4294967295.0) return 0xffffffffu;
  return static_cast<uint32_t>(t);
}

// The n rows of one split (split 0 = train, 1 = population): x (row-major), y.
void SampleRows(const std::vector<uint32_t>& thresholds, uint64_t seed, uint64_t sample_stream,
                uint64_t split, int64_t n, float* x, int64_t* y) {
  boost::random::uniform_int_distribution<int> profile_dist(0, kPurchase100Classes - 1);
  boost::random::uniform_int_distribution<int> level_dist(0, kSurrogateActivityLevels - 1);
  for (int64_t chunk = 0; chunk * kChunkRows < n; ++chunk) {
    Rng rng = MakeRng(seed, {kSampleStream, sample_stream, split, static_cast<uint64_t>(chunk)});
    const int64_t end = std::min(n, (chunk + 1) * kChunkRows);
    for (int64_t i = chunk * kChunkRows; i < end; ++i) {
      const int k = profile_dist(rng);
      const int l = level_dist(rng);
      const uint32_t* t =
          thresholds.data() +
          (static_cast<int64_t>(k) * kSurrogateActivityLevels + l) * kPurchase100Features;
      float* row = x + i * kPurchase100Features;
      for (int64_t j = 0; j < kPurchase100Features; j += 2) {
        const uint64_t w = rng();
        // Branch-free: the outcome is unpredictable by design.
        row[j] = static_cast<float>(static_cast<uint32_t>(w) < t[j]);
        row[j + 1] = static_cast<float>(static_cast<uint32_t>(w >> 32) < t[j + 1]);
      }
      y[i] = k;
    }
  }
}

std::string Params(const SurrogateOptions& o) {
  return "seed=" + std::to_string(o.seed) + " sample_stream=" + std::to_string(o.sample_stream) +
         " base_logit=N(" + FormatDouble(o.base_logit_mean) + "," + FormatDouble(o.base_logit_sd) +
         "^2) segments=" + std::to_string(o.num_segments) +
         " segment_items=" + FormatDouble(o.segment_item_fraction) + "/+" +
         FormatDouble(o.segment_boost) + " profile_items=" + FormatDouble(o.profile_item_fraction) +
         "/+" + FormatDouble(o.profile_boost) + " activity_sd=" + FormatDouble(o.activity_sd);
}

}  // namespace

static_assert(kPurchase100Features % 2 == 0, "items are drawn in pairs");

double SurrogateModel::ExpectedDensity() const {
  double sum = 0.0;
  for (double p : probability) sum += p;
  return probability.empty() ? 0.0 : sum / static_cast<double>(probability.size());
}

Status CheckSurrogateOptions(const SurrogateOptions& o) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("n_train", o.n_train));
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("n_population", o.n_population));
  PB_RETURN_IF_ERROR(CheckFinite("base_logit_mean", o.base_logit_mean));
  PB_RETURN_IF_ERROR(CheckNonNegative("base_logit_sd", o.base_logit_sd));
  if (o.num_segments < 1 || o.num_segments > kPurchase100Classes) {
    return Error("num_segments must be in [1, 100], got " + std::to_string(o.num_segments));
  }
  PB_RETURN_IF_ERROR(CheckProbability("segment_item_fraction", o.segment_item_fraction));
  PB_RETURN_IF_ERROR(CheckFinite("segment_boost", o.segment_boost));
  PB_RETURN_IF_ERROR(CheckProbability("profile_item_fraction", o.profile_item_fraction));
  PB_RETURN_IF_ERROR(CheckFinite("profile_boost", o.profile_boost));
  PB_RETURN_IF_ERROR(CheckNonNegative("activity_sd", o.activity_sd));
  return Status::Ok();
}

Result<SurrogateModel> MakeSurrogateModel(const SurrogateOptions& o) {
  PB_RETURN_IF_ERROR(CheckSurrogateOptions(o));
  Rng rng = MakeRng(o.seed, {kModelStream});
  boost::random::normal_distribution<double> base_dist(o.base_logit_mean, o.base_logit_sd);
  boost::random::bernoulli_distribution<double> segment_item(o.segment_item_fraction);
  boost::random::bernoulli_distribution<double> profile_item(o.profile_item_fraction);

  std::vector<double> base(kPurchase100Features);
  for (auto& b : base) b = o.base_logit_sd > 0 ? base_dist(rng) : o.base_logit_mean;
  std::vector<std::vector<bool>> segment(static_cast<size_t>(o.num_segments),
                                         std::vector<bool>(kPurchase100Features));
  for (auto& s : segment) {
    for (int64_t j = 0; j < kPurchase100Features; ++j) s[j] = segment_item(rng);
  }
  SurrogateModel model;
  const boost::math::normal_distribution<double> std_normal(0.0, 1.0);
  for (int l = 0; l < kSurrogateActivityLevels; ++l) {
    const double q = (2.0 * l + 1.0) / (2.0 * kSurrogateActivityLevels);
    model.activity_offsets.push_back(o.activity_sd * boost::math::quantile(std_normal, q));
  }
  model.probability.resize(kPurchase100Classes * kSurrogateActivityLevels * kPurchase100Features);
  for (int64_t k = 0; k < kPurchase100Classes; ++k) {
    const auto& seg = segment[static_cast<size_t>(k * o.num_segments / kPurchase100Classes)];
    std::vector<double> logit(kPurchase100Features);
    for (int64_t j = 0; j < kPurchase100Features; ++j) {
      logit[j] =
          base[j] + (seg[j] ? o.segment_boost : 0.0) + (profile_item(rng) ? o.profile_boost : 0.0);
    }
    for (int l = 0; l < kSurrogateActivityLevels; ++l) {
      for (int64_t j = 0; j < kPurchase100Features; ++j) {
        model.probability[(k * kSurrogateActivityLevels + l) * kPurchase100Features + j] =
            Sigmoid(logit[j] + model.activity_offsets[l]);
      }
    }
  }
  return model;
}

Result<Dataset> MakePurchase100Surrogate(const SurrogateOptions& o) {
  PB_ASSIGN_OR_RETURN(SurrogateModel model, MakeSurrogateModel(o));
  std::vector<uint32_t> thresholds(model.probability.size());
  for (size_t i = 0; i < thresholds.size(); ++i) thresholds[i] = Threshold(model.probability[i]);

  Dataset d;
  d.name = "purchase100";
  d.provenance = "purchase100-surrogate";
  d.is_surrogate = true;
  d.num_features = kPurchase100Features;
  d.num_classes = kPurchase100Classes;
  d.train_x.resize(static_cast<size_t>(o.n_train * kPurchase100Features));
  d.train_y.resize(static_cast<size_t>(o.n_train));
  d.population_x.resize(static_cast<size_t>(o.n_population * kPurchase100Features));
  d.population_y.resize(static_cast<size_t>(o.n_population));
  SampleRows(thresholds, o.seed, o.sample_stream, 0, o.n_train, d.train_x.data(), d.train_y.data());
  SampleRows(thresholds, o.seed, o.sample_stream, 1, o.n_population, d.population_x.data(),
             d.population_y.data());
  for (int64_t j = 0; j < kPurchase100Features; ++j) {
    char name[16];
    std::snprintf(name, sizeof(name), "item_%03d", static_cast<int>(j));
    d.feature_names.push_back(name);
  }
  d.source = "MakePurchase100Surrogate(" + Params(o) + ")";
  d.checksums = "none: generated deterministically (no input files)";
  d.notes.push_back(
      "SURROGATE for Purchase-100 (Shokri et al. 2017): binary purchase vectors "
      "from 100 latent shopper profiles; label = generating profile; label it "
      "'purchase100-surrogate' in every table and figure");
  d.notes.push_back("model expected density " + FormatDouble(model.ExpectedDensity()));
  PB_RETURN_IF_ERROR(CheckDataset(d));
  return d;
}

}  // namespace privbench
