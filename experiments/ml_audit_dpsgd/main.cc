// Study ml_audit_dpsgd (README.md): ML-Audit (Lu et al., "A General
// Framework for Auditing Differentially Private Machine Learning", NeurIPS
// 2022, Secs. 4-5, the DP-SGD experiments of Fig. 8) against DP-SGD on two
// Fashion-MNIST classes, with the ClipBKD poison (Jagielski et al. 2020),
// its vector summary, and the shadow-adversarial poison (Nasr et al. 2021).
//
//   bazel run //experiments/ml_audit_dpsgd [-- --scale=paper --shard=0/8
//       --eps=1,8 --k=1 --plan_only]
//
// For each eps_th, sigma is calibrated with the RDP accountant; 2N models
// are trained on D and 2N on every D' (N for Algorithm 1's search, N fresh;
// D' = D + k poison copies, or for ClipBKD with --clipbkd_pair=flip_replace
// D and D' hold the copies in place of the last k rows, labelled 1 - y* and
// y*: compute.h), afresh for each of --replicates
// independent replicates; each audit reports eps_lb with the counts behind
// it, and the summary the median over replicates (Sec. 5). Mechanism, sides, seeds: compute.h;
// data, poisons and training: models.h; output and claims: report.h. The models are trained in a
// sharded, resumable sweep (experiments/lib/framework/sweep.h), one unit per block of
// models_per_unit models of one (eps_th, side), one LibTorch thread per model, units in parallel
// (--threads).
// --plan_only times one model and prints the projected time of the whole grid, writing nothing.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/format.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/ml_audit_dpsgd/compute.h"
#include "experiments/ml_audit_dpsgd/config.h"
#include "experiments/ml_audit_dpsgd/models.h"
#include "experiments/ml_audit_dpsgd/report.h"
#include "mechanisms/device.h"

namespace privbench::ml_audit_dpsgd {
namespace {

Config Defaults(Scale scale) {
  Config c;
  switch (scale) {
    case Scale::kQuick:
      c.eps = {1, 8};
      c.k = {1, 4};
      c.n = 100;
      c.replicates = 1;  // 3 would triple the quick run's ~150 CPU-s
      c.n_train = 990;
      c.epochs = 6;
      c.shadow_models = 2;
      c.shadow_steps = 20;
      c.models_per_unit = 20;
      break;
    case Scale::kPaper:
      c.eps = {0.5, 1, 2, 4, 8, 16, 50};
      c.k = {1, 2, 4, 8};
      c.n = 500;
      c.replicates = 3;
      c.n_train = 5990;
      break;
    case Scale::kTest:
      c.eps = {2, 50};
      c.k = {1};
      c.n = 10;
      c.replicates = 2;
      c.n_train = 235;
      c.batch_size = 60;
      c.epochs = 2;
      c.test_probes = 2;
      c.shadow_models = 1;
      c.shadow_steps = 5;
      c.clipbkd_label_models = 2;
      c.models_per_unit = 5;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  flags.AddDoubleList("eps", &c.eps, "claimed eps_th of DP-SGD (sigma calibrated to each)")
      .NonEmpty()
      .Above(0)
      .Finite();
  flags.AddIntList("k", &c.k, "copies of the poison (group size)").NonEmpty().Range(1, 64);
  flags.AddString("attacks", &c.attacks, "comma-separated: clipbkd, clipbkd_vec, shadow")
      .NonEmpty();
  flags.AddInt("n", &c.n, "N: models per side for the search, and N fresh ones").Range(2, 1e6);
  flags
      .AddInt("replicates", &c.replicates,
              "independent repetitions of every audit (median reported; paper: 3)")
      .Range(1, 1000);
  flags.AddDouble("delta", &c.delta, "delta of the RDP calibration").OpenRange(0, 1);
  flags.AddDouble("alpha", &c.alpha, "Katz-log significance (z_{alpha/2})").OpenRange(0, 1);
  flags.AddDouble("false_failure", &c.false_failure, "validity test's false-failure probability")
      .OpenRange(0, 1);
  flags.AddString("classifier", &c.classifier, "the audit's classifier")
      .OneOf({"logistic_squares", "logistic_linear", "logistic_whitened"});
  flags.AddDouble("classifier_l2", &c.classifier_l2, "the classifier's L2 penalty")
      .Above(0)
      .Finite();
  flags.AddString("data_dir", &c.data_dir, "Fashion-MNIST directory (default: data_scripts)")
      .ExistingDirectoryOrEmpty();
  flags.AddInt("class_a", &c.class_a, "Fashion-MNIST class labelled 0").Range(0, 9);
  flags.AddInt("class_b", &c.class_b, "Fashion-MNIST class labelled 1").Range(0, 9);
  flags.AddInt("n_train", &c.n_train, "rows of D").Range(2, 12000);
  flags.AddInt("test_probes", &c.test_probes, "test rows in the vector summary").Range(0, 1000);
  flags.AddInt("hidden", &c.hidden, "hidden units of the MLP").Range(1, 4096);
  flags
      .AddString("activation", &c.activation,
                 "hidden activation (Jagielski et al.'s code: relu, with Glorot init)")
      .OneOf({"tanh", "relu"});
  flags.AddDouble("learning_rate", &c.learning_rate, "SGD learning rate").Above(0).Finite();
  flags.AddDouble("momentum", &c.momentum, "SGD momentum").Range(0, 0.999);
  flags.AddDouble("clip_norm", &c.clip_norm, "per-example clipping norm C").Above(0).Finite();
  flags.AddInt("batch_size", &c.batch_size, "expected batch size (Poisson)").Range(1, 12000);
  flags.AddInt("epochs", &c.epochs, "epochs (T = ceil(epochs n / batch))").Range(1, 1000);
  flags
      .AddString("device", &c.device,
                 "where DP-SGD trains: cpu, or cuda (LibTorch's CUDA backend, loaded at run time; "
                 "same batches and noise as on the CPU)")
      .OneOf({"cpu", "cuda"});
  flags
      .AddString("clipbkd_pair", &c.clipbkd_pair,
                 "ClipBKD's neighbours: append (D' = D + k copies labelled y*, group k) or "
                 "flip_replace (last k rows replaced by x*, labelled 1 - y* in D and y* in D', "
                 "group 2k; Jagielski et al.'s pair)")
      .OneOf({"append", "flip_replace"});
  flags
      .AddString("clipbkd_label_from", &c.clipbkd_label_from,
                 "networks whose mean prediction at x* picks ClipBKD's label y*: nonprivate, or "
                 "dp (DP-SGD at each eps_th's sigma, on D without the poison)")
      .OneOf({"nonprivate", "dp"});
  flags
      .AddInt("clipbkd_label_models", &c.clipbkd_label_models,
              "networks whose mean prediction at x* picks ClipBKD's label (per eps_th with "
              "--clipbkd_label_from=dp)")
      .Range(1, 64);
  flags.AddInt("shadow_models", &c.shadow_models, "shadow models of the shadow poison")
      .Range(1, 64);
  flags.AddInt("shadow_steps", &c.shadow_steps, "ascent steps of the shadow poison")
      .Range(0, 10000);
  flags.AddDouble("shadow_step", &c.shadow_step, "L2 length of one ascent step").Above(0).Finite();
  flags.AddInt("models_per_unit", &c.models_per_unit, "models per sweep unit").Range(1, 100000);
  flags.AddBool("plan_only", &c.plan_only,
                "time one model, print the projected time, write nothing");
  RegisterSweepFlags(flags, &c.sweep);
}

Status Validate(const Config& c) {
  PB_ASSIGN_OR_RETURN(const ComputeDevice device, ParseDevice(c.device));
  PB_RETURN_IF_ERROR(EnsureDevice(device));  // --device=cuda without a GPU: exit 2
  for (const std::string& a : SplitNames(c.attacks)) {
    bool known = false;
    for (const std::string& name : AttackNames()) known = known || a == name;
    if (!known)
      return Error("attacks: unknown attack '" + a + "' (valid: clipbkd, clipbkd_vec, shadow)");
  }
  if (c.class_a == c.class_b) return Error("class_b must differ from class_a");
  if (c.batch_size > c.n_train) return Error("batch_size must not exceed n_train");
  int64_t kmax = 0;
  for (int64_t k : c.k) kmax = std::max(kmax, k);
  bool appends = false;  // does any side append copies (n grows by k)?
  for (const Side& s : Sides(c)) appends = appends || PairOf(c, s.poison) == "append";
  if (PairOf(c, "clipbkd") == "flip_replace" && kmax >= c.n_train) {
    return Error("k: --clipbkd_pair=flip_replace replaces k of the n_train = " +
                 std::to_string(c.n_train) + " rows; k must be below n_train");
  }
  if (appends && Steps(c, c.n_train + kmax) != Steps(c, c.n_train)) {
    return Error("n_train: D' (n_train + " + std::to_string(kmax) + " rows) would take " +
                 std::to_string(Steps(c, c.n_train + kmax)) + " DP-SGD steps, D " +
                 std::to_string(Steps(c, c.n_train)) +
                 "; pick n_train so that epochs * n_train / batch_size is just above an integer");
  }
  PB_RETURN_IF_ERROR(Calibrate(c).status());
  DataOptions o;
  o.data_dir = c.data_dir;
  o.class_a = c.class_a, o.class_b = c.class_b, o.n_train = c.n_train;
  o.test_probes = c.test_probes;
  return LoadAuditData(o).status();
}

std::string PlanText(const Config& c, uint64_t seed, const AuditData& d) {
  std::string s =
      "ml_audit_dpsgd seed=" + std::to_string(seed) + " n=" + std::to_string(c.n) +
      " replicates=" + std::to_string(c.replicates) + " attacks=" + c.attacks +
      " delta=" + FormatDouble(c.delta) + " classes=" + std::to_string(c.class_a) + "," +
      std::to_string(c.class_b) + " n_train=" + std::to_string(c.n_train) +
      " probes=" + std::to_string(c.test_probes) + " hidden=" + std::to_string(c.hidden) +
      " act=" + c.activation + " lr=" + FormatDouble(c.learning_rate) +
      " mom=" + FormatDouble(c.momentum) + " C=" + FormatDouble(c.clip_norm) +
      " batch=" + std::to_string(c.batch_size) + " epochs=" + std::to_string(c.epochs) +
      " shadow=" + std::to_string(c.shadow_models) + "," + std::to_string(c.shadow_steps) + "," +
      FormatDouble(c.shadow_step) + " per_unit=" + std::to_string(c.models_per_unit) +
      " label_models=" + std::to_string(c.clipbkd_label_models) + " pair=" + c.clipbkd_pair +
      " label_from=" + c.clipbkd_label_from + " eps=";
  for (double e : c.eps) s += FormatDouble(e) + ",";
  s += " k=";
  for (int64_t k : c.k) s += std::to_string(k) + ",";
  // CPU runs are the bytes they were before --device existed (their parts
  // keep their key); CUDA runs differ by float32 rounding: their own parts.
  if (c.device != "cpu") s += " device=" + c.device;
  return s + " data[" + d.checksums + "]";
}

// Times one model at the first eps_th and prints the projection.
Status PlanOnly(const Config& c, const AuditData& d, const Poisons& p,
                const std::vector<Calibration>& cal, const std::vector<Unit>& units,
                StudyContext& ctx) {
  int64_t models = 0;
  for (const Unit& u : units) models += u.count;
  Unit one = units.front();
  one.count = 1;
  const auto start = std::chrono::steady_clock::now();
  PB_RETURN_IF_ERROR(RunUnit(d, p, c, cal, one, ctx.seed()).status());
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "ml_audit_dpsgd plan: %zu units, %lld models (%lld replicates x %zu eps_th x %zu sides x "
      "2N = %lld); one model %.3f s on one thread; projected %.2f core-hours, %.2f h on %d "
      "threads\n",
      units.size(), static_cast<long long>(models), static_cast<long long>(c.replicates),
      c.eps.size(), Sides(c).size(), static_cast<long long>(2 * c.n), secs, secs * models / 3600.0,
      secs * models / 3600.0 / ctx.threads(), ctx.threads());
  ctx.SkipOutput("--plan_only: nothing trained beyond the timing model");
  return Status::Ok();
}

Status Run(const Config& c, StudyContext& ctx) {
  DataOptions o;
  o.data_dir = c.data_dir;
  o.class_a = c.class_a, o.class_b = c.class_b, o.n_train = c.n_train;
  o.test_probes = c.test_probes;
  o.seed = ctx.seed();
  PB_ASSIGN_OR_RETURN(AuditData data, LoadAuditData(o));
  PB_ASSIGN_OR_RETURN(std::vector<Calibration> cal, Calibrate(c));
  PB_ASSIGN_OR_RETURN(Poisons poisons, DesignPoisons(data, c, cal, ctx.seed()));
  const std::vector<Unit> units = Units(c);
  if (c.plan_only) return PlanOnly(c, data, poisons, cal, units, ctx);
  SweepPlan plan;
  plan.config_text = PlanText(c, ctx.seed(), data);
  for (const Unit& u : units) plan.run_order.push_back({u.id});
  const uint64_t dim = static_cast<uint64_t>(ProbeDim(c.test_probes));
  auto run_unit = [&](int64_t i, const SweepUnit&, ResultWriter& part) -> Status {
    const Unit& u = units[static_cast<size_t>(i)];
    PB_ASSIGN_OR_RETURN(std::vector<double> v, RunUnit(data, poisons, c, cal, u, ctx.seed()));
    return part.WriteDoubles("/probes", v, {static_cast<uint64_t>(u.count), dim});
  };
  auto merge = [&](const SweepParts& parts, const SweepOptions&) -> Status {
    Results r;
    for (size_t i = 0; i < parts.size(); ++i) {
      PB_ASSIGN_OR_RETURN(std::vector<double> v, parts[i]->ReadDoubles("/probes"));
      const Unit& u = units[i];
      std::vector<double>& pool = r.pools[{u.replicate, u.eps_index, u.side_index}];
      pool.insert(pool.end(), v.begin(), v.end());
    }
    PB_ASSIGN_OR_RETURN(r.rows, RunAudits(c, cal, r.pools, ctx.seed()));
    r.calibration = cal;
    r.poisons = poisons;
    r.torch_version = TorchVersion();
    r.part_versions = DescribePartVersions(parts).description;
    return WriteReport(c, r, ctx.out());
  };
  return RunSweepStudy("ml_audit_dpsgd", plan, c.sweep, ctx, run_unit, merge);
}

}  // namespace
}  // namespace privbench::ml_audit_dpsgd

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::ml_audit_dpsgd;
  Study<Config> study;
  study.info = {"ml_audit_dpsgd",
                "Lu et al., A General Framework for Auditing Differentially Private Machine "
                "Learning (ML-Audit, NeurIPS 2022)",
                "Secs. 4-5 (DP-SGD, Fig. 8), Algorithm 1; experiments/ml_audit_dpsgd/README.md",
                "ML-Audit of DP-SGD on Fashion-MNIST: ClipBKD, its vector summary and the "
                "shadow-adversarial poison"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
