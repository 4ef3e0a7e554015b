// The report of the Epsilon* privacy-utility sweeps (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, §4.2,
// Figs. 1-2; experiments/epsilon_star_sweep_{adult,purchase}/README.md): the
// one entry point both studies call, WriteReport, assembles the study file
// from the units' parts (experiments/lib/epsilon_star_sweep/compute.h, read
// by ReadModelParts). Free of LibTorch.
//
// Pareto frontier (§4.2): the paper defines it as the convex hull of the
// strategies "taken in a direction that improves the privacy or the
// utility". We compute both the non-dominated set (no other configuration
// has lower-or-equal Epsilon* AND higher-or-equal utility, one of them
// strictly) and its convex subset (the non-dominated points on the upper-left
// convex hull: no convex combination of two others is better in both).
//
// What WriteReport writes:
//   /models/...           one entry per model, in (configuration, repetition)
//                         order: config_index, repetition, unit_id,
//                         epsilon_star/<variant>, utility, accuracies,
//                         membership_auc, losses, fits, noise, eps, diverged,
//                         loss_quantiles/{train,population} (models x 101)
//   /configs/...          one entry per configuration: id, label, kind,
//                         epochs, batch_size, target_eps, clip_norm,
//                         num_microbatches, q, steps, noise_multiplier,
//                         accounting_noise_multiplier, eps_sound,
//                         eps_tf_privacy_0_5_1, and mean/min/max of every
//                         Epsilon* variant and of the utility, pareto,
//                         pareto_convex (NaN = not applicable: baselines
//                         have no eps)
//   /epsilon_star_variants
//   /numbers/...          membership AUC range, correlations, and the
//                         numbers behind the study's claims (claims.h)
//   /summary/configurations, /summary/baselines, /summary/diagnostics
//                         (tables.cc)
//   /claims/<id>          the study's claims (claims.h): verdict and evidence;
//                         statement and source come from its claims.json
//   /meta: dataset_provenance, dataset_label, dataset_source,
//          dataset_checksums, dataset_notes, n_train, n_population,
//          model_architecture, utility, delta, epsilon_star_options,
//          epsilon_star_delta(_choice), calibration_rule, accounting,
//          training_record_baseline / training_record_dp, sweep_config,
//          parts_subdirectory, sweep_part_versions, diverged_models,
//          units_{train,eval}_seconds, seconds_per_model_by_configuration;
//          the study's quick_scale_reductions, lost_parameters and (Purchase-100)
//          dataset_choice.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_REPORT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "data_scripts/dataset.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "experiments/lib/epsilon_star_sweep/plan.h"
#include "results/h5_file.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_sweep {

using Config = EpsilonStarSweepConfig;

// Mean, minimum and maximum of the finite values (count = how many); all NaN
// when there are none.
struct MinMeanMax {
  double mean = 0.0;
  double min = 0.0;
  double max = 0.0;
  int64_t count = 0;
};
MinMeanMax Summarise(const std::vector<double>& values);

// Non-dominated points for "lower x is better, higher y is better": i is
// kept unless some j has x_j <= x_i and y_j >= y_i with one inequality
// strict. Points with a non-finite coordinate are never on the frontier and
// never dominate. Exact duplicates are all kept.
std::vector<bool> ParetoFrontier(const std::vector<double>& x, const std::vector<double>& y);

// The non-dominated points that lie on the upper-left convex hull (the
// paper's convex-hull frontier): points of ParetoFrontier() strictly below
// the segment joining their two neighbours on the frontier are dropped.
std::vector<bool> ConvexParetoFrontier(const std::vector<double>& x, const std::vector<double>& y);

// Pearson's correlation over the models (core/stats.h Correlation); NaN for
// fewer than three models or a constant sample.
double PearsonOfModels(const std::vector<double>& x, const std::vector<double>& y);

// Everything the studies need for their claims, per configuration.
struct SweepOutcome {
  std::vector<SweepPoint> points;
  std::vector<PointAccounting> accounting;
  // Epsilon* variants (MakeVariants): every registered loss-sample
  // estimator ("empirical", "parametric") at the study's Epsilon* delta, then
  // kCommonWindowVariant, then all of them at delta 0 (kDeltaZeroSuffix).
  std::vector<std::string> estimators;
  // [point][estimator][repetition]; NaN for diverged models.
  std::vector<std::vector<std::vector<double>>> epsilon_star;
  // [point][repetition]; NaN for diverged models.
  std::vector<std::vector<double>> utility;
  std::vector<std::vector<double>> population_accuracy;
  std::vector<std::vector<double>> train_accuracy;
  std::vector<bool> pareto, pareto_convex;
  int64_t diverged_models = 0;
  double delta = 0.0;               // the DP accountant's
  double epsilon_star_delta = 0.0;  // the primary variants' Epsilon* delta
  std::string part_versions;        // DescribePartVersions of the merged parts
  // Index of the named estimator in `estimators` (-1 if absent).
  int EstimatorIndex(const std::string& name) const;
};

// The parts' values, one entry per model in (configuration, repetition)
// order.
struct ModelTable {
  std::map<std::string, std::vector<double>> fields;  // UnitScalarFields, epsilon_star_<v>
  std::vector<double> loss_quantiles_train, loss_quantiles_population;  // models x 101
  std::vector<int64_t> config_index, repetition;
  std::vector<std::string> unit_ids;
  // The first training record of a baseline and of a DP model (/meta).
  std::string record_baseline, record_dp;
  double train_seconds = 0.0, eval_seconds = 0.0;
  std::map<std::string, std::pair<double, int>> seconds_by_config;  // id -> (sum, models)
};

// Reads the parts (one per unit, in the order of `units`).
Result<ModelTable> ReadModelParts(const std::vector<std::unique_ptr<ResultReader>>& parts,
                                  const std::vector<ModelUnit>& units,
                                  const std::vector<SweepPoint>& points,
                                  const std::vector<std::string>& variant_names);

// Which study's claims and /meta the report adds (claims.h).
enum class StudyClaims { kAdult, kPurchase };

// What the report is written from: the sweep's plan and its merged parts
// (RunEpsilonStarSweep, sweep_study.h), then what the study adds.
struct Results {
  SweepStudy study;
  const Dataset* dataset = nullptr;  // the study's data (it outlives the report)
  std::vector<SweepPoint> points;
  std::vector<PointAccounting> accounting;
  std::vector<EpsilonStarVariant> variants;
  EpsilonStarOptions options;      // the library defaults (+ quantile count)
  std::string model_description;   // DescribeModel of the study's model
  std::string config_text;         // the sweep's unit configuration
  std::string parts_subdirectory;  // <study>.<config key>
  std::string part_versions;       // DescribePartVersions of the parts
  ModelTable models;               // the parts' values (ReadModelParts)
  // Set by the study:
  StudyClaims claims = StudyClaims::kAdult;
  std::string reductions;      // /meta quick_scale_reductions (what quick/test scale leave out)
  std::string dataset_choice;  // /meta dataset_choice (Purchase-100: how the data was chosen)
};

// The outcome of the models in `results` (aggregates and Pareto frontiers of
// the mean parametric Epsilon* against the mean utility). Error if the
// parametric estimator is not among the variants.
Result<SweepOutcome> BuildOutcome(const Config& config, const Results& results);

// Per-configuration aggregates over the models that did not diverge.
struct ConfigStats {
  std::vector<std::vector<MinMeanMax>> epsilon_star;  // [variant][point]
  std::vector<MinMeanMax> utility, population_accuracy, train_accuracy;
  std::vector<bool> eps_reportable;
  std::vector<int64_t> models_ok;
};
ConfigStats SummariseConfigs(const SweepOutcome& o, const ModelTable& t);

// Is the parametric Epsilon* driven by a membership signal or by the ratio
// of the fitted standard deviations (which its window edges extrapolate)?
// Pearson correlations over the models that did not diverge.
struct Diagnostics {
  MinMeanMax membership_auc;
  double corr_sd_ratio = 0.0;        // with |ln(sd_train / sd_population)|
  double corr_membership_auc = 0.0;  // with the membership AUC
  int64_t models = 0;
};
Diagnostics DiagnoseParametric(const ModelTable& t);

// Appends columns of one type (results/table_builder.h), named by the
// words of `names` ("epochs batch_size"), to `columns`.
void AddColumns(Column::Type type, const std::string& names, std::vector<ColumnSpec>* columns);

// tables.cc: AddColumns and /summary/configurations, /summary/baselines (no rows without
// baselines) and /summary/diagnostics.
Result<SummaryTable> ConfigurationsTable(const Config& c, const Results& r, const SweepOutcome& o,
                                         const ConfigStats& s);
Result<SummaryTable> BaselinesTable(const Config& c, const Results& r, const SweepOutcome& o,
                                    const ConfigStats& s);
Result<SummaryTable> DiagnosticsTable(const Results& r, const Diagnostics& d);

// Writes everything listed above into `out`.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// Shared paragraphs of the studies' lost_parameters metadata: the
// parameters both studies chose (delta, DP epochs, baseline batch,
// calibration, orders, sampling, microbatching, Epsilon* window).
std::string SharedLostParameters(const Config& config, int64_t n_train);

}  // namespace privbench::epsilon_star_sweep

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_REPORT_H_
