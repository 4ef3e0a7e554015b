// From the sweep's parts to its outcome (report.h): the per-model table
// read from the parts, each configuration's values and summaries, the
// Pareto frontiers of mean Epsilon* against mean utility, and the
// parametric estimator's diagnostics. report.cc writes them; claims.cc and
// tables.cc read them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "core/stats.h"
#include "experiments/lib/epsilon_star_sweep/report.h"  // the outcome's declarations

namespace privbench::epsilon_star_sweep {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

MinMeanMax Summarise(const std::vector<double>& values) {
  std::vector<double> finite;
  for (double v : values) {
    if (std::isfinite(v)) finite.push_back(v);
  }
  MinMeanMax s;
  s.count = static_cast<int64_t>(finite.size());
  if (finite.empty()) {
    s.mean = s.min = s.max = kNaN;
    return s;
  }
  const auto [lo, hi] = std::minmax_element(finite.begin(), finite.end());
  s.mean = Mean(finite);
  s.min = *lo;
  s.max = *hi;
  return s;
}

std::vector<bool> ParetoFrontier(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  std::vector<bool> keep(n, false);
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    bool dominated = false;
    for (size_t j = 0; j < n && !dominated; ++j) {
      if (j == i || !std::isfinite(x[j]) || !std::isfinite(y[j])) continue;
      dominated = x[j] <= x[i] && y[j] >= y[i] && (x[j] < x[i] || y[j] > y[i]);
    }
    keep[i] = !dominated;
  }
  return keep;
}

namespace {
// > 0 when c lies strictly above the line from a through b (a.first < b.first).
double Cross(const std::pair<double, double>& a, const std::pair<double, double>& b,
             const std::pair<double, double>& c) {
  return (b.first - a.first) * (c.second - a.second) - (b.second - a.second) * (c.first - a.first);
}
}  // namespace

std::vector<bool> ConvexParetoFrontier(const std::vector<double>& x, const std::vector<double>& y) {
  const std::vector<bool> front = ParetoFrontier(x, y);
  // Distinct frontier coordinates, by increasing x (then y increases too).
  std::vector<std::pair<double, double>> pts;
  for (size_t i = 0; i < front.size(); ++i) {
    if (front[i]) pts.emplace_back(x[i], y[i]);
  }
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  // Upper hull (monotone chain): drop a middle point strictly below the
  // segment joining its neighbours.
  std::vector<std::pair<double, double>> hull;
  for (const auto& c : pts) {
    while (hull.size() >= 2 && Cross(hull[hull.size() - 2], hull.back(), c) > 0.0) hull.pop_back();
    hull.push_back(c);
  }
  std::set<std::pair<double, double>> on_hull(hull.begin(), hull.end());
  std::vector<bool> keep(front.size(), false);
  for (size_t i = 0; i < front.size(); ++i) {
    keep[i] = front[i] && on_hull.count({x[i], y[i]}) > 0;
  }
  return keep;
}

double PearsonOfModels(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() < 3 ? kNaN : Correlation(x, y);
}

int SweepOutcome::EstimatorIndex(const std::string& name) const {
  const auto it = std::find(estimators.begin(), estimators.end(), name);
  return it == estimators.end() ? -1 : static_cast<int>(it - estimators.begin());
}

namespace {

// The keys of a part's training record that /meta shows.
constexpr char kRecordKeys[] =
    "model architecture num_parameters sampling dataset_size batch_size q steps epochs "
    "noise_multiplier clip_norm num_microbatches microbatched expected_microbatch_size "
    "gradient_normaliser accounting_noise_multiplier tf_privacy_0_5_1_noise_multiplier "
    "accounting_rule microbatch_rule learning_rate optimizer momentum eps_reportable threads";

// "key=value; ..." of a part's training record.
std::string RecordText(const ResultReader& part) {
  std::string rec;
  std::istringstream keys(kRecordKeys);
  for (std::string key; keys >> key;) {
    auto val = part.ReadStringAttribute("/record", key);
    if (val.ok()) rec += std::string(rec.empty() ? "" : "; ") + key + "=" + *val;
  }
  return rec;
}

// Appends one part's values to the table.
Status ReadPart(const ResultReader& part, const ModelUnit& x, const SweepPoint& p,
                const std::vector<std::string>& scalar_names, ModelTable* t) {
  t->config_index.push_back(x.point);
  t->repetition.push_back(x.rep);
  t->unit_ids.push_back(x.unit.id);
  for (const std::string& f : scalar_names) {
    PB_ASSIGN_OR_RETURN(std::vector<double> val, part.ReadDoubles("/unit/" + f));
    if (val.size() != 1) return Error("part " + part.path() + ": /unit/" + f + " not a scalar");
    t->fields[f].push_back(val[0]);
  }
  PB_ASSIGN_OR_RETURN(std::vector<double> qt, part.ReadDoubles("/unit/loss_quantiles_train"));
  PB_ASSIGN_OR_RETURN(std::vector<double> qp, part.ReadDoubles("/unit/loss_quantiles_population"));
  if (qt.size() != kLossQuantiles || qp.size() != kLossQuantiles) {
    return Error("part " + part.path() + ": loss quantiles have the wrong length");
  }
  t->loss_quantiles_train.insert(t->loss_quantiles_train.end(), qt.begin(), qt.end());
  t->loss_quantiles_population.insert(t->loss_quantiles_population.end(), qp.begin(), qp.end());
  const double ts = part.ReadDoubleAttribute("/meta", "train_seconds").value_or(0.0);
  const double es = part.ReadDoubleAttribute("/meta", "eval_seconds").value_or(0.0);
  t->train_seconds += ts;
  t->eval_seconds += es;
  auto& sc = t->seconds_by_config[p.id];
  sc.first += ts + es;
  sc.second += 1;
  std::string* rec = p.private_training ? &t->record_dp : &t->record_baseline;
  if (rec->empty() && part.Exists("/record")) {
    *rec = p.id + " rep " + std::to_string(x.rep) + ": " + RecordText(part);
  }
  return Status::Ok();
}

}  // namespace

Result<ModelTable> ReadModelParts(const std::vector<std::unique_ptr<ResultReader>>& parts,
                                  const std::vector<ModelUnit>& units,
                                  const std::vector<SweepPoint>& points,
                                  const std::vector<std::string>& variant_names) {
  if (parts.size() != units.size()) return Error("internal: one part per unit expected");
  std::vector<std::string> scalar_names = UnitScalarFields();
  for (const std::string& e : variant_names) scalar_names.push_back("epsilon_star_" + e);
  ModelTable t;
  for (size_t k = 0; k < parts.size(); ++k) {
    PB_RETURN_IF_ERROR(ReadPart(*parts[k], units[k], points[static_cast<size_t>(units[k].point)],
                                scalar_names, &t));
  }
  return t;
}

namespace {

std::vector<std::string> VariantNames(const std::vector<EpsilonStarVariant>& variants) {
  std::vector<std::string> names;
  for (const EpsilonStarVariant& e : variants) names.push_back(e.name);
  return names;
}

// A DP configuration's eps is reportable only if every trained model's
// record says so (Poisson sampling, private training) and at least one
// model trained.
bool EpsReportable(const SweepPoint& p, size_t i, const ModelTable& t) {
  bool reportable = p.private_training;
  int64_t records = 0;
  const std::vector<double>& flags = t.fields.at("eps_reportable");
  for (size_t k = 0; k < t.config_index.size(); ++k) {
    if (t.config_index[k] != static_cast<int64_t>(i)) continue;
    if (std::isnan(flags[k])) continue;  // diverged: no record
    ++records;
    if (flags[k] != 1.0) reportable = false;
  }
  return reportable && records > 0;
}

}  // namespace

ConfigStats SummariseConfigs(const SweepOutcome& o, const ModelTable& t) {
  ConfigStats s;
  s.epsilon_star.resize(o.estimators.size());
  for (size_t i = 0; i < o.points.size(); ++i) {
    for (size_t e = 0; e < o.estimators.size(); ++e) {
      s.epsilon_star[e].push_back(Summarise(o.epsilon_star[i][e]));
    }
    s.utility.push_back(Summarise(o.utility[i]));
    s.population_accuracy.push_back(Summarise(o.population_accuracy[i]));
    s.train_accuracy.push_back(Summarise(o.train_accuracy[i]));
    s.eps_reportable.push_back(EpsReportable(o.points[i], i, t));
    s.models_ok.push_back(s.utility.back().count);
  }
  return s;
}

Result<SweepOutcome> BuildOutcome(const Config& c, const Results& r) {
  const ModelTable& table = r.models;
  SweepOutcome out;
  out.part_versions = r.part_versions;
  out.points = r.points;
  out.accounting = r.accounting;
  out.estimators = VariantNames(r.variants);
  out.delta =
      out.accounting.empty() ? EffectiveDelta(c, r.dataset->n_train()) : out.accounting[0].delta;
  out.epsilon_star_delta = r.options.delta;
  const size_t P = r.points.size(), E = out.estimators.size();
  const size_t R = static_cast<size_t>(c.repetitions);
  out.epsilon_star.assign(P, std::vector<std::vector<double>>(E, std::vector<double>(R)));
  out.utility.assign(P, std::vector<double>(R));
  out.population_accuracy.assign(P, std::vector<double>(R));
  out.train_accuracy.assign(P, std::vector<double>(R));
  const auto& f = table.fields;
  for (size_t k = 0; k < table.config_index.size(); ++k) {
    const size_t i = static_cast<size_t>(table.config_index[k]);
    const size_t rep = static_cast<size_t>(table.repetition[k]);
    for (size_t e = 0; e < E; ++e) {
      out.epsilon_star[i][e][rep] = f.at("epsilon_star_" + out.estimators[e])[k];
    }
    out.utility[i][rep] = f.at("utility")[k];
    out.population_accuracy[i][rep] = f.at("population_accuracy")[k];
    out.train_accuracy[i][rep] = f.at("train_accuracy")[k];
    if (f.at("diverged")[k] != 0.0) ++out.diverged_models;
  }
  const int ip = out.EstimatorIndex("parametric");
  if (ip < 0) return Error("the parametric Epsilon* estimator is not registered");
  const ConfigStats stats = SummariseConfigs(out, table);
  std::vector<double> px, py;
  for (size_t i = 0; i < P; ++i) {
    px.push_back(stats.epsilon_star[ip][i].mean);
    py.push_back(stats.utility[i].mean);
  }
  out.pareto = ParetoFrontier(px, py);
  out.pareto_convex = ConvexParetoFrontier(px, py);
  return out;
}

Diagnostics DiagnoseParametric(const ModelTable& t) {
  const auto& f = t.fields;
  std::vector<double> es, lsr, mia;
  for (size_t k = 0; k < t.unit_ids.size(); ++k) {
    const double e = f.at("epsilon_star_parametric")[k];
    const double st = f.at("fit_train_sd")[k], sp = f.at("fit_population_sd")[k];
    const double a = f.at("membership_auc")[k];
    if (!std::isfinite(e) || !(st > 0) || !(sp > 0) || !std::isfinite(a)) continue;
    es.push_back(e);
    lsr.push_back(std::abs(std::log(st / sp)));
    mia.push_back(a);
  }
  return {Summarise(mia), PearsonOfModels(es, lsr), PearsonOfModels(es, mia),
          static_cast<int64_t>(es.size())};
}

}  // namespace privbench::epsilon_star_sweep
