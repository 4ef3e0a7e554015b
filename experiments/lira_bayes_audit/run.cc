#include "experiments/lira_bayes_audit/run.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/seeding.h"
#include "data_scripts/cifar10.h"
#include "data_scripts/fashion_mnist.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/lira_bayes_audit/compute.h"
#include "experiments/lira_bayes_audit/report.h"
#include "experiments/lira_bayes_audit/training.h"
#include "mechanisms/device.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

std::vector<float> CopyRows(const std::vector<float>& x, int64_t features,
                            const std::vector<int64_t>& rows) {
  std::vector<float> out;
  out.reserve(rows.size() * static_cast<size_t>(features));
  for (int64_t r : rows) {
    out.insert(out.end(), x.begin() + r * features, x.begin() + (r + 1) * features);
  }
  return out;
}

}  // namespace

int64_t TrainImages(const std::string& dataset) {
  return dataset == "cifar10" ? kCifar10TrainRows : kFashionMnistTrainRows;
}

namespace {

Cifar10Options Cifar10OptionsFor(const Config& c) {
  Cifar10Options o;
  o.data_dir = c.data_dir;
  o.data_dir_flag = "--data_dir";
  return o;
}

Result<Dataset> LoadDataset(const Config& c) {
  if (c.dataset == "cifar10") return LoadCifar10(Cifar10OptionsFor(c));
  FashionMnistOptions o;
  o.data_dir = c.data_dir;
  o.data_dir_flag = "data_dir";
  return LoadFashionMnist(o);
}

// The images as the model sees them: CIFAR-10 standardised per channel as
// the paper's public code (run.h); Fashion-MNIST as loaded (pixels / 255).
Status Preprocess(const Config& c, LoadedData* l) {
  if (c.dataset != "cifar10") {
    l->data.input_shape = {1, kFashionMnistSide, kFashionMnistSide};
    return Status::Ok();
  }
  l->data.input_shape = {kCifar10Channels, kCifar10Side, kCifar10Side};
  PB_RETURN_IF_ERROR(StandardizeCifar10Channels(&l->data.pool_x));
  PB_RETURN_IF_ERROR(StandardizeCifar10Channels(&l->data.test_x));
  l->preprocessing =
      "pixels / 255, then (x - mean_c) / std_c per channel with mean (" +
      FormatDouble(kCifar10ChannelMean[0]) + ", " + FormatDouble(kCifar10ChannelMean[1]) + ", " +
      FormatDouble(kCifar10ChannelMean[2]) + ") and std (" + FormatDouble(kCifar10ChannelStd[0]) +
      ", " + FormatDouble(kCifar10ChannelStd[1]) + ", " + FormatDouble(kCifar10ChannelStd[2]) +
      "), as the Bayesian paper's public code (CIFAR10Normalized); no augmentation";
  return Status::Ok();
}

}  // namespace

Status CheckDatasetFound(const Config& c) {
  if (c.dataset != "cifar10") return Status::Ok();
  return FindCifar10Dir(Cifar10OptionsFor(c)).status();
}

Result<LoadedData> LoadAuditData(const Config& c, uint64_t seed) {
  PB_ASSIGN_OR_RETURN(const Dataset d, LoadDataset(c));
  return PrepareAuditData(d, c, seed);
}

Result<LoadedData> PrepareAuditData(const Dataset& d, const Config& c, uint64_t seed) {
  if (c.pool_size > d.n_train() || c.test_size > d.n_population()) {
    return Error("pool_size " + std::to_string(c.pool_size) + " and test_size " +
                 std::to_string(c.test_size) + " must be at most the " + d.name + " data's " +
                 std::to_string(d.n_train()) + " training and " + std::to_string(d.n_population()) +
                 " test images");
  }
  LoadedData l;
  l.provenance = d.provenance;
  l.source = d.source;
  l.checksums = d.checksums;
  l.preprocessing = "pixels / 255";
  l.pool_rows = DrawRows(d.n_train(), c.pool_size, DeriveSeed(seed, {1}));
  l.test_rows = DrawRows(d.n_population(), c.test_size, DeriveSeed(seed, {2}));
  l.data.num_features = d.num_features;
  l.data.num_classes = d.num_classes;
  l.data.pool_x = CopyRows(d.train_x, d.num_features, l.pool_rows);
  l.data.test_x = CopyRows(d.population_x, d.num_features, l.test_rows);
  for (int64_t r : l.pool_rows) l.data.pool_y.push_back(d.train_y[static_cast<size_t>(r)]);
  for (int64_t r : l.test_rows) l.data.test_y.push_back(d.population_y[static_cast<size_t>(r)]);
  PB_RETURN_IF_ERROR(Preprocess(c, &l));
  return l;
}

namespace {

TrainSpec SpecFor(const Config& c, const Setting& s, const Accounting& a) {
  TrainSpec t;
  t.model = c.model;
  t.hidden = c.hidden;
  t.private_training = s.private_training;
  t.noise_multiplier = s.private_training ? a.sigma : 0.0;
  t.clip_norm = c.clip_norm;
  t.batch_size = c.batch_size;
  t.epochs = c.epochs;
  t.learning_rate = s.private_training ? c.dp_learning_rate : c.learning_rate;
  t.momentum = c.momentum;
  t.device = ParseDevice(c.device).value();  // checked by main.cc's Validate
  return t;
}

std::string ShadowConfigText(const Config& c, uint64_t seed, const LoadedData& l,
                             const Accounting& a) {
  std::string t;
  auto add = [&](const std::string& k, const std::string& v) { t += k + " = " + v + "\n"; };
  add("study", kStudy);
  add("part_format", "2");  // bump when a part's layout changes (2: /test_prob)
  // Fashion-MNIST keeps its key of before --dataset; CIFAR-10 names its
  // preprocessing too.
  add("data", l.provenance + (c.dataset == "cifar10" ? ", " + l.preprocessing : ""));
  add("seed", std::to_string(seed));
  add("pool_size", std::to_string(c.pool_size));
  add("test_size", std::to_string(c.test_size));
  add("shadows", std::to_string(c.shadows));
  add("model", c.model + " hidden " + std::to_string(c.hidden));
  add("epochs", std::to_string(c.epochs));
  add("batch_size", std::to_string(c.batch_size));
  add("learning_rate", FormatDouble(c.learning_rate));
  add("dp_learning_rate", FormatDouble(c.dp_learning_rate));
  add("momentum", FormatDouble(c.momentum));
  add("clip_norm", FormatDouble(c.clip_norm));
  add("sigma", FormatDouble(a.sigma));
  // CPU runs are the bytes they were before --device existed (their parts
  // keep their key); CUDA runs differ by float32 rounding: their own parts.
  if (c.device != "cpu") add("device", c.device);
  add("models_per_unit", std::to_string(c.models_per_unit));
  return t;
}

// One unit: train its models and write their phi and accuracies.
Status TrainUnit(const std::vector<std::vector<int64_t>>& train_rows,
                 const std::vector<std::vector<int64_t>>& score_rows, const AuditData& data,
                 const TrainSpec& spec, const std::vector<std::pair<uint64_t, uint64_t>>& seeds,
                 ResultWriter& part) {
  std::vector<double> phi, test_prob, test_acc, train_acc;
  ModelScores first;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < train_rows.size(); ++i) {
    PB_ASSIGN_OR_RETURN(ModelScores s, TrainAndScore(data, train_rows[i], score_rows[i], spec,
                                                     seeds[i].first, seeds[i].second));
    phi.insert(phi.end(), s.phi.begin(), s.phi.end());
    test_prob.insert(test_prob.end(), s.test_prob.begin(), s.test_prob.end());
    test_acc.push_back(s.test_accuracy);
    train_acc.push_back(s.train_accuracy);
    if (i == 0) first = std::move(s);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  PB_RETURN_IF_ERROR(part.WriteDoubles("/phi", phi));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/test_prob", test_prob));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/test_accuracy", test_acc));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/train_accuracy", train_acc));
  PB_RETURN_IF_ERROR(part.SetAttribute("/phi", "seconds_per_model",
                                       secs / static_cast<double>(train_rows.size())));
  std::string keys;
  for (const auto& kv : first.record) {
    PB_RETURN_IF_ERROR(part.SetAttribute("/training", kv.first, kv.second));
    keys += (keys.empty() ? "" : ",") + kv.first;
  }
  return part.SetAttribute("/training", "metadata_keys", keys);
}

struct Phase {
  std::vector<UnitKey> keys;
  SweepPlan plan;
  SweepOptions options;
};

// Runs this shard's pending units of a phase; true when every part exists.
Result<bool> RunPhase(const Phase& phase, const Config& c, StudyContext& ctx,
                      const UnitFn& run_unit) {
  if (c.sweep.merge_only) return true;
  PB_ASSIGN_OR_RETURN(SweepReport report, RunSweep(phase.plan.run_order, phase.options, run_unit));
  if (!report.all_complete()) {
    ctx.SkipOutput(std::to_string(report.total - report.complete) + " of " +
                   std::to_string(report.total) + " units of " + phase.options.study +
                   " pending: run the other shards, then every shard again until the study "
                   "file appears (the targets need every shadow); --merge_only once both phases "
                   "are complete");
    return false;
  }
  return true;
}

Result<Phase> MakePhase(const std::string& name, std::vector<UnitKey> keys,
                        const std::vector<Setting>& settings, const char* kind,
                        std::string config_text, const Config& c, const StudyContext& ctx) {
  Phase p;
  p.keys = std::move(keys);
  p.plan.config_text = std::move(config_text);
  for (const UnitKey& k : p.keys) p.plan.run_order.push_back({UnitId(settings, k, kind)});
  PB_ASSIGN_OR_RETURN(p.options, MakeSweepOptions(name, p.plan, c.sweep, ctx));
  return p;
}

// Reads a phase's parts into per-setting arrays (phi rows in model order).
struct PhaseData {
  std::vector<std::vector<double>> phi, test_prob, test_acc, train_acc;  // per setting
  std::vector<std::pair<std::string, std::string>> record;  // of the DP setting's first part
  std::string versions;
  double seconds_per_model = 0.0;
};

Result<PhaseData> ReadPhase(const Phase& phase, size_t n_settings) {
  PB_ASSIGN_OR_RETURN(SweepParts parts, OpenSweepParts(phase.plan.run_order, phase.options));
  PhaseData d;
  d.phi.resize(n_settings);
  d.test_prob.resize(n_settings);
  d.test_acc.resize(n_settings);
  d.train_acc.resize(n_settings);
  d.versions = DescribePartVersions(parts).description;
  double secs = 0.0, models = 0.0;
  for (size_t u = 0; u < parts.size(); ++u) {
    const ResultReader& p = *parts[u];
    const size_t s = static_cast<size_t>(phase.keys[u].setting);
    PB_ASSIGN_OR_RETURN(std::vector<double> phi, p.ReadDoubles("/phi"));
    PB_ASSIGN_OR_RETURN(std::vector<double> tp, p.ReadDoubles("/test_prob"));
    PB_ASSIGN_OR_RETURN(std::vector<double> te, p.ReadDoubles("/test_accuracy"));
    PB_ASSIGN_OR_RETURN(std::vector<double> tr, p.ReadDoubles("/train_accuracy"));
    PB_ASSIGN_OR_RETURN(double spm, p.ReadDoubleAttribute("/phi", "seconds_per_model"));
    secs += spm * static_cast<double>(te.size());
    models += static_cast<double>(te.size());
    d.phi[s].insert(d.phi[s].end(), phi.begin(), phi.end());
    d.test_prob[s].insert(d.test_prob[s].end(), tp.begin(), tp.end());
    d.test_acc[s].insert(d.test_acc[s].end(), te.begin(), te.end());
    d.train_acc[s].insert(d.train_acc[s].end(), tr.begin(), tr.end());
    if (s == 1 && d.record.empty()) {
      PB_ASSIGN_OR_RETURN(std::string keys, p.ReadStringAttribute("/training", "metadata_keys"));
      size_t start = 0;
      while (start <= keys.size()) {
        const size_t end = std::min(keys.find(',', start), keys.size());
        const std::string key = keys.substr(start, end - start);
        PB_ASSIGN_OR_RETURN(std::string value, p.ReadStringAttribute("/training", key));
        d.record.push_back({key, value});
        start = end + 1;
      }
    }
  }
  d.seconds_per_model = models > 0 ? secs / models : 0.0;
  return d;
}

LiraLocation Location(const Config& c) {
  return c.location == "mean" ? LiraLocation::kMean : LiraLocation::kMedian;
}

// After phase 1: the shadows, SelectWorst and the game of every setting.
Result<std::vector<SettingResult>> SelectAndPlan(const Config& c, uint64_t seed,
                                                 const std::vector<Setting>& settings,
                                                 const std::vector<uint8_t>& keep,
                                                 const PhaseData& shadows) {
  std::vector<SettingResult> out(settings.size());
  for (size_t s = 0; s < settings.size(); ++s) {
    SettingResult& r = out[s];
    r.setting = settings[s];
    r.shadows.models = c.shadows;
    r.shadows.points = c.pool_size;
    r.shadows.phi = shadows.phi[s];
    r.shadows.is_in = keep;
    r.shadow_test_accuracy = shadows.test_acc[s];
    r.shadow_train_accuracy = shadows.train_acc[s];
    SelectWorstOptions o;
    o.fit_fraction = c.fit_fraction;
    o.weight = c.selection_weight == "auc" ? SelectionWeight::kAuc : SelectionWeight::kAccuracy;
    o.location = Location(c);
    o.k = c.trials;
    PB_ASSIGN_OR_RETURN(r.selection, SelectWorst(r.shadows, o));
    PB_ASSIGN_OR_RETURN(r.plan,
                        PlanGame(c.pool_size, r.selection.selected, seed, static_cast<int64_t>(s)));
  }
  return out;
}

std::string TargetConfigText(const Config& c, const std::string& shadow_text,
                             const std::vector<SettingResult>& rs) {
  std::string t = shadow_text;
  t += "trials = " + std::to_string(c.trials) + "\n";
  t += "fit_fraction = " + FormatDouble(c.fit_fraction) + "\n";
  t += "selection_weight = " + c.selection_weight + "\nlocation = " + c.location + "\n";
  for (const SettingResult& r : rs) {
    std::string sel;
    for (int64_t z : r.plan.challenge) sel += std::to_string(z) + ",";
    t += "challenge_" + r.setting.name + " = " + std::to_string(StableHash(sel)) + "\n";
  }
  return t;
}

// After phase 2: LiRA scores, intervals at every threshold, the selections.
Status Estimate(const Config& c, uint64_t seed, int threads, const PhaseData& targets,
                std::vector<SettingResult>* rs) {
  for (size_t s = 0; s < rs->size(); ++s) {
    SettingResult& r = (*rs)[s];
    r.target_test_accuracy = targets.test_acc[s];
    r.target_train_accuracy = targets.train_acc[s];
    PB_ASSIGN_OR_RETURN(r.trials, ScoreTrials(r.shadows, r.plan, targets.phi[s], Location(c)));
    PB_ASSIGN_OR_RETURN(
        r.grid, BonferroniGrid(r.shadows, r.plan.challenge, Location(c), c.bonferroni_thresholds));
    EstimateOptions o;
    o.alpha = c.alpha;
    o.delta = c.delta;
    o.split_seed = DeriveSeed(seed, {30, static_cast<uint64_t>(s)});
    o.threads = threads;
    PB_ASSIGN_OR_RETURN(r.table, EstimateAtEveryThreshold(r.trials.online, r.trials.bits, o));
    PB_ASSIGN_OR_RETURN(r.rows, SelectIntervals(r.setting.name, r.trials.online, r.trials.bits,
                                                r.table, r.grid, o));
  }
  return Status::Ok();
}

// RMIA beside LiRA on the same shadows, full and few references (compute.h).
Status CompareAttacks(const Config& c, uint64_t seed, const PhaseData& shadows,
                      const PhaseData& targets, std::vector<SettingResult>* rs) {
  for (size_t s = 0; s < rs->size(); ++s) {
    SettingResult& r = (*rs)[s];
    r.population.population = c.test_size;
    r.population.shadow_prob = shadows.test_prob[s];
    r.population.target_prob = targets.test_prob[s];
    PB_ASSIGN_OR_RETURN(r.offline_a, TuneOfflineA(r.shadows, r.population));
    PB_ASSIGN_OR_RETURN(r.attacks, ReferenceAttacks(r.shadows, r.plan, r.trials, r.population,
                                                    r.offline_a, Location(c)));
    EstimateOptions o;
    o.alpha = c.alpha;
    o.delta = c.delta;
    for (size_t a = 0; a < r.attacks.size(); ++a) {
      PB_ASSIGN_OR_RETURN(
          AttackSummary sum,
          SummariseAttack(r.setting.name, r.attacks[a], r.trials.bits, o, c.bonferroni_thresholds,
                          DeriveSeed(seed, {40, static_cast<uint64_t>(s), a})));
      r.attack_summaries.push_back(std::move(sum));
    }
  }
  return Status::Ok();
}

}  // namespace

Status RunAudit(const Config& c, StudyContext& ctx) {
  const uint64_t seed = ctx.seed();
  PB_ASSIGN_OR_RETURN(LoadedData l, LoadAuditData(c, seed));
  PB_ASSIGN_OR_RETURN(Accounting acc, CalibrateNoise(c));
  const std::vector<Setting> settings = MakeSettings(c);
  PB_ASSIGN_OR_RETURN(std::vector<uint8_t> keep,
                      BalancedHalves(c.shadows, c.pool_size, DeriveSeed(seed, {3})));
  const std::string shadow_text = ShadowConfigText(c, seed, l, acc);
  PB_ASSIGN_OR_RETURN(Phase p1, MakePhase(std::string(kStudy) + ".shadows", ShadowUnits(c),
                                          settings, "shadows", shadow_text, c, ctx));
  auto shadow_unit = [&](int64_t k, const SweepUnit&, ResultWriter& part) -> Status {
    const UnitKey& u = p1.keys[static_cast<size_t>(k)];
    std::vector<std::vector<int64_t>> train, score;
    std::vector<std::pair<uint64_t, uint64_t>> seeds;
    std::vector<int64_t> all(static_cast<size_t>(c.pool_size));
    for (int64_t i = 0; i < c.pool_size; ++i) all[static_cast<size_t>(i)] = i;
    for (int64_t m = u.first; m < u.first + u.count; ++m) {
      train.push_back(ShadowTrainRows(keep, c.pool_size, m));
      score.push_back(all);
      seeds.push_back({InitSeed(seed, u.setting, false, m), TrainSeed(seed, u.setting, false, m)});
    }
    return TrainUnit(train, score, l.data, SpecFor(c, settings[u.setting], acc), seeds, part);
  };
  PB_ASSIGN_OR_RETURN(bool done1, RunPhase(p1, c, ctx, shadow_unit));
  if (!done1) return Status::Ok();
  PB_ASSIGN_OR_RETURN(PhaseData shadows, ReadPhase(p1, settings.size()));
  PB_ASSIGN_OR_RETURN(std::vector<SettingResult> rs,
                      SelectAndPlan(c, seed, settings, keep, shadows));

  PB_ASSIGN_OR_RETURN(
      Phase p2, MakePhase(std::string(kStudy) + ".targets", TargetUnits(c), settings, "targets",
                          TargetConfigText(c, shadow_text, rs), c, ctx));
  auto target_unit = [&](int64_t k, const SweepUnit&, ResultWriter& part) -> Status {
    const UnitKey& u = p2.keys[static_cast<size_t>(k)];
    const GamePlan& plan = rs[static_cast<size_t>(u.setting)].plan;
    std::vector<std::vector<int64_t>> train, score;
    std::vector<std::pair<uint64_t, uint64_t>> seeds;
    for (int64_t i = u.first; i < u.first + u.count; ++i) {
      train.push_back(TargetTrainRows(plan, i));
      score.push_back({plan.challenge[static_cast<size_t>(i)]});
      seeds.push_back({InitSeed(seed, u.setting, true, i), TrainSeed(seed, u.setting, true, i)});
    }
    return TrainUnit(train, score, l.data, SpecFor(c, settings[u.setting], acc), seeds, part);
  };
  PB_ASSIGN_OR_RETURN(bool done2, RunPhase(p2, c, ctx, target_unit));
  if (!done2) return Status::Ok();
  PB_ASSIGN_OR_RETURN(PhaseData targets, ReadPhase(p2, settings.size()));
  PB_RETURN_IF_ERROR(Estimate(c, seed, ctx.threads(), targets, &rs));
  PB_RETURN_IF_ERROR(CompareAttacks(c, seed, shadows, targets, &rs));

  AuditResult r;
  r.accounting = acc;
  r.settings = std::move(rs);
  r.settings[1].record = targets.record;
  r.pool_rows = l.pool_rows;
  r.population_rows = l.test_rows;
  PB_ASSIGN_OR_RETURN(auto arch, DescribeArchitecture(l.data, SpecFor(c, settings[0], acc)));
  r.architecture = arch.first;
  r.num_parameters = arch.second;
  r.dataset_provenance = l.provenance;
  r.dataset_source = l.source;
  r.dataset_checksums = l.checksums;
  r.dataset_preprocessing = l.preprocessing;
  r.shadow_part_versions = shadows.versions;
  r.target_part_versions = targets.versions;
  r.seconds_per_shadow = shadows.seconds_per_model;
  r.seconds_per_target = targets.seconds_per_model;
  return WriteReport(c, r, ctx.out());
}

}  // namespace lira_bayes_audit
}  // namespace privbench
