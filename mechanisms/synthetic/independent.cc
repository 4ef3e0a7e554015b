#include "mechanisms/synthetic/independent.h"

#include <cmath>

#include "mechanisms/synthetic/marginals.h"

namespace privbench {
namespace {

class IndependentSynthesizer : public Synthesizer {
 public:
  IndependentSynthesizer(MarginalNoise noise, const SynthesizerOptions& options)
      : noise_(noise), options_(options) {}

  std::string_view name() const override {
    switch (noise_) {
      case MarginalNoise::kLaplace:
        return "independent_laplace";
      case MarginalNoise::kGaussian:
        return "independent_gaussian";
      case MarginalNoise::kNone:
        break;
    }
    return "independent";
  }

  SynthesizerGuarantee guarantee() const override {
    SynthesizerGuarantee g;
    if (noise_ == MarginalNoise::kLaplace) g.epsilon = options_.epsilon;
    if (noise_ == MarginalNoise::kGaussian) {
      g.epsilon = options_.epsilon;
      g.delta = options_.delta;
      g.rho = options_.rho;
      g.mu = std::sqrt(2.0 * options_.rho);
    }
    return g;
  }

 protected:
  Result<SynthesisOutput> GenerateImpl(const CategoricalTable& data,
                                       const CategoricalDomain& domain, int64_t n_synthetic,
                                       Rng& rng) const override {
    const int64_t d = domain.attributes();
    const std::vector<std::vector<char>> support =
        ValueSupport(data, domain, options_.domain_from_data);
    double scale = 0.0;
    if (noise_ == MarginalNoise::kLaplace) {
      scale = IndependentLaplaceScale(d, options_.epsilon, options_.laplace_half_scale);
    }
    if (noise_ == MarginalNoise::kGaussian) scale = IndependentGaussianSigma(d, options_.rho);
    SynthesisOutput out;
    // CDFs of the d distributions, attribute j at offset[j].
    std::vector<int64_t> offset(static_cast<size_t>(d));
    std::vector<double> cdf;
    for (int64_t j = 0; j < d; ++j) {
      std::vector<double> counts = Counts1(data, domain.sizes, j);
      if (noise_ != MarginalNoise::kNone) {
        out.measurements.push_back(
            MeasureMarginal({j}, counts, support, domain.sizes, noise_, scale, rng));
        counts = out.measurements.back().noisy_counts;
      }
      const std::vector<double> p = ToDistribution(std::move(counts), support[j]);
      offset[j] = static_cast<int64_t>(cdf.size());
      cdf.resize(cdf.size() + p.size());
      CumulativeSums(p.data(), static_cast<int64_t>(p.size()), cdf.data() + offset[j]);
    }
    out.synthetic = EmptyTable(domain);
    out.synthetic.values.resize(static_cast<size_t>(n_synthetic * d));
    for (int64_t i = 0; i < n_synthetic; ++i) {
      int32_t* row = out.synthetic.row(i);
      for (int64_t j = 0; j < d; ++j) {
        row[j] = DrawFromCdf(cdf.data() + offset[j], domain.sizes[j], Uniform01(rng));
      }
    }
    return out;
  }

 private:
  MarginalNoise noise_;
  SynthesizerOptions options_;
};

}  // namespace

double IndependentLaplaceScale(int64_t d, double epsilon, bool half_scale) {
  const double b = static_cast<double>(d) / epsilon;
  return half_scale ? b / 2.0 : b;
}

double IndependentGaussianSigma(int64_t d, double rho) {
  return std::sqrt(static_cast<double>(d) / (2.0 * rho));
}

std::unique_ptr<Synthesizer> MakeIndependentSynthesizer(MarginalNoise noise,
                                                        const SynthesizerOptions& options) {
  return std::make_unique<IndependentSynthesizer>(noise, options);
}

}  // namespace privbench
