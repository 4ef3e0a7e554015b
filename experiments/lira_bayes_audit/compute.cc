#include "experiments/lira_bayes_audit/compute.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "attacks/rmia.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/interval_registry.h"
#include "estimators/score_audit/score_audit.h"
#include "experiments/lib/framework/study.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Seeded Fisher-Yates permutation of 0..n-1 (our own index draws, so the
// order is the same with every standard library).
std::vector<int64_t> Permutation(int64_t n, uint64_t seed) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  Rng rng(seed);
  for (int64_t i = n - 1; i > 0; --i) {
    const int64_t j = static_cast<int64_t>(rng() % static_cast<uint64_t>(i + 1));
    std::swap(v[static_cast<size_t>(i)], v[static_cast<size_t>(j)]);
  }
  return v;
}

struct Interval {
  double lower = 0.0, upper = kInf;
};

// The selection order is the score auditor's (estimators/score_audit):
// a larger lower bound; on a tie, the smaller upper bound (the paper does
// not say; without it every method whose lower bounds are all 0 would
// report the uninformative first threshold); on a tie again the first.
bool Better(const Interval& a, const Interval& b) {
  return BetterInterval(a.lower, a.upper, b.lower, b.upper);
}

Result<Interval> EstimateOne(const IntervalEstimator& m, const ConfusionCounts& counts,
                             double delta, double alpha) {
  PB_ASSIGN_OR_RETURN(EpsInterval e, m.Estimate(counts, delta, alpha));
  return Interval{e.lower, e.upper.has_value() ? *e.upper : kInf};
}

void SplitScores(const std::vector<double>& scores, const std::vector<uint8_t>& bits,
                 const std::vector<uint8_t>& keep, uint8_t which, std::vector<double>* member,
                 std::vector<double>* non) {
  member->clear();
  non->clear();
  for (size_t i = 0; i < scores.size(); ++i) {
    if (!keep.empty() && keep[i] != which) continue;
    (bits[i] ? member : non)->push_back(scores[i]);
  }
}

IntervalRow MakeRow(const std::string& setting, const std::string& selection,
                    const std::string& method, double threshold, const ConfusionCounts& counts,
                    const Interval& iv, double level_alpha, int64_t considered) {
  IntervalRow r;
  r.setting = setting;
  r.selection = selection;
  r.method = method;
  r.threshold = threshold;
  r.counts = counts;
  r.lower = iv.lower;
  r.upper = iv.upper;
  r.level_alpha = level_alpha;
  r.thresholds_considered = considered;
  return r;
}

IntervalRow RowFromAudit(const std::string& setting, const std::string& selection,
                         const AuditInterval& a) {
  return MakeRow(setting, selection, a.method, a.threshold, a.counts, Interval{a.lower, a.upper},
                 a.level_alpha, a.thresholds_considered);
}

// The split-half row of one method: the score auditor's split selection
// (SelectSplit) on this study's own halves (SplitHalves: the trials in half
// 1 choose the threshold, half 0 gives the interval).
Result<IntervalRow> SplitRow(const std::string& setting, const IntervalEstimator& m,
                             const std::vector<double>& scores, const std::vector<uint8_t>& bits,
                             const EstimateOptions& o) {
  const std::vector<uint8_t> half = SplitHalves(static_cast<int64_t>(scores.size()), o.split_seed);
  ScoreHalves h;
  SplitScores(scores, bits, half, 1, &h.select_member, &h.select_nonmember);
  SplitScores(scores, bits, half, 0, &h.audit_member, &h.audit_nonmember);
  if (h.select_member.empty() || h.select_nonmember.empty() || h.audit_member.empty() ||
      h.audit_nonmember.empty()) {
    return Error("split_half: each half needs a member and a non-member trial (trials too few)");
  }
  PB_ASSIGN_OR_RETURN(const AuditInterval a, SelectSplit(m, h, o.delta, o.alpha));
  return RowFromAudit(setting, "split_half", a);
}

// The Bonferroni row of one method: the score auditor's grid selection
// (SelectOnGrid) on the grid fixed from the shadows' scores.
Result<IntervalRow> BonferroniRow(const std::string& setting, const IntervalEstimator& m,
                                  const std::vector<double>& member, const std::vector<double>& non,
                                  const std::vector<double>& grid, const EstimateOptions& o) {
  PB_ASSIGN_OR_RETURN(const AuditInterval a, SelectOnGrid(m, member, non, grid, o.delta, o.alpha));
  return RowFromAudit(setting, "bonferroni", a);
}

}  // namespace

std::vector<Setting> MakeSettings(const Config& c) {
  char eps[32];
  std::snprintf(eps, sizeof(eps), "%g", c.target_epsilon);
  return {{"no_dp", false}, {std::string("dp_eps") + eps, true}};
}

Result<Accounting> CalibrateNoise(const Config& c) {
  Accounting a;
  a.n_train = c.pool_size / 2;
  a.q = static_cast<double>(c.batch_size) / static_cast<double>(a.n_train);
  a.steps = (c.epochs * a.n_train + c.batch_size - 1) / c.batch_size;
  a.delta = c.delta;
  PB_ASSIGN_OR_RETURN(auto rdp, MakeAccountant("rdp"));
  DpSgdAccounting s;
  s.q = a.q;
  s.steps = a.steps;
  s.delta = c.delta;
  PB_ASSIGN_OR_RETURN(a.sigma, CalibrateSigma(*rdp, c.target_epsilon, s));
  s.sigma = a.sigma;
  PB_ASSIGN_OR_RETURN(AccountantResult r, rdp->Epsilon(s));
  a.epsilon = r.epsilon;
  return a;
}

std::vector<UnitKey> ShadowUnits(const Config& c) {
  std::vector<UnitKey> units;
  for (int64_t s = 0; s < 2; ++s) {
    for (int64_t f = 0; f < c.shadows; f += c.models_per_unit) {
      units.push_back({s, f, std::min(c.models_per_unit, c.shadows - f)});
    }
  }
  return units;
}

std::vector<UnitKey> TargetUnits(const Config& c) {
  std::vector<UnitKey> units;
  for (int64_t s = 0; s < 2; ++s) {
    for (int64_t f = 0; f < c.trials; f += c.models_per_unit) {
      units.push_back({s, f, std::min(c.models_per_unit, c.trials - f)});
    }
  }
  return units;
}

std::string UnitId(const std::vector<Setting>& settings, const UnitKey& key, const char* kind) {
  return std::string(kind) + "_" + settings[static_cast<size_t>(key.setting)].name + "_" +
         std::to_string(key.first) + "+" + std::to_string(key.count);
}

uint64_t InitSeed(uint64_t seed, int64_t setting, bool target, int64_t index) {
  return DeriveSeed(seed, {10, static_cast<uint64_t>(setting), target ? 2u : 1u,
                           static_cast<uint64_t>(index), 0});
}

uint64_t TrainSeed(uint64_t seed, int64_t setting, bool target, int64_t index) {
  return DeriveSeed(seed, {10, static_cast<uint64_t>(setting), target ? 2u : 1u,
                           static_cast<uint64_t>(index), 1});
}

std::vector<int64_t> DrawRows(int64_t n_available, int64_t count, uint64_t seed) {
  std::vector<int64_t> p = Permutation(n_available, seed);
  p.resize(static_cast<size_t>(count));
  return p;
}

Result<GamePlan> PlanGame(int64_t pool_size, const std::vector<int64_t>& challenge, uint64_t seed,
                          int64_t setting) {
  const int64_t k = static_cast<int64_t>(challenge.size());
  const int64_t base_size = pool_size / 2;
  if (k > pool_size - base_size) {
    return Error("trials (" + std::to_string(k) + ") must be at most pool_size / 2 (" +
                 std::to_string(pool_size - base_size) + ")");
  }
  std::vector<uint8_t> is_challenge(static_cast<size_t>(pool_size), 0);
  for (int64_t z : challenge) {
    if (z < 0 || z >= pool_size || is_challenge[static_cast<size_t>(z)]) {
      return Error("challenge points must be distinct pool indices");
    }
    is_challenge[static_cast<size_t>(z)] = 1;
  }
  GamePlan g;
  g.challenge = challenge;
  Rng rng = MakeRng(seed, {20, static_cast<uint64_t>(setting)});
  for (int64_t i = 0; i < k; ++i) g.bits.push_back(static_cast<uint8_t>(rng() >> 63));
  for (int64_t p : Permutation(pool_size, DeriveSeed(seed, {21, static_cast<uint64_t>(setting)}))) {
    if (static_cast<int64_t>(g.base.size()) == base_size) break;
    if (!is_challenge[static_cast<size_t>(p)]) g.base.push_back(p);
  }
  std::sort(g.base.begin(), g.base.end());
  return g;
}

std::vector<int64_t> TargetTrainRows(const GamePlan& plan, int64_t trial) {
  std::vector<int64_t> rows = plan.base;
  if (plan.bits[static_cast<size_t>(trial)]) {
    rows.push_back(plan.challenge[static_cast<size_t>(trial)]);
    std::sort(rows.begin(), rows.end());
  }
  return rows;
}

std::vector<int64_t> ShadowTrainRows(const std::vector<uint8_t>& keep, int64_t pool_size,
                                     int64_t m) {
  std::vector<int64_t> rows;
  for (int64_t p = 0; p < pool_size; ++p) {
    if (keep[static_cast<size_t>(m * pool_size + p)]) rows.push_back(p);
  }
  return rows;
}

Result<TrialScores> ScoreTrials(const ShadowScores& shadows, const GamePlan& plan,
                                const std::vector<double>& target_phi, LiraLocation location) {
  if (target_phi.size() != plan.challenge.size()) {
    return Error("target_phi must have one entry per trial");
  }
  PB_ASSIGN_OR_RETURN(std::vector<LiraGaussians> fits, FitLira(shadows, {}, location, true));
  TrialScores t;
  t.phi = target_phi;
  t.bits = plan.bits;
  for (size_t i = 0; i < target_phi.size(); ++i) {
    const LiraGaussians& g = fits[static_cast<size_t>(plan.challenge[i])];
    t.online.push_back(LiraOnlineScore(g, target_phi[i]));
    t.offline.push_back(LiraOfflineScore(g, target_phi[i]));
  }
  return t;
}

Result<std::vector<double>> BonferroniGrid(const ShadowScores& shadows,
                                           const std::vector<int64_t>& challenge,
                                           LiraLocation location, int64_t g) {
  if (g < 1) return Error("bonferroni_thresholds must be >= 1");
  PB_ASSIGN_OR_RETURN(std::vector<LiraGaussians> fits, FitLira(shadows, {}, location, true));
  std::vector<double> all;
  for (int64_t z : challenge) {
    for (int64_t m = 0; m < shadows.models; ++m) {
      all.push_back(LiraOnlineScore(fits[static_cast<size_t>(z)],
                                    shadows.phi[static_cast<size_t>(m * shadows.points + z)]));
    }
  }
  std::vector<double> grid;
  for (int64_t j = 0; j < g; ++j) {
    grid.push_back(Quantile(all, (static_cast<double>(j) + 0.5) / static_cast<double>(g)));
  }
  return grid;
}

Result<std::vector<std::string>> ApplicableMethods(double delta) {
  std::vector<std::string> names;
  for (const std::string& name : AllIntervalEstimatorNames()) {
    PB_ASSIGN_OR_RETURN(auto m, MakeIntervalEstimator(name));
    if (delta > 0 && m->requires_zero_delta()) continue;
    names.push_back(name);
  }
  return names;
}

Result<RocTable> EstimateAtEveryThreshold(const std::vector<double>& scores,
                                          const std::vector<uint8_t>& bits,
                                          const EstimateOptions& o) {
  RocTable t;
  std::vector<double> member, non;
  SplitScores(scores, bits, {}, 0, &member, &non);
  PB_ASSIGN_OR_RETURN(t.roc, ComputeRoc(member, non));
  PB_ASSIGN_OR_RETURN(t.methods, ApplicableMethods(o.delta));
  const size_t np = t.roc.points.size(), nm = t.methods.size();
  t.lower.assign(nm, std::vector<double>(np, 0.0));
  t.upper.assign(nm, std::vector<double>(np, 0.0));
  PB_RETURN_IF_ERROR(
      ParallelFor(static_cast<int64_t>(nm * np), o.threads, [&](int64_t k) -> Status {
        const size_t mi = static_cast<size_t>(k) / np, p = static_cast<size_t>(k) % np;
        PB_ASSIGN_OR_RETURN(auto m, MakeIntervalEstimator(t.methods[mi]));
        PB_ASSIGN_OR_RETURN(Interval iv, EstimateOne(*m, t.roc.points[p].counts, o.delta, o.alpha));
        t.lower[mi][p] = iv.lower;
        t.upper[mi][p] = iv.upper;
        return Status::Ok();
      }));
  return t;
}

Result<std::vector<IntervalRow>> SelectIntervals(
    const std::string& setting, const std::vector<double>& scores, const std::vector<uint8_t>& bits,
    const RocTable& table, const std::vector<double>& grid, const EstimateOptions& o) {
  std::vector<double> member, non;
  SplitScores(scores, bits, {}, 0, &member, &non);
  const size_t nm = table.methods.size();
  std::vector<IntervalRow> rows(3 * nm);
  PB_RETURN_IF_ERROR(ParallelFor(static_cast<int64_t>(nm), o.threads, [&](int64_t k) -> Status {
    const size_t mi = static_cast<size_t>(k);
    PB_ASSIGN_OR_RETURN(auto m, MakeIntervalEstimator(table.methods[mi]));
    const std::vector<double>& lo = table.lower[mi];
    size_t best = 0;
    for (size_t p = 1; p < lo.size(); ++p) {
      if (Better({lo[p], table.upper[mi][p]}, {lo[best], table.upper[mi][best]})) best = p;
    }
    const OperatingPoint& p = table.roc.points[best];
    rows[mi] = MakeRow(setting, "max_lower", table.methods[mi], p.threshold, p.counts,
                       Interval{lo[best], table.upper[mi][best]}, o.alpha,
                       static_cast<int64_t>(lo.size()));
    PB_ASSIGN_OR_RETURN(rows[nm + mi], SplitRow(setting, *m, scores, bits, o));
    PB_ASSIGN_OR_RETURN(rows[2 * nm + mi], BonferroniRow(setting, *m, member, non, grid, o));
    return Status::Ok();
  }));
  return rows;
}

std::vector<uint8_t> SplitHalves(int64_t n, uint64_t seed) {
  std::vector<uint8_t> half(static_cast<size_t>(n), 0);
  const std::vector<int64_t> p = Permutation(n, seed);
  for (int64_t i = 0; i < n / 2; ++i) half[static_cast<size_t>(p[static_cast<size_t>(i)])] = 1;
  return half;
}

double ProbFromPhi(double phi) { return 1.0 / (1.0 + std::exp(-phi)); }

Result<std::vector<int64_t>> FirstOutShadows(const ShadowScores& s, int64_t point, int64_t k,
                                             int64_t exclude) {
  std::vector<int64_t> out;
  for (int64_t m = 0; m < s.models && static_cast<int64_t>(out.size()) < k; ++m) {
    if (m != exclude && !s.is_in[static_cast<size_t>(m * s.points + point)]) out.push_back(m);
  }
  if (static_cast<int64_t>(out.size()) < k) {
    return Error("pool point " + std::to_string(point) + " has fewer than " + std::to_string(k) +
                 " OUT shadows (use more shadows)");
  }
  return out;
}

namespace {

// RMIA inputs for targets (point, target probability, target z row) with
// the shadows as references; `use` [T x M] or empty.
RmiaData MakeRmiaData(const ShadowScores& s, const PopulationProbs& pop,
                      const std::vector<int64_t>& points, const std::vector<double>& target_prob,
                      const std::vector<double>& target_z_prob, std::vector<uint8_t> use) {
  RmiaData d;
  d.targets = static_cast<int64_t>(points.size());
  d.references = s.models;
  d.population = pop.population;
  d.target_prob = target_prob;
  for (int64_t x : points) {
    for (int64_t m = 0; m < s.models; ++m) {
      const size_t i = static_cast<size_t>(m * s.points + x);
      d.ref_prob.push_back(ProbFromPhi(s.phi[i]));
      d.ref_in.push_back(s.is_in[i]);
    }
  }
  d.target_z_prob = target_z_prob;
  d.ref_z_prob = pop.shadow_prob;
  d.ref_use = std::move(use);
  return d;
}

// ref_use rows from per-target reference lists.
std::vector<uint8_t> UseMask(const std::vector<std::vector<int64_t>>& refs, int64_t models) {
  std::vector<uint8_t> use(refs.size() * static_cast<size_t>(models), 0);
  for (size_t t = 0; t < refs.size(); ++t) {
    for (int64_t m : refs[t]) use[t * static_cast<size_t>(models) + static_cast<size_t>(m)] = 1;
  }
  return use;
}

double AucOf(const std::vector<double>& scores, const std::vector<uint8_t>& bits) {
  std::vector<double> m, n;
  SplitScores(scores, bits, {}, 0, &m, &n);
  return m.empty() || n.empty() ? std::nan("") : MannWhitneyAuc(m, n);
}

// Offline LiRA with per-trial references and one global standard deviation.
std::vector<double> FewReferenceLira(const ShadowScores& s, const GamePlan& plan,
                                     const TrialScores& trials,
                                     const std::vector<std::vector<int64_t>>& refs,
                                     LiraLocation location) {
  std::vector<double> mu, all;
  for (size_t t = 0; t < refs.size(); ++t) {
    std::vector<double> phi;
    for (int64_t m : refs[t]) {
      phi.push_back(s.phi[static_cast<size_t>(m * s.points + plan.challenge[t])]);
    }
    mu.push_back(location == LiraLocation::kMedian ? Median(phi) : Mean(phi));
    all.insert(all.end(), phi.begin(), phi.end());
  }
  const double m = Mean(all);
  double ss = 0.0;
  for (double v : all) ss += (v - m) * (v - m);
  LiraGaussians g;
  g.s_out = std::max(std::sqrt(ss / static_cast<double>(all.size())), kMinLiraStd);
  std::vector<double> scores;
  for (size_t t = 0; t < refs.size(); ++t) {
    g.mu_out = mu[t];
    scores.push_back(LiraOfflineScore(g, trials.phi[t]));
  }
  return scores;
}

std::vector<double> TargetProbs(const TrialScores& trials) {
  std::vector<double> p;
  for (double phi : trials.phi) p.push_back(ProbFromPhi(phi));
  return p;
}

}  // namespace

Result<double> TuneOfflineA(const ShadowScores& s, const PopulationProbs& pop) {
  std::vector<int64_t> points(static_cast<size_t>(s.points));
  std::iota(points.begin(), points.end(), 0);
  std::vector<double> target_prob;
  std::vector<uint8_t> bits;
  std::vector<std::vector<int64_t>> refs;
  for (int64_t x : points) {
    target_prob.push_back(ProbFromPhi(s.phi[static_cast<size_t>(x)]));  // shadow 0
    bits.push_back(s.is_in[static_cast<size_t>(x)]);
    PB_ASSIGN_OR_RETURN(std::vector<int64_t> r, FirstOutShadows(s, x, 1, 0));
    refs.push_back(r);
  }
  std::vector<double> z0;  // shadow 0's population probabilities, once per point
  for (size_t i = 0; i < points.size(); ++i) {
    z0.insert(z0.end(), pop.shadow_prob.begin(), pop.shadow_prob.begin() + pop.population);
  }
  const RmiaData d = MakeRmiaData(s, pop, points, target_prob, z0, UseMask(refs, s.models));
  double best_a = 0.0, best_auc = -1.0;
  for (int j = 0; j <= 10; ++j) {
    RmiaOptions o;
    o.offline_a = 0.1 * j;
    PB_ASSIGN_OR_RETURN(std::vector<double> scores, RmiaScores(d, o));
    const double auc = AucOf(scores, bits);
    if (auc > best_auc) {
      best_auc = auc;
      best_a = o.offline_a;
    }
  }
  return best_a;
}

Result<std::vector<AttackScores>> ReferenceAttacks(const ShadowScores& s, const GamePlan& plan,
                                                   const TrialScores& trials,
                                                   const PopulationProbs& pop, double offline_a,
                                                   LiraLocation location) {
  const std::vector<double> px = TargetProbs(trials);
  std::vector<AttackScores> out = {{"lira_online_all", "lira_online", 0, trials.online, {}},
                                   {"lira_offline_all", "lira_offline", 0, trials.offline, {}}};
  RmiaOptions o;
  o.offline_a = offline_a;
  const RmiaData all = MakeRmiaData(s, pop, plan.challenge, px, pop.target_prob, {});
  for (bool online : {true, false}) {
    o.online = online;
    PB_ASSIGN_OR_RETURN(std::vector<double> scores, RmiaScores(all, o));
    const std::string attack = online ? "rmia_online" : "rmia_offline";
    out.push_back({attack + "_all", attack, 0, scores, {}});
  }
  o.online = false;
  for (int64_t k : kFewReferenceCounts) {
    std::vector<std::vector<int64_t>> refs;
    std::vector<int64_t> flat;
    for (int64_t x : plan.challenge) {
      PB_ASSIGN_OR_RETURN(std::vector<int64_t> r, FirstOutShadows(s, x, k, -1));
      flat.insert(flat.end(), r.begin(), r.end());
      refs.push_back(std::move(r));
    }
    const std::string ks = "_k" + std::to_string(k);
    out.push_back({"lira_offline" + ks, "lira_offline", k,
                   FewReferenceLira(s, plan, trials, refs, location), flat});
    const RmiaData few =
        MakeRmiaData(s, pop, plan.challenge, px, pop.target_prob, UseMask(refs, s.models));
    PB_ASSIGN_OR_RETURN(std::vector<double> scores, RmiaScores(few, o));
    out.push_back({"rmia_offline" + ks, "rmia_offline", k, scores, flat});
  }
  return out;
}

Result<AttackSummary> SummariseAttack(const std::string& setting, const AttackScores& a,
                                      const std::vector<uint8_t>& bits, const EstimateOptions& o,
                                      int64_t bonferroni_thresholds, uint64_t seed) {
  std::vector<double> member, non;
  SplitScores(a.scores, bits, {}, 0, &member, &non);
  ScoreAuditOptions so;
  so.alpha = o.alpha;
  so.delta = o.delta;
  so.seed = seed;
  so.bonferroni_quantiles = bonferroni_thresholds;
  so.methods = {"clopper_pearson_one_sided"};
  PB_ASSIGN_OR_RETURN(ScoreAudit audit, AuditScores(member, non, so));
  AttackSummary r;
  r.setting = setting;
  r.name = a.name;
  r.attack = a.attack;
  r.references = a.references;
  r.auc = audit.roc.auc;
  for (const TprAtFpr& t : audit.tpr_at_fpr) r.tpr_at_fpr.push_back(t.tpr);
  for (const AuditInterval& iv : audit.intervals) {
    if (iv.selection == ThresholdSelection::kSplit) r.eps_split = iv.lower;
    if (iv.selection == ThresholdSelection::kBonferroni) r.eps_bonferroni = iv.lower;
    if (iv.selection == ThresholdSelection::kMaxOverThresholds) r.eps_max = iv.lower;
  }
  for (const GaussianDpBound& g : audit.gaussian_dp) {
    if (g.selection != ThresholdSelection::kSplit) continue;
    r.gdp_mu_split = g.mu_lower;
    r.gdp_eps_split = g.eps_lower.value_or(0.0);
  }
  return r;
}

std::vector<double> BlockAucs(const std::vector<double>& scores, const std::vector<uint8_t>& bits,
                              int64_t blocks) {
  std::vector<std::vector<double>> m(static_cast<size_t>(blocks)), n(static_cast<size_t>(blocks));
  size_t im = 0, in = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (bits[i]) {
      m[im++ % m.size()].push_back(scores[i]);
    } else {
      n[in++ % n.size()].push_back(scores[i]);
    }
  }
  std::vector<double> auc;
  for (size_t b = 0; b < m.size(); ++b) {
    auc.push_back(m[b].empty() || n[b].empty() ? std::nan("") : MannWhitneyAuc(m[b], n[b]));
  }
  return auc;
}

}  // namespace lira_bayes_audit
}  // namespace privbench
