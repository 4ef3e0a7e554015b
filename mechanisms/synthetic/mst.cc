#include "mechanisms/synthetic/mst.h"

#include <algorithm>
#include <cmath>

#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/synthesizer_base.h"
#include "mechanisms/synthetic/tree_model.h"

namespace privbench {
namespace {

// Step (b): d - 1 exponential-mechanism rounds over the unconnected pairs.
std::vector<std::pair<int64_t, int64_t>> SelectTree(const PairCounts& pairs,
                                                    const std::vector<NoisyMarginal>& one_way,
                                                    const std::vector<int32_t>& sizes,
                                                    const std::vector<std::vector<char>>& support,
                                                    const MstCalibration& cal, Rng& rng) {
  const int64_t d = pairs.d();
  // The model of the 1-way measurements: independent attributes with the
  // post-processed distributions, times the total estimated by
  // inverse-variance weighting of the d noisy totals (variance k_j sigma^2).
  std::vector<std::vector<double>> p(static_cast<size_t>(d));
  double num = 0.0, den = 0.0;
  for (int64_t j = 0; j < d; ++j) {
    double s = 0.0;
    for (double c : one_way[j].noisy_counts) s += c;
    num += s / sizes[j];
    den += 1.0 / sizes[j];
    p[j] = ToDistribution(one_way[j].noisy_counts, support[j]);
  }
  const double total = std::max(num / den, 0.0);
  std::vector<double> quality;
  std::vector<std::pair<int64_t, int64_t>> candidates;
  for (int64_t a = 0; a < d; ++a) {
    for (int64_t b = a + 1; b < d; ++b) {
      const double* x = pairs.Table(a, b);
      double q = 0.0;
      for (int32_t u = 0; u < sizes[a]; ++u) {
        for (int32_t v = 0; v < sizes[b]; ++v) {
          q += std::abs(x[u * sizes[b] + v] - total * p[a][u] * p[b][v]);
        }
      }
      quality.push_back(q);
      candidates.emplace_back(a, b);
    }
  }
  DisjointSets sets(d);
  std::vector<std::pair<int64_t, int64_t>> tree;
  for (int64_t round = 0; round < cal.rounds; ++round) {
    std::vector<double> q;
    std::vector<int64_t> index;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (sets.Connected(candidates[i].first, candidates[i].second)) continue;
      q.push_back(quality[i]);
      index.push_back(static_cast<int64_t>(i));
    }
    const int64_t pick = index[ExponentialMechanism(q, cal.selection_epsilon, 1.0, rng)];
    sets.Merge(candidates[pick].first, candidates[pick].second);
    tree.push_back(candidates[pick]);
  }
  return tree;
}

class MstSynthesizer : public SynthesizerBase {
 public:
  explicit MstSynthesizer(const SynthesizerOptions& options)
      : SynthesizerBase("mst", ZcdpGuarantee(options, /*gaussian_mechanism=*/false), options) {}

 protected:
  Result<SynthesisOutput> GenerateImpl(const CategoricalTable& data,
                                       const CategoricalDomain& domain, int64_t n_synthetic,
                                       Rng& rng) const override {
    const PairFitInputs in = PairInputs(data, domain);
    const MstCalibration cal = MstNoise(in.d, options().rho, options().mst_unscaled_noise);
    SynthesisOutput out;
    TreeMeasurements m;
    for (int64_t j = 0; j < in.d; ++j) {
      out.measurements.push_back(MeasureMarginal({j}, Counts1(data, in.sizes, j), in.support,
                                                 in.sizes, MarginalNoise::kGaussian,
                                                 cal.sigma_one_way, rng));
      m.one_way.push_back(out.measurements.back().noisy_counts);
      m.one_way_variance.push_back(cal.sigma_one_way * cal.sigma_one_way);
    }
    const auto tree = SelectTree(in.pairs, out.measurements, in.sizes, in.support, cal, rng);
    for (const auto& [a, b] : tree) {
      out.measurements.push_back(MeasureMarginal({a, b}, in.pairs.Oriented(a, b), in.support,
                                                 in.sizes, MarginalNoise::kGaussian,
                                                 cal.sigma_two_way, rng));
      m.AddEdge(a, b, out.measurements.back().noisy_counts, cal.sigma_two_way * cal.sigma_two_way);
    }
    PB_RETURN_IF_ERROR(SampleFittedTree(in.sizes, in.support, m, 0, n_synthetic, rng, out));
    return out;
  }
};

}  // namespace

MstCalibration MstNoise(int64_t d, double rho, bool unscaled_noise) {
  MstCalibration cal;
  const double base = std::sqrt(3.0 / (2.0 * rho));
  cal.rounds = d - 1;
  cal.sigma_one_way = unscaled_noise ? base : base * std::sqrt(static_cast<double>(d));
  if (d >= 2) {
    cal.sigma_two_way = unscaled_noise ? base : base * std::sqrt(static_cast<double>(d - 1));
    cal.selection_epsilon = std::sqrt(8.0 * (rho / 3.0) / static_cast<double>(d - 1));
  }
  return cal;
}

std::unique_ptr<Synthesizer> MakeMstSynthesizer(const SynthesizerOptions& options) {
  return std::make_unique<MstSynthesizer>(options);
}

}  // namespace privbench
