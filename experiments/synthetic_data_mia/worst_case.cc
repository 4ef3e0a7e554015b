// The worst-case audits, the planted bugs and the cost measurement of study
// synthetic_data_mia (compute.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attacks/synthetic/distance_to_closest.h"
#include "attacks/synthetic/marginal_white_box.h"
#include "core/format.h"
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

bool GaussianTradeoff(const CaseSpec& spec, const std::string& attack) {
  return spec.audit_delta > 0 && (spec.synthesizer == "independent_gaussian" ||
                                  (spec.synthesizer == "mst" && IsWhiteBox(attack)));
}

AuditJudge JudgeOf(const CaseSpec& spec, const std::string& attack, double alpha) {
  return {GaussianTradeoff(spec, attack), alpha, spec.audit_delta, spec.guarantee.epsilon};
}

double JudgedBound(const AttackOutcome& o, const CaseSpec& spec) {
  return GaussianTradeoff(spec, o.attack) ? o.gdp_eps_lower : o.cp_eps_lower;
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
  // The subtler ones on one attribute too, where the one
  // marginal is the whole table (on 13 the other marginals' noise hides
  // it): Laplace noise at kLowNoiseFraction of its scale, and a Gaussian
  // step measured twice. A counterpart already planned is not repeated.
  const Bug bugs[] = {{"independent_laplace", "domain_from_data", d},
                      {"independent_laplace", "laplace_half_scale", 1},
                      {"mst", "mst_unscaled_noise", d},
                      {"independent_laplace", "one_marginal_low_noise", 1},
                      {"independent_gaussian", "double_spent_marginal", 1}};
  for (const Bug& bug : bugs) {
    for (const char* variant : {"", bug.bug}) {
      const bool planned = std::any_of(plans.begin(), plans.end(), [&](const WorstCasePlan& p) {
        return p.bug_audit && p.spec.synthesizer == bug.synthesizer && p.spec.bug == variant &&
               p.attributes == bug.attributes;
      });
      if (planned) continue;
      PB_ASSIGN_OR_RETURN(CaseSpec spec,
                          MakeCase(bug.synthesizer, c.bug_epsilon, c.delta, variant));
      plans.push_back({std::move(spec), bug.attributes, true});
    }
  }
  return plans;
}

Result<std::optional<ScoreLaw>> WorstCaseWhiteBoxLaw(const GameInputs& in, const CaseSpec& spec,
                                                     int64_t attributes) {
  using Law = std::optional<ScoreLaw>;
  if (spec.options.domain_from_data || !spec.guarantee.is_private()) return Law();
  const CategoricalDomain domain = FirstAttributes(*in.domain, attributes);
  CategoricalTable data = EmptyTable(domain);
  std::vector<int32_t> target(static_cast<size_t>(attributes));
  for (int64_t j = 0; j < attributes; ++j) {
    target[static_cast<size_t>(j)] = domain.sizes[static_cast<size_t>(j)] - 1;
  }
  data.Append(std::vector<int32_t>(target.size(), 0));
  data.Append(target);
  PB_ASSIGN_OR_RETURN(std::unique_ptr<Synthesizer> synthesizer,
                      MakeSynthesizer(spec.synthesizer, spec.options));
  Rng rng = MakeRng(in.seed, {StableHash("white_box_law")});
  PB_ASSIGN_OR_RETURN(const SynthesisOutput out, synthesizer->Generate(data, domain, 1, rng));
  const std::vector<NoisyMarginal>& m = out.measurements;
  ScoreLaw law;
  if (!m.empty() && std::all_of(m.begin(), m.end(), [](const NoisyMarginal& x) {
        return x.noise == MarginalNoise::kGaussian;
      })) {
    PB_ASSIGN_OR_RETURN(law.mu, GaussianWhiteBoxMu(m));
    return Law(law);
  }
  if (m.size() == 1 && m[0].noise == MarginalNoise::kLaplace) {
    law.kind = ScoreLaw::Kind::kLaplaceCell;
    law.b = m[0].scale;
    return Law(law);
  }
  return Law();
}

namespace {

// The plug-in law of one worst-case attack's scores (odd index: in).
ScoreLaw EmpiricalLaw(const std::vector<double>& scores) {
  ScoreLaw law;
  law.kind = ScoreLaw::Kind::kEmpirical;
  for (size_t i = 0; i < scores.size(); ++i) {
    (i % 2 == 1 ? law.member : law.nonmember).push_back(scores[i]);
  }
  std::sort(law.member.begin(), law.member.end());
  std::sort(law.nonmember.begin(), law.nonmember.end());
  return law;
}

std::string LawText(const ScoreLaw& law) {
  switch (law.kind) {
    case ScoreLaw::Kind::kGaussian:
      return "exact: Gaussian white-box LLR, mu = " + FormatSignificant(law.mu, 4);
    case ScoreLaw::Kind::kLaplaceCell:
      return "exact: white-box LLR of one Laplace cell, b = " + FormatSignificant(law.b, 4);
    case ScoreLaw::Kind::kEmpirical:
      break;
  }
  return "plug-in: the run's " + std::to_string(law.member.size()) + " + " +
         std::to_string(law.nonmember.size()) + " scores";
}

Result<BugPower> PowerRow(const GameInputs& in, int64_t index, const WorstCaseResult& w,
                          const std::string& attack, const ScoreLaw& law) {
  const Config& c = *in.config;
  const AuditJudge judge = JudgeOf(w.spec, attack, c.alpha / 2);
  BugPower row;
  row.worst_case = index;
  row.attack = attack;
  row.law = LawText(law);
  const uint64_t seed = DeriveSeed(
      in.seed, {StableHash("bug_power"), static_cast<uint64_t>(index), StableHash(attack)});
  PB_ASSIGN_OR_RETURN(row.quick,
                      AuditDetectionPower(law, judge, kQuickWorstCaseTrials, c.bug_power_replicates,
                                          DeriveSeed(seed, {0})));
  PB_ASSIGN_OR_RETURN(row.paper,
                      AuditDetectionPower(law, judge, kPaperWorstCaseTrials, c.bug_power_replicates,
                                          DeriveSeed(seed, {1})));
  return row;
}

}  // namespace

Result<std::vector<BugPower>> BugPowerRows(const GameInputs& in, int64_t index,
                                           const WorstCaseResult& w) {
  std::vector<BugPower> rows;
  if (!w.bug_audit || w.spec.bug.empty()) return rows;
  PB_ASSIGN_OR_RETURN(const std::optional<ScoreLaw> law,
                      WorstCaseWhiteBoxLaw(in, w.spec, w.attributes));
  if (law.has_value()) {
    PB_ASSIGN_OR_RETURN(BugPower row, PowerRow(in, index, w, "white_box", *law));
    rows.push_back(std::move(row));
    return rows;
  }
  for (const AttackOutcome& o : w.attacks) {
    PB_ASSIGN_OR_RETURN(BugPower row,
                        PowerRow(in, index, w, o.attack, EmpiricalLaw(o.test_scores)));
    rows.push_back(std::move(row));
  }
  return rows;
}

Result<std::vector<BugPower>> PlantedBugPower(const GameInputs& in,
                                              const std::vector<WorstCaseResult>& worst_case) {
  std::vector<BugPower> rows;
  for (size_t i = 0; i < worst_case.size(); ++i) {
    PB_ASSIGN_OR_RETURN(std::vector<BugPower> mine,
                        BugPowerRows(in, static_cast<int64_t>(i), worst_case[i]));
    for (BugPower& row : mine) rows.push_back(std::move(row));
  }
  return rows;
}

Result<std::vector<double>> PerfectTestBounds(const GameInputs& in,
                                              const std::vector<CaseSpec>& cases) {
  const Config& c = *in.config;
  std::vector<double> out;
  for (const CaseSpec& spec : cases) {
    out.push_back(-1);
    if (!spec.guarantee.is_private() || !GaussianTradeoff(spec, "white_box")) continue;
    PB_ASSIGN_OR_RETURN(const std::optional<ScoreLaw> law,
                        WorstCaseWhiteBoxLaw(in, spec, in.domain->attributes()));
    if (!law.has_value() || law->kind != ScoreLaw::Kind::kGaussian) continue;
    PB_ASSIGN_OR_RETURN(
        out.back(), PerfectTestBound(law->mu, c.alpha / 2, spec.audit_delta, c.worst_case_trials));
  }
  return out;
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
