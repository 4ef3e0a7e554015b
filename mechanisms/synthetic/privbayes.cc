#include "mechanisms/synthetic/privbayes.h"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>

#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/synthesizer_base.h"
#include "mechanisms/synthetic/tree_model.h"

namespace privbench {
namespace {

// Part 1: the root and the d - 1 (parent, child) choices.
std::vector<std::pair<int64_t, int64_t>> GreedyNetwork(const PairCounts& pairs,
                                                       const std::vector<int32_t>& sizes, int64_t n,
                                                       double epsilon_step, int64_t root,
                                                       Rng& rng) {
  const int64_t d = pairs.d();
  std::vector<double> mi;
  for (int64_t a = 0; a < d; ++a) {
    for (int64_t b = a + 1; b < d; ++b) {
      mi.push_back(MutualInformationBits(pairs.Table(a, b), sizes[a], sizes[b]));
    }
  }
  const double sensitivity = PrivBayesMutualInformationSensitivity(n);
  std::vector<char> placed(static_cast<size_t>(d), 0);
  placed[root] = 1;
  std::vector<std::pair<int64_t, int64_t>> edges;
  std::vector<double> score;
  std::vector<std::pair<int64_t, int64_t>> candidates;  // (parent, child)
  for (int64_t step = 1; step < d; ++step) {
    score.clear();
    candidates.clear();
    for (int64_t x = 0; x < d; ++x) {
      if (placed[x]) continue;
      for (int64_t p = 0; p < d; ++p) {
        if (!placed[p]) continue;
        score.push_back(mi[pairs.PairIndex(std::min(x, p), std::max(x, p))]);
        candidates.emplace_back(p, x);
      }
    }
    const auto pick = candidates[ExponentialMechanism(score, epsilon_step, sensitivity, rng)];
    placed[pick.second] = 1;
    edges.push_back(pick);
  }
  return edges;
}

class PrivBayesSynthesizer : public SynthesizerBase {
 public:
  explicit PrivBayesSynthesizer(const SynthesizerOptions& options)
      : SynthesizerBase("privbayes", PureDpGuarantee(options), options) {}

 protected:
  Result<SynthesisOutput> GenerateImpl(const CategoricalTable& data,
                                       const CategoricalDomain& domain, int64_t n_synthetic,
                                       Rng& rng) const override {
    const PairFitInputs in = PairInputs(data, domain);
    const std::vector<int32_t>& sizes = in.sizes;
    const int64_t d = in.d;
    const double epsilon = options().epsilon, beta = options().privbayes_structure_share;
    const int64_t root = boost::random::uniform_int_distribution<int64_t>(0, d - 1)(rng);
    const double epsilon_step = d > 1 ? beta * epsilon / static_cast<double>(d - 1) : 0;
    const auto edges = GreedyNetwork(in.pairs, sizes, data.n(), epsilon_step, root, rng);
    const double b = PrivBayesLaplaceScale(d, epsilon, beta);
    SynthesisOutput out;
    TreeMeasurements m;
    m.one_way.resize(static_cast<size_t>(d));
    m.one_way_variance.assign(static_cast<size_t>(d), 2.0 * b * b);
    out.measurements.push_back(MeasureMarginal({root}, Counts1(data, sizes, root), in.support,
                                               sizes, MarginalNoise::kLaplace, b, rng));
    m.one_way[root] = out.measurements.back().noisy_counts;
    for (const auto& [p, c] : edges) {
      out.measurements.push_back(MeasureMarginal({p, c}, in.pairs.Oriented(p, c), in.support, sizes,
                                                 MarginalNoise::kLaplace, b, rng));
      m.AddEdge(p, c, out.measurements.back().noisy_counts, 2.0 * b * b);
    }
    PB_RETURN_IF_ERROR(SampleFittedTree(sizes, in.support, m, root, n_synthetic, rng, out));
    out.structure = edges;  // the order chosen, not the model's ancestral order
    return out;
  }
};

}  // namespace

double PrivBayesMutualInformationSensitivity(int64_t n_in) {
  const double n = static_cast<double>(std::max<int64_t>(n_in, 2));
  return 2.0 / n * std::log2((n + 1.0) / 2.0) + (n - 1.0) / n * std::log2((n + 1.0) / (n - 1.0));
}

double PrivBayesBinaryMutualInformationSensitivity(int64_t n_in) {
  const double n = static_cast<double>(std::max<int64_t>(n_in, 2));
  return std::log2(n) / n + (n - 1.0) / n * std::log2(n / (n - 1.0));
}

double PrivBayesLaplaceScale(int64_t d, double epsilon, double structure_share) {
  return static_cast<double>(d) / ((1.0 - structure_share) * epsilon);
}

std::unique_ptr<Synthesizer> MakePrivBayesSynthesizer(const SynthesizerOptions& options) {
  return std::make_unique<PrivBayesSynthesizer>(options);
}

}  // namespace privbench
