#include "mechanisms/classical/naive_bayes.h"

#include <algorithm>
#include <boost/random/laplace_distribution.hpp>
#include <cmath>

#include "core/format.h"

namespace privbench {
namespace {

struct ClassStats {
  double count = 0;
  std::vector<double> mean, var;
};

ClassStats StatsOf(const BinaryData& data, const DataBounds& bounds, int label) {
  ClassStats s;
  s.mean.assign(data.d, 0.0);
  s.var.assign(data.d, 0.0);
  for (int64_t i = 0; i < data.n(); ++i) {
    if (data.y[i] != label) continue;
    s.count += 1;
    for (int64_t j = 0; j < data.d; ++j) {
      s.mean[j] += std::clamp(data.row(i)[j], bounds.lo[j], bounds.hi[j]);
    }
  }
  for (int64_t j = 0; j < data.d; ++j) {
    s.mean[j] = s.count > 0 ? s.mean[j] / s.count : 0.5 * (bounds.lo[j] + bounds.hi[j]);
  }
  for (int64_t i = 0; i < data.n(); ++i) {
    if (data.y[i] != label) continue;
    for (int64_t j = 0; j < data.d; ++j) {
      const double t = std::clamp(data.row(i)[j], bounds.lo[j], bounds.hi[j]) - s.mean[j];
      s.var[j] += t * t;
    }
  }
  for (int64_t j = 0; j < data.d; ++j) s.var[j] = s.count > 0 ? s.var[j] / s.count : 0.0;
  return s;
}

class NbSampler : public SummarySampler {
 public:
  NbSampler(ClassStats c0, ClassStats c1, std::vector<double> width, double eps, bool expose,
            int64_t n)
      : c_{std::move(c0), std::move(c1)},
        width_(std::move(width)),
        eps_(eps),
        expose_(expose),
        n_(n) {}
  int64_t dim() const override {
    return 4 * static_cast<int64_t>(width_.size()) + 1 + (expose_ ? 2 : 0);
  }
  Status Draw(Rng& rng, double* out) override {
    const int64_t d = static_cast<int64_t>(width_.size());
    const double eps_feature = eps_ / 3 / static_cast<double>(d);
    int64_t k = 0;
    for (const ClassStats& c : c_) {
      const double nc = std::max(c.count, 1.0);
      for (int64_t j = 0; j < d; ++j) {
        out[k++] = c.mean[j] + Laplace(rng, width_[j] / (nc * eps_feature));
      }
      for (int64_t j = 0; j < d; ++j) {
        out[k++] = c.var[j] + Laplace(rng, width_[j] * width_[j] / (nc * eps_feature));
      }
    }
    double noisy[2];
    for (int c = 0; c < 2; ++c) noisy[c] = c_[c].count + Laplace(rng, 3 / eps_);
    const double a = std::max(noisy[0], 0.0), b = std::max(noisy[1], 0.0);
    out[k++] = a + b > 0 ? b / (a + b) : 0.5;
    if (expose_) {
      const double total = noisy[0] + noisy[1];
      for (int c = 0; c < 2; ++c) {
        out[k++] = total != 0 ? noisy[c] * static_cast<double>(n_) / total : 0.5 * n_;
      }
    }
    return Status::Ok();
  }

 private:
  static double Laplace(Rng& rng, double scale) {
    return boost::random::laplace_distribution<double>(0.0, scale)(rng);
  }
  ClassStats c_[2];
  std::vector<double> width_;
  double eps_;  // effective: eps / noise_factor
  bool expose_;
  int64_t n_;
};

class NaiveBayes : public ClassicalMechanism {
 public:
  explicit NaiveBayes(MechanismOptions o) : o_(std::move(o)) {}
  std::string name() const override { return "nb"; }
  Adjacency adjacency() const override { return Adjacency::kAddRemove; }
  std::string Describe() const override {
    return "Gaussian naive Bayes (Vaidya et al. 2013), eps/3 to counts, means, variances, eps = " +
           FormatDouble(o_.eps) + ", noise_factor = " + FormatDouble(o_.noise_factor) +
           (o_.variant == "expose_counts" ? ", variant expose_counts (bug 1: noisy counts "
                                            "rescaled to sum to n and exposed)"
                                          : ", textbook") +
           ", adjacency add_remove";
  }
  Result<std::unique_ptr<SummarySampler>> Prepare(const BinaryData& data, const DataBounds& bounds,
                                                  const std::vector<double>&) const override {
    std::vector<double> width(data.d);
    for (int64_t j = 0; j < data.d; ++j) width[j] = bounds.hi[j] - bounds.lo[j];
    return std::unique_ptr<SummarySampler>(
        new NbSampler(StatsOf(data, bounds, 0), StatsOf(data, bounds, 1), std::move(width),
                      o_.eps / o_.noise_factor, o_.variant == "expose_counts", data.n()));
  }

 private:
  MechanismOptions o_;
};

}  // namespace

std::unique_ptr<ClassicalMechanism> MakeNaiveBayes(const MechanismOptions& options) {
  return std::make_unique<NaiveBayes>(options);
}

}  // namespace privbench
