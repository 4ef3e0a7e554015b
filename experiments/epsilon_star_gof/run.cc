#include "experiments/epsilon_star_gof/run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/progress.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "data_scripts/adult.h"
#include "data_scripts/dataset.h"
#include "estimators/loss_samples/loss_transform.h"
#include "experiments/epsilon_star_gof/compute.h"
#include "experiments/epsilon_star_gof/models.h"
#include "experiments/epsilon_star_gof/report.h"
#include "experiments/epsilon_star_gof/transform_shape.h"
#include "experiments/lib/framework/sweep.h"
#include "mechanisms/device.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_gof {
namespace {

constexpr char kStudy[] = "epsilon_star_gof";

// The Adult data (the first n_train / n_population rows when set), with
// room for max(n_eval) + max_components values in every tested loss set.
Result<Dataset> LoadGofData(const Config& c) {
  AdultOptions ao;
  ao.data_dir = c.data_dir;
  PB_ASSIGN_OR_RETURN(Dataset data, LoadAdult(ao));
  if (c.n_train != -1 || c.n_population != -1) {
    PB_ASSIGN_OR_RETURN(data,
                        HeadSubset(data, c.n_train == -1 ? data.n_train() : c.n_train,
                                   c.n_population == -1 ? data.n_population() : c.n_population));
  }
  const int64_t smallest =
      c.population_losses ? std::min(data.n_train(), data.n_population()) : data.n_train();
  if (c.n_eval.back() + c.max_components > smallest) {
    return Error("n_eval " + std::to_string(c.n_eval.back()) + " plus max_components " +
                 std::to_string(c.max_components) + " exceeds the " + std::to_string(smallest) +
                 " losses of the smallest tested set");
  }
  return data;
}

// What a unit's results depend on: parts made with anything else are refused.
std::string SweepConfigText(const Config& c, const Dataset& d, uint64_t seed) {
  std::string s;
  auto kv = [&s](const std::string& k, const std::string& v) { s += k + " = " + v + "\n"; };
  kv("seed", std::to_string(seed));
  kv("dataset", d.provenance + " n_train=" + std::to_string(d.n_train()) +
                    " n_population=" + std::to_string(d.n_population()));
  kv("dataset_checksums", d.checksums);
  kv("repetitions", std::to_string(c.repetitions));
  kv("baseline_epochs", std::to_string(c.baseline_epochs));
  kv("dp_epochs", std::to_string(c.dp_epochs));
  kv("dp_epsilon", FormatDouble(c.dp_epsilon));
  kv("delta", FormatDouble(c.delta));
  kv("clip_norm", FormatDouble(c.clip_norm));
  kv("num_microbatches", std::to_string(c.num_microbatches));
  kv("calibration_rule", c.calibration_rule);
  kv("batch_size", std::to_string(c.batch_size));
  kv("learning_rate", FormatDouble(c.learning_rate));
  kv("momentum", FormatDouble(c.momentum));
  kv("hidden", std::to_string(c.hidden));
  // CPU runs are the bytes they were before --device existed (their parts
  // keep their key); CUDA runs differ by float32 rounding: their own parts.
  if (c.device != "cpu") kv("device", c.device);
  kv("n_eval", JoinInts(c.n_eval));
  kv("max_components", std::to_string(c.max_components));
  kv("max_iterations", std::to_string(c.max_iterations));
  kv("tolerance", FormatDouble(c.tolerance));
  std::string floors;
  for (double v : c.variance_floors) floors += (floors.empty() ? "" : ",") + FormatDouble(v);
  kv("variance_floors", floors);
  kv("init", c.init);
  kv("ks_method", c.ks_method);
  kv("population_losses", c.population_losses ? "true" : "false");
  kv("carlini_analysis", c.carlini_analysis ? "true" : "false");
  return s;
}

GofModelConfig ModelConfig(const Config& c, bool dp, double delta) {
  GofModelConfig m;
  m.private_training = dp;
  m.epochs = dp ? c.dp_epochs : c.baseline_epochs;
  m.batch_size = c.batch_size;
  m.learning_rate = c.learning_rate;
  m.momentum = c.momentum;
  m.hidden = c.hidden;
  m.target_epsilon = c.dp_epsilon;
  m.delta = delta;
  m.clip_norm = c.clip_norm;
  m.num_microbatches = c.num_microbatches;
  m.calibration_rule = c.calibration_rule;
  m.device = ParseDevice(c.device).value();  // checked by main.cc's Validate
  return m;
}

// Units in run (and merge) order: every repetition of no_dp, then of dp.
std::vector<SweepUnit> Units(const Config& c) {
  std::vector<SweepUnit> units;
  for (int64_t m = 0; m < 2; ++m) {
    for (int64_t r = 0; r < c.repetitions; ++r) {
      units.push_back({"model=" + kGofModels[m] + "_rep=" + std::to_string(r)});
    }
  }
  return units;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

struct UnitInputs {
  const Config* config;
  const Dataset* dataset;
  const GofOptions* gof;
  const GofNoisePlan* plan;
  double delta;
  uint64_t seed;
  ProgressReporter* fits;
};

// Steps 1-2 of a unit: the trained model and its transformed losses.
struct TrainedUnit {
  GofModelConfig mc;
  GofTrainedModel model;
  double transform_min = 0.0, transform_max = 0.0;
  TransformedLosses app_b;    // the App. B transform
  TransformedLosses carlini;  // Carlini's logit (empty without --carlini_analysis)
  double train_seconds = 0.0;
};

Result<TrainedUnit> TrainUnit(const UnitInputs& in, int64_t m, int64_t r) {
  const Config& c = *in.config;
  const bool dp = m == 1;
  const auto t0 = std::chrono::steady_clock::now();
  TrainedUnit u;
  u.mc = ModelConfig(c, dp, in.delta);
  PB_ASSIGN_OR_RETURN(
      u.model,
      TrainGofModel(*in.dataset, u.mc, dp ? *in.plan : GofNoisePlan{},
                    DeriveSeed(in.seed, {1, static_cast<uint64_t>(m), static_cast<uint64_t>(r)})));
  u.train_seconds = Seconds(t0);
  const std::vector<double>& train = u.model.train_losses;
  const std::vector<double>& population = u.model.population_losses;
  PB_ASSIGN_OR_RETURN(LossTransformMap map,
                      LossTransformMap::Fit(LossTransform::kEpsilonStarLogit, train, population));
  u.transform_min = map.min();
  u.transform_max = map.max();
  PB_ASSIGN_OR_RETURN(u.app_b,
                      ApplyLossTransform(LossTransform::kEpsilonStarLogit, train, population));
  if (c.carlini_analysis) {
    PB_ASSIGN_OR_RETURN(u.carlini,
                        ApplyLossTransform(LossTransform::kCarliniLogit, train, population));
  }
  return u;
}

// Steps 3-4 on loss set s: the App. B transform at every floor; then
// Carlini's logit at the primary floor, with the same seed: the same splits
// and sampling streams.
Result<std::vector<GofGrid>> GridsOfLossSet(const UnitInputs& in, const TrainedUnit& u, int64_t m,
                                            int64_t r, int64_t s) {
  const uint64_t gof_seed = DeriveSeed(
      in.seed, {2, static_cast<uint64_t>(m), static_cast<uint64_t>(r), static_cast<uint64_t>(s)});
  const std::string what = kGofModels[m] + " " + kGofLossSets[s] + " losses";
  std::vector<GofGrid> grids;
  auto grid = RunGofGrid(s == 0 ? u.app_b.train : u.app_b.population, *in.gof, gof_seed, in.fits);
  if (!grid.ok()) return Error(what + ": " + grid.message());
  grids.push_back(std::move(grid).value());
  if (in.config->carlini_analysis) {
    GofOptions primary_floor = *in.gof;
    primary_floor.variance_floors = {in.gof->variance_floors[0]};
    auto carlini = RunGofGrid(s == 0 ? u.carlini.train : u.carlini.population, primary_floor,
                              gof_seed, in.fits);
    if (!carlini.ok()) return Error(what + " (Carlini logit): " + carlini.message());
    grids.push_back(std::move(carlini).value());
  }
  return grids;
}

// The grids of loss set s, concatenated along the analysis axis.
Status WriteGrids(const std::vector<GofGrid>& grids, int64_t s, ResultWriter& part) {
  const std::string g = "/gof/" + kGofLossSets[s] + "/";
  for (const auto& [name, field] : GofDoubleFields()) {
    PB_RETURN_IF_ERROR(part.WriteDoubles(g + name, ConcatenateField(grids, field)));
  }
  for (const auto& [name, field] : GofIntFields()) {
    PB_RETURN_IF_ERROR(part.WriteInts(g + name, ConcatenateField(grids, field)));
  }
  return part.WriteInts(g + "fit_size", grids[0].fit_size);
}

std::map<std::string, double> UnitScalars(const TrainedUnit& u, bool dp, double gof_seconds) {
  const GofTrainedModel& model = u.model;
  return {{"train_accuracy", model.train_accuracy},
          {"population_accuracy", model.population_accuracy},
          {"auroc", model.population_auroc},
          {"membership_auc", model.membership_auc},
          {"eps", dp ? model.eps : NAN},
          {"eps_tf_privacy_0_5_1", dp ? model.eps_tf_privacy_0_5_1 : NAN},
          {"noise_multiplier", model.noise_multiplier},
          {"accounting_noise_multiplier", model.accounting_noise_multiplier},
          {"q", model.q},
          {"steps", static_cast<double>(model.steps)},
          {"epochs", static_cast<double>(u.mc.epochs)},
          {"mean_train_loss", Mean(model.train_losses)},
          {"mean_population_loss", Mean(model.population_losses)},
          {"transform_min", u.transform_min},
          {"transform_max", u.transform_max},
          {"carlini_clamped", static_cast<double>(u.carlini.clamped)},
          {"train_seconds", u.train_seconds},
          {"gof_seconds", gof_seconds}};
}

// The model's scalars, training record and losses.
Status WriteModel(const TrainedUnit& u, bool dp, double gof_seconds, ResultWriter& part) {
  const std::map<std::string, double> scalars = UnitScalars(u, dp, gof_seconds);
  for (const std::string& name : UnitScalarNames()) {
    PB_RETURN_IF_ERROR(part.WriteScalar("/unit/" + name, scalars.at(name)));
  }
  PB_RETURN_IF_ERROR(part.WriteDoubles("/unit/loss_per_epoch", u.model.loss_per_epoch));
  for (const auto& [k, v] : u.model.record) PB_RETURN_IF_ERROR(part.SetAttribute("/record", k, v));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/losses/train", u.model.train_losses));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/losses/population", u.model.population_losses));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/losses/train_transformed", u.app_b.train));
  return part.WriteDoubles("/losses/population_transformed", u.app_b.population);
}

// One sweep unit: model type m, repetition r.
Status RunUnit(const UnitInputs& in, int64_t m, int64_t r, ResultWriter& part) {
  PB_ASSIGN_OR_RETURN(TrainedUnit u, TrainUnit(in, m, r));
  const auto t1 = std::chrono::steady_clock::now();
  for (int64_t s = 0; s < in.config->loss_sets(); ++s) {
    PB_ASSIGN_OR_RETURN(std::vector<GofGrid> grids, GridsOfLossSet(in, u, m, r, s));
    PB_RETURN_IF_ERROR(WriteGrids(grids, s, part));
  }
  return WriteModel(u, m == 1, Seconds(t1), part);
}

// Appends one part's GOF arrays of loss set s to the merged arrays.
Status ReadGofCells(const ResultReader& p, int64_t s, GofArrays& mg,
                    std::vector<int64_t>& fit_size) {
  const size_t cells = static_cast<size_t>(mg.A * mg.I * mg.K);
  const std::string g = "/gof/" + kGofLossSets[s] + "/";
  for (const auto& [name, field] : GofDoubleFields()) {
    PB_ASSIGN_OR_RETURN(std::vector<double> v, p.ReadDoubles(g + name));
    if (v.size() != cells) return Error("part " + p.path() + ": " + name + " has the wrong size");
    mg.d[name].insert(mg.d[name].end(), v.begin(), v.end());
  }
  for (const auto& [name, field] : GofIntFields()) {
    PB_ASSIGN_OR_RETURN(std::vector<int64_t> v, p.ReadInts(g + name));
    if (v.size() != cells) return Error("part " + p.path() + ": " + name + " has the wrong size");
    mg.n[name].insert(mg.n[name].end(), v.begin(), v.end());
  }
  PB_ASSIGN_OR_RETURN(std::vector<int64_t> fs, p.ReadInts(g + "fit_size"));
  fit_size.insert(fit_size.end(), fs.begin(), fs.end());
  return Status::Ok();
}

// The training record of a part, as "key = value" lines.
std::string TrainingRecordText(const ResultReader& p) {
  std::string rec;
  for (const char* key :
       {"private_training", "sampling", "dataset_size", "batch_size", "q", "steps", "epochs",
        "noise_multiplier", "clip_norm", "num_microbatches", "accounting_noise_multiplier",
        "tf_privacy_0_5_1_noise_multiplier", "accounting_rule", "microbatch_rule", "learning_rate",
        "momentum", "model", "architecture", "num_parameters"}) {
    auto v = p.ReadStringAttribute("/record", key);
    if (v.ok()) rec += std::string(key) + " = " + *v + "\n";
  }
  return rec;
}

// Per-repetition arrays of one model type, stacked [R x n].
struct ModelStacks {
  std::vector<double> epoch_losses, train_t, pop_t, train_raw, pop_raw;
  size_t epochs = 0;
};

Status AppendPart(const ResultReader& p, const std::string& name, std::vector<double>& to) {
  PB_ASSIGN_OR_RETURN(std::vector<double> v, p.ReadDoubles(name));
  to.insert(to.end(), v.begin(), v.end());
  return Status::Ok();
}

Status WriteModelStacks(const ModelStacks& st, int64_t m, int64_t R, ResultWriter& out) {
  const uint64_t ur = static_cast<uint64_t>(R);
  const std::string model = kGofModels[m];
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/models/" + model + "/loss_per_epoch", st.epoch_losses, {ur, st.epochs}));
  const std::vector<std::pair<std::string, const std::vector<double>*>> losses = {
      {"train_transformed", &st.train_t},
      {"population_transformed", &st.pop_t},
      {"train", &st.train_raw},
      {"population", &st.pop_raw}};
  // Raw per-example losses of the first repetition only: the figures show
  // them, no claim needs them, and all R would make the paper-scale file
  // 9 MB (5 x 48,842 values x 4 kinds x 2 models).
  for (const auto& [name, v] : losses) {
    const size_t n = v->size() / ur;
    const std::vector<double> first(v->begin(), v->begin() + static_cast<std::ptrdiff_t>(n));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/" + model + "/" + name, first, {1, n}));
  }
  return Status::Ok();
}

// The transform-shape rows of one part (model m, repetition r).
Status AppendTransformShape(const ResultReader& p, int64_t m, int64_t r,
                            std::vector<TransformShapeRow>& shapes) {
  PB_ASSIGN_OR_RETURN(std::vector<double> train, p.ReadDoubles("/losses/train"));
  PB_ASSIGN_OR_RETURN(std::vector<double> population, p.ReadDoubles("/losses/population"));
  PB_ASSIGN_OR_RETURN(std::vector<TransformShape> shape, MeasureTransformShape(train, population));
  for (size_t s = 0; s < shape.size(); ++s) {
    shapes.push_back({kGofModels[m], kGofLossSets[s], r, shape[s]});
  }
  return Status::Ok();
}

// Reads every part of model type m into mg (and its losses into out).
Status MergeModel(const SweepParts& parts, int64_t m, GofArrays& mg, std::vector<int64_t>& fit_size,
                  std::vector<TransformShapeRow>& shapes, ResultWriter& out) {
  ModelStacks st;
  for (int64_t r = 0; r < mg.R; ++r) {
    const ResultReader& p = *parts[static_cast<size_t>(m * mg.R + r)];
    PB_RETURN_IF_ERROR(AppendTransformShape(p, m, r, shapes));
    for (int64_t s = 0; s < mg.S; ++s) PB_RETURN_IF_ERROR(ReadGofCells(p, s, mg, fit_size));
    for (const std::string& name : UnitScalarNames()) {
      PB_ASSIGN_OR_RETURN(std::vector<double> v, p.ReadDoubles("/unit/" + name));
      mg.unit[name].push_back(v.at(0));
    }
    PB_ASSIGN_OR_RETURN(std::vector<double> le, p.ReadDoubles("/unit/loss_per_epoch"));
    st.epochs = le.size();
    st.epoch_losses.insert(st.epoch_losses.end(), le.begin(), le.end());
    PB_RETURN_IF_ERROR(AppendPart(p, "/losses/train_transformed", st.train_t));
    PB_RETURN_IF_ERROR(AppendPart(p, "/losses/population_transformed", st.pop_t));
    PB_RETURN_IF_ERROR(AppendPart(p, "/losses/train", st.train_raw));
    PB_RETURN_IF_ERROR(AppendPart(p, "/losses/population", st.pop_raw));
    if (r == 0) {
      // The training record of the first repetition, for /meta.
      PB_RETURN_IF_ERROR(
          out.SetAttribute("/meta", "training_record_" + kGofModels[m], TrainingRecordText(p)));
    }
  }
  return WriteModelStacks(st, m, mg.R, out);
}

Status WriteGofArrays(const GofArrays& mg, const std::vector<int64_t>& fit_size, const Config& c,
                      ResultWriter& out) {
  const std::vector<uint64_t> shape = {static_cast<uint64_t>(mg.M), static_cast<uint64_t>(mg.R),
                                       static_cast<uint64_t>(mg.S), static_cast<uint64_t>(mg.A),
                                       static_cast<uint64_t>(mg.I), static_cast<uint64_t>(mg.K)};
  for (const auto& [name, v] : mg.d) PB_RETURN_IF_ERROR(out.WriteDoubles("/gof/" + name, v, shape));
  for (const auto& [name, v] : mg.n) PB_RETURN_IF_ERROR(out.WriteInts("/gof/" + name, v, shape));
  PB_RETURN_IF_ERROR(
      out.WriteInts("/gof/fit_size", fit_size, {shape[0], shape[1], shape[2], shape[4]}));
  PB_RETURN_IF_ERROR(
      SetAttributes(out, "/gof",
                    {{"dims", "model, repetition, loss_set, analysis, n_eval, components"},
                     {"p_value_method", c.ks_method}}));
  PB_RETURN_IF_ERROR(
      out.SetAttribute("/gof/fit_size", "dims", "model, repetition, loss_set, n_eval"));
  for (const auto& [name, v] : mg.unit) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/models/" + name, v, {shape[0], shape[1]}));
  }
  return out.SetAttribute("/models", "dims", "model, repetition");
}

// Reads every part into the merged arrays and writes the raw data.
Result<GofArrays> MergeParts(const SweepParts& parts, const Config& c,
                             const std::string& dataset_label, ResultWriter& out) {
  GofArrays mg;
  mg.R = c.repetitions;
  mg.S = c.loss_sets();
  mg.A = static_cast<int64_t>(Analyses(c).size());
  mg.I = static_cast<int64_t>(c.n_eval.size());
  mg.K = c.max_components;
  std::vector<int64_t> fit_size;
  std::vector<TransformShapeRow> shapes;
  for (int64_t m = 0; m < mg.M; ++m) {
    PB_RETURN_IF_ERROR(MergeModel(parts, m, mg, fit_size, shapes, out));
  }
  PB_RETURN_IF_ERROR(WriteTransformShape(shapes, dataset_label, out));
  PB_RETURN_IF_ERROR(WriteGofArrays(mg, fit_size, c, out));
  return mg;
}

Status WriteAnalysisSettings(const Config& c, ResultWriter& out) {
  std::vector<std::string> names, transforms, labels, suffixes;
  std::vector<double> floors;
  for (const AnalysisSpec& a : Analyses(c)) {
    names.push_back(a.name);
    transforms.push_back(a.transform);
    labels.push_back(a.label);
    suffixes.push_back(a.suffix);
    floors.push_back(a.floor);
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/settings/analyses", names));
  PB_RETURN_IF_ERROR(out.WriteStrings("/settings/analysis_transform", transforms));
  PB_RETURN_IF_ERROR(out.WriteStrings("/settings/analysis_label", labels));
  PB_RETURN_IF_ERROR(out.WriteStrings("/settings/analysis_claim_suffix", suffixes));
  return out.WriteDoubles("/settings/analysis_variance_floor", floors);
}

// "uci-adult", with the subset's sizes when it is not the full data.
std::string DatasetLabel(const Dataset& data) {
  return data.provenance +
         (data.n_train() != kAdultTrainRows || data.n_population() != kAdultPopulationRows
              ? " (first " + std::to_string(data.n_train()) + " train / " +
                    std::to_string(data.n_population()) + " population rows)"
              : "");
}

Status WriteSettings(const Config& c, double delta, const std::string& dataset_label,
                     ResultWriter& out) {
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/n_eval", c.n_eval));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/variance_floors", c.variance_floors));
  PB_RETURN_IF_ERROR(WriteAnalysisSettings(c, out));
  std::vector<int64_t> ks;
  for (int64_t k = 1; k <= c.max_components; ++k) ks.push_back(k);
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/components", ks));
  PB_RETURN_IF_ERROR(out.WriteStrings("/settings/models", kGofModels));
  PB_RETURN_IF_ERROR(out.WriteStrings("/settings/model_labels", kGofModelLabels));
  PB_RETURN_IF_ERROR(out.WriteStrings(
      "/settings/loss_sets",
      std::vector<std::string>(kGofLossSets.begin(), kGofLossSets.begin() + c.loss_sets())));
  return SetAttributes(out, "/settings",
                       {{"repetitions", c.repetitions},
                        {"significance", c.significance},
                        {"delta", delta},
                        {"dp_epsilon", c.dp_epsilon},
                        {"p_value_method", c.ks_method},
                        {"dataset_label", dataset_label}});
}

// The DP model's training description for /meta lost_parameters.
std::string ModelsText(const Config& c, const Dataset& d, double delta, const GofNoisePlan& plan) {
  return "Adult MLP Linear(" + std::to_string(d.num_features) + "->" + std::to_string(c.hidden) +
         ") Tanh Linear(" + std::to_string(c.hidden) +
         "->2) (mechanisms AdultMlpSpec), Poisson sampling, expected batch " +
         std::to_string(c.batch_size) + ", SGD momentum " + FormatDouble(c.momentum) + ", lr " +
         FormatDouble(c.learning_rate) +
         " (paper Sec. 4.1 values); non-private model: " + std::to_string(c.baseline_epochs) +
         " epochs (paper baselines 1/5/10/20); DP model: " + std::to_string(c.dp_epochs) +
         " epochs, target eps " + FormatDouble(c.dp_epsilon) + " (paper grid 1/3/10/100), delta " +
         FormatDouble(delta) + (c.delta == 0.0 ? " (= 1/n_train)" : "") + ", clip norm " +
         FormatDouble(c.clip_norm) + ", " +
         (c.num_microbatches == 0 ? std::string("per-example clipping")
                                  : std::to_string(c.num_microbatches) + " microbatches") +
         ", calibration " + c.calibration_rule + " -> noise multiplier " +
         FormatSignificant(plan.noise_multiplier, 5) + " (q " + FormatSignificant(plan.q, 4) +
         ", " + std::to_string(plan.steps) + " steps; sound eps " +
         FormatSignificant(plan.eps_sound, 4) + "); repetitions " + std::to_string(c.repetitions) +
         " models per type (paper: apparently one instance each)";
}

// The goodness-of-fit settings for /meta lost_parameters.
std::string FittingText(const Config& c) {
  std::string floors;
  for (size_t f = 1; f < c.variance_floors.size(); ++f) {
    floors += (f > 1 ? ", " : "") + FormatDouble(c.variance_floors[f]);
  }
  if (floors.empty()) floors = "(none)";
  return "transform: App. B, fitted jointly on train + population losses of each model; "
         "partition: uniform random, n_eval = {" +
         JoinInts(c.n_eval) + "} (paper 100..1000), the rest fits; EM: " + c.init +
         " initialisation, tolerance " + FormatDouble(c.tolerance) +
         " on the mean log-likelihood, at most " + std::to_string(c.max_iterations) +
         " iterations, variance floor " + FormatDouble(c.variance_floors[0]) +
         " (scikit-learn GaussianMixture defaults, which the paper's Python pipeline likely "
         "used, except the initialisation; sklearn ADDS reg_covar = 1e-6 to each variance, we "
         "floor at it); sensitivity analyses at variance floors " +
         floors +
         (c.carlini_analysis ? "; extra analysis: Carlini et al.'s logit(exp(-loss)) without the "
                               "App. B normalisation, at the primary floor"
                             : "") +
         "; k = 1.." + std::to_string(c.max_components) +
         "; draws: n_eval from each fit; KS p-value: " + c.ks_method +
         " (SciPy ks_2samp's default at these sizes is exact), significance " +
         FormatDouble(c.significance);
}

std::string LostParameters(const Config& c, const Dataset& d, double delta,
                           const GofNoisePlan& plan) {
  return "The paper gives neither the models of Fig. 6 nor the fitting details; ours: " +
         ModelsText(c, d, delta, plan) + "; " + FittingText(c);
}

std::string AccountingText(const Config& c, double delta, const GofNoisePlan& plan) {
  const auto g6 = [](double x) { return FormatSignificant(x, 6); };
  return "RDP accountant (estimators/accountants 'rdp', DefaultRdpOrders, Poisson sampling, "
         "classic RDP->(eps, delta) conversion); calibration_rule " +
         c.calibration_rule + "; calibrated sigma " + g6(plan.calibrated_sigma) +
         ", trained noise multiplier " + g6(plan.noise_multiplier) +
         ", accounting noise multiplier " + g6(plan.accounting_noise_multiplier) + ", q " +
         g6(plan.q) + ", steps " + std::to_string(plan.steps) + ", delta " + FormatDouble(delta) +
         "; eps sound " + g6(plan.eps_sound) + ", eps by TF Privacy 0.5.1's rule " +
         g6(plan.eps_tf_privacy_0_5_1);
}

// What the merge needs besides the parts.
struct MergeInputs {
  const Config* config;
  const Dataset* dataset;
  double delta;
  const GofNoisePlan* plan;
};

Status WriteMeta(const MergeInputs& in, const SweepParts& parts, const SweepOptions& so,
                 ResultWriter& out) {
  const Dataset& data = *in.dataset;
  return SetAttributes(
      out, "/meta",
      {{"sweep_part_versions", DescribePartVersions(parts).description},
       {"dataset_provenance", data.provenance},
       {"dataset_source", data.source},
       {"dataset_checksums", data.checksums},
       {"sweep_config", so.config_text},
       {"device", in.config->device},
       {"accounting", AccountingText(*in.config, in.delta, *in.plan)},
       {"loss_transform",
        "epsilon_star_logit (App. B): joint min/max of train + population losses of each model"},
       {"lost_parameters", LostParameters(*in.config, data, in.delta, *in.plan)}});
}

Status Merge(const MergeInputs& in, const SweepParts& parts, const SweepOptions& so,
             ResultWriter& out) {
  const Config& c = *in.config;
  const std::string label = DatasetLabel(*in.dataset);
  PB_ASSIGN_OR_RETURN(GofArrays mg, MergeParts(parts, c, label, out));
  PB_RETURN_IF_ERROR(WriteSettings(c, in.delta, label, out));
  PB_RETURN_IF_ERROR(WriteMeta(in, parts, so, out));
  return WriteReport(c, Results{std::move(mg), label}, out);
}

}  // namespace

Status RunGofStudy(const Config& c, StudyContext& ctx) {
  PB_ASSIGN_OR_RETURN(Dataset data, LoadGofData(c));
  const double delta = c.delta > 0.0 ? c.delta : 1.0 / static_cast<double>(data.n_train());
  PB_ASSIGN_OR_RETURN(GofNoisePlan plan, PlanGofNoise(ModelConfig(c, true, delta), data.n_train()));
  PB_ASSIGN_OR_RETURN(GofOptions gof, MakeGofOptions(c));
  SweepPlan sweep;
  sweep.config_text = SweepConfigText(c, data, ctx.seed());
  sweep.run_order = Units(c);
  // The progress of the fits needs the pending units before the sweep runs.
  PB_ASSIGN_OR_RETURN(SweepOptions so, MakeSweepOptions(kStudy, sweep, c.sweep, ctx));
  const int64_t pending = c.sweep.merge_only ? 0 : PendingUnits(sweep.run_order, so);
  const int64_t fits_per_unit = c.loss_sets() * gof.max_components *
                                static_cast<int64_t>(gof.n_eval.size() * Analyses(c).size());
  ProgressReporter fits("GMM fits (EM + KS)", pending * fits_per_unit,
                        ctx.quiet() || c.sweep.merge_only, /*interval_seconds=*/5.0);
  const UnitInputs in{&c, &data, &gof, &plan, delta, ctx.seed(), &fits};
  const MergeInputs merge{&c, &data, delta, &plan};
  return RunSweepStudy(
      kStudy, sweep, c.sweep, ctx,
      [&](int64_t u, const SweepUnit&, ResultWriter& part) {
        return RunUnit(in, u / c.repetitions, u % c.repetitions, part);
      },
      [&](const SweepParts& parts, const SweepOptions& options) {
        fits.Finish();
        return Merge(merge, parts, options, ctx.out());
      });
}

}  // namespace privbench::epsilon_star_gof
