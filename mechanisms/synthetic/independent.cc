#include "mechanisms/synthetic/independent.h"

#include <cmath>

#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/synthesizer_base.h"

namespace privbench {
namespace {

std::string_view IndependentName(MarginalNoise noise) {
  switch (noise) {
    case MarginalNoise::kLaplace:
      return "independent_laplace";
    case MarginalNoise::kGaussian:
      return "independent_gaussian";
    case MarginalNoise::kNone:
      break;
  }
  return "independent";
}

SynthesizerGuarantee IndependentGuarantee(MarginalNoise noise, const SynthesizerOptions& options) {
  switch (noise) {
    case MarginalNoise::kLaplace:
      return PureDpGuarantee(options);
    case MarginalNoise::kGaussian:
      return ZcdpGuarantee(options, /*gaussian_mechanism=*/true);
    case MarginalNoise::kNone:
      break;
  }
  return SynthesizerGuarantee();
}

class IndependentSynthesizer : public SynthesizerBase {
 public:
  IndependentSynthesizer(MarginalNoise noise, const SynthesizerOptions& options)
      : SynthesizerBase(IndependentName(noise), IndependentGuarantee(noise, options), options),
        noise_(noise) {}

 protected:
  Result<SynthesisOutput> GenerateImpl(const CategoricalTable& data,
                                       const CategoricalDomain& domain, int64_t n_synthetic,
                                       Rng& rng) const override {
    const FitInputs in = Inputs(data, domain);
    const int64_t d = in.d;
    double scale = 0.0;
    if (noise_ == MarginalNoise::kLaplace) {
      scale = IndependentLaplaceScale(d, options().epsilon, options().laplace_half_scale);
    }
    if (noise_ == MarginalNoise::kGaussian) scale = IndependentGaussianSigma(d, options().rho);
    SynthesisOutput out;
    // CDFs of the d distributions, attribute j at offset[j].
    std::vector<int64_t> offset(static_cast<size_t>(d));
    std::vector<double> cdf;
    for (int64_t j = 0; j < d; ++j) {
      std::vector<double> counts = Counts1(data, domain.sizes, j);
      if (noise_ != MarginalNoise::kNone) counts = Measure(j, counts, in, scale, rng, &out);
      const std::vector<double> p = ToDistribution(std::move(counts), in.support[j]);
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
  // Measures attribute j's counts (appending to out->measurements) and
  // returns the noisy counts the histogram uses. The planted bugs touch the
  // first attribute only: its noise at first_marginal_noise_fraction of the
  // scale; double_spent_marginal measures it twice (both copies released,
  // the histogram uses their mean). Without a bug the draws are those of a
  // single measurement per attribute.
  std::vector<double> Measure(int64_t j, const std::vector<double>& counts, const FitInputs& in,
                              double scale, Rng& rng, SynthesisOutput* out) const {
    const double s = j == 0 ? scale * options().first_marginal_noise_fraction : scale;
    out->measurements.push_back(MeasureMarginal({j}, counts, in.support, in.sizes, noise_, s, rng));
    std::vector<double> noisy = out->measurements.back().noisy_counts;
    if (j != 0 || !options().double_spent_marginal) return noisy;
    out->measurements.push_back(MeasureMarginal({j}, counts, in.support, in.sizes, noise_, s, rng));
    const std::vector<double>& again = out->measurements.back().noisy_counts;
    for (size_t v = 0; v < noisy.size(); ++v) noisy[v] = (noisy[v] + again[v]) / 2.0;
    return noisy;
  }

  MarginalNoise noise_;
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
