#include "experiments/lib/epsilon_star_sweep/sweep_study.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "experiments/lib/epsilon_star_sweep/compute.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {

namespace {

Status CheckBatchSizes(const std::vector<SweepPoint>& points, const Dataset& d) {
  for (const SweepPoint& p : points) {
    if (p.batch_size > d.n_train()) {
      return Error("batch size " + std::to_string(p.batch_size) + " of " + p.label +
                   " exceeds the training set size " + std::to_string(d.n_train()));
    }
  }
  return Status::Ok();
}

Result<UnitInputs> MakeUnitInputs(const SweepStudy& study, const EpsilonStarSweepConfig& c,
                                  const Dataset& d, uint64_t seed) {
  UnitInputs u;
  u.study = &study;
  u.config = &c;
  u.dataset = &d;
  u.options.quantiles_per_distribution = c.epsilon_star_quantiles;
  PB_ASSIGN_OR_RETURN(u.options.delta, EpsilonStarDelta(c, d.n_train()));
  PB_RETURN_IF_ERROR(ValidateEpsilonStarOptions(u.options));
  u.variants = MakeVariants(u.options);
  u.spec = SpecFor(study.model, d);
  u.seed = seed;
  return u;
}

// Prints the plan with --plan_only, and before a paper-scale run (unless it
// only merges or is quiet), with the time projected from a probe.
Status MaybePrintPlan(const UnitInputs& u, size_t units, const SweepFlags& flags,
                      StudyContext& ctx) {
  const EpsilonStarSweepConfig& c = *u.config;
  if (!c.plan_only && (ctx.scale() != Scale::kPaper || flags.merge_only || ctx.quiet())) {
    return Status::Ok();
  }
  PB_ASSIGN_OR_RETURN(Probe probe,
                      GuardTorch("probe", [&]() -> Result<Probe> { return MeasureProbe(u, 20); }));
  PlanPrintout p;
  p.study = u.study->name;
  p.config = &c;
  p.points = u.points;
  p.accounting = u.accounting;
  p.units = units;
  p.probe = &probe;
  p.threads = ctx.threads();
  p.scale = ctx.scale();
  std::fprintf(stderr, "%s", PlanText(p).c_str());
  return Status::Ok();
}

// The last component of a path.
std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Reads the parts back: what the report is written from.
Result<epsilon_star_sweep::Results> Merge(const UnitInputs& u, const std::vector<ModelUnit>& units,
                                          const SweepParts& parts, const SweepOptions& o) {
  epsilon_star_sweep::Results r;
  r.study = *u.study;
  r.dataset = u.dataset;
  r.points = *u.points;
  r.accounting = *u.accounting;
  r.variants = u.variants;
  r.options = u.options;
  r.model_description = DescribeModel(u.spec);
  r.config_text = o.config_text;
  r.parts_subdirectory = BaseName(PartsDirectory(o));
  r.part_versions = DescribePartVersions(parts).description;
  std::vector<std::string> names;
  for (const EpsilonStarVariant& e : u.variants) names.push_back(e.name);
  PB_ASSIGN_OR_RETURN(r.models, epsilon_star_sweep::ReadModelParts(parts, units, *u.points, names));
  return r;
}

}  // namespace

Result<std::optional<epsilon_star_sweep::Results>> RunEpsilonStarSweep(
    const SweepStudy& study, const EpsilonStarSweepConfig& c, const SweepFlags& flags,
    const Dataset& d, StudyContext& ctx) {
  SetMathThreads(1);
  const std::vector<SweepPoint> points = BuildSweepGrid(c);
  PB_RETURN_IF_ERROR(CheckBatchSizes(points, d));
  PB_ASSIGN_OR_RETURN(const std::vector<PointAccounting> accounting,
                      PlanAccounting(points, c, d.n_train()));
  PB_ASSIGN_OR_RETURN(const SweepTensors tensors, MakeTensors(d));
  PB_ASSIGN_OR_RETURN(UnitInputs u, MakeUnitInputs(study, c, d, ctx.seed()));
  u.tensors = &tensors;
  u.points = &points;
  u.accounting = &accounting;

  const std::vector<ModelUnit> units = MakeUnits(points, c.repetitions, d.n_train());
  const std::vector<ModelUnit> run_order = RunOrder(units);
  const SweepPlan plan = MakeSweepPlan(
      UnitConfigText(study.name, c, d, u.variants, DescribeModel(u.spec), ctx.seed()), units);
  PB_RETURN_IF_ERROR(MaybePrintPlan(u, units.size(), flags, ctx));
  if (c.plan_only) {
    ctx.SkipOutput("--plan_only: nothing trained");
    return std::optional<epsilon_star_sweep::Results>();
  }
  std::optional<epsilon_star_sweep::Results> results;
  auto run_unit = [&](int64_t k, const SweepUnit& unit, ResultWriter& part) {
    const ModelUnit& x = run_order[static_cast<size_t>(k)];
    return GuardTorch("unit " + unit.id,
                      [&]() -> Status { return RunModelUnit(u, x.point, x.rep, part); });
  };
  auto merge = [&](const SweepParts& parts, const SweepOptions& o) -> Status {
    PB_ASSIGN_OR_RETURN(epsilon_star_sweep::Results merged, Merge(u, units, parts, o));
    results = std::move(merged);
    return Status::Ok();
  };
  PB_RETURN_IF_ERROR(RunSweepStudy(study.name, plan, flags, ctx, run_unit, merge));
  return results;
}

}  // namespace privbench
