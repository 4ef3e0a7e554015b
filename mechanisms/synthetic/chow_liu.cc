#include "mechanisms/synthetic/chow_liu.h"

#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/synthesizer_base.h"
#include "mechanisms/synthetic/tree_model.h"

namespace privbench {
namespace {

std::vector<std::pair<int64_t, int64_t>> TreeOfPairs(const PairCounts& pairs,
                                                     const std::vector<int32_t>& sizes) {
  const int64_t d = pairs.d();
  std::vector<double> weight;
  for (int64_t a = 0; a < d; ++a) {
    for (int64_t b = a + 1; b < d; ++b) {
      weight.push_back(MutualInformationBits(pairs.Table(a, b), sizes[a], sizes[b]));
    }
  }
  return MaximumSpanningTree(d, weight);
}

class ChowLiuSynthesizer : public SynthesizerBase {
 public:
  explicit ChowLiuSynthesizer(const SynthesizerOptions& options)
      : SynthesizerBase("chow_liu", SynthesizerGuarantee(), options) {}

 protected:
  Result<SynthesisOutput> GenerateImpl(const CategoricalTable& data,
                                       const CategoricalDomain& domain, int64_t n_synthetic,
                                       Rng& rng) const override {
    const PairFitInputs in = PairInputs(data, domain);
    TreeMeasurements m;
    m.one_way.resize(static_cast<size_t>(in.d));
    m.one_way_variance.assign(static_cast<size_t>(in.d), 1.0);
    // Exact counts are consistent: the variances only weight equal
    // estimates, so any positive value gives the exact marginals.
    for (int64_t j = 0; j < in.d; ++j) m.one_way[j] = Counts1(data, in.sizes, j);
    for (const auto& [a, b] : TreeOfPairs(in.pairs, in.sizes)) {
      m.AddEdge(a, b, in.pairs.Oriented(a, b), 1.0);  // a < b: the pair's table
    }
    SynthesisOutput out;
    PB_RETURN_IF_ERROR(SampleFittedTree(in.sizes, in.support, m, 0, n_synthetic, rng, out));
    return out;
  }
};

}  // namespace

std::vector<std::pair<int64_t, int64_t>> ChowLiuTree(const CategoricalTable& data,
                                                     const CategoricalDomain& domain) {
  return TreeOfPairs(PairCounts(data, domain.sizes), domain.sizes);
}

std::unique_ptr<Synthesizer> MakeChowLiuSynthesizer(const SynthesizerOptions& options) {
  return std::make_unique<ChowLiuSynthesizer>(options);
}

}  // namespace privbench
