// The worst-case audits, the planted bugs and the cost measurement of study
// synthetic_data_mia (compute.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attacks/synthetic/distance_to_closest.h"
#include "attacks/synthetic/marginal_white_box.h"
#include "core/seeding.h"
#include "experiments/lib/framework/study.h"
#include "experiments/synthetic_data_mia/compute.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

// The first `attributes` attributes of the domain.
CategoricalDomain FirstAttributes(const CategoricalDomain& domain, int64_t attributes) {
  CategoricalDomain sub;
  for (int64_t j = 0; j < attributes; ++j) {
    sub.names.push_back(domain.names[static_cast<size_t>(j)]);
    sub.sizes.push_back(domain.sizes[static_cast<size_t>(j)]);
    sub.labels.push_back(domain.labels[static_cast<size_t>(j)]);
  }
  return sub;
}

}  // namespace

double JudgedBound(const AttackOutcome& o, const CaseSpec& spec) {
  const bool gaussian_tradeoff = spec.synthesizer == "independent_gaussian" ||
                                 (spec.synthesizer == "mst" && IsWhiteBox(o.attack));
  return spec.audit_delta > 0 && gaussian_tradeoff ? o.gdp_eps_lower : o.cp_eps_lower;
}

Result<WorstCaseResult> RunWorstCase(const GameInputs& in, const CaseSpec& spec, int64_t attributes,
                                     int64_t case_index) {
  const Config& c = *in.config;
  const CategoricalDomain domain = FirstAttributes(*in.domain, attributes);
  CategoricalTable minus = EmptyTable(domain);
  std::vector<int32_t> r0(static_cast<size_t>(attributes), 0), target(r0.size());
  for (int64_t j = 0; j < attributes; ++j) {
    target[static_cast<size_t>(j)] = domain.sizes[static_cast<size_t>(j)] - 1;
  }
  minus.Append(r0);
  PB_ASSIGN_OR_RETURN(std::unique_ptr<Synthesizer> synthesizer,
                      MakeSynthesizer(spec.synthesizer, spec.options));
  const int64_t releases = 2 * c.worst_case_trials;
  const uint64_t seed =
      DeriveSeed(in.seed, {StableHash("worst_case"), static_cast<uint64_t>(case_index)});
  std::vector<double> white_box(static_cast<size_t>(releases)), dcr(white_box.size());
  PB_RETURN_IF_ERROR(ParallelFor(releases, in.threads, [&](int64_t i) -> Status {
    Rng rng = MakeRng(seed, {static_cast<uint64_t>(i)});
    CategoricalTable data = minus;
    if (i % 2 == 1) data.Append(target);
    PB_ASSIGN_OR_RETURN(SynthesisOutput out,
                        synthesizer->Generate(data, domain, c.n_synthetic, rng));
    PB_ASSIGN_OR_RETURN(white_box[static_cast<size_t>(i)],
                        WhiteBoxScore(out, target, domain, &minus, nullptr, 0));
    PB_ASSIGN_OR_RETURN(dcr[static_cast<size_t>(i)],
                        DcrScore(target, out.synthetic, domain, DcrMetric::kHamming));
    return Status::Ok();
  }));
  WorstCaseResult r;
  r.spec = spec;
  r.attributes = attributes;
  const double inf = std::numeric_limits<double>::infinity();
  PB_ASSIGN_OR_RETURN(AttackOutcome wb, AuditAttack("white_box", white_box, inf, spec, c.alpha / 2,
                                                    DeriveSeed(seed, {1})));
  PB_ASSIGN_OR_RETURN(AttackOutcome bb, AuditAttack("dcr_hamming", dcr, inf, spec, c.alpha / 2,
                                                    DeriveSeed(seed, {2})));
  r.attacks = {std::move(wb), std::move(bb)};
  for (const AttackOutcome& o : r.attacks) {
    r.best_cp_eps_lower = std::max(r.best_cp_eps_lower, o.cp_eps_lower);
    r.flagged = r.flagged || JudgedBound(o, spec) > spec.guarantee.epsilon;
  }
  return r;
}

Result<std::vector<WorstCasePlan>> WorstCasePlans(const Config& c,
                                                  const std::vector<CaseSpec>& main_cases,
                                                  const CategoricalDomain& domain) {
  std::vector<WorstCasePlan> plans;
  const int64_t d = domain.attributes();
  for (const CaseSpec& spec : main_cases) {
    if (spec.guarantee.is_private()) plans.push_back({spec, d, false});
  }
  // Each planted bug where an audit of this size can see it, beside the
  // correct synthesizer in the same setting.
  struct Bug {
    const char* synthesizer;
    const char* bug;
    int64_t attributes;
  };
  const Bug bugs[] = {{"independent_laplace", "domain_from_data", d},
                      {"independent_laplace", "laplace_half_scale", 1},
                      {"mst", "mst_unscaled_noise", d}};
  for (const Bug& bug : bugs) {
    for (const char* variant : {"", bug.bug}) {
      PB_ASSIGN_OR_RETURN(CaseSpec spec,
                          MakeCase(bug.synthesizer, c.bug_epsilon, c.delta, variant));
      plans.push_back({std::move(spec), bug.attributes, true});
    }
  }
  return plans;
}

Result<CostResult> MeasureCost(const GameInputs& in, const std::string& synthesizer) {
  const Config& c = *in.config;
  PB_ASSIGN_OR_RETURN(const CaseSpec spec, MakeCase(synthesizer, 1.0, c.delta, ""));
  PB_ASSIGN_OR_RETURN(std::unique_ptr<Synthesizer> s, MakeSynthesizer(synthesizer, spec.options));
  CostResult r;
  r.synthesizer = synthesizer;
  r.sizes = c.cost_sizes;
  Rng rng = MakeRng(in.seed, {StableHash("cost"), StableHash(synthesizer)});
  for (int64_t n : c.cost_sizes) {
    std::vector<double> seconds;
    for (int64_t k = 0; k < c.cost_repeats; ++k) {
      std::vector<int64_t> rows(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        rows[static_cast<size_t>(i)] = (k * n + i) % in.population->n();
      const CategoricalTable data = SelectRows(*in.population, rows);
      const auto start = std::chrono::steady_clock::now();
      PB_ASSIGN_OR_RETURN(SynthesisOutput out, s->Generate(data, *in.domain, n, rng));
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
    r.seconds_per_release.push_back(seconds[seconds.size() / 2]);
  }
  // Least-squares slope of log seconds on log n.
  double mx = 0, my = 0;
  const double k = static_cast<double>(r.sizes.size());
  for (size_t i = 0; i < r.sizes.size(); ++i) {
    mx += std::log(static_cast<double>(r.sizes[i])) / k;
    my += std::log(r.seconds_per_release[i]) / k;
  }
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < r.sizes.size(); ++i) {
    const double dx = std::log(static_cast<double>(r.sizes[i])) - mx;
    sxy += dx * (std::log(r.seconds_per_release[i]) - my);
    sxx += dx * dx;
  }
  r.slope = sxx > 0 ? sxy / sxx : 0.0;
  return r;
}

}  // namespace synthetic_data_mia
}  // namespace privbench
