// Study C1 region_of_privacy: that_which_we_call_private.txt Sec. 3-5
// (Erlingsson, Mironov, Raghunathan & Song 2019), STUDIES.md C1.
//
//   bazel run //experiments:region_of_privacy [-- --scale=paper --threads=2]
//
// Jayaraman & Evans' Purchase-100 multinomial logistic regression (STUDIES.md
// "Accounting reference": 10,000 training records, expected batch 200, so
// q = 0.02; 100 epochs = 5,000 steps; lr 0.01; per-example clipping at
// C = 1; L2 penalty 1e-5 as weight decay; delta = 1e-5) trained with DP-SGD
// at the five noise multipliers of B8 (136.67, 13.76, 6.99, 1.06, 0.44) and
// without privacy (the baseline), R repetitions each (the paper averaged 5
// trials). Per model: training accuracy and accuracy relative to the
// baseline; Yeom et al.'s loss-threshold attack against a population
// (non-member) set of the same size: TPR at 5% FPR (Table 1), the advantage
// there and the best-threshold advantage (Sec. 5.3), each turned into an
// eps lower bound by Prop. 3 (estimators/summary_bounds.h); and the naive,
// advanced, zCDP and RDP upper bounds of the noise actually used
// (estimators/accountants, with each run's q, steps and accounting noise
// multiplier; RDP with TableOneRdpOrders() like Table 1 and with
// DefaultRdpOrders()).
//
// Data: the real Purchase-100 (data_scripts/purchase100.h) when it loads
// (--data=auto, the default, or --data=purchase100), else
// MakePurchase100Surrogate ("purchase100-surrogate" in every caption).
// Sampling is Poisson (every accountant assumes it; J&E used shuffled
// passes), recorded in the metadata and the captions.
//
// Sweep (experiments/sweep.h): one work unit per (noise level, repetition),
// the baseline included; --shard=i/n runs every n-th unit, parts go to
// <parts_dir>/region_of_privacy/, a rerun skips complete units, and the
// study file is assembled when every part exists (--merge_only assembles
// without training). An incomplete sweep ends with SkipOutput (exit 0, no
// study file).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "attacks/loss_threshold.h"
#include "core/result.h"
#include "core/seeding.h"
#include "core/validate.h"
#include "data_scripts/dataset.h"
#include "data_scripts/purchase100.h"
#include "data_scripts/purchase100_surrogate.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/summary_bounds.h"
#include "experiments/region_of_privacy_analysis.h"
#include "experiments/region_of_privacy_unit.h"
#include "experiments/framework/study.h"
#include "experiments/framework/sweep.h"

namespace privbench {
namespace {

constexpr const char* kStudy = "region_of_privacy";

struct Config {
  std::string data = "auto";  // auto | purchase100 | surrogate
  std::string data_dir;       // Purchase-100 directory (empty: PRIVBENCH_DATA_DIR, fallbacks)
  int64_t surrogate_model_seed = 0;
  int64_t n_train = 10000;
  int64_t n_population = 10000;
  std::vector<double> noise_multipliers = {136.67, 13.76, 6.99, 1.06, 0.44};
  int64_t repetitions = 5;
  int64_t epochs = 100;
  int64_t batch_size = 200;
  double learning_rate = 0.01;
  std::string optimizer = "adam";  // J&E's code: TF Privacy DPAdamGaussianOptimizer
  double momentum = 0.9;
  double clip_norm = 1.0;
  double weight_decay = 1e-5;
  double delta = 1e-5;
  double target_fpr = 0.05;
  std::string shard = "0/1";
  std::string parts_dir;
  bool merge_only = false;
};

Config Defaults(Scale scale) {
  Config c;
  c.parts_dir = DefaultPartsDir();
  switch (scale) {
    case Scale::kPaper:
      break;  // the paper's: 5 trials of 100 epochs
    case Scale::kQuick:
      // The paper's models (100 epochs, 5,000 steps: ~12 s of CPU each), 2
      // repetitions instead of 5: 12 units, about 1.5-2.5 minutes on 2 cores.
      c.repetitions = 2;
      break;
    case Scale::kTest:
      c.n_train = 300;
      c.n_population = 300;
      c.batch_size = 30;
      c.epochs = 3;
      c.repetitions = 2;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddString("data", &c.data,
              "auto (real Purchase-100 if it loads, else the surrogate) | purchase100 | "
              "surrogate");
  f.AddString("data_dir", &c.data_dir,
              "directory of the real Purchase-100 (empty: PRIVBENCH_DATA_DIR, then fallbacks)");
  f.AddInt("surrogate_model_seed", &c.surrogate_model_seed,
           "seed of the purchase100-surrogate generative model (0: the calibrated one)");
  f.AddInt("n_train", &c.n_train, "training (member) records per repetition (J&E: 10,000)");
  f.AddInt("n_population", &c.n_population,
           "population (non-member) records per repetition for the attack");
  f.AddDoubleList("noise_multipliers", &c.noise_multipliers,
                  "DP-SGD noise multipliers (B8 / Table 1); a non-private baseline is added");
  f.AddInt("repetitions", &c.repetitions, "trials per noise level (the paper averaged 5)");
  f.AddInt("epochs", &c.epochs, "epochs; steps = ceil(epochs * n_train / batch_size)");
  f.AddInt("batch_size", &c.batch_size, "expected batch size (Poisson rate q = batch/n_train)");
  f.AddDouble("learning_rate", &c.learning_rate, "SGD learning rate");
  f.AddString("optimizer", &c.optimizer,
              "adam (Jayaraman & Evans' code: DPAdamGaussianOptimizer) or momentum_sgd");
  f.AddDouble("momentum", &c.momentum, "momentum of momentum_sgd");
  f.AddDouble("clip_norm", &c.clip_norm, "per-example clipping norm C");
  f.AddDouble("weight_decay", &c.weight_decay, "L2 penalty added to the gradient (J&E: 1e-5)");
  f.AddDouble("delta", &c.delta, "delta of the upper and lower bounds");
  f.AddDouble("target_fpr", &c.target_fpr, "false-positive rate of the reported TPR (Table 1: 5%)");
  f.AddString("shard", &c.shard, "i/n: run units k with k mod n == i");
  f.AddString("parts_dir", &c.parts_dir, "directory of the sweep's per-unit parts");
  f.AddBool("merge_only", &c.merge_only,
            "assemble the study file from existing parts, training nothing");
}

Status Validate(const Config& c) {
  if (c.data != "auto" && c.data != "purchase100" && c.data != "surrogate") {
    return Error("data must be auto, purchase100 or surrogate, got '" + c.data + "'");
  }
  if (c.surrogate_model_seed < 0) {
    return Error("surrogate_model_seed must be >= 0, got " +
                 std::to_string(c.surrogate_model_seed));
  }
  if (c.n_train < 2) return Error("n_train must be >= 2, got " + std::to_string(c.n_train));
  PB_RETURN_IF_ERROR(CheckPositiveCount("n_population", c.n_population));
  if (c.noise_multipliers.size() < 2) {
    return Error("noise_multipliers must list at least 2 values, got " +
                 std::to_string(c.noise_multipliers.size()));
  }
  for (double s : c.noise_multipliers) PB_RETURN_IF_ERROR(CheckPositive("noise_multipliers", s));
  std::vector<double> sorted = c.noise_multipliers;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    return Error("noise_multipliers must be distinct");
  }
  PB_RETURN_IF_ERROR(CheckPositiveCount("repetitions", c.repetitions));
  PB_RETURN_IF_ERROR(CheckPositiveCount("epochs", c.epochs));
  PB_RETURN_IF_ERROR(CheckPositiveCount("batch_size", c.batch_size));
  if (c.batch_size >= c.n_train) {
    return Error("batch_size must be < n_train (sampling rate q < 1), got " +
                 std::to_string(c.batch_size) + " >= " + std::to_string(c.n_train));
  }
  PB_RETURN_IF_ERROR(CheckPositive("learning_rate", c.learning_rate));
  if (c.optimizer != "adam" && c.optimizer != "momentum_sgd") {
    return Error("optimizer must be adam or momentum_sgd, got '" + c.optimizer + "'");
  }
  if (!(c.momentum >= 0.0 && c.momentum < 1.0)) {
    return Error("momentum must be in [0, 1), got " + FormatDouble(c.momentum));
  }
  PB_RETURN_IF_ERROR(CheckPositive("clip_norm", c.clip_norm));
  PB_RETURN_IF_ERROR(CheckNonNegative("weight_decay", c.weight_decay));
  PB_RETURN_IF_ERROR(CheckFinite("weight_decay", c.weight_decay));
  if (!(c.delta > 0.0 && c.delta < 1.0)) {
    return Error("delta must be in (0, 1), got " + FormatDouble(c.delta));
  }
  if (!(c.target_fpr > 0.0 && c.target_fpr < 1.0)) {
    return Error("target_fpr must be in (0, 1), got " + FormatDouble(c.target_fpr));
  }
  PB_RETURN_IF_ERROR(ParseShard(c.shard).status());
  if (c.parts_dir.empty()) return Error("parts_dir must be non-empty");
  return Status::Ok();
}

// Noise levels, largest noise first (Table 1's order).
std::vector<double> SortedNoise(const Config& c) {
  std::vector<double> s = c.noise_multipliers;
  std::sort(s.begin(), s.end(), std::greater<double>());
  return s;
}

// ---------------------------------------------------------------- data --

struct DataChoice {
  bool real = false;       // real Purchase-100, else the surrogate
  std::string resolution;  // how --data was resolved, for /meta
};

Purchase100Options RealOptions(const Config& c, uint64_t seed, int64_t rep) {
  Purchase100Options o;
  o.data_dir = c.data_dir;
  o.n_train = c.n_train;
  o.n_population = c.n_population;
  o.seed = DeriveSeed(seed, {0, static_cast<uint64_t>(rep)});
  return o;
}

SurrogateOptions SurrogateFor(const Config& c, uint64_t seed, int64_t rep) {
  SurrogateOptions o;
  o.n_train = c.n_train;
  o.n_population = c.n_population;
  o.seed = static_cast<uint64_t>(c.surrogate_model_seed);
  o.sample_stream = DeriveSeed(seed, {0, static_cast<uint64_t>(rep)});
  return o;
}

// One dataset per repetition (fresh train / population records), loaded
// once per process and shared by that repetition's units.
class DataCache {
 public:
  DataCache(const Config& c, uint64_t seed, bool real) : c_(c), seed_(seed), real_(real) {}
  void Put(int64_t rep, Dataset d) {
    std::lock_guard<std::mutex> lock(mu_);
    cache_[rep] = std::make_shared<const Dataset>(std::move(d));
  }
  Result<std::shared_ptr<const Dataset>> Get(int64_t rep) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(rep);
    if (it != cache_.end()) return it->second;
    Result<Dataset> d = real_ ? LoadPurchase100(RealOptions(c_, seed_, rep))
                              : MakePurchase100Surrogate(SurrogateFor(c_, seed_, rep));
    if (!d.ok()) return d.status();
    auto p = std::make_shared<const Dataset>(std::move(d).value());
    cache_[rep] = p;
    return p;
  }

 private:
  const Config& c_;
  uint64_t seed_;
  bool real_;
  std::mutex mu_;
  std::map<int64_t, std::shared_ptr<const Dataset>> cache_;
};

// --data=auto uses the real data when its file is present (its
// repetition-0 split is kept) and the surrogate only when it is absent: a
// present but corrupt or unverifiable file is an error, never a silent
// fallback.
Result<DataChoice> ResolveData(const Config& c, uint64_t seed, DataCache* real_cache) {
  DataChoice choice;
  if (c.data == "surrogate") {
    choice.resolution = "--data=surrogate: purchase100-surrogate";
    return choice;
  }
  if (c.data == "auto" && !Purchase100Present(RealOptions(c, seed, 0))) {
    choice.resolution =
        "--data=auto: no real Purchase-100 file found (data_scripts/download_purchase100.py "
        "fetches it); using purchase100-surrogate";
    return choice;
  }
  Result<Dataset> d = LoadPurchase100(RealOptions(c, seed, 0));
  if (d.ok()) {
    choice.real = true;
    choice.resolution = "--data=" + c.data + ": real Purchase-100 loaded (" + d->provenance + ")";
    real_cache->Put(0, std::move(d).value());
    return choice;
  }
  return Error("--data=" + c.data +
               ": the real Purchase-100 is present but did not load: " + d.message());
}

// ---------------------------------------------------------------- units --

struct UnitKey {
  int64_t level = 0;  // 0 = non-private baseline, 1..L = SortedNoise()[level - 1]
  int64_t rep = 0;
};

std::string UnitId(const std::vector<double>& noise, const UnitKey& k) {
  const std::string level = k.level == 0 ? "baseline" : "sigma=" + NoiseText(noise[k.level - 1]);
  return level + "_rep=" + std::to_string(k.rep);
}

// Repetition-major, so that a complete first repetition exists early.
std::vector<UnitKey> MakeUnits(const Config& c) {
  std::vector<UnitKey> keys;
  const int64_t levels = static_cast<int64_t>(c.noise_multipliers.size()) + 1;
  for (int64_t r = 0; r < c.repetitions; ++r) {
    for (int64_t l = 0; l < levels; ++l) keys.push_back({l, r});
  }
  return keys;
}

// Everything a part depends on (not the list of levels or repetitions:
// those are in the unit ids, so adding repetitions reuses the parts).
std::string SweepConfigText(const Config& c, uint64_t seed, const DataChoice& data) {
  std::string t;
  auto add = [&](const std::string& k, const std::string& v) { t += k + " = " + v + "\n"; };
  add("study", kStudy);
  add("part_format", "2");  // bump when a part's layout changes
  add("data", data.real ? "purchase100" : "purchase100-surrogate");
  if (!data.real) add("surrogate_model_seed", std::to_string(c.surrogate_model_seed));
  add("seed", std::to_string(seed));
  add("n_train", std::to_string(c.n_train));
  add("n_population", std::to_string(c.n_population));
  add("epochs", std::to_string(c.epochs));
  add("batch_size", std::to_string(c.batch_size));
  add("learning_rate", FormatDouble(c.learning_rate));
  add("optimizer", c.optimizer);
  add("momentum", FormatDouble(c.momentum));
  add("clip_norm", FormatDouble(c.clip_norm));
  add("weight_decay", FormatDouble(c.weight_decay));
  add("sampling", "poisson");
  add("model", "logistic_regression");
  return t;
}

Status RunUnit(const Config& c, uint64_t seed, const std::vector<double>& noise, const UnitKey& k,
               DataCache& cache, ResultWriter& part) {
  const auto start = std::chrono::steady_clock::now();
  PB_ASSIGN_OR_RETURN(std::shared_ptr<const Dataset> data, cache.Get(k.rep));
  RopTrainingOptions o;
  o.private_training = k.level > 0;
  o.noise_multiplier = k.level > 0 ? noise[k.level - 1] : 0.0;
  o.clip_norm = c.clip_norm;
  o.batch_size = c.batch_size;
  o.epochs = c.epochs;
  o.learning_rate = c.learning_rate;
  o.optimizer = c.optimizer;
  o.momentum = c.momentum;
  o.weight_decay = c.weight_decay;
  // Common random numbers: every level of a repetition starts from the same
  // weights and sees the same batches and the same standard-normal draws
  // (scaled by its sigma), so differences between levels are not sampling
  // noise of the runs.
  o.train_seed = DeriveSeed(seed, {1, static_cast<uint64_t>(k.rep)});
  o.init_seed = DeriveSeed(seed, {2, static_cast<uint64_t>(k.rep)});
  PB_ASSIGN_OR_RETURN(RopUnitOutcome u, TrainRegionUnit(*data, o));
  if (o.private_training && !u.eps_reportable) {
    return Error("internal: a Poisson-sampled private run must be eps-reportable");
  }
  PB_RETURN_IF_ERROR(part.WriteDoubles("/train_loss", u.train_losses));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/population_loss", u.population_losses));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/loss_per_epoch", u.loss_per_epoch));
  PB_RETURN_IF_ERROR(part.WriteScalar("/train_accuracy", u.train_accuracy));
  PB_RETURN_IF_ERROR(part.WriteScalar("/population_accuracy", u.population_accuracy));
  std::string keys;
  for (const auto& kv : u.record_metadata) {
    PB_RETURN_IF_ERROR(part.SetAttribute("/training", kv.first, kv.second));
    keys += (keys.empty() ? "" : ",") + kv.first;
  }
  PB_RETURN_IF_ERROR(part.SetAttribute("/training", "metadata_keys", keys));
  PB_RETURN_IF_ERROR(part.SetAttribute("/training", "q_value", u.q));
  PB_RETURN_IF_ERROR(part.SetAttribute("/training", "steps_value", u.steps));
  PB_RETURN_IF_ERROR(part.SetAttribute("/training", "accounting_noise_multiplier_value",
                                       u.accounting_noise_multiplier));
  PB_RETURN_IF_ERROR(part.SetAttribute("/training", "eps_reportable_value",
                                       static_cast<int64_t>(u.eps_reportable ? 1 : 0)));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "dataset_provenance", data->provenance));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "dataset_source", data->source));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "dataset_checksums", data->checksums));
  std::string notes;
  for (const std::string& n : data->notes) notes += n + "\n";
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "dataset_notes", notes));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "torch_version", RegionTorchVersion()));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return part.SetAttribute("/meta", "unit_seconds", seconds);
}

// ---------------------------------------------------------------- merge --

// One trained model, read back from its part, with its attack.
struct Model {
  double train_accuracy = 0.0, population_accuracy = 0.0;
  std::vector<double> train_loss, population_loss, loss_per_epoch;
  double q = 0.0, accounting_sigma = 0.0;
  int64_t steps = 0;
  bool eps_reportable = false;
  double unit_seconds = 0.0;
  std::string provenance, source, checksums, notes, sampling, accounting_rule, architecture,
      torch_version;
  std::vector<std::pair<std::string, std::string>> record;  // TrainingRecord::Metadata()
  // Attack.
  double tpr_at_target = 0.0, fpr_at_target = 0.0, members_recovered = 0.0;
  double best_advantage = 0.0, best_tpr = 0.0, best_fpr = 0.0, best_threshold_loss = 0.0;
  double auc = 0.0, avg_loss_tpr = 0.0, avg_loss_fpr = 0.0;
  double eps_lower_best = 0.0, eps_lower_target = 0.0;
};

Result<Model> ReadModel(const ResultReader& p, const Config& c) {
  Model m;
  PB_ASSIGN_OR_RETURN(auto acc, p.ReadDoubles("/train_accuracy"));
  PB_ASSIGN_OR_RETURN(auto pacc, p.ReadDoubles("/population_accuracy"));
  m.train_accuracy = acc.at(0);
  m.population_accuracy = pacc.at(0);
  PB_ASSIGN_OR_RETURN(m.train_loss, p.ReadDoubles("/train_loss"));
  PB_ASSIGN_OR_RETURN(m.population_loss, p.ReadDoubles("/population_loss"));
  PB_ASSIGN_OR_RETURN(m.loss_per_epoch, p.ReadDoubles("/loss_per_epoch"));
  PB_ASSIGN_OR_RETURN(m.q, p.ReadDoubleAttribute("/training", "q_value"));
  PB_ASSIGN_OR_RETURN(m.steps, p.ReadIntAttribute("/training", "steps_value"));
  PB_ASSIGN_OR_RETURN(m.accounting_sigma,
                      p.ReadDoubleAttribute("/training", "accounting_noise_multiplier_value"));
  PB_ASSIGN_OR_RETURN(int64_t rep, p.ReadIntAttribute("/training", "eps_reportable_value"));
  m.eps_reportable = rep != 0;
  PB_ASSIGN_OR_RETURN(m.sampling, p.ReadStringAttribute("/training", "sampling"));
  PB_ASSIGN_OR_RETURN(m.accounting_rule, p.ReadStringAttribute("/training", "accounting_rule"));
  PB_ASSIGN_OR_RETURN(m.architecture, p.ReadStringAttribute("/training", "architecture"));
  PB_ASSIGN_OR_RETURN(std::string keys, p.ReadStringAttribute("/training", "metadata_keys"));
  for (size_t pos = 0; pos < keys.size();) {
    size_t end = keys.find(',', pos);
    if (end == std::string::npos) end = keys.size();
    const std::string key = keys.substr(pos, end - pos);
    PB_ASSIGN_OR_RETURN(std::string value, p.ReadStringAttribute("/training", key));
    m.record.emplace_back(key, value);
    pos = end + 1;
  }
  PB_ASSIGN_OR_RETURN(m.unit_seconds, p.ReadDoubleAttribute("/meta", "unit_seconds"));
  PB_ASSIGN_OR_RETURN(m.provenance, p.ReadStringAttribute("/meta", "dataset_provenance"));
  PB_ASSIGN_OR_RETURN(m.source, p.ReadStringAttribute("/meta", "dataset_source"));
  PB_ASSIGN_OR_RETURN(m.checksums, p.ReadStringAttribute("/meta", "dataset_checksums"));
  PB_ASSIGN_OR_RETURN(m.notes, p.ReadStringAttribute("/meta", "dataset_notes"));
  PB_ASSIGN_OR_RETURN(m.torch_version, p.ReadStringAttribute("/meta", "torch_version"));
  if (static_cast<int64_t>(m.train_loss.size()) != c.n_train ||
      static_cast<int64_t>(m.population_loss.size()) != c.n_population) {
    return Error("part " + p.path() + " has " + std::to_string(m.train_loss.size()) + " / " +
                 std::to_string(m.population_loss.size()) + " losses, expected " +
                 std::to_string(c.n_train) + " / " + std::to_string(c.n_population));
  }
  PB_ASSIGN_OR_RETURN(LossAttackResult a,
                      LossThresholdAttack(m.train_loss, m.population_loss, c.target_fpr));
  m.tpr_at_target = a.at_target_fpr.tpr();
  m.fpr_at_target = a.at_target_fpr.fpr();
  m.members_recovered = static_cast<double>(a.at_target_fpr.counts.tp);
  m.best_advantage = a.best_advantage.advantage();
  m.best_tpr = a.best_advantage.tpr();
  m.best_fpr = a.best_advantage.fpr();
  m.best_threshold_loss = -a.best_advantage.threshold;
  m.auc = a.roc.auc;
  m.avg_loss_tpr = a.average_loss.tpr();
  m.avg_loss_fpr = a.average_loss.fpr();
  PB_ASSIGN_OR_RETURN(m.eps_lower_best, EpsFromAdvantage(m.best_advantage, c.delta));
  PB_ASSIGN_OR_RETURN(m.eps_lower_target, EpsFromAdvantage(a.at_target_fpr.advantage(), c.delta));
  return m;
}

double Mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// The upper bounds of one noise level.
struct Bounds {
  std::map<std::string, double> table_one;  // every registered accountant, Table 1 orders
  std::map<std::string, double> table_one_order;
  double rdp_default = 0.0, rdp_default_order = 0.0;
  double rdp_improved_default = 0.0, rdp_improved_default_order = 0.0;
  double rdp_best() const { return std::min(table_one.at("rdp"), rdp_default); }
};

Result<Bounds> Account(double sigma, double q, int64_t steps, double delta) {
  Bounds b;
  DpSgdAccounting s;
  s.sigma = sigma;
  s.q = q;
  s.steps = steps;
  s.delta = delta;
  s.orders = TableOneRdpOrders();
  for (const std::string& name : AllAccountantNames()) {
    PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant(name));
    PB_ASSIGN_OR_RETURN(AccountantResult r, acc->Epsilon(s));
    b.table_one[name] = r.epsilon;
    b.table_one_order[name] = r.order.value_or(NAN);
  }
  s.orders = DefaultRdpOrders();
  {
    PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant("rdp"));
    PB_ASSIGN_OR_RETURN(AccountantResult r, acc->Epsilon(s));
    b.rdp_default = r.epsilon;
    b.rdp_default_order = r.order.value_or(NAN);
  }
  {
    PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant("rdp_improved"));
    PB_ASSIGN_OR_RETURN(AccountantResult r, acc->Epsilon(s));
    b.rdp_improved_default = r.epsilon;
    b.rdp_improved_default_order = r.order.value_or(NAN);
  }
  return b;
}

std::string LostParameters(const Config& c, const DataChoice& data) {
  std::string s =
      "optimizer: not stated in the paper; J&E's code trains with Adam (TF Privacy "
      "DPAdamGaussianOptimizer), used here: " +
      c.optimizer + " (momentum " + FormatDouble(c.momentum) + " if momentum_sgd), learning rate " +
      FormatDouble(c.learning_rate) +
      " (the eps upper bounds do not depend on the optimiser; accuracy and attack rates "
      "do); sampling: Poisson at q = batch/N (what every accountant assumes) instead of J&E's "
      "shuffled passes, steps = ceil(epochs N / batch); L2 penalty " +
      FormatDouble(c.weight_decay) +
      " added to the gradient as weight decay on every parameter (J&E: Keras kernel "
      "regularizer, which TF Privacy's vector loss may not have included); per-example "
      "clipping at C = " +
      FormatDouble(c.clip_norm) +
      " (J&E's 2019 code; later versions used C = 4); initial weights Glorot-uniform (Keras "
      "default); the TPR at " +
      FormatDouble(100 * c.target_fpr) +
      "% FPR uses the threshold chosen on the same non-member sample it is evaluated on (J&E's "
      "reporting), the best-advantage threshold is chosen on the same members and "
      "non-members (Sec. 5.3-5.4: uses the labels); rates averaged over " +
      std::to_string(c.repetitions) + " repetitions (paper: 5 trials), each a fresh draw of " +
      std::to_string(c.n_train) + " training and " + std::to_string(c.n_population) +
      " population records with its own initialisation and batches, shared by the noise "
      "levels of that repetition (common random numbers); Prop. 3 lower bounds from the "
      "advantage averaged over repetitions; accuracy relative to baseline = mean DP training "
      "accuracy / mean non-private training accuracy; data: ";
  if (data.real) {
    s += "real Purchase-100 (Shokri et al.'s 197,324 x 600 binary file), " +
         std::to_string(c.n_train) + " training and " + std::to_string(c.n_population) +
         " population rows drawn uniformly without replacement per repetition; J&E's own "
         "preprocessing and sampling scripts were not reproduced";
  } else {
    s += "purchase100-surrogate (synthetic stand-in, generative model seed " +
         std::to_string(c.surrogate_model_seed) +
         ", fresh records per repetition): absolute accuracies and attack rates are NOT "
         "comparable with the paper's Purchase-100 numbers";
  }
  return s;
}

struct Writer {
  ResultWriter& out;
  Status Number(const std::string& id, double v) {
    return out.WriteScalar("/numbers/" + std::string(kStudy) + "_" + id, v);
  }
};

Status Merge(const Config& c, const std::vector<double>& noise, const std::vector<UnitKey>& keys,
             const std::vector<std::unique_ptr<ResultReader>>& parts, const DataChoice& data,
             StudyContext& ctx) {
  const int64_t L = static_cast<int64_t>(noise.size());
  const int64_t R = c.repetitions;
  // models[level][rep], level 0 = baseline.
  std::vector<std::vector<Model>> models(L + 1, std::vector<Model>(R));
  double total_seconds = 0.0;
  for (size_t u = 0; u < keys.size(); ++u) {
    PB_ASSIGN_OR_RETURN(Model m, ReadModel(*parts[u], c));
    total_seconds += m.unit_seconds;
    models[keys[u].level][keys[u].rep] = std::move(m);
  }
  const Model& first = models[0][0];
  for (const auto& row : models) {
    for (const Model& m : row) {
      if (m.provenance != first.provenance) {
        return Error("parts mix datasets: " + m.provenance + " and " + first.provenance);
      }
    }
  }
  const std::string prov = first.provenance;
  const bool surrogate = prov == "purchase100-surrogate";
  ResultWriter& out = ctx.out();
  Writer w{out};

  // ---- metadata
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "dataset_provenance", prov));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "dataset_source", first.source));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "dataset_checksums", first.checksums));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "dataset_notes", first.notes));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "data_resolution", data.resolution));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "lost_parameters", LostParameters(c, data)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "torch_version", first.torch_version));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "library_versions",
                                      LibraryVersions() + "; " + first.torch_version));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "architecture", first.architecture));
  PB_RETURN_IF_ERROR(out.SetAttribute(
      "/meta", "sampling",
      "poisson (rate q = batch_size / n_train; every accountant assumes it). Jayaraman & "
      "Evans trained with shuffled passes of fixed-size batches."));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "accounting_rule", models[1][0].accounting_rule));
  PB_RETURN_IF_ERROR(out.SetAttribute(
      "/meta", "calibration",
      "none: the models are trained at the fixed noise multipliers of B8 / Table 1; upper "
      "bounds are computed for the noise actually used (accounting_noise_multiplier = sigma, "
      "per-example clipping, so TF Privacy 0.5.1's and the current rule agree)"));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "unit_seconds_total", total_seconds));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "sweep_parts_dir", c.parts_dir));
  PB_RETURN_IF_ERROR(
      out.SetAttribute("/meta", "sweep_part_versions", DescribePartVersions(parts).description));

  // ---- every level's training record (repetition 0; the repetitions differ
  // only in their seeds), from TrainingRecord::Metadata()
  for (int64_t l = 0; l <= L; ++l) {
    const std::string g =
        "/training/" + (l == 0 ? std::string("baseline") : "sigma=" + NoiseText(noise[l - 1]));
    for (const auto& [key, value] : models[l][0].record) {
      PB_RETURN_IF_ERROR(out.SetAttribute(g, key, value));
    }
  }

  // ---- raw per-run data
  const uint64_t uL = static_cast<uint64_t>(L), uR = static_cast<uint64_t>(R);
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/noise_multiplier", noise));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "repetitions", R));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "n_train", c.n_train));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "n_population", c.n_population));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "epochs", c.epochs));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "steps", models[1][0].steps));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "q", models[1][0].q));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "delta", c.delta));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "target_fpr", c.target_fpr));
  PB_RETURN_IF_ERROR(out.SetAttribute(
      "/settings", "layout",
      "/dp/<quantity> has shape (levels, repetitions), levels ordered as "
      "/settings/noise_multiplier (largest noise first); /baseline/<quantity> has shape "
      "(repetitions,); /losses/* hold every per-example cross-entropy loss"));

  using Getter = double (*)(const Model&);
  const std::vector<std::pair<std::string, Getter>> quantities = {
      {"train_accuracy", [](const Model& m) { return m.train_accuracy; }},
      {"population_accuracy", [](const Model& m) { return m.population_accuracy; }},
      {"mean_train_loss", [](const Model& m) { return Mean(m.train_loss); }},
      {"mean_population_loss", [](const Model& m) { return Mean(m.population_loss); }},
      {"tpr_at_target_fpr", [](const Model& m) { return m.tpr_at_target; }},
      {"fpr_at_target_fpr", [](const Model& m) { return m.fpr_at_target; }},
      {"members_recovered_at_target_fpr", [](const Model& m) { return m.members_recovered; }},
      {"best_advantage", [](const Model& m) { return m.best_advantage; }},
      {"best_advantage_tpr", [](const Model& m) { return m.best_tpr; }},
      {"best_advantage_fpr", [](const Model& m) { return m.best_fpr; }},
      {"best_advantage_threshold_loss", [](const Model& m) { return m.best_threshold_loss; }},
      {"auc", [](const Model& m) { return m.auc; }},
      {"average_loss_attack_tpr", [](const Model& m) { return m.avg_loss_tpr; }},
      {"average_loss_attack_fpr", [](const Model& m) { return m.avg_loss_fpr; }},
      {"eps_lower_best_advantage", [](const Model& m) { return m.eps_lower_best; }},
      {"eps_lower_target_fpr", [](const Model& m) { return m.eps_lower_target; }},
  };
  for (const auto& [name, get] : quantities) {
    std::vector<double> dp, base;
    for (int64_t l = 1; l <= L; ++l) {
      for (int64_t r = 0; r < R; ++r) dp.push_back(get(models[l][r]));
    }
    for (int64_t r = 0; r < R; ++r) base.push_back(get(models[0][r]));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/dp/" + name, dp, {uL, uR}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/baseline/" + name, base));
  }
  {
    const uint64_t nt = static_cast<uint64_t>(c.n_train);
    const uint64_t np = static_cast<uint64_t>(c.n_population);
    const uint64_t ne = static_cast<uint64_t>(first.loss_per_epoch.size());
    std::vector<double> dt, dpop, bt, bpop, dep, bep;
    for (int64_t l = 0; l <= L; ++l) {
      for (int64_t r = 0; r < R; ++r) {
        const Model& m = models[l][r];
        auto& t = l == 0 ? bt : dt;
        auto& p = l == 0 ? bpop : dpop;
        auto& e = l == 0 ? bep : dep;
        t.insert(t.end(), m.train_loss.begin(), m.train_loss.end());
        p.insert(p.end(), m.population_loss.begin(), m.population_loss.end());
        e.insert(e.end(), m.loss_per_epoch.begin(), m.loss_per_epoch.end());
      }
    }
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/dp_train", dt, {uL, uR, nt}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/dp_population", dpop, {uL, uR, np}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/baseline_train", bt, {uR, nt}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/losses/baseline_population", bpop, {uR, np}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/dp/loss_per_epoch", dep, {uL, uR, ne}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/baseline/loss_per_epoch", bep, {uR, ne}));
  }

  // ---- upper bounds at the noise actually used
  std::vector<Bounds> bounds;
  for (int64_t l = 1; l <= L; ++l) {
    const Model& m = models[l][0];
    for (int64_t r = 0; r < R; ++r) {
      const Model& o = models[l][r];
      if (!o.eps_reportable) {
        return Error("run at sigma " + NoiseText(noise[l - 1]) +
                     " is not eps-reportable (sampling " + o.sampling + ")");
      }
      if (o.q != m.q || o.steps != m.steps || o.accounting_sigma != m.accounting_sigma) {
        return Error("repetitions of sigma " + NoiseText(noise[l - 1]) +
                     " differ in q, steps or accounting noise multiplier");
      }
    }
    PB_ASSIGN_OR_RETURN(Bounds b, Account(m.accounting_sigma, m.q, m.steps, c.delta));
    bounds.push_back(std::move(b));
  }
  const std::vector<std::string> accountants = AllAccountantNames();
  auto column = [&](auto get) {
    std::vector<double> v;
    for (const Bounds& b : bounds) v.push_back(get(b));
    return v;
  };
  for (const std::string& name : accountants) {
    PB_RETURN_IF_ERROR(
        out.WriteDoubles("/accounting/table_one_orders/" + name + "/epsilon",
                         column([&](const Bounds& b) { return b.table_one.at(name); })));
    PB_RETURN_IF_ERROR(
        out.WriteDoubles("/accounting/table_one_orders/" + name + "/order",
                         column([&](const Bounds& b) { return b.table_one_order.at(name); })));
  }
  PB_RETURN_IF_ERROR(out.WriteDoubles("/accounting/default_orders/rdp/epsilon",
                                      column([](const Bounds& b) { return b.rdp_default; })));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/accounting/default_orders/rdp/order",
                                      column([](const Bounds& b) { return b.rdp_default_order; })));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/accounting/default_orders/rdp_improved/epsilon",
                       column([](const Bounds& b) { return b.rdp_improved_default; })));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/accounting/default_orders/rdp_improved/order",
                       column([](const Bounds& b) { return b.rdp_improved_default_order; })));
  {
    std::vector<double> acc_sigma;
    for (int64_t l = 1; l <= L; ++l) acc_sigma.push_back(models[l][0].accounting_sigma);
    PB_RETURN_IF_ERROR(out.WriteDoubles("/accounting/accounting_noise_multiplier", acc_sigma));
    PB_RETURN_IF_ERROR(out.SetAttribute("/accounting", "q", models[1][0].q));
    PB_RETURN_IF_ERROR(out.SetAttribute("/accounting", "steps", models[1][0].steps));
    PB_RETURN_IF_ERROR(out.SetAttribute("/accounting", "delta", c.delta));
    PB_RETURN_IF_ERROR(out.SetAttribute(
        "/accounting", "orders",
        "table_one_orders: TableOneRdpOrders() (1.25..63, 128, 256, 512, as Table 1); "
        "default_orders: DefaultRdpOrders() (1.01..16384); all accountants assume Poisson "
        "sampling at rate q, which these runs used"));
  }

  // ---- per-level aggregates
  auto dp_values = [&](int64_t l, Getter get) {
    std::vector<double> v;
    for (int64_t r = 0; r < R; ++r) v.push_back(get(models[l][r]));
    return v;
  };
  const Getter acc_get = [](const Model& m) { return m.train_accuracy; };
  const Getter tpr_get = [](const Model& m) { return m.tpr_at_target; };
  const Getter best_get = [](const Model& m) { return m.best_advantage; };
  const Getter target_adv_get = [](const Model& m) { return m.tpr_at_target - m.fpr_at_target; };
  const Getter recovered_get = [](const Model& m) { return m.members_recovered; };
  const Getter loss_get = [](const Model& m) { return Mean(m.train_loss); };
  const Getter pacc_get = [](const Model& m) { return m.population_accuracy; };

  PB_ASSIGN_OR_RETURN(RateSummary base_acc, SummariseRate(dp_values(0, acc_get), c.n_train));
  PB_ASSIGN_OR_RETURN(RateSummary base_tpr, SummariseRate(dp_values(0, tpr_get), c.n_train));
  const double base_best = Mean(dp_values(0, best_get));
  const double base_target_adv = Mean(dp_values(0, target_adv_get));
  PB_ASSIGN_OR_RETURN(double base_eps_best, EpsFromAdvantage(base_best, c.delta));
  PB_ASSIGN_OR_RETURN(double base_eps_target, EpsFromAdvantage(base_target_adv, c.delta));
  PB_ASSIGN_OR_RETURN(double null_mean, NullMeanBestAdvantage(c.n_train, c.n_population));
  PB_ASSIGN_OR_RETURN(double null_q95, NullQuantileBestAdvantage(c.n_train, c.n_population, 0.95));

  std::vector<double> acc_mean, acc_se, acc_rel, pacc_mean, tpr_mean, tpr_se, recovered, loss_mean,
      best_mean, target_adv_mean, eps_lo_best, eps_lo_target, eps_lo_best_max_rep;
  for (int64_t l = 1; l <= L; ++l) {
    PB_ASSIGN_OR_RETURN(RateSummary a, SummariseRate(dp_values(l, acc_get), c.n_train));
    PB_ASSIGN_OR_RETURN(RateSummary t, SummariseRate(dp_values(l, tpr_get), c.n_train));
    acc_mean.push_back(a.mean);
    acc_se.push_back(a.se);
    acc_rel.push_back(base_acc.mean > 0 ? a.mean / base_acc.mean : NAN);
    pacc_mean.push_back(Mean(dp_values(l, pacc_get)));
    tpr_mean.push_back(t.mean);
    tpr_se.push_back(t.se);
    recovered.push_back(Mean(dp_values(l, recovered_get)));
    loss_mean.push_back(Mean(dp_values(l, loss_get)));
    best_mean.push_back(Mean(dp_values(l, best_get)));
    target_adv_mean.push_back(Mean(dp_values(l, target_adv_get)));
    PB_ASSIGN_OR_RETURN(double lb, EpsFromAdvantage(best_mean.back(), c.delta));
    PB_ASSIGN_OR_RETURN(double lt, EpsFromAdvantage(target_adv_mean.back(), c.delta));
    eps_lo_best.push_back(lb);
    eps_lo_target.push_back(lt);
    double mx = 0.0;
    for (int64_t r = 0; r < R; ++r) mx = std::max(mx, models[l][r].eps_lower_best);
    eps_lo_best_max_rep.push_back(mx);
  }
  auto table_one = [&](const std::string& name) {
    return column([&](const Bounds& b) { return b.table_one.at(name); });
  };
  const std::vector<double> eps_naive = table_one("naive");
  const std::vector<double> eps_adv = table_one("advanced");
  const std::vector<double> eps_zcdp = table_one("zcdp");
  const std::vector<double> eps_rdp = table_one("rdp");
  const std::vector<double> eps_rdp_def = column([](const Bounds& b) { return b.rdp_default; });
  const std::vector<double> eps_rdp_best = column([](const Bounds& b) { return b.rdp_best(); });

  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/train_accuracy_mean", acc_mean));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/train_accuracy_se", acc_se));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/accuracy_rel_baseline", acc_rel));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/population_accuracy_mean", pacc_mean));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/tpr_at_target_fpr_mean", tpr_mean));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/tpr_at_target_fpr_se", tpr_se));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/best_advantage_mean", best_mean));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/advantage_at_target_fpr_mean", target_adv_mean));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/eps_lower_best_advantage", eps_lo_best));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/eps_lower_target_fpr", eps_lo_target));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/aggregate/eps_lower_best_advantage_max_over_reps", eps_lo_best_max_rep));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/mean_train_loss", loss_mean));
  PB_RETURN_IF_ERROR(out.WriteScalar("/aggregate/baseline_train_accuracy_mean", base_acc.mean));
  PB_RETURN_IF_ERROR(out.WriteScalar("/aggregate/baseline_tpr_at_target_fpr_mean", base_tpr.mean));
  PB_RETURN_IF_ERROR(out.WriteScalar("/aggregate/baseline_best_advantage_mean", base_best));
  PB_RETURN_IF_ERROR(
      out.WriteScalar("/aggregate/baseline_eps_lower_best_advantage", base_eps_best));
  PB_RETURN_IF_ERROR(out.WriteScalar("/aggregate/null_best_advantage_mean", null_mean));
  PB_RETURN_IF_ERROR(out.WriteScalar("/aggregate/null_best_advantage_q95", null_q95));
  PB_RETURN_IF_ERROR(out.SetAttribute(
      "/aggregate", "null",
      "null_best_advantage_*: the best-threshold advantage (one-sided two-sample KS statistic) "
      "expected if members and non-members had identical loss distributions, for one "
      "repetition with these sample sizes (Smirnov's limit; region_of_privacy_analysis.h)"));

  // ---- numbers for verify (keyed by noise multiplier)
  for (int64_t i = 0; i < L; ++i) {
    const std::string k = "sigma" + NoiseText(noise[i]);
    PB_RETURN_IF_ERROR(w.Number("acc_rel_pct_" + k, 100.0 * acc_rel[i]));
    PB_RETURN_IF_ERROR(w.Number("train_acc_pct_" + k, 100.0 * acc_mean[i]));
    PB_RETURN_IF_ERROR(w.Number("tpr_pct_" + k, 100.0 * tpr_mean[i]));
    PB_RETURN_IF_ERROR(w.Number("eps_lower_target_fpr_" + k, eps_lo_target[i]));
    PB_RETURN_IF_ERROR(w.Number("eps_lower_best_" + k, eps_lo_best[i]));
    PB_RETURN_IF_ERROR(w.Number("eps_naive_" + k, eps_naive[i]));
    PB_RETURN_IF_ERROR(w.Number("eps_advanced_" + k, eps_adv[i]));
    PB_RETURN_IF_ERROR(w.Number("eps_rdp_" + k, eps_rdp[i]));
    PB_RETURN_IF_ERROR(w.Number("eps_rdp_default_orders_" + k, eps_rdp_def[i]));
  }
  PB_RETURN_IF_ERROR(w.Number("baseline_train_acc_pct", 100.0 * base_acc.mean));
  PB_RETURN_IF_ERROR(w.Number("baseline_tpr_pct", 100.0 * base_tpr.mean));

  // ---- tables
  const std::string data_label =
      surrogate ? "purchase100-surrogate (synthetic stand-in; NOT comparable with the paper's "
                  "Purchase-100 numbers)"
                : prov;
  const std::string setup =
      "Data: " + data_label + ". Logistic regression, " + std::to_string(c.n_train) +
      " training / " + std::to_string(c.n_population) +
      " population records, DP-SGD with "
      "POISSON sampling (q = " +
      FormatDouble(models[1][0].q) + ", " + std::to_string(models[1][0].steps) +
      " steps = " + std::to_string(c.epochs) +
      " epochs; Jayaraman & Evans used shuffled passes), optimizer " + c.optimizer + ", clip " +
      FormatDouble(c.clip_norm) + ", delta = " + FormatDouble(c.delta) + "; means over " +
      std::to_string(R) + " repetitions (paper: 5).";
  {
    std::vector<std::string> level{"non-private"};
    std::vector<double> acc{100 * base_acc.mean}, rel{100.0}, tpr{100 * base_tpr.mean},
        pacc{100 * Mean(dp_values(0, pacc_get))}, n1{NAN}, a1{NAN}, r1{NAN}, rd{NAN};
    for (int64_t i = 0; i < L; ++i) {
      level.push_back(NoiseText(noise[i]));
      acc.push_back(100 * acc_mean[i]);
      rel.push_back(100 * acc_rel[i]);
      pacc.push_back(100 * pacc_mean[i]);
      tpr.push_back(100 * tpr_mean[i]);
      n1.push_back(eps_naive[i]);
      a1.push_back(eps_adv[i]);
      r1.push_back(eps_rdp[i]);
      rd.push_back(eps_rdp_def[i]);
    }
    PB_RETURN_IF_ERROR(out.WriteTable(
        {"table1",
         "Table 1 re-run: accuracy, attack TPR and eps upper bounds at each training noise "
         "(that_which_we_call_private Table 1; " +
             prov + ")",
         setup +
             " Rows: noise multiplier sigma. train_accuracy_pct: training accuracy (%); "
             "accuracy_rel_baseline_pct: its ratio to the non-private model's (%), the paper's "
             "'Accuracy'; population_accuracy_pct: accuracy on the non-members (%); "
             "attack_tpr_pct: Yeom loss-threshold attack TPR (%) at " +
             FormatDouble(100 * c.target_fpr) +
             "% FPR, threshold chosen on the same non-member "
             "sample; eps_*: upper bounds at delta = " +
             FormatDouble(c.delta) +
             " for the noise "
             "actually used (RDP with Table 1's orders, and with the default orders).",
         {Column::Strings("noise_multiplier", level), Column::Doubles("train_accuracy_pct", acc),
          Column::Doubles("accuracy_rel_baseline_pct", rel),
          Column::Doubles("population_accuracy_pct", pacc), Column::Doubles("attack_tpr_pct", tpr),
          Column::Doubles("eps_naive", n1), Column::Doubles("eps_advanced", a1),
          Column::Doubles("eps_rdp", r1), Column::Doubles("eps_rdp_default_orders", rd)}}));
  }
  {
    std::vector<std::string> level;
    std::vector<double> tpr_pct;
    for (int64_t i = 0; i < L; ++i) {
      level.push_back(NoiseText(noise[i]));
      tpr_pct.push_back(100 * tpr_mean[i]);
    }
    PB_RETURN_IF_ERROR(out.WriteTable(
        {"rotated",
         "The rotated table (Sec. 3): at equal training noise, every analysis' eps upper bound "
         "next to the attack's success (" +
             prov + ")",
         setup +
             " Rows: one trained noise level; the models (and so the attack) are the same "
             "across the columns, only the analysis changes. train_loss: mean training "
             "cross-entropy (the paper's noise proxy); eps_*: upper bounds at delta = " +
             FormatDouble(c.delta) +
             " (zCDP as J&E, without sampling amplification; RDP with "
             "Table 1's orders); attack_tpr_pct and members_recovered: Yeom attack at " +
             FormatDouble(100 * c.target_fpr) + "% FPR (mean TPR in %, mean count of the " +
             std::to_string(c.n_train) +
             " members flagged); eps_lower_target_fpr: Prop. 3 at the "
             "mean advantage TPR - FPR of that operating point (Table 2's lower bound).",
         {Column::Strings("noise_multiplier", level), Column::Doubles("train_loss", loss_mean),
          Column::Doubles("eps_naive", eps_naive), Column::Doubles("eps_advanced", eps_adv),
          Column::Doubles("eps_zcdp", eps_zcdp), Column::Doubles("eps_rdp", eps_rdp),
          Column::Doubles("attack_tpr_pct", tpr_pct),
          Column::Doubles("members_recovered", recovered),
          Column::Doubles("eps_lower_target_fpr", eps_lo_target)}}));
  }
  {
    std::vector<std::string> level{"non-private"};
    std::vector<double> best{base_best}, lo_best{base_eps_best}, lo_t{base_eps_target},
        up{INFINITY}, ratio{NAN}, nullm{null_mean}, nullq{null_q95};
    for (int64_t i = 0; i < L; ++i) {
      level.push_back(NoiseText(noise[i]));
      best.push_back(best_mean[i]);
      lo_best.push_back(eps_lo_best[i]);
      lo_t.push_back(eps_lo_target[i]);
      up.push_back(eps_rdp_best[i]);
      ratio.push_back(eps_lo_best[i] > 0 ? eps_rdp_best[i] / eps_lo_best[i] : INFINITY);
      nullm.push_back(null_mean);
      nullq.push_back(null_q95);
    }
    PB_RETURN_IF_ERROR(out.WriteTable(
        {"region",
         "Region of privacy (Sec. 5.3, Fig. 1-2): attack lower bound vs RDP upper bound (" + prov +
             ")",
         setup +
             " best_advantage: mean over repetitions of max over thresholds of TPR - FPR "
             "(threshold chosen with the labels, Sec. 5.3-5.4); null_best_advantage_mean / _q95: "
             "what that maximum is (mean, 95% quantile of one repetition) when members and "
             "non-members are indistinguishable, at these sample sizes: advantages at this level "
             "are not evidence of leakage; eps_lower_best: Prop. 3 at the mean best advantage; "
             "eps_lower_target_fpr: Prop. 3 at the " +
             FormatDouble(100 * c.target_fpr) +
             "% FPR point; eps_upper_rdp: the smaller RDP bound of the two order lists; ratio: "
             "upper / lower (the width of the region).",
         {Column::Strings("noise_multiplier", level), Column::Doubles("best_advantage", best),
          Column::Doubles("null_best_advantage_mean", nullm),
          Column::Doubles("null_best_advantage_q95", nullq),
          Column::Doubles("eps_lower_best", lo_best), Column::Doubles("eps_lower_target_fpr", lo_t),
          Column::Doubles("eps_upper_rdp", up), Column::Doubles("ratio", ratio)}}));
  }

  // ---- claims
  const std::string src = "that_which_we_call_private.txt";
  {
    PB_ASSIGN_OR_RETURN(RiseCheck rc, CheckRisesAsNoiseFalls(noise, acc_mean, acc_se,
                                                             "training accuracy (%)", 100.0));
    PB_RETURN_IF_ERROR(out.WriteClaim(
        {"region_of_privacy_accuracy_rises",
         "Training accuracy rises as the training noise falls (Table 1, 'Accuracy' column)",
         src + " Sec. 4, Table 1", rc.holds,
         rc.evidence +
             " Criterion: no step to a smaller noise lowers the mean by more than 2 "
             "standard errors, and the smallest noise beats the largest by more than 2 se (se: "
             "larger of binomial and between-repetition). Data: " +
             prov + "."}));
  }
  {
    PB_ASSIGN_OR_RETURN(
        RiseCheck rc,
        CheckRisesAsNoiseFalls(noise, tpr_mean, tpr_se,
                               "attack TPR at " + FormatDouble(100 * c.target_fpr) + "% FPR (%)",
                               100.0));
    PB_RETURN_IF_ERROR(out.WriteClaim(
        {"region_of_privacy_tpr_rises",
         "The loss-threshold attack's TPR at 5% FPR rises as the training noise falls "
         "(Table 1, 'Attack TPR' column)",
         src + " Sec. 4, Table 1", rc.holds,
         rc.evidence + " Criterion as region_of_privacy_accuracy_rises. Data: " + prov + "."}));
  }
  {
    PB_ASSIGN_OR_RETURN(OrderCheck mean_check,
                        CheckBelow(noise, eps_lo_best, eps_rdp_best,
                                   "Prop. 3 lower bound (mean best advantage)", "RDP upper bound"));
    PB_ASSIGN_OR_RETURN(OrderCheck rep_check,
                        CheckBelow(noise, eps_lo_best_max_rep, eps_rdp_best,
                                   "largest single-repetition lower bound", "RDP upper bound"));
    PB_RETURN_IF_ERROR(out.WriteClaim(
        {"region_of_privacy_region_nonempty",
         "The attack-derived lower bound never exceeds the RDP upper bound: the region of "
         "privacy is non-empty at every noise level",
         src + " Sec. 5.2-5.3, Table 2, Fig. 2", mean_check.holds && rep_check.holds,
         mean_check.evidence + " " + rep_check.evidence +
             " Criterion: both hold at every level (RDP: smaller of Table 1's and the default "
             "orders). The best-threshold bound is a point estimate (threshold chosen with the "
             "labels; its null floor is in the region table): a violation well beyond that "
             "floor would mean a bug or a broken DP guarantee."}));
  }
  {
    PB_ASSIGN_OR_RETURN(OrderCheck vs_adv, CheckBelow(noise, eps_rdp, eps_adv, "RDP", "advanced"));
    PB_ASSIGN_OR_RETURN(OrderCheck vs_naive, CheckBelow(noise, eps_rdp, eps_naive, "RDP", "naive"));
    PB_RETURN_IF_ERROR(out.WriteClaim(
        {"region_of_privacy_refined_tighter",
         "At equal training noise the more refined analysis gives the smaller upper bound: "
         "RDP <= advanced and RDP <= naive at every noise level (the rotated table)",
         src + " Sec. 3 (rotated table), Table 1", vs_adv.holds && vs_naive.holds,
         vs_adv.evidence + " " + vs_naive.evidence +
             " RDP with Table 1's orders (the default orders give smaller values still)."}));
  }
  return Status::Ok();
}

Status Run(const Config& c, StudyContext& ctx) {
  const std::vector<double> noise = SortedNoise(c);
  PB_ASSIGN_OR_RETURN(Shard shard, ParseShard(c.shard));
  DataCache real_cache(c, ctx.seed(), /*real=*/true);
  PB_ASSIGN_OR_RETURN(DataChoice data, ResolveData(c, ctx.seed(), &real_cache));
  if (!ctx.quiet()) std::fprintf(stderr, "%s: %s\n", kStudy, data.resolution.c_str());
  DataCache surrogate_cache(c, ctx.seed(), /*real=*/false);
  DataCache& cache = data.real ? real_cache : surrogate_cache;

  const std::vector<UnitKey> keys = MakeUnits(c);
  std::vector<SweepUnit> units;
  for (const UnitKey& k : keys) units.push_back({UnitId(noise, k)});
  SweepOptions o;
  o.study = kStudy;
  o.parts_dir = c.parts_dir;
  o.config_text = SweepConfigText(c, ctx.seed(), data);
  o.shard = shard;
  o.threads = ctx.threads();
  o.quiet = ctx.quiet();
  if (!c.merge_only) {
    PB_ASSIGN_OR_RETURN(SweepReport report,
                        RunSweep(units, o, [&](int64_t k, const SweepUnit&, ResultWriter& part) {
                          return RunUnit(c, ctx.seed(), noise, keys[k], cache, part);
                        }));
    if (!report.all_complete()) {
      ctx.SkipOutput(std::to_string(report.total - report.complete) + " of " +
                     std::to_string(report.total) +
                     " units pending: run the other shards, then --merge_only");
      return Status::Ok();
    }
  }
  PB_ASSIGN_OR_RETURN(auto parts, OpenSweepParts(units, o));
  return Merge(c, noise, keys, parts, data, ctx);
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  Study<Config> study;
  study.info = {kStudy, "That which we call private (Erlingsson, Mironov, Raghunathan & Song 2019)",
                "Sec. 3-5, Tables 1-2, Fig. 1-2; STUDIES.md C1",
                "Region of privacy: DP-SGD logistic regression on Purchase-100 at five noise "
                "levels, loss-threshold attack lower bounds vs naive/advanced/RDP upper bounds"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
