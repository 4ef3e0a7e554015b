#include "experiments/one_run_audit/report.h"

#include <string>

#include "results/table_builder.h"

namespace privbench {
namespace one_run_audit {

namespace {

template <typename F>
std::vector<double> PerRun(const std::vector<RunResult>& runs, F get) {
  std::vector<double> v;
  for (const RunResult& r : runs) v.push_back(get(r));
  return v;
}

Status WriteAudits(const std::vector<RunResult>& runs, ResultWriter& out) {
  for (int t = 0; t < kCanaryTypes; ++t) {
    const std::string g = std::string("/audit/") + kCanaryTypeNames[t];
    std::vector<int64_t> v, included;
    std::vector<double> lower, scores, best;
    for (const RunResult& r : runs) {
      const Audit& a = r.audits[t];
      v.insert(v.end(), a.v.begin(), a.v.end());
      lower.insert(lower.end(), a.lower.begin(), a.lower.end());
      included.insert(included.end(), a.included.begin(), a.included.end());
      scores.insert(scores.end(), a.scores.begin(), a.scores.end());
      best.push_back(a.best_lower);
    }
    const uint64_t e = runs.size();
    const uint64_t k = runs.empty() ? 0 : runs[0].audits[t].v.size();
    const uint64_t m = runs.empty() ? 0 : runs[0].audits[t].included.size();
    PB_RETURN_IF_ERROR(out.WriteInts(g + "/v", v, {e, k}));
    PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/lower", lower, {e, k}));
    PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/best_lower", best));
    PB_RETURN_IF_ERROR(out.WriteInts(g + "/included", included, {e, m}));
    PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/scores", scores, {e, m}));
  }
  return Status::Ok();
}

Status WriteRuns(const std::vector<RunResult>& runs, ResultWriter& out) {
  PB_RETURN_IF_ERROR(out.WriteDoubles(
      "/runs/target_epsilon", PerRun(runs, [](const RunResult& r) { return r.target_epsilon; })));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/runs/noise_multiplier",
                       PerRun(runs, [](const RunResult& r) { return r.noise_multiplier; })));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/runs/q", PerRun(runs, [](const RunResult& r) { return r.q; })));
  std::vector<int64_t> steps, n;
  for (const RunResult& r : runs) steps.push_back(r.steps), n.push_back(r.n_train);
  PB_RETURN_IF_ERROR(out.WriteInts("/runs/steps", steps));
  PB_RETURN_IF_ERROR(out.WriteInts("/runs/n_train", n));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/runs/eps_rdp",
                                      PerRun(runs, [](const RunResult& r) { return r.eps_rdp; })));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/runs/eps_pld",
                                      PerRun(runs, [](const RunResult& r) { return r.eps_pld; })));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/runs/eps_last_iterate",
                       PerRun(runs, [](const RunResult& r) { return r.eps_last_iterate; })));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/runs/attack_eps_lower",
                       PerRun(runs, [](const RunResult& r) { return r.attack_eps_lower; })));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/runs/attack_advantage",
                       PerRun(runs, [](const RunResult& r) { return r.attack_advantage; })));
  PB_RETURN_IF_ERROR(out.WriteDoubles(
      "/runs/train_accuracy", PerRun(runs, [](const RunResult& r) { return r.train_accuracy; })));
  return out.WriteDoubles("/runs/population_accuracy",
                          PerRun(runs, [](const RunResult& r) { return r.population_accuracy; }));
}

constexpr const char* kLostParameters =
    "The paper audits WideResNet-16-4 on CIFAR-10 (m = 1000 canaries, raw Dirac gradient "
    "canaries and input-space canaries); ours: logistic regression on Adult (CPU budget), "
    "white-box canaries emulated by one private feature per canary (the DP-SGD engine "
    "trains on (x, y)), input-space canaries = population rows with flipped labels, score "
    "= -loss; k pairs and Bonferroni over them are our choice (the paper reports the best "
    "k); noise calibrated by RDP, both RDP and PLD eps reported; momentum SGD 0.9, "
    "per-example clipping, Poisson sampling; one run per eps, no repetitions";

constexpr const char* kCanaryTypesText =
    "input_space: population rows with flipped labels, score -loss; white_box: the zero vector "
    "plus dirac_value on a feature of its own (label 1), score the change of w[1,j] - w[0,j] "
    "(the engine trains on (x, y), so the paper's raw Dirac gradient canaries are emulated by "
    "a private feature per canary)";

// /meta lost_parameters, /settings and its attributes.
Status WriteSettings(const Config& c, const std::string& provenance, ResultWriter& out) {
  PB_RETURN_IF_ERROR(
      SetAttributes(out, "/meta", {{"lost_parameters", kLostParameters}, {"device", c.device}}));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/k_plus", c.k_plus));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/k_minus", c.k_minus));
  return SetAttributes(out, "/settings",
                       {{"canaries", c.canaries},
                        {"delta", c.delta},
                        {"beta", c.beta},
                        {"data", provenance},
                        {"canary_types", kCanaryTypesText}});
}

}  // namespace

Status WriteReport(const Config& c, const Results& results, ResultWriter& out) {
  const std::vector<RunResult>& runs = results.runs;
  PB_RETURN_IF_ERROR(WriteSettings(c, results.data_provenance, out));
  PB_RETURN_IF_ERROR(WriteRuns(runs, out));
  PB_RETURN_IF_ERROR(WriteAudits(runs, out));
  PB_ASSIGN_OR_RETURN(const SummaryTable bounds, BoundsTable(c, runs, results.data_provenance));
  PB_RETURN_IF_ERROR(out.WriteTable(bounds));
  PB_ASSIGN_OR_RETURN(const SummaryTable comparison,
                      ComparisonTable(c, runs, results.data_provenance));
  PB_RETURN_IF_ERROR(out.WriteTable(comparison));
  PB_RETURN_IF_ERROR(out.WriteClaim(BelowAccountantClaim(runs)));
  PB_RETURN_IF_ERROR(out.WriteClaim(GrowsWithEpsClaim(runs)));
  return out.WriteClaim(WhiteBoxTighterClaim(runs));
}

}  // namespace one_run_audit
}  // namespace privbench
