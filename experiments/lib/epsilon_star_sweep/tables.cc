// The summary tables of the Epsilon* sweeps (/summary/*): every
// configuration, the non-private baselines by epochs, and what drives the
// parametric Epsilon*.
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "experiments/lib/epsilon_star_sweep/report.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_sweep {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The columns <prefix>_mean, _min, _max and a row's cells of them.
void AddStatColumns(const std::string& p, std::vector<ColumnSpec>* columns) {
  AddColumns(Column::Type::kDouble, p + "_mean " + p + "_min " + p + "_max", columns);
}
void AddStatCells(const MinMeanMax& s, std::vector<Cell>* row) {
  row->insert(row->end(), {s.mean, s.min, s.max});
}

// "Data: uci-adult (32561 training / 16281 population rows). "
std::string DataNote(const Results& r) {
  const Dataset& d = *r.dataset;
  return "Data: " + r.study.dataset_label + " (" + std::to_string(d.n_train()) + " training / " +
         std::to_string(d.n_population()) + " population rows). ";
}

std::string Dash(bool applicable, double x) { return applicable ? FormatSignificant(x, 4) : "-"; }

std::string ConfigurationsCaption(const Config& c, const Results& r, const SweepOutcome& o) {
  return DataNote(r) +
         "One row per configuration; mean/min/max over its models (repetitions that "
         "did not diverge; 'models' = how many). Epsilon*: parametric and empirical variants "
         "(library defaults except the delta of Epsilon*, " +
         EpsilonStarOptionsText(r.options) +
         ") on training vs "
         "population losses; parametric_common_window: the parametric variant on the empirical "
         "variant's window [0.001, 0.999] instead of its default clip window [1e-6, 1-1e-6] "
         "(the paper lost its window); columns ending in _delta0: the same at Epsilon* delta = 0 "
         "(sensitivity; the paper sets the delta of Epsilon* to the DP delta). Utility: " +
         r.study.utility_label +
         ". target_eps: the DP target; "
         "noise_multiplier: sigma trained with (calibration_rule " +
         c.calibration_rule +
         "); eps_sound: RDP eps of the run with the sound microbatch rule (sigma/2 for "
         "microbatches of size > 1); eps_tf_privacy_0_5_1: the same with sigma (the paper's "
         "library); delta = " +
         FormatSignificant(o.delta, 4) +
         ". pareto: non-dominated (lower Epsilon*, "
         "higher utility); 'convex' = also on the convex-hull frontier of the paper.";
}

// The Epsilon* variants of /summary/configurations, as (name, index in
// o.estimators): parametric, empirical and the common window, then the same
// at delta 0, each if present.
std::vector<std::pair<std::string, size_t>> TableVariants(const SweepOutcome& o) {
  std::vector<std::pair<std::string, size_t>> variants;
  for (const std::string suffix : {"", kDeltaZeroSuffix}) {
    for (const char* variant : {"parametric", "empirical", kCommonWindowVariant}) {
      const int e = o.EstimatorIndex(variant + suffix);
      if (e >= 0) variants.emplace_back(variant + suffix, static_cast<size_t>(e));
    }
  }
  return variants;
}

}  // namespace

void AddColumns(Column::Type type, const std::string& names, std::vector<ColumnSpec>* columns) {
  std::istringstream words(names);
  for (std::string name; words >> name;) columns->push_back({name, type});
}

Result<SummaryTable> ConfigurationsTable(const Config& c, const Results& r, const SweepOutcome& o,
                                         const ConfigStats& s) {
  std::vector<ColumnSpec> columns;
  AddColumns(Column::Type::kString,
             "configuration target_eps eps_sound eps_tf_privacy_0_5_1 noise_multiplier", &columns);
  const auto variants = TableVariants(o);
  for (const auto& [name, e] : variants) AddStatColumns("epsilon_star_" + name, &columns);
  AddStatColumns("utility", &columns);
  AddColumns(Column::Type::kInt, "models", &columns);
  AddColumns(Column::Type::kString, "pareto", &columns);
  TableBuilder t("configurations",
                 "Privacy-utility landscape (" + r.study.dataset_label + "): every configuration",
                 ConfigurationsCaption(c, r, o), std::move(columns));
  for (size_t i = 0; i < o.points.size(); ++i) {
    const SweepPoint& p = o.points[i];
    const PointAccounting& a = o.accounting[i];
    std::vector<Cell> row = {p.label, p.private_training ? FormatSignificant(p.target_eps, 6) : "-",
                             Dash(s.eps_reportable[i], a.eps_sound),
                             Dash(s.eps_reportable[i], a.eps_tf_privacy_0_5_1),
                             Dash(p.private_training, a.noise_multiplier)};
    for (const auto& [name, e] : variants) AddStatCells(s.epsilon_star[e][i], &row);
    AddStatCells(s.utility[i], &row);
    row.push_back(s.models_ok[i]);
    row.push_back(o.pareto_convex[i] ? "yes (convex)" : o.pareto[i] ? "yes" : "");
    t.Row(row);
  }
  return t.Build();
}

Result<SummaryTable> BaselinesTable(const Config& c, const Results& r, const SweepOutcome& o,
                                    const ConfigStats& s) {
  const int ip = o.EstimatorIndex("parametric");
  const auto mean_of = [&](const char* variant, size_t i) {
    const int e = o.EstimatorIndex(variant);
    return e >= 0 ? s.epsilon_star[static_cast<size_t>(e)][i].mean : kNaN;
  };
  std::vector<ColumnSpec> columns;
  AddColumns(Column::Type::kInt, "epochs", &columns);
  AddStatColumns("epsilon_star_parametric", &columns);
  AddColumns(Column::Type::kDouble,
             "epsilon_star_empirical_mean epsilon_star_parametric_common_window_mean", &columns);
  AddStatColumns("utility", &columns);
  AddColumns(Column::Type::kDouble, "train_accuracy_mean", &columns);
  TableBuilder t(
      "baselines", "Non-private baselines by epochs (" + r.study.dataset_label + ")",
      DataNote(r) + "Non-private momentum SGD, batch " + std::to_string(c.baseline_batch_size) +
          ", " + std::to_string(c.repetitions) +
          " models each; Epsilon* (parametric "
          "mean/min/max, empirical mean, parametric on the window [0.001, 0.999] mean) and "
          "utility (" +
          r.study.utility_label +
          ") mean/min/max; train_accuracy: mean accuracy on the training rows.",
      std::move(columns));
  for (size_t i = 0; i < o.points.size(); ++i) {
    if (o.points[i].private_training) continue;
    std::vector<Cell> row = {o.points[i].epochs};
    AddStatCells(s.epsilon_star[ip][i], &row);
    row.push_back(mean_of("empirical", i));
    row.push_back(mean_of(kCommonWindowVariant, i));
    AddStatCells(s.utility[i], &row);
    row.push_back(s.train_accuracy[i].mean);
    t.Row(row);
  }
  return t.Build();
}

Result<SummaryTable> DiagnosticsTable(const Results& r, const Diagnostics& d) {
  TableBuilder t(
      "diagnostics", "What drives the parametric Epsilon* (" + r.study.dataset_label + ")",
      DataNote(r) + "Over the " + std::to_string(d.models) +
          " models that did not diverge: "
          "the loss-threshold membership AUC (members = training rows, lower loss = member; "
          "0.5 = no membership signal) and the Pearson correlation of the parametric Epsilon* "
          "with |ln(sd_train / sd_population)| of the Normal fits to the transformed losses "
          "and with the membership AUC. A correlation near 1 with the sd ratio means the value "
          "is set by the fitted tails at the clip window's edges.",
      {{"quantity", Column::Type::kString}, {"value", Column::Type::kDouble}});
  t.Row({"membership AUC, minimum", d.membership_auc.min});
  t.Row({"membership AUC, mean", d.membership_auc.mean});
  t.Row({"membership AUC, maximum", d.membership_auc.max});
  t.Row({"corr(parametric Epsilon*, |ln sd ratio|)", d.corr_sd_ratio});
  t.Row({"corr(parametric Epsilon*, membership AUC)", d.corr_membership_auc});
  return t.Build();
}

}  // namespace privbench::epsilon_star_sweep
