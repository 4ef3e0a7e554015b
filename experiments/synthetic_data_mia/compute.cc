#include "experiments/synthetic_data_mia/compute.h"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attacks/synthetic/classifier.h"
#include "attacks/synthetic/distance_to_closest.h"
#include "attacks/synthetic/feature_sets.h"
#include "attacks/synthetic/marginal_white_box.h"
#include "attacks/synthetic/targeted_queries.h"
#include "core/seeding.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/accountants/zcdp.h"
#include "estimators/score_audit/score_audit.h"
#include "experiments/lib/framework/study.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool IsZcdp(const std::string& synthesizer) {
  return synthesizer == "independent_gaussian" || synthesizer == "mst";
}
bool IsNonPrivate(const std::string& synthesizer) {
  return synthesizer == "independent" || synthesizer == "chow_liu";
}

// Everything one release hands the attacks.
struct Release {
  double dcr_hamming = 0, dcr_l2 = 0, white_box = 0;
  std::vector<double> naive, histogram, correlations, queries;
};

// n - 1 distinct population rows drawn uniformly (rejection with a per-call
// mark vector: the draw depends on the Rng only).
std::vector<int64_t> DrawRows(int64_t population, int64_t count, Rng& rng) {
  std::vector<bool> used(static_cast<size_t>(population), false);
  std::vector<int64_t> rows;
  rows.reserve(static_cast<size_t>(count));
  boost::random::uniform_int_distribution<int64_t> pick(0, population - 1);
  while (static_cast<int64_t>(rows.size()) < count) {
    const int64_t r = pick(rng);
    if (used[static_cast<size_t>(r)]) continue;
    used[static_cast<size_t>(r)] = true;
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

CategoricalTable ReleaseData(const CategoricalTable& population,
                             const CategoricalTable* fixed_minus,
                             const std::vector<int32_t>& target, int64_t n_minus, int64_t index,
                             Rng& rng) {
  CategoricalTable data = fixed_minus != nullptr
                              ? *fixed_minus
                              : SelectRows(population, DrawRows(population.n(), n_minus, rng));
  if (index % 2 == 1) data.Append(target);
  return data;
}

Result<double> WhiteBoxScore(const SynthesisOutput& release, const std::vector<int32_t>& target,
                             const CategoricalDomain& domain, const CategoricalTable* known_minus,
                             const CategoricalTable* population, int64_t n_minus) {
  // The non-private synthesizers release no noisy statistic: no white-box
  // score (a constant; the report leaves these rows out).
  if (release.measurements.empty()) return 0.0;
  TargetCellReference reference;
  if (known_minus != nullptr) {
    PB_ASSIGN_OR_RETURN(reference,
                        KnownDMinusReference(release.measurements, target, domain, *known_minus));
  } else {
    PB_ASSIGN_OR_RETURN(
        reference, AuxiliaryReference(release.measurements, target, domain, *population, n_minus));
  }
  return MarginalWhiteBoxLlr(release.measurements, target, domain, reference);
}

namespace {

// The statistics the selected attacks read off a release.
struct Needs {
  bool dcr_hamming = false, dcr_l2 = false, white_box = false;
  bool naive = false, histogram = false, correlations = false, queries = false;
};
Needs NeedsOf(const std::vector<std::string>& attacks) {
  Needs n;
  for (const std::string& a : attacks) {
    n.dcr_hamming = n.dcr_hamming || a == "dcr_hamming";
    n.dcr_l2 = n.dcr_l2 || a == "dcr_l2";
    n.white_box = n.white_box || a == "white_box";
    n.naive = n.naive || a == "naive_logistic";
    n.histogram = n.histogram || a == "histogram_logistic";
    n.correlations = n.correlations || a == "correlations_forest";
    n.queries = n.queries || a == "queries_logistic" || a == "queries_forest";
  }
  return n;
}

struct GameContext {
  const GameInputs* in;
  const CaseSpec* spec;
  const Synthesizer* synthesizer;
  const std::vector<int32_t>* target;
  const CategoricalTable* fixed_minus;  // the fixed adversary's D- (also sets n - 1)
  const std::vector<AttributeSubset>* subsets;
  bool random_minus = false;
  uint64_t release_seed = 0;
  Needs needs;  // what to compute per release (none of it draws randomness)
};

Result<Release> MakeRelease(const GameContext& g, int64_t index) {
  const Config& c = *g.in->config;
  const CategoricalDomain& domain = *g.in->domain;
  Rng rng = MakeRng(g.release_seed, {static_cast<uint64_t>(index)});
  const CategoricalTable data =
      ReleaseData(*g.in->population, g.random_minus ? nullptr : g.fixed_minus, *g.target,
                  c.n_records - 1, index, rng);
  PB_ASSIGN_OR_RETURN(SynthesisOutput out,
                      g.synthesizer->Generate(data, domain, c.n_synthetic, rng));
  // Only the statistics of the selected attacks; none draws randomness, so
  // an attack's scores do not depend on which others run.
  Release r;
  const Needs& need = g.needs;
  if (need.dcr_hamming) {
    PB_ASSIGN_OR_RETURN(r.dcr_hamming,
                        DcrScore(*g.target, out.synthetic, domain, DcrMetric::kHamming));
  }
  if (need.dcr_l2) {
    PB_ASSIGN_OR_RETURN(r.dcr_l2, DcrScore(*g.target, out.synthetic, domain, DcrMetric::kOneHotL2));
  }
  if (need.white_box) {
    PB_ASSIGN_OR_RETURN(
        r.white_box, WhiteBoxScore(out, *g.target, domain, g.random_minus ? nullptr : g.fixed_minus,
                                   g.in->population, c.n_records - 1));
  }
  PB_ASSIGN_OR_RETURN(TableFeatureExtractor extractor, TableFeatureExtractor::Make(domain));
  if (need.naive) {
    PB_RETURN_IF_ERROR(extractor.Extract(TableFeatureSet::kNaive, out.synthetic, &r.naive));
  }
  if (need.histogram) {
    PB_RETURN_IF_ERROR(extractor.Extract(TableFeatureSet::kHistogram, out.synthetic, &r.histogram));
  }
  if (need.correlations) {
    PB_RETURN_IF_ERROR(
        extractor.Extract(TableFeatureSet::kCorrelations, out.synthetic, &r.correlations));
  }
  if (need.queries) {
    PB_ASSIGN_OR_RETURN(TargetedQueryEvaluator queries,
                        TargetedQueryEvaluator::Make(domain, *g.target, *g.subsets));
    PB_RETURN_IF_ERROR(queries.Evaluate(out.synthetic, &r.queries));
  }
  return r;
}

Result<std::vector<Release>> MakeReleases(const GameContext& g, int64_t count) {
  std::vector<Release> releases(static_cast<size_t>(count));
  PB_RETURN_IF_ERROR(ParallelFor(count, g.in->threads, [&](int64_t i) -> Status {
    PB_ASSIGN_OR_RETURN(releases[static_cast<size_t>(i)], MakeRelease(g, i));
    return Status::Ok();
  }));
  return releases;
}

FeatureMatrix Matrix(const std::vector<Release>& releases, std::vector<double> Release::*features) {
  FeatureMatrix m;
  m.m = static_cast<int64_t>((releases.front().*features).size());
  for (const Release& r : releases) {
    m.x.insert(m.x.end(), (r.*features).begin(), (r.*features).end());
  }
  return m;
}

std::vector<double> Column(const std::vector<Release>& releases, double Release::*score) {
  std::vector<double> out;
  out.reserve(releases.size());
  for (const Release& r : releases) out.push_back(r.*score);
  return out;
}

std::vector<uint8_t> Labels(int64_t count) {
  std::vector<uint8_t> labels(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) labels[static_cast<size_t>(i)] = i % 2 == 1;
  return labels;
}

// The threshold maximising TPR - FPR on labelled scores (labels odd = in);
// flags member iff score >= threshold.
double AdvantageThreshold(const std::vector<double>& scores) {
  std::vector<double> candidates = scores;
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  double best = kInf, best_advantage = -1;
  const double half_in = static_cast<double>(scores.size() / 2);
  const double half_out = static_cast<double>(scores.size() - scores.size() / 2);
  for (double t : candidates) {
    double tp = 0, fp = 0;
    for (size_t i = 0; i < scores.size(); ++i) (i % 2 == 1 ? tp : fp) += scores[i] >= t;
    const double advantage = tp / half_in - fp / half_out;
    if (advantage > best_advantage) best_advantage = advantage, best = t;
  }
  return best;
}

// Scores of one attack on the test releases and its privacy-gain threshold.
struct AttackScores {
  std::vector<double> test;
  double threshold = 0.5;
};

Result<AttackScores> ScoreAttack(const std::string& attack, const std::vector<Release>& train,
                                 const std::vector<Release>& test, uint64_t seed) {
  AttackScores s;
  if (attack == "dcr_hamming" || attack == "dcr_l2" || attack == "white_box") {
    double Release::*score = attack == "dcr_hamming" ? &Release::dcr_hamming
                             : attack == "dcr_l2"    ? &Release::dcr_l2
                                                     : &Release::white_box;
    s.test = Column(test, score);
    s.threshold = AdvantageThreshold(Column(train, score));
    return s;
  }
  std::vector<double> Release::*features = &Release::queries;
  if (attack == "naive_logistic") features = &Release::naive;
  if (attack == "histogram_logistic") features = &Release::histogram;
  if (attack == "correlations_forest") features = &Release::correlations;
  AttackClassifierOptions options;
  options.kind = attack.size() > 9 && attack.substr(attack.size() - 9) == "_logistic"
                     ? AttackClassifierKind::kLogistic
                     : AttackClassifierKind::kRandomForest;
  options.seed = seed;
  // Flag "in" at the classifier's own decision boundary: log-odds 0
  // (logistic regression), leaf-probability mean 1/2 (forest).
  s.threshold = options.kind == AttackClassifierKind::kLogistic ? 0.0 : 0.5;
  PB_ASSIGN_OR_RETURN(
      s.test, TrainAndScore(Matrix(train, features), Labels(static_cast<int64_t>(train.size())),
                            Matrix(test, features), options));
  return s;
}

}  // namespace

const std::vector<std::string>& AttackNames() {
  static const std::vector<std::string> names = {
      "dcr_hamming",         "dcr_l2",           "naive_logistic", "histogram_logistic",
      "correlations_forest", "queries_logistic", "queries_forest", "white_box"};
  return names;
}

bool IsWhiteBox(const std::string& attack) { return attack == "white_box"; }

std::vector<std::string> SelectedAttacks(const Config& config) {
  std::vector<std::string> out;
  for (const std::string& name : AttackNames()) {
    if (std::find(config.attacks.begin(), config.attacks.end(), name) != config.attacks.end()) {
      out.push_back(name);
    }
  }
  return out;
}

Result<CaseSpec> MakeCase(const std::string& synthesizer, double epsilon, double delta,
                          const std::string& bug) {
  CaseSpec spec;
  spec.synthesizer = synthesizer;
  spec.bug = bug;
  spec.options.epsilon = epsilon;
  spec.options.delta = IsZcdp(synthesizer) ? delta : 0.0;
  spec.options.domain_from_data = bug == "domain_from_data";
  spec.options.laplace_half_scale = bug == "laplace_half_scale";
  spec.options.mst_unscaled_noise = bug == "mst_unscaled_noise";
  spec.options.first_marginal_noise_fraction =
      bug == "one_marginal_low_noise" ? kLowNoiseFraction : 1.0;
  spec.options.double_spent_marginal = bug == "double_spent_marginal";
  if (IsZcdp(synthesizer)) {
    PB_ASSIGN_OR_RETURN(spec.options.rho, CdpRho(epsilon, delta));
    spec.audit_delta = delta;
  }
  PB_ASSIGN_OR_RETURN(std::unique_ptr<Synthesizer> s, MakeSynthesizer(synthesizer, spec.options));
  spec.guarantee = s->guarantee();
  if (IsNonPrivate(synthesizer)) spec.guarantee.epsilon = kInf;
  return spec;
}

Result<std::vector<CaseSpec>> MainCases(const Config& c) {
  std::vector<CaseSpec> cases;
  for (const std::string& name : c.synthesizers) {
    if (IsNonPrivate(name)) {
      PB_ASSIGN_OR_RETURN(CaseSpec spec, MakeCase(name, 1.0, c.delta, ""));
      cases.push_back(std::move(spec));
      continue;
    }
    for (double eps : c.epsilons) {
      PB_ASSIGN_OR_RETURN(CaseSpec spec, MakeCase(name, eps, c.delta, ""));
      cases.push_back(std::move(spec));
    }
  }
  return cases;
}

Result<AttackOutcome> AuditAttack(const std::string& attack, const std::vector<double>& scores,
                                  double threshold, const CaseSpec& spec, double alpha,
                                  uint64_t seed) {
  std::vector<double> in, out;
  for (size_t i = 0; i < scores.size(); ++i) (i % 2 == 1 ? in : out).push_back(scores[i]);
  ScoreAuditOptions options;
  options.alpha = alpha;
  options.delta = spec.audit_delta;
  options.selections = {ThresholdSelection::kSplit};
  options.seed = seed;
  PB_ASSIGN_OR_RETURN(const ScoreAudit audit, AuditScores(in, out, options));
  AttackOutcome o;
  o.attack = attack;
  o.test_scores = scores;
  o.auc = audit.roc.auc;
  for (const TprAtFpr& t : audit.tpr_at_fpr) {
    if (t.max_fpr == 0.1) o.tpr_at_fpr_01 = t.tpr;
  }
  double tp = 0, fp = 0;
  for (double s : in) tp += s >= threshold;
  for (double s : out) fp += s >= threshold;
  o.privacy_gain =
      1.0 - (tp / static_cast<double>(in.size()) - fp / static_cast<double>(out.size()));
  for (const AuditInterval& interval : audit.intervals) {
    o.methods.push_back(interval.method);
    o.eps_lower.push_back(interval.lower);
    if (interval.method == "clopper_pearson_one_sided") o.cp_eps_lower = interval.lower;
  }
  o.mu_lower = audit.gaussian_dp.front().mu_lower;
  o.gdp_eps_lower = audit.gaussian_dp.front().eps_lower.value_or(0.0);
  PB_ASSIGN_OR_RETURN(o.judged_ceiling,
                      JudgedCeiling(JudgeOf(spec, attack, alpha), static_cast<int64_t>(in.size()),
                                    static_cast<int64_t>(out.size())));
  return o;
}

Result<GameResult> RunGame(const GameInputs& in, const CaseSpec& spec, int64_t case_index,
                           int64_t target_index, const std::string& adversary) {
  const auto start = std::chrono::steady_clock::now();
  const Config& c = *in.config;
  const std::vector<int32_t>& target = (*in.targets)[static_cast<size_t>(target_index)].record;
  // The fixed D- of this target (the same for every case and adversary).
  Rng minus_rng =
      MakeRng(in.seed, {StableHash("fixed_minus"), static_cast<uint64_t>(target_index)});
  const CategoricalTable fixed_minus =
      SelectRows(*in.population, DrawRows(in.population->n(), c.n_records - 1, minus_rng));
  Rng query_rng = MakeRng(in.seed, {StableHash("queries"), static_cast<uint64_t>(target_index)});
  PB_ASSIGN_OR_RETURN(const std::vector<AttributeSubset> subsets,
                      DrawQuerySubsets(*in.domain, {1, 2, 3}, c.queries, query_rng));
  PB_ASSIGN_OR_RETURN(std::unique_ptr<Synthesizer> synthesizer,
                      MakeSynthesizer(spec.synthesizer, spec.options));
  const uint64_t game_seed =
      DeriveSeed(in.seed, {StableHash("game"), static_cast<uint64_t>(case_index),
                           static_cast<uint64_t>(target_index), StableHash(adversary)});
  // The attacks are independent (each seeded from the game alone): one per
  // worker; most of the time is the classifiers and the audits.
  const std::vector<std::string> attacks = SelectedAttacks(c);
  GameContext g{&in,
                &spec,
                synthesizer.get(),
                &target,
                &fixed_minus,
                &subsets,
                adversary == "random",
                DeriveSeed(game_seed, {0}),
                NeedsOf(attacks)};
  PB_ASSIGN_OR_RETURN(const std::vector<Release> train, MakeReleases(g, c.train_datasets));
  g.release_seed = DeriveSeed(game_seed, {1});
  PB_ASSIGN_OR_RETURN(const std::vector<Release> test, MakeReleases(g, c.test_datasets));
  GameResult result;
  result.case_index = case_index;
  result.target_index = target_index;
  result.adversary = adversary;
  result.attacks.resize(attacks.size());
  PB_RETURN_IF_ERROR(
      ParallelFor(static_cast<int64_t>(attacks.size()), in.threads, [&](int64_t a) -> Status {
        const std::string& attack = attacks[static_cast<size_t>(a)];
        PB_ASSIGN_OR_RETURN(const AttackScores s,
                            ScoreAttack(attack, train, test, DeriveSeed(game_seed, {2})));
        PB_ASSIGN_OR_RETURN(
            result.attacks[static_cast<size_t>(a)],
            AuditAttack(attack, s.test, s.threshold, spec, c.alpha, DeriveSeed(game_seed, {3})));
        return Status::Ok();
      }));
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace synthetic_data_mia
}  // namespace privbench
