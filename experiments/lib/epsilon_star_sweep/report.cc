#include "experiments/lib/epsilon_star_sweep/report.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "core/stats.h"
#include "experiments/lib/epsilon_star_sweep/claims.h"
#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_sweep {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Status WriteModels(const std::vector<std::string>& variant_names, const ModelTable& t,
                   ResultWriter& w) {
  PB_RETURN_IF_ERROR(w.WriteInts("/models/config_index", t.config_index));
  PB_RETURN_IF_ERROR(w.WriteInts("/models/repetition", t.repetition));
  PB_RETURN_IF_ERROR(w.WriteStrings("/models/unit_id", t.unit_ids));
  for (const std::string& f : UnitScalarFields()) {
    PB_RETURN_IF_ERROR(w.WriteDoubles("/models/" + f, t.fields.at(f)));
  }
  for (const std::string& e : variant_names) {
    PB_RETURN_IF_ERROR(
        w.WriteDoubles("/models/epsilon_star/" + e, t.fields.at("epsilon_star_" + e)));
  }
  const uint64_t nm = t.unit_ids.size();
  const std::vector<uint64_t> shape = {nm, static_cast<uint64_t>(kLossQuantiles)};
  PB_RETURN_IF_ERROR(w.WriteDoubles("/models/loss_quantiles/train", t.loss_quantiles_train, shape));
  PB_RETURN_IF_ERROR(
      w.WriteDoubles("/models/loss_quantiles/population", t.loss_quantiles_population, shape));
  return SetAttributes(w, "/models",
                       {{"description",
                         "one entry per trained model in (configuration, repetition) "
                         "order; NaN = not applicable (eps of baselines, AUROC of "
                         "multi-class models) or a diverged run (diverged = 1); "
                         "loss_quantiles: nearest-rank quantiles at 0%, 1%, ..., 100% "
                         "of the per-example cross-entropy losses"}});
}

// /configs: the grid's values and the accounting, one entry per configuration.
Status WriteConfigValues(const SweepOutcome& o, const ConfigStats& s, ResultWriter& w) {
  std::vector<ColumnSpec> columns;
  AddColumns(Column::Type::kString, "id label kind", &columns);
  AddColumns(Column::Type::kInt, "epochs batch_size num_microbatches steps models_ok", &columns);
  AddColumns(Column::Type::kDouble,
             "target_eps clip_norm q noise_multiplier accounting_noise_multiplier eps_sound "
             "eps_tf_privacy_0_5_1",
             &columns);
  TableBuilder t("configs", "", "", columns);
  for (size_t i = 0; i < o.points.size(); ++i) {
    const SweepPoint& p = o.points[i];
    const PointAccounting& a = o.accounting[i];
    const bool dp = p.private_training, reportable = s.eps_reportable[i];
    t.Row({p.id, p.label, p.kind(), p.epochs, p.batch_size, dp ? p.num_microbatches : 0, a.steps,
           s.models_ok[i], dp ? p.target_eps : kNaN, dp ? p.clip_norm : kNaN, a.q,
           dp ? a.noise_multiplier : 0.0, dp ? a.accounting_noise_multiplier : 0.0,
           reportable ? a.eps_sound : kNaN, reportable ? a.eps_tf_privacy_0_5_1 : kNaN});
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable table, t.Build());
  for (size_t k = 0; k < columns.size(); ++k) {
    const Column& c = table.columns[k];
    const std::string path = "/configs/" + c.name;
    const Column::Type type = columns[k].type;
    PB_RETURN_IF_ERROR(type == Column::Type::kString ? w.WriteStrings(path, c.strings)
                       : type == Column::Type::kInt  ? w.WriteInts(path, c.ints)
                                                     : w.WriteDoubles(path, c.doubles));
  }
  return Status::Ok();
}

std::vector<int64_t> Flags(const std::vector<bool>& b) { return {b.begin(), b.end()}; }

Status WriteStats(const std::string& base, const std::vector<MinMeanMax>& stats, ResultWriter& w) {
  std::vector<double> mean, mn, mx;
  for (const MinMeanMax& s : stats) {
    mean.push_back(s.mean);
    mn.push_back(s.min);
    mx.push_back(s.max);
  }
  PB_RETURN_IF_ERROR(w.WriteDoubles(base + "/mean", mean));
  PB_RETURN_IF_ERROR(w.WriteDoubles(base + "/min", mn));
  return w.WriteDoubles(base + "/max", mx);
}

// /configs aggregates and frontiers, /epsilon_star_variants.
Status WriteConfigs(const Results& r, const SweepOutcome& o, const ConfigStats& s,
                    ResultWriter& w) {
  PB_RETURN_IF_ERROR(WriteConfigValues(o, s, w));
  for (size_t e = 0; e < o.estimators.size(); ++e) {
    PB_RETURN_IF_ERROR(
        WriteStats("/configs/epsilon_star/" + o.estimators[e], s.epsilon_star[e], w));
  }
  PB_RETURN_IF_ERROR(WriteStats("/configs/utility", s.utility, w));
  PB_RETURN_IF_ERROR(WriteStats("/configs/population_accuracy", s.population_accuracy, w));
  PB_RETURN_IF_ERROR(WriteStats("/configs/train_accuracy", s.train_accuracy, w));
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/pareto", Flags(o.pareto)));
  PB_RETURN_IF_ERROR(w.WriteInts("/configs/pareto_convex", Flags(o.pareto_convex)));
  PB_RETURN_IF_ERROR(SetAttributes(
      w, "/configs",
      {{"description",
        "one entry per configuration (baselines, then DP by eps, clip norm, batch, "
        "microbatches); mean/min/max over its models that did not diverge; pareto: "
        "non-dominated by (mean parametric Epsilon* lower, mean utility higher); "
        "pareto_convex: those on the upper-left convex hull (the paper's definition); eps_* "
        "NaN for baselines (and for shuffled batches, whose eps is not reportable)"}}));
  PB_RETURN_IF_ERROR(w.WriteStrings("/epsilon_star_variants", o.estimators));
  std::string text;
  for (const EpsilonStarVariant& e : r.variants) {
    text += e.name + ": estimator " + e.estimator + ", " + EpsilonStarOptionsText(e.options) + "\n";
  }
  return SetAttributes(w, "/epsilon_star_variants", {{"options", text}});
}

// The diagnostics' values under /numbers and /summary/diagnostics.
Status WriteDiagnostics(const Results& r, ResultWriter& w) {
  const Diagnostics d = DiagnoseParametric(r.models);
  PB_RETURN_IF_ERROR(w.WriteScalar("/numbers/membership_auc_min", d.membership_auc.min));
  PB_RETURN_IF_ERROR(w.WriteScalar("/numbers/membership_auc_max", d.membership_auc.max));
  PB_RETURN_IF_ERROR(w.WriteScalar("/numbers/corr_parametric_vs_log_sd_ratio", d.corr_sd_ratio));
  PB_RETURN_IF_ERROR(
      w.WriteScalar("/numbers/corr_parametric_vs_membership_auc", d.corr_membership_auc));
  PB_ASSIGN_OR_RETURN(const SummaryTable table, DiagnosticsTable(r, d));
  return w.WriteTable(table);
}

Status WriteDatasetMeta(const Results& r, ResultWriter& w) {
  const Dataset& d = *r.dataset;
  std::string notes;
  for (const std::string& n : d.notes) notes += (notes.empty() ? "" : "; ") + n;
  return SetAttributes(w, "/meta",
                       {{"dataset_provenance", d.provenance},
                        {"dataset_label", r.study.dataset_label},
                        {"dataset_source", d.source},
                        {"dataset_checksums", d.checksums},
                        {"dataset_notes", notes},
                        {"n_train", d.n_train()},
                        {"n_population", d.n_population()}});
}

// "<configuration id> <seconds> s/model" lines.
std::string SecondsPerModel(const Results& r) {
  std::string timing;
  for (const SweepPoint& p : r.points) {
    const auto& sc = r.models.seconds_by_config.at(p.id);
    timing += p.id + " " + FormatSignificant(sc.first / std::max(1, sc.second), 3) + " s/model\n";
  }
  return timing;
}

Status WriteSweepMeta(const Config& c, const Results& r, const SweepOutcome& o, ResultWriter& w) {
  PB_RETURN_IF_ERROR(WriteDatasetMeta(r, w));
  const ModelTable& t = r.models;
  return SetAttributes(
      w, "/meta",
      {{"model_architecture", r.model_description},
       {"utility", r.study.utility_label},
       {"delta", o.delta},
       {"epsilon_star_options", EpsilonStarOptionsText(r.options)},
       {"epsilon_star_delta", r.options.delta},
       {"epsilon_star_delta_choice",
        c.epsilon_star_delta == "dp"
            ? std::string("dp: the DP delta (the paper, after Definition 2)")
            : "set to " + c.epsilon_star_delta},
       {"calibration_rule", c.calibration_rule},
       {"device", c.device},
       {"accounting",
        "RDP accountant of the Poisson-sampled Gaussian mechanism (estimators/accountants rdp, "
        "classic conversion, DefaultRdpOrders 1.01..16384), add/remove adjacency; sigma per DP "
        "configuration by CalibrateSigma on its q, steps and delta; calibration_rule " +
            c.calibration_rule +
            "; eps_sound uses the run's accounting_noise_multiplier (sigma/2 "
            "for microbatches of size > 1), eps_tf_privacy_0_5_1 uses sigma (TF Privacy 0.5.1)"},
       {"training_record_baseline", t.record_baseline},
       {"training_record_dp", t.record_dp},
       {"sweep_config", r.config_text},
       {"parts_subdirectory", r.parts_subdirectory},
       {"sweep_part_versions", o.part_versions},
       {"diverged_models", o.diverged_models},
       {"units_train_seconds", t.train_seconds},
       {"units_eval_seconds", t.eval_seconds},
       {"seconds_per_model_by_configuration", SecondsPerModel(r)}});
}

// "data uci-adult, 32561 training / 16281 population rows" (Purchase-100
// surrogate: marked), which ends every claim's evidence.
std::string DataText(const Dataset& d) {
  return Evidence() << "data " << d.provenance << ", " << d.n_train() << " training / "
                    << d.n_population() << " population rows"
                    << (d.is_surrogate ? " (SURROGATE, not the paper's data)" : "");
}

Status WriteClaimSet(const ClaimSet& set, ResultWriter& w) {
  for (const auto& [path, value] : set.numbers) PB_RETURN_IF_ERROR(w.WriteScalar(path, value));
  for (const Claim& c : set.claims) PB_RETURN_IF_ERROR(w.WriteClaim(c));
  return Status::Ok();
}

// The study's claims and the numbers behind them. Adult: each claim on the
// parametric Epsilon* at its default window and at the common window, at
// the study's Epsilon* delta and at delta 0 (kDeltaZeroSuffix, sensitivity).
Status WriteStudyClaims(const Results& r, const SweepOutcome& o, ResultWriter& w) {
  const std::string data = DataText(*r.dataset);
  if (r.claims == StudyClaims::kPurchase) return WriteClaimSet(PurchaseClaims(o, data), w);
  for (const std::string delta : {"", kDeltaZeroSuffix}) {
    PB_RETURN_IF_ERROR(
        WriteClaimSet(AdultClaims(o, o.EstimatorIndex("parametric" + delta), delta, data), w));
    PB_RETURN_IF_ERROR(WriteClaimSet(AdultClaims(o, o.EstimatorIndex(kCommonWindowVariant + delta),
                                                 "_common_window" + delta, data),
                                     w));
  }
  return Status::Ok();
}

// /meta lost_parameters: the shared choices, the study's own, then what
// quick and test scale leave out.
std::string LostParameters(const Config& c, const Results& r) {
  const Dataset& d = *r.dataset;
  if (r.claims == StudyClaims::kAdult) {
    return SharedLostParameters(c, d.n_train()) +
           "; Adult architecture (the paper cites Shokri et al.'s benchmark DNN): "
           "Linear(108->128) Tanh Linear(128->2) (mechanisms/dp_model.h AdultMlpSpec); "
           "preprocessing (not described): standardised numeric columns, one-hot categoricals "
           "(data_scripts/adult.h); population rows 16,281 (UCI adult.test; the paper says "
           "16,280); utility AUROC ranked by the logit difference (= by the predicted "
           "probability); " +
           r.reductions;
  }
  return SharedLostParameters(c, d.n_train()) +
         "; data: the paper's ~311k-row Purchase-100 version (208,731 / 102,809 split) is not "
         "the published 197,324-row file: real data is split with the paper's ratio, offline "
         "the purchase100-surrogate is used (" +
         d.provenance +
         " here); baselines train for fixed epochs (the paper: 'trained until the training "
         "accuracy was 100%'); hidden activation Tanh (Shokri et al.'s Purchase model); " +
         r.reductions;
}

Status WriteStudyMeta(const Config& c, const Results& r, ResultWriter& w) {
  if (r.claims == StudyClaims::kPurchase) {
    PB_RETURN_IF_ERROR(SetAttributes(w, "/meta", {{"dataset_choice", r.dataset_choice}}));
  }
  return SetAttributes(
      w, "/meta",
      {{"quick_scale_reductions", r.reductions}, {"lost_parameters", LostParameters(c, r)}});
}

}  // namespace

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_ASSIGN_OR_RETURN(const SweepOutcome o, BuildOutcome(c, r));
  const ConfigStats stats = SummariseConfigs(o, r.models);
  PB_RETURN_IF_ERROR(WriteModels(o.estimators, r.models, out));
  PB_RETURN_IF_ERROR(WriteConfigs(r, o, stats, out));
  PB_ASSIGN_OR_RETURN(const SummaryTable configurations, ConfigurationsTable(c, r, o, stats));
  PB_RETURN_IF_ERROR(out.WriteTable(configurations));
  PB_ASSIGN_OR_RETURN(const SummaryTable baselines, BaselinesTable(c, r, o, stats));
  if (!baselines.columns.empty() && !baselines.columns[0].ints.empty()) {
    PB_RETURN_IF_ERROR(out.WriteTable(baselines));
  }
  PB_RETURN_IF_ERROR(WriteDiagnostics(r, out));
  PB_RETURN_IF_ERROR(WriteSweepMeta(c, r, o, out));
  PB_RETURN_IF_ERROR(WriteStudyClaims(r, o, out));
  return WriteStudyMeta(c, r, out);
}

std::string SharedLostParameters(const Config& c, int64_t n_train) {
  const double delta = EffectiveDelta(c, n_train);
  EpsilonStarOptions o;
  std::string s;
  s += "delta (the paper's expression was lost in extraction; '1/n, n = training set size' "
       "read): " +
       std::string(c.delta > 0 ? "set to " : "1/n_train = ") + FormatSignificant(delta, 4) + "; ";
  s += "epochs of the DP runs (lost): " + std::to_string(c.dp_epochs) + "; ";
  s += "batch size of the baselines (lost): " + std::to_string(c.baseline_batch_size) +
       " (the smallest DP batch size), same optimiser (SGD lr " +
       FormatSignificant(c.learning_rate) + ", momentum " + FormatSignificant(c.momentum) + "); ";
  s += "batch sampling (TF Privacy 0.5.1 / Keras used shuffled batches): " + c.sampling +
       " for every run, the accountant's assumption; ";
  s += "microbatches (TF Privacy num_microbatches, m = 1 clips the batch mean gradient): with "
       "Poisson sampling each sampled example joins one of m microbatches at random "
       "(mechanisms/dpsgd.h), TF Privacy cuts the shuffled batch into m contiguous parts; ";
  s += "noise calibration: CalibrateSigma (rdp accountant, classic conversion, "
       "DefaultRdpOrders 1.01..16384; TF Privacy 0.5.1's order list lost) with calibration_rule "
       "= " +
       c.calibration_rule +
       (c.calibration_rule == "tf_privacy_0_5_1"
            ? " (the paper's library accounted microbatched runs like per-example ones, so this "
              "trains with the paper's noise; every run's sound eps, with sigma/2 for "
              "microbatches of size > 1, is reported next to the target)"
            : " (trains with twice the TF Privacy 0.5.1 noise for microbatched runs, so the run "
              "is really (target eps, delta)-DP; the paper's models had less noise)") +
       "; ";
  s += "Epsilon*: library defaults (" + EpsilonStarOptionsText(o) +
       "; the parametric clip window was lost, default [1e-6, 1-1e-6]), quantiles per "
       "distribution " +
       std::to_string(c.epsilon_star_quantiles) + ", delta of Epsilon* " +
       (c.epsilon_star_delta == "dp" ? "= the DP delta (the paper's choice after Definition 2)"
                                     : c.epsilon_star_delta) +
       ", and every variant again at delta 0 (_delta0, sensitivity); ";
  s += "weights: Glorot-uniform (Keras default), biases 0";
  return s;
}

}  // namespace privbench::epsilon_star_sweep
