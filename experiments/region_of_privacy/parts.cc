#include "experiments/region_of_privacy/parts.h"

#include <chrono>
#include <memory>
#include <utility>

#include "core/format.h"
#include "core/seeding.h"
#include "experiments/region_of_privacy/training.h"
#include "mechanisms/device.h"

namespace privbench {
namespace region_of_privacy {

namespace {

TrainOptions TrainOptionsFor(const Config& c, uint64_t seed, const std::vector<double>& noise,
                             const UnitKey& k) {
  TrainOptions o;
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
  return o;
}

// The training record: every TrainingRecord::Metadata() field as text, and
// the accountant's inputs as numbers.
Status WriteTrainingRecord(const TrainOutcome& u, ResultWriter& part) {
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
  return part.SetAttribute("/training", "eps_reportable_value",
                           static_cast<int64_t>(u.eps_reportable ? 1 : 0));
}

Status WriteDataMeta(const Dataset& data, ResultWriter& part) {
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "dataset_provenance", data.provenance));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "dataset_source", data.source));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "dataset_checksums", data.checksums));
  std::string notes;
  for (const std::string& n : data.notes) notes += n + "\n";
  return part.SetAttribute("/meta", "dataset_notes", notes);
}

Status ReadTrainingRecord(const ResultReader& p, Model* m) {
  PB_ASSIGN_OR_RETURN(m->q, p.ReadDoubleAttribute("/training", "q_value"));
  PB_ASSIGN_OR_RETURN(m->steps, p.ReadIntAttribute("/training", "steps_value"));
  PB_ASSIGN_OR_RETURN(m->accounting_sigma,
                      p.ReadDoubleAttribute("/training", "accounting_noise_multiplier_value"));
  PB_ASSIGN_OR_RETURN(int64_t rep, p.ReadIntAttribute("/training", "eps_reportable_value"));
  m->eps_reportable = rep != 0;
  PB_ASSIGN_OR_RETURN(m->sampling, p.ReadStringAttribute("/training", "sampling"));
  PB_ASSIGN_OR_RETURN(m->accounting_rule, p.ReadStringAttribute("/training", "accounting_rule"));
  PB_ASSIGN_OR_RETURN(m->architecture, p.ReadStringAttribute("/training", "architecture"));
  PB_ASSIGN_OR_RETURN(std::string keys, p.ReadStringAttribute("/training", "metadata_keys"));
  for (size_t pos = 0; pos < keys.size();) {
    size_t end = keys.find(',', pos);
    if (end == std::string::npos) end = keys.size();
    const std::string key = keys.substr(pos, end - pos);
    PB_ASSIGN_OR_RETURN(std::string value, p.ReadStringAttribute("/training", key));
    m->record.emplace_back(key, value);
    pos = end + 1;
  }
  return Status::Ok();
}

Status ReadMeta(const ResultReader& p, Model* m) {
  PB_ASSIGN_OR_RETURN(m->unit_seconds, p.ReadDoubleAttribute("/meta", "unit_seconds"));
  PB_ASSIGN_OR_RETURN(m->provenance, p.ReadStringAttribute("/meta", "dataset_provenance"));
  PB_ASSIGN_OR_RETURN(m->source, p.ReadStringAttribute("/meta", "dataset_source"));
  PB_ASSIGN_OR_RETURN(m->checksums, p.ReadStringAttribute("/meta", "dataset_checksums"));
  PB_ASSIGN_OR_RETURN(m->notes, p.ReadStringAttribute("/meta", "dataset_notes"));
  PB_ASSIGN_OR_RETURN(m->torch_version, p.ReadStringAttribute("/meta", "torch_version"));
  return Status::Ok();
}

Result<Model> ReadModel(const ResultReader& p, const Config& c) {
  Model m;
  PB_ASSIGN_OR_RETURN(auto acc, p.ReadDoubles("/train_accuracy"));
  PB_ASSIGN_OR_RETURN(auto pacc, p.ReadDoubles("/population_accuracy"));
  m.train_accuracy = acc.at(0);
  m.population_accuracy = pacc.at(0);
  PB_ASSIGN_OR_RETURN(m.train_loss, p.ReadDoubles("/train_loss"));
  PB_ASSIGN_OR_RETURN(m.population_loss, p.ReadDoubles("/population_loss"));
  PB_ASSIGN_OR_RETURN(m.loss_per_epoch, p.ReadDoubles("/loss_per_epoch"));
  PB_RETURN_IF_ERROR(ReadTrainingRecord(p, &m));
  PB_RETURN_IF_ERROR(ReadMeta(p, &m));
  if (static_cast<int64_t>(m.train_loss.size()) != c.n_train ||
      static_cast<int64_t>(m.population_loss.size()) != c.n_population) {
    return Error("part " + p.path() + " has " + std::to_string(m.train_loss.size()) + " / " +
                 std::to_string(m.population_loss.size()) + " losses, expected " +
                 std::to_string(c.n_train) + " / " + std::to_string(c.n_population));
  }
  PB_ASSIGN_OR_RETURN(m.attack,
                      AttackModel(m.train_loss, m.population_loss, c.target_fpr, c.delta));
  return m;
}

}  // namespace

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
  // CPU runs are the bytes they were before --device existed (their parts
  // keep their key); CUDA runs differ by float32 rounding: their own parts.
  if (c.device != "cpu") add("device", c.device);
  return t;
}

Status RunUnit(const Config& c, uint64_t seed, const std::vector<double>& noise, const UnitKey& key,
               DataCache& cache, ResultWriter& part) {
  const auto start = std::chrono::steady_clock::now();
  PB_ASSIGN_OR_RETURN(std::shared_ptr<const Dataset> data, cache.Get(key.rep));
  TrainOptions o = TrainOptionsFor(c, seed, noise, key);
  PB_ASSIGN_OR_RETURN(o.device, ParseDevice(c.device));
  PB_ASSIGN_OR_RETURN(TrainOutcome u, TrainModel(*data, o));
  if (o.private_training && !u.eps_reportable) {
    return Error("internal: a Poisson-sampled private run must be eps-reportable");
  }
  PB_RETURN_IF_ERROR(part.WriteDoubles("/train_loss", u.train_losses));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/population_loss", u.population_losses));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/loss_per_epoch", u.loss_per_epoch));
  PB_RETURN_IF_ERROR(part.WriteScalar("/train_accuracy", u.train_accuracy));
  PB_RETURN_IF_ERROR(part.WriteScalar("/population_accuracy", u.population_accuracy));
  PB_RETURN_IF_ERROR(WriteTrainingRecord(u, part));
  PB_RETURN_IF_ERROR(WriteDataMeta(*data, part));
  PB_RETURN_IF_ERROR(part.SetAttribute("/meta", "torch_version", TorchVersion()));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return part.SetAttribute("/meta", "unit_seconds", seconds);
}

Result<ModelGrid> ReadModels(const Config& c, const std::vector<UnitKey>& keys,
                             const SweepParts& parts, double* unit_seconds_total) {
  const size_t levels = c.noise_multipliers.size() + 1;
  ModelGrid models(levels, std::vector<Model>(static_cast<size_t>(c.repetitions)));
  *unit_seconds_total = 0.0;
  for (size_t u = 0; u < keys.size(); ++u) {
    PB_ASSIGN_OR_RETURN(Model m, ReadModel(*parts[u], c));
    *unit_seconds_total += m.unit_seconds;
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
  return models;
}

}  // namespace region_of_privacy
}  // namespace privbench
