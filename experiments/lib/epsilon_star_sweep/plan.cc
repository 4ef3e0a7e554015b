#include "experiments/lib/epsilon_star_sweep/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <set>

#include "core/format.h"
#include "estimators/accountants/accountant.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "mechanisms/device.h"

namespace privbench {

void RegisterEpsilonStarSweepFlags(FlagSet& flags, EpsilonStarSweepConfig* c) {
  flags
      .AddIntList("baseline_epochs", &c->baseline_epochs,
                  "epochs of the non-private baselines (paper: Adult 1,5,10,20; "
                  "Purchase-100 10,50,100)")
      .Min(1);
  flags
      .AddInt("baseline_batch_size", &c->baseline_batch_size,
              "batch size of the baselines (lost in the paper)")
      .Min(1);
  flags
      .AddDoubleList("target_eps", &c->target_eps,
                     "DP-SGD target eps (paper: 1,3,10,100); each in (0, 1e4], the noise "
                     "calibration's range (kMaxCalibratedEpsilon)")
      .Above(0)
      .Max(kMaxCalibratedEpsilon);
  flags.AddDoubleList("clip_norms", &c->clip_norms, "DP-SGD clip norms C (paper: 1,10,30)")
      .Above(0)
      .Finite();
  flags
      .AddIntList("batch_sizes", &c->batch_sizes,
                  "DP-SGD batch sizes (paper: Adult 64,512; Purchase-100 256,1024)")
      .Min(1);
  flags
      .AddIntList("microbatches", &c->microbatches,
                  "DP-SGD numbers of microbatches, TF Privacy's num_microbatches (paper: 1,32)")
      .Min(1);
  flags.AddInt("dp_epochs", &c->dp_epochs, "epochs of every DP-SGD run (lost in the paper)").Min(1);
  flags.AddInt("repetitions", &c->repetitions, "models per configuration (paper: 5)")
      .Range(1, 1000);
  flags.AddDouble("learning_rate", &c->learning_rate, "SGD learning rate (paper: 0.01)")
      .Above(0)
      .Finite();
  flags.AddDouble("momentum", &c->momentum, "SGD momentum (paper: 0.9)").Min(0).Below(1);
  flags
      .AddString("sampling", &c->sampling,
                 "batch sampling of every run: poisson (what the accountant assumes) or "
                 "shuffle (no eps is reported)")
      .OneOf({"poisson", "shuffle"});
  flags
      .AddString("device", &c->device,
                 "where DP-SGD trains: cpu, or cuda (LibTorch's CUDA backend, loaded at run time; "
                 "same batches and noise as on the CPU)")
      .OneOf({"cpu", "cuda"});
  flags
      .AddDouble("delta", &c->delta,
                 "DP delta; 0 means 1/n_train (the paper's 1/n; lost in extraction)")
      .Min(0)
      .Below(1);
  flags
      .AddString("calibration_rule", &c->calibration_rule,
                 "noise calibration: tf_privacy_0_5_1 (the paper's library: microbatched runs "
                 "accounted with sigma) or sound (sigma/2 for microbatches of size > 1)")
      .OneOf({"tf_privacy_0_5_1", "sound"});
  flags
      .AddInt("epsilon_star_quantiles", &c->epsilon_star_quantiles,
              "Epsilon* thresholds per distribution (library default and paper: 1e6)")
      .Range(1, 1e9);
  flags.AddString("epsilon_star_delta", &c->epsilon_star_delta,
                  "delta of Epsilon* (Definition 2): dp = the DP delta above (the paper's "
                  "choice, 1/n_train by default) or a number in [0, 1); the _delta0 variants "
                  "are always reported");
  flags.AddBool("plan_only", &c->plan_only,
                "print the units, the calibrated noise and a projected run time; no training, "
                "no study file");
}

namespace {

template <typename T>
Status CheckDistinct(const std::string& name, const std::vector<T>& v) {
  std::set<T> s(v.begin(), v.end());
  if (s.size() != v.size()) return Error(name + " must not repeat a value");
  return Status::Ok();
}

// The DP lists may all be empty (baselines only) but not partly; something
// must be trained.
Status CheckGridShape(const EpsilonStarSweepConfig& c) {
  const bool any_dp = !c.target_eps.empty() || !c.clip_norms.empty() || !c.batch_sizes.empty() ||
                      !c.microbatches.empty();
  if (any_dp) {
    for (const auto& [name, size] :
         {std::pair<const char*, size_t>{"target_eps", c.target_eps.size()},
          {"clip_norms", c.clip_norms.size()},
          {"batch_sizes", c.batch_sizes.size()},
          {"microbatches", c.microbatches.size()}}) {
      if (size == 0) return Error(std::string(name) + " must list at least one value");
    }
  }
  if (c.baseline_epochs.empty() && !any_dp) {
    return Error("baseline_epochs and target_eps are both empty: nothing to train");
  }
  return Status::Ok();
}

// Shuffled batches are cut into m contiguous microbatches: m must divide B.
Status CheckShuffledMicrobatches(const EpsilonStarSweepConfig& c) {
  if (c.sampling != "shuffle") return Status::Ok();
  for (int64_t m : c.microbatches) {
    for (int64_t b : c.batch_sizes) {
      if (m >= 1 && b % m != 0) {
        return Error("microbatches " + std::to_string(m) + " must divide every batch size " +
                     "with sampling=shuffle, got batch size " + std::to_string(b));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status ValidateEpsilonStarSweep(const EpsilonStarSweepConfig& c, const SweepFlags& sweep) {
  PB_ASSIGN_OR_RETURN(const ComputeDevice device, ParseDevice(c.device));
  PB_RETURN_IF_ERROR(EnsureDevice(device));  // --device=cuda without a GPU: exit 2
  PB_RETURN_IF_ERROR(CheckDistinct("baseline_epochs", c.baseline_epochs));
  PB_RETURN_IF_ERROR(CheckGridShape(c));
  PB_RETURN_IF_ERROR(CheckDistinct("target_eps", c.target_eps));
  PB_RETURN_IF_ERROR(CheckDistinct("clip_norms", c.clip_norms));
  PB_RETURN_IF_ERROR(CheckDistinct("batch_sizes", c.batch_sizes));
  PB_RETURN_IF_ERROR(CheckShuffledMicrobatches(c));
  PB_RETURN_IF_ERROR(CheckDistinct("microbatches", c.microbatches));
  PB_RETURN_IF_ERROR(ParseShard(sweep.shard).status());
  PB_RETURN_IF_ERROR(EpsilonStarDelta(c, 1).status());
  if (sweep.merge_only && c.plan_only) {
    return Error("merge_only and plan_only exclude each other");
  }
  return Status::Ok();
}

std::vector<SweepPoint> BuildSweepGrid(const EpsilonStarSweepConfig& c) {
  std::vector<SweepPoint> points;
  for (int64_t e : c.baseline_epochs) {
    SweepPoint p;
    p.private_training = false;
    p.epochs = e;
    p.batch_size = c.baseline_batch_size;
    p.id = "baseline_epochs=" + std::to_string(e);
    p.label = "baseline, " + std::to_string(e) + (e == 1 ? " epoch" : " epochs");
    points.push_back(p);
  }
  for (double eps : c.target_eps) {
    for (double clip : c.clip_norms) {
      for (int64_t b : c.batch_sizes) {
        for (int64_t m : c.microbatches) {
          SweepPoint p;
          p.private_training = true;
          p.epochs = c.dp_epochs;
          p.batch_size = b;
          p.target_eps = eps;
          p.clip_norm = clip;
          p.num_microbatches = m;
          const std::string e = FormatSignificant(eps, 6), cn = FormatSignificant(clip, 6);
          p.id = "dp_eps=" + e + "_clip=" + cn + "_batch=" + std::to_string(b) +
                 "_mb=" + std::to_string(m);
          p.label =
              "DP eps=" + e + ", C=" + cn + ", B=" + std::to_string(b) + ", m=" + std::to_string(m);
          points.push_back(p);
        }
      }
    }
  }
  return points;
}

namespace {

std::string JoinInts(const std::vector<int64_t>& v) {
  std::string t;
  for (int64_t x : v) t += (t.empty() ? "" : ",") + std::to_string(x);
  return t;
}

std::string JoinNumbers(const std::vector<double>& v) {
  std::string t;
  for (double x : v) t += (t.empty() ? "" : ",") + FormatSignificant(x, 6);
  return t;
}

}  // namespace

std::string GridReductions(const EpsilonStarSweepConfig& c, const EpsilonStarSweepConfig& paper) {
  return "target_eps {" + JoinNumbers(c.target_eps) + "} of {" + JoinNumbers(paper.target_eps) +
         "}; clip_norms {" + JoinNumbers(c.clip_norms) + "} of {" + JoinNumbers(paper.clip_norms) +
         "}; batch_sizes {" + JoinInts(c.batch_sizes) + "} of {" + JoinInts(paper.batch_sizes) +
         "}; microbatches {" + JoinInts(c.microbatches) + "} of {" + JoinInts(paper.microbatches) +
         "}; baseline_epochs {" + JoinInts(c.baseline_epochs) + "} of {" +
         JoinInts(paper.baseline_epochs) + "}; repetitions " + std::to_string(c.repetitions) +
         " of " + std::to_string(paper.repetitions) + "; dp_epochs " + std::to_string(c.dp_epochs);
}

double EffectiveDelta(const EpsilonStarSweepConfig& c, int64_t n_train) {
  return c.delta > 0.0 ? c.delta : 1.0 / static_cast<double>(n_train);
}

Result<double> EpsilonStarDelta(const EpsilonStarSweepConfig& c, int64_t n_train) {
  if (c.epsilon_star_delta == "dp") return EffectiveDelta(c, n_train);
  const std::string bad =
      "epsilon_star_delta must be 'dp' (the DP delta) or a number in [0, 1), "
      "got '" +
      c.epsilon_star_delta + "'";
  Result<double> v = ParseDouble(c.epsilon_star_delta);
  if (!v.ok() || !(*v >= 0.0 && *v < 1.0)) return Error(bad);
  return *v;
}

int64_t StepsOf(const SweepPoint& p, const EpsilonStarSweepConfig& c, int64_t n) {
  if (c.sampling == "shuffle") return p.epochs * (n / p.batch_size);
  return (p.epochs * n + p.batch_size - 1) / p.batch_size;
}

std::vector<EpsilonStarVariant> MakeVariants(const EpsilonStarOptions& defaults) {
  std::vector<EpsilonStarVariant> v;
  for (const std::string& name : AllLossSampleEstimatorNames()) v.push_back({name, name, defaults});
  EpsilonStarVariant common{std::string(kCommonWindowVariant), "parametric", defaults};
  common.options.clip_lo = defaults.rate_floor;
  common.options.clip_hi = defaults.rate_ceiling;
  v.push_back(common);
  const size_t primary = v.size();
  for (size_t i = 0; i < primary; ++i) {
    EpsilonStarVariant zero = v[i];
    zero.name += kDeltaZeroSuffix;
    zero.options.delta = 0.0;
    v.push_back(zero);
  }
  return v;
}

std::vector<ModelUnit> MakeUnits(const std::vector<SweepPoint>& points, int64_t repetitions,
                                 int64_t n_train) {
  std::vector<ModelUnit> units;
  for (size_t i = 0; i < points.size(); ++i) {
    for (int64_t r = 0; r < repetitions; ++r) {
      ModelUnit u;
      u.point = static_cast<int64_t>(i);
      u.rep = r;
      u.unit.id = points[i].id + "_rep=" + std::to_string(r);
      u.cost = static_cast<double>(points[i].epochs) * static_cast<double>(n_train) *
                   (points[i].private_training ? 1.5 : 1.0) +
               2.0 * static_cast<double>(n_train);
      units.push_back(u);
    }
  }
  return units;
}

std::vector<ModelUnit> RunOrder(const std::vector<ModelUnit>& units) {
  std::vector<ModelUnit> order = units;
  std::stable_sort(order.begin(), order.end(),
                   [](const ModelUnit& a, const ModelUnit& b) { return a.cost > b.cost; });
  return order;
}

SweepPlan MakeSweepPlan(std::string config_text, const std::vector<ModelUnit>& units) {
  SweepPlan plan;
  plan.config_text = std::move(config_text);
  for (const ModelUnit& u : RunOrder(units)) plan.run_order.push_back(u.unit);
  for (const ModelUnit& u : units) plan.merge_order.push_back(u.unit);
  return plan;
}

const std::vector<std::string>& UnitScalarFields() {
  static const std::vector<std::string> fields = {
      "diverged",
      "utility",
      "train_accuracy",
      "population_accuracy",
      "auroc",
      "membership_auc",
      "mean_train_loss",
      "mean_population_loss",
      "final_epoch_loss",
      "fit_train_mean",
      "fit_train_sd",
      "fit_population_mean",
      "fit_population_sd",
      "noise_multiplier",
      "accounting_noise_multiplier",
      "tf_privacy_0_5_1_noise_multiplier",
      "q",
      "steps",
      "eps_reportable",
      "eps_sound",
      "eps_tf_privacy_0_5_1",
      "empty_batches",
      "mean_batch_size",
  };
  return fields;
}

std::string UnitConfigText(const std::string& study, const EpsilonStarSweepConfig& c,
                           const Dataset& d, const std::vector<EpsilonStarVariant>& variants,
                           const std::string& model_description, uint64_t seed) {
  std::string s;
  s += "study = " + study + "\n";
  s += "seed = " + std::to_string(seed) + "\n";
  s += "dataset = " + d.provenance + " n_train=" + std::to_string(d.n_train()) +
       " n_population=" + std::to_string(d.n_population()) + "\n";
  // The data's identity, not where it was read from (a sweep's shards may
  // run on machines with other paths): generator parameters or checksums,
  // plus the preprocessing / subset notes.
  s += "dataset_identity = " + (d.is_surrogate ? d.source : d.checksums) + "\n";
  for (const std::string& n : d.notes) s += "dataset_note = " + n + "\n";
  s += "model = " + model_description + "\n";
  s += "learning_rate = " + FormatDouble(c.learning_rate) + "\n";
  s += "momentum = " + FormatDouble(c.momentum) + "\n";
  s += "sampling = " + c.sampling + "\n";
  // CPU runs are the bytes they were before --device existed (their parts
  // keep their key); CUDA runs differ by float32 rounding: their own parts.
  if (c.device != "cpu") s += "device = " + c.device + "\n";
  s += "delta = " + FormatDouble(EffectiveDelta(c, d.n_train())) + "\n";
  s += "dp_epochs = " + std::to_string(c.dp_epochs) + "\n";
  s += "baseline_batch_size = " + std::to_string(c.baseline_batch_size) + "\n";
  s += "calibration_rule = " + c.calibration_rule + " (rdp accountant, DefaultRdpOrders)\n";
  for (const EpsilonStarVariant& v : variants) {
    s += "epsilon_star_variant = " + v.name + ": " + v.estimator + ", " +
         EpsilonStarOptionsText(v.options) + "\n";
  }
  return s;
}

std::string KindKey(const SweepPoint& p) {
  return (p.private_training ? "dp" : "baseline") + std::string("_b") +
         std::to_string(p.batch_size) + "_m" + std::to_string(p.num_microbatches);
}

std::string Hours(double seconds) {
  char buf[64];
  if (seconds < 120) {
    std::snprintf(buf, sizeof(buf), "%.0f s", seconds);
  } else if (seconds < 7200) {
    std::snprintf(buf, sizeof(buf), "%.1f min", seconds / 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%.1f h", seconds / 3600);
  }
  return buf;
}

namespace {

// printf into a std::string.
__attribute__((format(printf, 1, 2))) std::string Printf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::vector<char> buf(static_cast<size_t>(std::max(n, 0)) + 1);
  std::vsnprintf(buf.data(), buf.size(), format, args);
  va_end(args);
  return std::string(buf.data(), buf.size() - 1);
}

// One line per configuration; adds the projected seconds to *total.
std::string ConfigurationLines(const PlanPrintout& p, double* total) {
  std::string out;
  const auto& points = *p.points;
  const auto& acc = *p.accounting;
  for (size_t i = 0; i < points.size(); ++i) {
    const bool dp = points[i].private_training;
    std::string per_model;
    if (p.probe != nullptr) {
      const double unit_seconds =
          static_cast<double>(acc[i].steps) * p.probe->step_seconds.at(KindKey(points[i])) +
          p.probe->eval_seconds;
      *total += unit_seconds * static_cast<double>(p.config->repetitions);
      per_model = " ~" + Hours(unit_seconds) + "/model";
    }
    out += Printf("  %-40s steps %8lld  q %.3g  sigma %-10s eps(sound) %-8s eps(TF 0.5.1) %-8s%s\n",
                  points[i].label.c_str(), static_cast<long long>(acc[i].steps), acc[i].q,
                  dp ? FormatSignificant(acc[i].noise_multiplier, 6).c_str() : "-",
                  dp ? FormatSignificant(acc[i].eps_sound, 6).c_str() : "-",
                  dp ? FormatSignificant(acc[i].eps_tf_privacy_0_5_1, 6).c_str() : "-",
                  per_model.c_str());
  }
  return out;
}

std::string ProbeLines(const PlanPrintout& p, double total) {
  std::string out;
  const char* study = p.study.c_str();
  for (const auto& [kind, seconds] : p.probe->step_seconds) {
    out += Printf("%s: measured %.3g ms per step for %s (1 LibTorch thread)\n", study,
                  1e3 * seconds, kind.c_str());
  }
  out += Printf(
      "%s: measured %.3g s per model evaluation (losses, accuracies, AUCs, every Epsilon* "
      "variant)\n",
      study, p.probe->eval_seconds);
  out += Printf(
      "%s: projected %s of one core (%s on %d threads here; measured on %s-scale data from a "
      "few steps of each kind and one evaluation)\n",
      study, Hours(total).c_str(), Hours(total / std::max(1, p.threads)).c_str(), p.threads,
      ScaleName(p.scale).c_str());
  return out;
}

std::string SlurmRecipe(const PlanPrintout& p) {
  const char* study = p.study.c_str();
  const std::string scale = ScaleName(p.scale);
  return Printf(
      "%s: Slurm recipe (one array task per shard; parts on a shared file system):\n"
      "  #SBATCH --array=0-%zu --cpus-per-task=1\n"
      "  bazel-bin/experiments/%s/%s --scale=%s --threads=1 "
      "--shard=${SLURM_ARRAY_TASK_ID}/%zu --parts_dir=/shared/parts\n"
      "  # when every task has finished:\n"
      "  bazel-bin/experiments/%s/%s --scale=%s --merge_only --parts_dir=/shared/parts\n",
      study, p.units - 1, study, study, scale.c_str(), p.units, study, study, scale.c_str());
}

}  // namespace

std::string PlanText(const PlanPrintout& p) {
  std::string out =
      Printf("%s: %zu configurations x %lld repetitions = %zu units\n", p.study.c_str(),
             p.points->size(), static_cast<long long>(p.config->repetitions), p.units);
  double total = 0.0;
  out += ConfigurationLines(p, &total);
  if (p.probe != nullptr) out += ProbeLines(p, total);
  return out + SlurmRecipe(p);
}

}  // namespace privbench
