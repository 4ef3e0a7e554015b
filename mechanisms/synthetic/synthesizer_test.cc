// Tests of the registry, Generate's validation, and what every synthesizer
// shares: output size and domain, determinism given the seed, the
// guarantee's form, and the planted domain_from_data bug.
#include "mechanisms/synthetic/synthesizer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "mechanisms/synthetic/testing.h"

namespace privbench {
namespace {

const std::vector<std::pair<int64_t, int64_t>> kTree = {{0, 1}, {1, 2}, {1, 3}, {3, 4}};

std::unique_ptr<Synthesizer> Make(const std::string& name, const SynthesizerOptions& o = {}) {
  Result<std::unique_ptr<Synthesizer>> r = MakeSynthesizer(name, o);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? std::move(r).value() : nullptr;
}

bool Mentions(const std::string& message, const std::string& what) {
  return message.find(what) != std::string::npos;
}

TEST(RegistryTest, NamesAndUnknownName) {
  const std::vector<std::string> names = AllSynthesizerNames();
  EXPECT_EQ(names, (std::vector<std::string>{"independent", "chow_liu", "independent_laplace",
                                             "independent_gaussian", "privbayes", "mst"}));
  for (const std::string& name : names) EXPECT_EQ(Make(name)->name(), name);
  const auto r = MakeSynthesizer("ctgan", {});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(Mentions(r.message(), "synthesizer")) << r.message();
  for (const std::string& name : names) EXPECT_TRUE(Mentions(r.message(), name)) << r.message();
}

TEST(RegistryTest, BadOptionsNameTheOption) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const char* name : {"independent_laplace", "privbayes", "independent_gaussian", "mst"}) {
    for (double eps : {0.0, -1.0, inf, std::nan("")}) {
      SynthesizerOptions o;
      o.epsilon = eps;
      EXPECT_TRUE(Mentions(MakeSynthesizer(name, o).message(), "epsilon")) << name << eps;
    }
  }
  for (const char* name : {"independent_gaussian", "mst"}) {
    for (double rho : {0.0, -0.1, inf}) {
      SynthesizerOptions o;
      o.rho = rho;
      EXPECT_TRUE(Mentions(MakeSynthesizer(name, o).message(), "rho")) << name << rho;
    }
    SynthesizerOptions o;
    o.delta = 1.0;
    EXPECT_TRUE(Mentions(MakeSynthesizer(name, o).message(), "delta")) << name;
  }
  for (double share : {0.0, 1.0, -0.2, 1.5}) {
    SynthesizerOptions o;
    o.privbayes_structure_share = share;
    EXPECT_TRUE(Mentions(MakeSynthesizer("privbayes", o).message(), "privbayes_structure_share"))
        << share;
  }
  for (const char* name : {"independent_laplace", "independent_gaussian"}) {
    for (double fraction : {0.0, -0.5, 1.5, std::nan("")}) {
      SynthesizerOptions o;
      o.first_marginal_noise_fraction = fraction;
      EXPECT_TRUE(Mentions(MakeSynthesizer(name, o).message(), "first_marginal_noise_fraction"))
          << name << fraction;
    }
  }
  // The non-private ones read no budget.
  SynthesizerOptions o;
  o.epsilon = -1;
  o.rho = 0;
  EXPECT_TRUE(MakeSynthesizer("independent", o).ok());
  EXPECT_TRUE(MakeSynthesizer("chow_liu", o).ok());
}

TEST(GenerateTest, BadInputsNameTheArgument) {
  const CategoricalDomain domain = TestDomain({3, 2});
  CategoricalTable data = EmptyTable(domain);
  data.Append({0, 1});
  Rng rng(1);
  const auto synth = Make("mst");
  CategoricalDomain bad = domain;
  bad.sizes[1] = 0;
  bad.labels[1].clear();
  EXPECT_TRUE(Mentions(synth->Generate(data, bad, 5, rng).message(), "domain"));
  CategoricalTable out_of_range = data;
  out_of_range.values[1] = 2;
  EXPECT_TRUE(Mentions(synth->Generate(out_of_range, domain, 5, rng).message(), "data"));
  EXPECT_TRUE(Mentions(synth->Generate(EmptyTable(domain), domain, 5, rng).message(), "data"));
  EXPECT_TRUE(Mentions(synth->Generate(data, domain, 0, rng).message(), "n_synthetic"));
  EXPECT_TRUE(synth->Generate(data, domain, 1, rng).ok());
}

TEST(GenerateTest, EverySynthesizerGivesValidRowsRepeatablyPerSeed) {
  const CategoricalDomain domain = TestDomain({4, 3, 5, 2, 6});
  Rng data_rng(2);
  const CategoricalTable data = TreeData(domain, kTree, 300, 0.7, data_rng);
  for (const std::string& name : AllSynthesizerNames()) {
    const auto synth = Make(name);
    Rng a(7), b(7);
    const Result<SynthesisOutput> x = synth->Generate(data, domain, 123, a);
    const Result<SynthesisOutput> y = synth->Generate(data, domain, 123, b);
    ASSERT_TRUE(x.ok() && y.ok()) << name << x.message() << y.message();
    EXPECT_EQ(x->synthetic.n(), 123) << name;
    EXPECT_EQ(x->synthetic.d, 5) << name;
    EXPECT_TRUE(CheckTable(x->synthetic, domain, "synthetic").ok()) << name;
    EXPECT_EQ(x->synthetic.values, y->synthetic.values) << name;
    EXPECT_EQ(x->structure, y->structure) << name;
    ASSERT_EQ(x->measurements.size(), y->measurements.size()) << name;
    for (size_t k = 0; k < x->measurements.size(); ++k) {
      EXPECT_EQ(x->measurements[k].noisy_counts, y->measurements[k].noisy_counts) << name;
    }
    const SynthesizerGuarantee g = synth->guarantee();
    const bool is_private = name != "independent" && name != "chow_liu";
    EXPECT_EQ(g.is_private(), is_private) << name;
    EXPECT_EQ(x->measurements.empty(), !is_private) << name;
    EXPECT_EQ(x->structure.empty(), name.rfind("independent", 0) == 0) << name;
    // A different seed gives different rows (123 x 5 draws).
    Rng c(8);
    EXPECT_NE(synth->Generate(data, domain, 123, c)->synthetic.values, x->synthetic.values);
  }
}

// Values 2 and 3 of every attribute never occur in the data. With a small
// budget the correct synthesizers measure them too and, noise being large,
// produce them; under domain_from_data they never can. (Correct version:
// 20 runs x 200 rows; with b or sigma of hundreds of counts per cell, the
// unseen cells get substantial mass in most runs, so missing them in all 20
// is negligible; fixed seeds: deterministic.)
TEST(DomainFromDataTest, BugNeverEmitsUnseenValuesTheCorrectVersionDoes) {
  const CategoricalDomain domain = TestDomain({4, 4, 4});
  CategoricalTable data = EmptyTable(domain);
  Rng rng(3);
  for (int i = 0; i < 100; ++i) {
    data.Append({i % 2, (i / 2) % 2, (i / 4) % 2});
  }
  for (const std::string& name : AllSynthesizerNames()) {
    for (bool bug : {false, true}) {
      SynthesizerOptions o;
      o.epsilon = 0.05;
      o.rho = 0.001;
      o.domain_from_data = bug;
      const auto synth = Make(name, o);
      int64_t unseen = 0;
      for (int r = 0; r < 20; ++r) {
        const Result<SynthesisOutput> out = synth->Generate(data, domain, 200, rng);
        ASSERT_TRUE(out.ok()) << out.message();
        for (int32_t v : out->synthetic.values) unseen += v >= 2 ? 1 : 0;
        for (const NoisyMarginal& m : out->measurements) {
          // Under the bug the unseen values' cells are not measured (exact 0).
          if (bug && m.attributes.size() == 1) {
            EXPECT_EQ(m.noisy_counts[2], 0.0);
            EXPECT_EQ(m.noisy_counts[3], 0.0);
          }
        }
      }
      const bool is_private = name != "independent" && name != "chow_liu";
      if (bug || !is_private) {
        EXPECT_EQ(unseen, 0) << name << " bug " << bug;
      } else {
        EXPECT_GT(unseen, 0) << name;
      }
    }
  }
}

// Not a pass/fail timing test: prints the cost per call at the quick
// scale's shape (1,000 rows x 12 attributes, up to 16 values) for the log.
TEST(GenerateTest, CostPerCallAtStudyScale) {
  std::vector<int32_t> sizes;
  for (int j = 0; j < 12; ++j) sizes.push_back(2 + (j * 5) % 15);
  const CategoricalDomain domain = TestDomain(sizes);
  std::vector<std::pair<int64_t, int64_t>> chain;
  for (int j = 1; j < 12; ++j) chain.emplace_back(j - 1, j);
  Rng rng(4);
  const CategoricalTable data = TreeData(domain, chain, 1000, 0.6, rng);
  SynthesizerOptions small;  // heavy noise: many clamped cells, IPF fallbacks
  small.epsilon = 0.1;
  small.rho = 0.0005;
  for (const SynthesizerOptions& options : {SynthesizerOptions(), small}) {
    for (const std::string& name : AllSynthesizerNames()) {
      const auto synth = Make(name, options);
      const int calls = 50;
      const auto start = std::chrono::steady_clock::now();
      for (int r = 0; r < calls; ++r) ASSERT_TRUE(synth->Generate(data, domain, 1000, rng).ok());
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count() /
          calls;
      std::printf("%-22s eps %g rho %g: %.3f ms per call (1000 x 12 in, 1000 rows out)\n",
                  name.c_str(), options.epsilon, options.rho, ms);
    }
  }
}

}  // namespace
}  // namespace privbench
