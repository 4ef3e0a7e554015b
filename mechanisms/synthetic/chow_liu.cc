#include "mechanisms/synthetic/chow_liu.h"

#include "mechanisms/synthetic/marginals.h"
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

class ChowLiuSynthesizer : public Synthesizer {
 public:
  explicit ChowLiuSynthesizer(const SynthesizerOptions& options) : options_(options) {}
  std::string_view name() const override { return "chow_liu"; }
  SynthesizerGuarantee guarantee() const override { return SynthesizerGuarantee(); }

 protected:
  Result<SynthesisOutput> GenerateImpl(const CategoricalTable& data,
                                       const CategoricalDomain& domain, int64_t n_synthetic,
                                       Rng& rng) const override {
    const int64_t d = domain.attributes();
    const PairCounts pairs(data, domain.sizes);
    TreeMeasurements m;
    m.one_way.resize(static_cast<size_t>(d));
    m.one_way_variance.assign(static_cast<size_t>(d), 1.0);
    // Exact counts are consistent: the variances only weight equal
    // estimates, so any positive value gives the exact marginals.
    for (int64_t j = 0; j < d; ++j) m.one_way[j] = Counts1(data, domain.sizes, j);
    for (const auto& [a, b] : TreeOfPairs(pairs, domain.sizes)) {
      TreeMeasurements::Edge e;
      e.a = a;
      e.b = b;
      const double* t = pairs.Table(a, b);
      e.counts.assign(t, t + static_cast<int64_t>(domain.sizes[a]) * domain.sizes[b]);
      m.edges.push_back(std::move(e));
    }
    PB_ASSIGN_OR_RETURN(
        const TreeModel model,
        FitTreeModel(domain.sizes, ValueSupport(data, domain, options_.domain_from_data), m, 0));
    SynthesisOutput out;
    out.synthetic = SampleTreeModel(model, n_synthetic, rng);
    out.structure = model.Edges();
    return out;
  }

 private:
  SynthesizerOptions options_;
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
