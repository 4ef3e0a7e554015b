#include "experiments/region_of_privacy/report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/format.h"
#include "estimators/accountants/accountant_registry.h"
#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench {
namespace region_of_privacy {

namespace {

std::string LevelGroup(const std::vector<double>& noise, int64_t l) {
  return "/training/" + (l == 0 ? std::string("baseline") : "sigma=" + NoiseText(noise[l - 1]));
}

Status WriteMeta(const Config& c, const Results& in, ResultWriter& out) {
  const Model& first = in.models[0][0];
  return SetAttributes(
      out, "/meta",
      {{"dataset_provenance", first.provenance},
       {"dataset_source", first.source},
       {"dataset_checksums", first.checksums},
       {"dataset_notes", first.notes},
       {"data_resolution", in.data_resolution},
       {"lost_parameters", LostParameters(c, in.real_data)},
       {"torch_version", first.torch_version},
       {"library_versions", LibraryVersions() + "; " + first.torch_version},
       {"architecture", first.architecture},
       {"device", c.device},
       {"sampling",
        "poisson (rate q = batch_size / n_train; every accountant assumes it). Jayaraman & "
        "Evans trained with shuffled passes of fixed-size batches."},
       {"accounting_rule", in.models[1][0].accounting_rule},
       {"calibration",
        "none: the models are trained at the fixed noise multipliers of B8 / Table 1; upper "
        "bounds are computed for the noise actually used (accounting_noise_multiplier = sigma, "
        "per-example clipping, so TF Privacy 0.5.1's and the current rule agree)"},
       {"unit_seconds_total", in.unit_seconds_total},
       {"sweep_parts_dir", in.parts_dir},
       {"sweep_part_versions", in.part_versions}});
}

// Every level's training record (repetition 0; the repetitions differ only
// in their seeds), from TrainingRecord::Metadata().
Status WriteTrainingRecords(const Results& in, ResultWriter& out) {
  for (size_t l = 0; l < in.models.size(); ++l) {
    const std::string g = LevelGroup(in.noise, static_cast<int64_t>(l));
    for (const auto& [key, value] : in.models[l][0].record) {
      PB_RETURN_IF_ERROR(out.SetAttribute(g, key, value));
    }
  }
  return Status::Ok();
}

Status WriteSettings(const Config& c, const Results& in, ResultWriter& out) {
  const Model& m = in.models[1][0];
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/noise_multiplier", in.noise));
  return SetAttributes(
      out, "/settings",
      {{"repetitions", c.repetitions},
       {"n_train", c.n_train},
       {"n_population", c.n_population},
       {"epochs", c.epochs},
       {"steps", m.steps},
       {"q", m.q},
       {"delta", c.delta},
       {"target_fpr", c.target_fpr},
       {"layout",
        "/dp/<quantity> has shape (levels, repetitions), levels ordered as "
        "/settings/noise_multiplier (largest noise first); /baseline/<quantity> has shape "
        "(repetitions,); /losses/* hold every per-example cross-entropy loss"}});
}

// /dp/<quantity> (levels x repetitions) and /baseline/<quantity>.
Status WritePerRun(const ModelGrid& models, ResultWriter& out) {
  const uint64_t uL = models.size() - 1, uR = models[0].size();
  for (const Quantity& q : PerRunQuantities()) {
    std::vector<double> dp;
    for (size_t l = 1; l < models.size(); ++l) {
      for (const Model& m : models[l]) dp.push_back(q.get(m));
    }
    PB_RETURN_IF_ERROR(out.WriteDoubles("/dp/" + q.name, dp, {uL, uR}));
    PB_RETURN_IF_ERROR(out.WriteDoubles("/baseline/" + q.name, RepValues(models, 0, q.get)));
  }
  return Status::Ok();
}

// Every per-example loss and the per-epoch training losses.
Status WriteLosses(const Config& c, const ModelGrid& models, ResultWriter& out) {
  const uint64_t uL = models.size() - 1, uR = models[0].size();
  const uint64_t nt = static_cast<uint64_t>(c.n_train);
  const uint64_t np = static_cast<uint64_t>(c.n_population);
  const uint64_t ne = static_cast<uint64_t>(models[0][0].loss_per_epoch.size());
  std::vector<double> dt, dpop, bt, bpop, dep, bep;
  for (size_t l = 0; l < models.size(); ++l) {
    for (const Model& m : models[l]) {
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
  return out.WriteDoubles("/baseline/loss_per_epoch", bep, {uR, ne});
}

Status WriteAccountingAttributes(const Config& c, const ModelGrid& models, ResultWriter& out) {
  std::vector<double> acc_sigma;
  for (size_t l = 1; l < models.size(); ++l) acc_sigma.push_back(models[l][0].accounting_sigma);
  PB_RETURN_IF_ERROR(out.WriteDoubles("/accounting/accounting_noise_multiplier", acc_sigma));
  return SetAttributes(
      out, "/accounting",
      {{"q", models[1][0].q},
       {"steps", models[1][0].steps},
       {"delta", c.delta},
       {"orders",
        "table_one_orders: TableOneRdpOrders() (1.25..63, 128, 256, 512, as Table 1); "
        "default_orders: DefaultRdpOrders() (1.01..16384); all accountants assume Poisson "
        "sampling at rate q, which these runs used"}});
}

// The upper bounds at the noise actually used, per level.
Status WriteAccounting(const Config& c, const ModelGrid& models, const std::vector<Bounds>& bounds,
                       ResultWriter& out) {
  for (const std::string& name : UpperBoundAccountantNames()) {
    const std::string g = "/accounting/table_one_orders/" + name;
    PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/epsilon", TableOneColumn(bounds, name)));
    std::vector<double> order;
    for (const Bounds& b : bounds) order.push_back(b.table_one_order.at(name));
    PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/order", order));
  }
  const std::string d = "/accounting/default_orders/";
  PB_RETURN_IF_ERROR(out.WriteDoubles(
      d + "rdp/epsilon", BoundColumn(bounds, [](const Bounds& b) { return b.rdp_default; })));
  PB_RETURN_IF_ERROR(out.WriteDoubles(
      d + "rdp/order", BoundColumn(bounds, [](const Bounds& b) { return b.rdp_default_order; })));
  PB_RETURN_IF_ERROR(out.WriteDoubles(
      d + "rdp_improved/epsilon",
      BoundColumn(bounds, [](const Bounds& b) { return b.rdp_improved_default; })));
  PB_RETURN_IF_ERROR(out.WriteDoubles(
      d + "rdp_improved/order",
      BoundColumn(bounds, [](const Bounds& b) { return b.rdp_improved_default_order; })));
  return WriteAccountingAttributes(c, models, out);
}

Status WriteAggregates(const Aggregates& a, ResultWriter& out) {
  const std::vector<std::pair<std::string, const std::vector<double>*>> levels = {
      {"train_accuracy_mean", &a.acc_mean},
      {"train_accuracy_se", &a.acc_se},
      {"accuracy_rel_baseline", &a.acc_rel},
      {"population_accuracy_mean", &a.pacc_mean},
      {"tpr_at_target_fpr_mean", &a.tpr_mean},
      {"tpr_at_target_fpr_se", &a.tpr_se},
      {"best_advantage_mean", &a.best_mean},
      {"advantage_at_target_fpr_mean", &a.target_adv_mean},
      {"eps_lower_best_advantage", &a.eps_lo_best},
      {"eps_lower_target_fpr", &a.eps_lo_target},
      {"eps_lower_best_advantage_max_over_reps", &a.eps_lo_best_max_rep},
      {"mean_train_loss", &a.loss_mean},
  };
  for (const auto& [name, values] : levels) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/aggregate/" + name, *values));
  }
  const std::vector<std::pair<std::string, double>> scalars = {
      {"baseline_train_accuracy_mean", a.base_acc.mean},
      {"baseline_tpr_at_target_fpr_mean", a.base_tpr.mean},
      {"baseline_best_advantage_mean", a.base_best},
      {"baseline_eps_lower_best_advantage", a.base_eps_best},
      {"null_best_advantage_mean", a.null_mean},
      {"null_best_advantage_q95", a.null_q95},
  };
  for (const auto& [name, value] : scalars) {
    PB_RETURN_IF_ERROR(out.WriteScalar("/aggregate/" + name, value));
  }
  return out.SetAttribute(
      "/aggregate", "null",
      "null_best_advantage_*: the best-threshold advantage (one-sided two-sample KS statistic) "
      "expected if members and non-members had identical loss distributions, for one "
      "repetition with these sample sizes (Smirnov's limit; "
      "experiments/region_of_privacy/compute.h)");
}

Status WriteTablesAndClaims(const Config& c, const Results& in, const Aggregates& a,
                            ResultWriter& out) {
  const std::string& prov = in.models[0][0].provenance;
  const Model& m = in.models[1][0];
  PB_ASSIGN_OR_RETURN(std::vector<SummaryTable> tables,
                      SummaryTables(c, in.noise, a, prov, SetupText(c, prov, m.q, m.steps)));
  for (const SummaryTable& t : tables) PB_RETURN_IF_ERROR(out.WriteTable(t));
  PB_ASSIGN_OR_RETURN(std::vector<JudgedClaim> claims, Claims(c, in.noise, a, prov));
  for (const JudgedClaim& claim : claims) PB_RETURN_IF_ERROR(WriteJudgedClaim(claim, out));
  return Status::Ok();
}

}  // namespace

Status WriteReport(const Config& c, const Results& in, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteMeta(c, in, out));
  PB_RETURN_IF_ERROR(WriteTrainingRecords(in, out));
  PB_RETURN_IF_ERROR(WriteSettings(c, in, out));
  PB_RETURN_IF_ERROR(WritePerRun(in.models, out));
  PB_RETURN_IF_ERROR(WriteLosses(c, in.models, out));
  PB_ASSIGN_OR_RETURN(std::vector<Bounds> bounds, AccountLevels(in.models, in.noise, c.delta));
  PB_RETURN_IF_ERROR(WriteAccounting(c, in.models, bounds, out));
  PB_ASSIGN_OR_RETURN(Aggregates a,
                      Aggregate(in.models, bounds, c.n_train, c.n_population, c.delta));
  PB_RETURN_IF_ERROR(WriteAggregates(a, out));
  for (const auto& [id, value] : VerifyNumbers(in.noise, a)) {
    PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/" + std::string(kStudy) + "_" + id, value));
  }
  return WriteTablesAndClaims(c, in, a, out);
}

std::string LostParameters(const Config& c, bool real_data) {
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
      Percent(c.target_fpr) +
      "% FPR uses the threshold chosen on the same non-member sample it is evaluated on (J&E's "
      "reporting), the best-advantage threshold is chosen on the same members and "
      "non-members (Sec. 5.3-5.4: uses the labels); rates averaged over " +
      std::to_string(c.repetitions) + " repetitions (paper: 5 trials), each a fresh draw of " +
      std::to_string(c.n_train) + " training and " + std::to_string(c.n_population) +
      " population records with its own initialisation and batches, shared by the noise "
      "levels of that repetition (common random numbers); Prop. 3 lower bounds from the "
      "advantage averaged over repetitions; accuracy relative to baseline = mean DP training "
      "accuracy / mean non-private training accuracy; data: ";
  if (real_data) {
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

std::string SetupText(const Config& c, const std::string& provenance, double q, int64_t steps) {
  const std::string data_label =
      provenance == "purchase100-surrogate"
          ? "purchase100-surrogate (synthetic stand-in; NOT comparable with the paper's "
            "Purchase-100 numbers)"
          : provenance;
  return "Data: " + data_label + ". Logistic regression, " + std::to_string(c.n_train) +
         " training / " + std::to_string(c.n_population) +
         " population records, DP-SGD with POISSON sampling (q = " + FormatDouble(q) + ", " +
         std::to_string(steps) + " steps = " + std::to_string(c.epochs) +
         " epochs; Jayaraman & Evans used shuffled passes), optimizer " + c.optimizer + ", clip " +
         FormatDouble(c.clip_norm) + ", delta = " + FormatDouble(c.delta) + "; means over " +
         std::to_string(c.repetitions) + " repetitions (paper: 5).";
}

}  // namespace region_of_privacy
}  // namespace privbench
