#include "experiments/region_of_privacy/compute.h"

#include <algorithm>
#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "attacks/loss_threshold.h"
#include "core/format.h"
#include "core/stats.h"
#include "core/validate.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/summary_bounds.h"
#include "numerics/normal.h"

namespace privbench {
namespace region_of_privacy {

namespace {

Status CheckLevels(const std::vector<double>& noise, size_t n, const std::string& what) {
  if (noise.size() < 2) {
    return Error(what + ": at least 2 noise levels are needed, got " +
                 std::to_string(noise.size()));
  }
  if (n != noise.size()) {
    return Error(what + ": " + std::to_string(n) + " values for " + std::to_string(noise.size()) +
                 " noise levels");
  }
  return Status::Ok();
}

double TrainAccuracy(const Model& m) { return m.train_accuracy; }
double PopulationAccuracy(const Model& m) { return m.population_accuracy; }
double MeanTrainLoss(const Model& m) { return Mean(m.train_loss); }
double TprAtTarget(const Model& m) { return m.attack.tpr_at_target; }
double BestAdvantage(const Model& m) { return m.attack.best_advantage; }
double TargetAdvantage(const Model& m) { return m.attack.tpr_at_target - m.attack.fpr_at_target; }
double MembersRecovered(const Model& m) { return m.attack.members_recovered; }

// The baseline's (level 0) summaries and the null advantage.
Status AggregateBaseline(const ModelGrid& models, int64_t n_train, int64_t n_population,
                         double delta, Aggregates* a) {
  PB_ASSIGN_OR_RETURN(a->base_acc, SummariseRate(RepValues(models, 0, TrainAccuracy), n_train));
  PB_ASSIGN_OR_RETURN(a->base_tpr, SummariseRate(RepValues(models, 0, TprAtTarget), n_train));
  a->base_population_accuracy = Mean(RepValues(models, 0, PopulationAccuracy));
  a->base_best = Mean(RepValues(models, 0, BestAdvantage));
  const double base_target_adv = Mean(RepValues(models, 0, TargetAdvantage));
  PB_ASSIGN_OR_RETURN(a->base_eps_best, EpsFromAdvantage(a->base_best, delta));
  PB_ASSIGN_OR_RETURN(a->base_eps_target, EpsFromAdvantage(base_target_adv, delta));
  PB_ASSIGN_OR_RETURN(a->null_mean, NullMeanBestAdvantage(n_train, n_population));
  PB_ASSIGN_OR_RETURN(a->null_q95, NullQuantileBestAdvantage(n_train, n_population, 0.95));
  return Status::Ok();
}

// Appends private level l's means over the repetitions.
Status AggregateLevel(const ModelGrid& models, int64_t l, int64_t n_train, double delta,
                      Aggregates* a) {
  PB_ASSIGN_OR_RETURN(RateSummary acc, SummariseRate(RepValues(models, l, TrainAccuracy), n_train));
  PB_ASSIGN_OR_RETURN(RateSummary tpr, SummariseRate(RepValues(models, l, TprAtTarget), n_train));
  a->acc_mean.push_back(acc.mean);
  a->acc_se.push_back(acc.se);
  a->acc_rel.push_back(a->base_acc.mean > 0 ? acc.mean / a->base_acc.mean : NAN);
  a->pacc_mean.push_back(Mean(RepValues(models, l, PopulationAccuracy)));
  a->tpr_mean.push_back(tpr.mean);
  a->tpr_se.push_back(tpr.se);
  a->recovered.push_back(Mean(RepValues(models, l, MembersRecovered)));
  a->loss_mean.push_back(Mean(RepValues(models, l, MeanTrainLoss)));
  a->best_mean.push_back(Mean(RepValues(models, l, BestAdvantage)));
  a->target_adv_mean.push_back(Mean(RepValues(models, l, TargetAdvantage)));
  PB_ASSIGN_OR_RETURN(double lb, EpsFromAdvantage(a->best_mean.back(), delta));
  PB_ASSIGN_OR_RETURN(double lt, EpsFromAdvantage(a->target_adv_mean.back(), delta));
  a->eps_lo_best.push_back(lb);
  a->eps_lo_target.push_back(lt);
  double mx = 0.0;
  for (const Model& m : models[l]) mx = std::max(mx, m.attack.eps_lower_best);
  a->eps_lo_best_max_rep.push_back(mx);
  return Status::Ok();
}

Result<AccountantResult> RunAccountant(const std::string& name, const DpSgdAccounting& s) {
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant(name));
  return acc->Epsilon(s);
}

}  // namespace

// ------------------------------------------------------------------ units --

std::vector<double> SortedNoise(std::vector<double> noise_multipliers) {
  std::sort(noise_multipliers.begin(), noise_multipliers.end(), std::greater<double>());
  return noise_multipliers;
}

std::string UnitId(const std::vector<double>& noise, const UnitKey& k) {
  const std::string level = k.level == 0 ? "baseline" : "sigma=" + NoiseText(noise[k.level - 1]);
  return level + "_rep=" + std::to_string(k.rep);
}

std::vector<UnitKey> MakeUnits(int64_t levels, int64_t repetitions) {
  std::vector<UnitKey> keys;
  for (int64_t r = 0; r < repetitions; ++r) {
    for (int64_t l = 0; l <= levels; ++l) keys.push_back({l, r});
  }
  return keys;
}

std::string NoiseText(double sigma) { return FormatDouble(sigma); }

// ----------------------------------------------------------------- models --

Result<AttackSummary> AttackModel(const std::vector<double>& train_loss,
                                  const std::vector<double>& population_loss, double target_fpr,
                                  double delta) {
  PB_ASSIGN_OR_RETURN(LossAttackResult a,
                      LossThresholdAttack(train_loss, population_loss, target_fpr));
  AttackSummary s;
  s.tpr_at_target = a.at_target_fpr.tpr();
  s.fpr_at_target = a.at_target_fpr.fpr();
  s.members_recovered = static_cast<double>(a.at_target_fpr.counts.tp);
  s.best_advantage = a.best_advantage.advantage();
  s.best_tpr = a.best_advantage.tpr();
  s.best_fpr = a.best_advantage.fpr();
  s.best_threshold_loss = -a.best_advantage.threshold;
  s.auc = a.roc.auc;
  s.avg_loss_tpr = a.average_loss.tpr();
  s.avg_loss_fpr = a.average_loss.fpr();
  PB_ASSIGN_OR_RETURN(s.eps_lower_best, EpsFromAdvantage(s.best_advantage, delta));
  PB_ASSIGN_OR_RETURN(s.eps_lower_target, EpsFromAdvantage(a.at_target_fpr.advantage(), delta));
  return s;
}

const std::vector<Quantity>& PerRunQuantities() {
  static const std::vector<Quantity> quantities = {
      {"train_accuracy", TrainAccuracy},
      {"population_accuracy", PopulationAccuracy},
      {"mean_train_loss", MeanTrainLoss},
      {"mean_population_loss", [](const Model& m) { return Mean(m.population_loss); }},
      {"tpr_at_target_fpr", TprAtTarget},
      {"fpr_at_target_fpr", [](const Model& m) { return m.attack.fpr_at_target; }},
      {"members_recovered_at_target_fpr", MembersRecovered},
      {"best_advantage", BestAdvantage},
      {"best_advantage_tpr", [](const Model& m) { return m.attack.best_tpr; }},
      {"best_advantage_fpr", [](const Model& m) { return m.attack.best_fpr; }},
      {"best_advantage_threshold_loss",
       [](const Model& m) { return m.attack.best_threshold_loss; }},
      {"auc", [](const Model& m) { return m.attack.auc; }},
      {"average_loss_attack_tpr", [](const Model& m) { return m.attack.avg_loss_tpr; }},
      {"average_loss_attack_fpr", [](const Model& m) { return m.attack.avg_loss_fpr; }},
      {"eps_lower_best_advantage", [](const Model& m) { return m.attack.eps_lower_best; }},
      {"eps_lower_target_fpr", [](const Model& m) { return m.attack.eps_lower_target; }},
  };
  return quantities;
}

std::vector<double> RepValues(const ModelGrid& models, int64_t level, double (*get)(const Model&)) {
  std::vector<double> v;
  for (const Model& m : models[level]) v.push_back(get(m));
  return v;
}

// ----------------------------------------------------------- upper bounds --

Result<Bounds> Account(double sigma, double q, int64_t steps, double delta) {
  Bounds b;
  DpSgdAccounting s;
  s.sigma = sigma;
  s.q = q;
  s.steps = steps;
  s.delta = delta;
  s.orders = TableOneRdpOrders();
  for (const std::string& name : UpperBoundAccountantNames()) {
    PB_ASSIGN_OR_RETURN(AccountantResult r, RunAccountant(name, s));
    b.table_one[name] = r.epsilon;
    b.table_one_order[name] = r.order.value_or(NAN);
  }
  s.orders = DefaultRdpOrders();
  PB_ASSIGN_OR_RETURN(AccountantResult rdp, RunAccountant("rdp", s));
  b.rdp_default = rdp.epsilon;
  b.rdp_default_order = rdp.order.value_or(NAN);
  PB_ASSIGN_OR_RETURN(AccountantResult improved, RunAccountant("rdp_improved", s));
  b.rdp_improved_default = improved.epsilon;
  b.rdp_improved_default_order = improved.order.value_or(NAN);
  return b;
}

Result<std::vector<Bounds>> AccountLevels(const ModelGrid& models, const std::vector<double>& noise,
                                          double delta) {
  std::vector<Bounds> bounds;
  for (size_t l = 1; l < models.size(); ++l) {
    const Model& m = models[l][0];
    for (const Model& o : models[l]) {
      if (!o.eps_reportable) {
        return Error("run at sigma " + NoiseText(noise[l - 1]) +
                     " is not eps-reportable (sampling " + o.sampling + ")");
      }
      if (o.q != m.q || o.steps != m.steps || o.accounting_sigma != m.accounting_sigma) {
        return Error("repetitions of sigma " + NoiseText(noise[l - 1]) +
                     " differ in q, steps or accounting noise multiplier");
      }
    }
    PB_ASSIGN_OR_RETURN(Bounds b, Account(m.accounting_sigma, m.q, m.steps, delta));
    bounds.push_back(std::move(b));
  }
  return bounds;
}

std::vector<double> BoundColumn(const std::vector<Bounds>& bounds, double (*get)(const Bounds&)) {
  std::vector<double> v;
  for (const Bounds& b : bounds) v.push_back(get(b));
  return v;
}

std::vector<double> TableOneColumn(const std::vector<Bounds>& bounds, const std::string& name) {
  std::vector<double> v;
  for (const Bounds& b : bounds) v.push_back(b.table_one.at(name));
  return v;
}

// ------------------------------------------------------------- aggregates --

Result<RateSummary> SummariseRate(const std::vector<double>& values, int64_t n) {
  if (values.empty()) return Error("values must be non-empty");
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  for (double v : values) PB_RETURN_IF_ERROR(CheckProbability("values", v));
  const double r = static_cast<double>(values.size());
  RateSummary s;
  s.mean = Mean(values);
  if (values.size() >= 2) s.sd = SampleSd(values);
  const double binomial = std::sqrt(s.mean * (1.0 - s.mean) / (static_cast<double>(n) * r));
  s.se = std::max(binomial, s.sd / std::sqrt(r));
  return s;
}

Result<Aggregates> Aggregate(const ModelGrid& models, const std::vector<Bounds>& bounds,
                             int64_t n_train, int64_t n_population, double delta) {
  if (models.size() != bounds.size() + 1) {
    return Error("Aggregate: " + std::to_string(models.size()) + " model levels for " +
                 std::to_string(bounds.size()) + " bounds (want one more: the baseline)");
  }
  Aggregates a;
  PB_RETURN_IF_ERROR(AggregateBaseline(models, n_train, n_population, delta, &a));
  for (size_t l = 1; l < models.size(); ++l) {
    PB_RETURN_IF_ERROR(AggregateLevel(models, static_cast<int64_t>(l), n_train, delta, &a));
  }
  a.eps_naive = TableOneColumn(bounds, "naive");
  a.eps_adv = TableOneColumn(bounds, "advanced");
  a.eps_zcdp = TableOneColumn(bounds, "zcdp");
  a.eps_rdp = TableOneColumn(bounds, "rdp");
  a.eps_rdp_def = BoundColumn(bounds, [](const Bounds& b) { return b.rdp_default; });
  a.eps_rdp_best = BoundColumn(bounds, [](const Bounds& b) { return b.rdp_best(); });
  a.eps_pld = TableOneColumn(bounds, "pld");
  return a;
}

// ----------------------------------------------------------------- claims --

Result<RiseCheck> CheckRisesAsNoiseFalls(const std::vector<double>& noise,
                                         const std::vector<double>& means,
                                         const std::vector<double>& se, const std::string& what,
                                         double scale) {
  PB_RETURN_IF_ERROR(CheckLevels(noise, means.size(), what));
  PB_RETURN_IF_ERROR(CheckLevels(noise, se.size(), what + " standard errors"));
  for (size_t i = 0; i < means.size(); ++i) {
    PB_RETURN_IF_ERROR(CheckFinite(what, means[i]));
    PB_RETURN_IF_ERROR(CheckNonNegative(what + " standard error", se[i]));
  }
  RiseCheck c;
  std::ostringstream ev;
  ev << what << " (mean +- se) from the largest to the smallest noise:";
  for (size_t i = 0; i < means.size(); ++i) {
    ev << (i ? "," : "") << " sigma " << FormatDouble(noise[i]) << ": "
       << FormatFixed(scale * means[i], 2) << " +- " << FormatFixed(scale * se[i], 2);
  }
  bool no_drop = true, strictly = true;
  std::string drops;
  for (size_t i = 0; i + 1 < means.size(); ++i) {
    const double diff = means[i + 1] - means[i];
    const double sd = std::sqrt(se[i] * se[i] + se[i + 1] * se[i + 1]);
    if (!(diff > 0.0)) strictly = false;
    if (diff < -2.0 * sd) {
      no_drop = false;
      drops += " sigma " + FormatDouble(noise[i]) + " -> " + FormatDouble(noise[i + 1]) +
               " drops by " + FormatFixed(-scale * diff, 2) + " > 2 se " +
               FormatFixed(2 * scale * sd, 2) + ";";
    }
  }
  const double overall = means.back() - means.front();
  const double overall_sd = std::sqrt(se.front() * se.front() + se.back() * se.back());
  const bool rises = overall > 2.0 * overall_sd;
  c.holds = no_drop && rises;
  c.strictly_increasing = strictly;
  ev << ". (a) no step drops by more than 2 se: " << (no_drop ? "yes" : "NO:" + drops)
     << " (b) smallest-noise minus largest-noise " << FormatFixed(scale * overall, 2) << " vs 2 se "
     << FormatFixed(2 * scale * overall_sd, 2) << ": " << (rises ? "yes" : "NO")
     << ". Means strictly increasing: " << (strictly ? "yes" : "no") << ".";
  c.evidence = ev.str();
  return c;
}

namespace {

// One-sided p of a statistic t: P(T >= t), T Student's t with `dof`
// degrees of freedom, or standard normal when dof is 0.
double UpperTailP(double t, int64_t dof) {
  if (std::isinf(t)) return t > 0 ? 0.0 : 1.0;
  if (dof == 0) return NormalCdf(-t);
  const boost::math::students_t dist(static_cast<double>(dof));
  return boost::math::cdf(boost::math::complement(dist, t));
}

// "sigma a -> b: +0.12 (z 0.5)" for every step, and how many steps rise.
std::string StepsText(const std::vector<double>& noise, const std::vector<double>& means,
                      const std::vector<double>& se, double scale, int64_t* rising) {
  std::ostringstream ev;
  *rising = 0;
  for (size_t i = 0; i + 1 < means.size(); ++i) {
    const double diff = means[i + 1] - means[i];
    const double sd = std::sqrt(se[i] * se[i] + se[i + 1] * se[i + 1]);
    *rising += diff > 0.0;
    ev << (i ? "," : "") << " sigma " << FormatDouble(noise[i]) << " -> "
       << FormatDouble(noise[i + 1]) << ": " << (diff >= 0 ? "+" : "")
       << FormatFixed(scale * diff, 2) << " (z " << FormatFixed(sd > 0 ? diff / sd : 0.0, 2) << ")";
  }
  return ev.str();
}

}  // namespace

Result<TrendCheck> CheckTrendRisesAsNoiseFalls(const std::vector<double>& noise,
                                               const std::vector<double>& means,
                                               const std::vector<double>& se,
                                               const std::string& what, double scale, double alpha,
                                               int64_t dof) {
  PB_RETURN_IF_ERROR(CheckLevels(noise, means.size(), what));
  PB_RETURN_IF_ERROR(CheckLevels(noise, se.size(), what + " standard errors"));
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("degrees of freedom", dof));
  for (size_t i = 0; i < means.size(); ++i) {
    PB_RETURN_IF_ERROR(CheckFinite(what, means[i]));
    PB_RETURN_IF_ERROR(CheckNonNegative(what + " standard error", se[i]));
  }
  TrendCheck c;
  const double overall = means.back() - means.front();
  const double sd = std::sqrt(se.front() * se.front() + se.back() * se.back());
  c.z = sd > 0 ? overall / sd : (overall > 0 ? INFINITY : overall < 0 ? -INFINITY : 0.0);
  c.p_rise = UpperTailP(c.z, dof);
  const double p_fall = UpperTailP(-c.z, dof);
  c.holds = c.p_rise <= alpha;
  c.inconclusive = !c.holds && p_fall > alpha;
  int64_t rising = 0;
  const std::string steps = StepsText(noise, means, se, scale, &rising);
  c.holds_fraction = static_cast<double>(rising) / static_cast<double>(means.size() - 1);
  std::ostringstream ev;
  ev << what << " (mean +- se) from the largest to the smallest noise:";
  for (size_t i = 0; i < means.size(); ++i) {
    ev << (i ? "," : "") << " sigma " << FormatDouble(noise[i]) << ": "
       << FormatFixed(scale * means[i], 2) << " +- " << FormatFixed(scale * se[i], 2);
  }
  ev << ". Trend: smallest-noise minus largest-noise " << FormatFixed(scale * overall, 2) << " +- "
     << FormatFixed(scale * sd, 2) << ", z " << FormatFixed(c.z, 2) << ", one-sided p "
     << FormatSignificant(c.p_rise, 2) << " ("
     << (dof ? "Student's t, " + std::to_string(dof) + " df" : std::string("normal")) << "; level "
     << FormatDouble(alpha) << "): "
     << (c.holds          ? "rises"
         : c.inconclusive ? "undecided"
                          : "FALLS")
     << ". Steps (reported, not judged):" << steps << "; " << rising << " of " << means.size() - 1
     << " steps rise.";
  c.evidence = ev.str();
  return c;
}

Result<OrderCheck> CheckBelow(const std::vector<double>& noise, const std::vector<double>& lower,
                              const std::vector<double>& upper, const std::string& lower_name,
                              const std::string& upper_name) {
  const std::string what = lower_name + " <= " + upper_name;
  PB_RETURN_IF_ERROR(CheckLevels(noise, lower.size(), what));
  PB_RETURN_IF_ERROR(CheckLevels(noise, upper.size(), what));
  OrderCheck c;
  c.holds = true;
  c.min_ratio = std::numeric_limits<double>::infinity();
  std::ostringstream ev;
  ev << lower_name << " vs " << upper_name << " (ratio upper/lower):";
  for (size_t i = 0; i < noise.size(); ++i) {
    if (std::isnan(lower[i]) || std::isnan(upper[i])) {
      return Error(what + ": NaN at sigma " + FormatDouble(noise[i]));
    }
    const bool ok = lower[i] <= upper[i];
    c.holds = c.holds && ok;
    const double ratio =
        lower[i] > 0.0 ? upper[i] / lower[i] : std::numeric_limits<double>::infinity();
    c.min_ratio = std::min(c.min_ratio, ratio);
    ev << (i ? ";" : "") << " sigma " << FormatDouble(noise[i]) << ": "
       << FormatSignificant(lower[i], 4) << " vs " << FormatSignificant(upper[i], 4) << " ("
       << FormatSignificant(ratio, 4) << "x)" << (ok ? "" : " VIOLATED");
  }
  ev << ". Holds at every level: " << (c.holds ? "yes" : "no") << ".";
  c.evidence = ev.str();
  return c;
}

Result<double> NullMeanBestAdvantage(int64_t m, int64_t n) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("m", m));
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  return std::sqrt(boost::math::constants::pi<double>() / 8.0) * std::sqrt((md + nd) / (md * nd));
}

Result<double> NullQuantileBestAdvantage(int64_t m, int64_t n, double p) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("m", m));
  PB_RETURN_IF_ERROR(CheckPositiveCount("n", n));
  if (!(p > 0.0 && p < 1.0)) return Error("p must be in (0, 1), got " + FormatDouble(p));
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  return std::sqrt(-std::log1p(-p) / 2.0) * std::sqrt((md + nd) / (md * nd));
}

}  // namespace region_of_privacy
}  // namespace privbench
