#include "experiments/synthetic_data_mia/parts.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::string JoinDoubles(const std::vector<double>& values) {
  std::string out;
  for (double v : values) out += (out.empty() ? "" : ",") + FormatDouble(v);
  return out;
}

// "<synthesizer>" (non-private) or "<synthesizer>_eps=<eps>" (DP).
std::string CaseText(const CaseSpec& spec) {
  std::string s = spec.synthesizer;
  if (spec.guarantee.is_private()) s += "_eps=" + FormatDouble(spec.guarantee.epsilon);
  return s;
}

std::string WorstCaseUnitId(int64_t w, const WorstCasePlan& p) {
  return "worst=" + std::to_string(w) + "_" + p.spec.synthesizer +
         "_eps=" + FormatDouble(p.spec.guarantee.epsilon) + "_d=" + std::to_string(p.attributes) +
         "_bug=" + (p.spec.bug.empty() ? std::string("none") : p.spec.bug);
}

void AddUnit(StudyPlan* plan, std::string id, UnitJob job) {
  plan->sweep_plan.run_order.push_back({std::move(id)});
  plan->jobs.push_back(std::move(job));
}

// The units in run order: the main games, the worst-case audits, the
// outlier sweep's games.
void PlanUnits(StudyPlan* plan) {
  const Config& c = plan->config;
  for (size_t k = 0; k < plan->cases.size(); ++k) {
    for (size_t t = 0; t < plan->setup.targets.size(); ++t) {
      for (const std::string& a : c.adversaries) {
        AddUnit(plan, GameUnitId("game", plan->cases[k], static_cast<int64_t>(t), a),
                {UnitJob::Kind::kGame, static_cast<int64_t>(k), static_cast<int64_t>(t), a});
      }
    }
  }
  for (size_t w = 0; w < plan->worst_case.size(); ++w) {
    AddUnit(plan, WorstCaseUnitId(static_cast<int64_t>(w), plan->worst_case[w]),
            {UnitJob::Kind::kWorstCase, static_cast<int64_t>(w), 0, ""});
  }
  const OutlierSweepPlan& sweep = plan->sweep;
  if (sweep.runs_games()) {
    for (int64_t k : sweep.sweep.cases) {
      for (size_t t = 0; t < sweep.sweep.targets.size(); ++t) {
        for (const std::string& a : sweep.config.adversaries) {
          AddUnit(
              plan,
              GameUnitId("sweep", plan->cases[static_cast<size_t>(k)], static_cast<int64_t>(t), a),
              {UnitJob::Kind::kSweepGame, k, static_cast<int64_t>(t), a});
        }
      }
    }
  }
}

// ---- part I/O ----

Status WriteOutcomes(const std::string& g, const std::vector<AttackOutcome>& outcomes,
                     bool with_scores, ResultWriter& part) {
  std::vector<std::string> names;
  std::vector<double> scores;
  for (const AttackOutcome& o : outcomes) {
    names.push_back(o.attack);
    scores.insert(scores.end(), o.test_scores.begin(), o.test_scores.end());
    PB_RETURN_IF_ERROR(part.WriteStrings(g + "methods/" + o.attack, o.methods));
    PB_RETURN_IF_ERROR(part.WriteDoubles(g + "eps_lower/" + o.attack, o.eps_lower));
  }
  PB_RETURN_IF_ERROR(part.WriteStrings(g + "attack_names", names));
  for (const auto& [name, member] : kOutcomeFields) {
    std::vector<double> values;
    for (const AttackOutcome& o : outcomes) values.push_back(o.*member);
    PB_RETURN_IF_ERROR(part.WriteDoubles(g + name, values));
  }
  if (!with_scores || outcomes.empty()) return Status::Ok();
  return part.WriteDoubles(g + "test_scores", scores,
                           {outcomes.size(), outcomes.front().test_scores.size()});
}

// A dataset of `part` with `n` values, else an error naming the part.
Result<std::vector<double>> ReadSized(const ResultReader& part, const std::string& path, size_t n) {
  PB_ASSIGN_OR_RETURN(std::vector<double> v, part.ReadDoubles(path));
  if (v.size() != n) {
    return Error("part " + part.path() + ": " + path + " has " + std::to_string(v.size()) +
                 " values, want " + std::to_string(n));
  }
  return v;
}

// The outcomes of the attacks `attacks` (in that order) under group g.
Result<std::vector<AttackOutcome>> ReadOutcomes(const ResultReader& part, const std::string& g,
                                                const std::vector<std::string>& attacks,
                                                bool with_scores) {
  PB_ASSIGN_OR_RETURN(const std::vector<std::string> names, part.ReadStrings(g + "attack_names"));
  if (names != attacks) {
    return Error("part " + part.path() + ": attacks " + Join(names) + ", want " + Join(attacks));
  }
  const size_t n = attacks.size();
  std::vector<AttackOutcome> out(n);
  for (const auto& [name, member] : kOutcomeFields) {
    PB_ASSIGN_OR_RETURN(const std::vector<double> v, ReadSized(part, g + name, n));
    for (size_t a = 0; a < n; ++a) out[a].*member = v[a];
  }
  for (size_t a = 0; a < n; ++a) {
    out[a].attack = attacks[a];
    PB_ASSIGN_OR_RETURN(out[a].methods, part.ReadStrings(g + "methods/" + attacks[a]));
    PB_ASSIGN_OR_RETURN(out[a].eps_lower,
                        ReadSized(part, g + "eps_lower/" + attacks[a], out[a].methods.size()));
  }
  if (!with_scores || n == 0) return out;
  PB_ASSIGN_OR_RETURN(const std::vector<double> scores, part.ReadDoubles(g + "test_scores"));
  const size_t r = scores.size() / n;
  for (size_t a = 0; a < n; ++a) {
    out[a].test_scores.assign(scores.begin() + static_cast<std::ptrdiff_t>(a * r),
                              scores.begin() + static_cast<std::ptrdiff_t>((a + 1) * r));
  }
  return out;
}

Status WriteGame(const GameResult& game, bool with_scores, ResultWriter& part) {
  PB_RETURN_IF_ERROR(part.WriteInts("/game/case_index", {game.case_index}));
  PB_RETURN_IF_ERROR(part.WriteInts("/game/target_index", {game.target_index}));
  PB_RETURN_IF_ERROR(part.WriteStrings("/game/adversary", {game.adversary}));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/game/seconds", {game.seconds}));
  return WriteOutcomes("/game/", game.attacks, with_scores, part);
}

Result<int64_t> ReadOneInt(const ResultReader& part, const std::string& path) {
  PB_ASSIGN_OR_RETURN(const std::vector<int64_t> v, part.ReadInts(path));
  if (v.size() != 1) return Error("part " + part.path() + ": " + path + " is not one value");
  return v[0];
}

// The game of unit `job` from its part (checked against the job).
Result<GameResult> ReadGame(const ResultReader& part, const UnitJob& job,
                            const std::vector<std::string>& attacks, bool with_scores) {
  GameResult g;
  PB_ASSIGN_OR_RETURN(g.case_index, ReadOneInt(part, "/game/case_index"));
  PB_ASSIGN_OR_RETURN(g.target_index, ReadOneInt(part, "/game/target_index"));
  PB_ASSIGN_OR_RETURN(const std::vector<std::string> adversary,
                      part.ReadStrings("/game/adversary"));
  if (g.case_index != job.index || g.target_index != job.target || adversary.size() != 1 ||
      adversary[0] != job.adversary) {
    return Error("part " + part.path() + " holds another game than its unit's");
  }
  g.adversary = adversary[0];
  PB_ASSIGN_OR_RETURN(const std::vector<double> seconds, ReadSized(part, "/game/seconds", 1));
  g.seconds = seconds[0];
  PB_ASSIGN_OR_RETURN(g.attacks, ReadOutcomes(part, "/game/", attacks, with_scores));
  return g;
}

Status WriteBugPower(const std::vector<BugPower>& rows, ResultWriter& part) {
  std::vector<std::string> attack, law;
  std::vector<int64_t> trials[2], replicates[2];
  std::vector<double> probability[2], se[2];
  for (const BugPower& row : rows) {
    attack.push_back(row.attack);
    law.push_back(row.law);
    const DetectionPower* power[2] = {&row.quick, &row.paper};
    for (int s = 0; s < 2; ++s) {
      trials[s].push_back(power[s]->trials);
      replicates[s].push_back(power[s]->replicates);
      probability[s].push_back(power[s]->probability);
      se[s].push_back(power[s]->standard_error);
    }
  }
  PB_RETURN_IF_ERROR(part.WriteStrings("/bug_power/attack", attack));
  PB_RETURN_IF_ERROR(part.WriteStrings("/bug_power/law", law));
  const char* scale[2] = {"quick", "paper"};
  for (int s = 0; s < 2; ++s) {
    const std::string p = std::string("/bug_power/") + scale[s] + "_";
    PB_RETURN_IF_ERROR(part.WriteInts(p + "trials", trials[s]));
    PB_RETURN_IF_ERROR(part.WriteInts(p + "replicates", replicates[s]));
    PB_RETURN_IF_ERROR(part.WriteDoubles(p + "probability", probability[s]));
    PB_RETURN_IF_ERROR(part.WriteDoubles(p + "standard_error", se[s]));
  }
  return Status::Ok();
}

Result<std::vector<BugPower>> ReadBugPower(const ResultReader& part, int64_t worst_case) {
  PB_ASSIGN_OR_RETURN(const std::vector<std::string> attack, part.ReadStrings("/bug_power/attack"));
  PB_ASSIGN_OR_RETURN(const std::vector<std::string> law, part.ReadStrings("/bug_power/law"));
  std::vector<BugPower> rows(attack.size());
  if (law.size() != rows.size()) return Error("part " + part.path() + ": /bug_power sizes differ");
  const char* scale[2] = {"quick", "paper"};
  for (int s = 0; s < 2; ++s) {
    const std::string p = std::string("/bug_power/") + scale[s] + "_";
    PB_ASSIGN_OR_RETURN(const std::vector<int64_t> trials, part.ReadInts(p + "trials"));
    PB_ASSIGN_OR_RETURN(const std::vector<int64_t> replicates, part.ReadInts(p + "replicates"));
    PB_ASSIGN_OR_RETURN(const std::vector<double> probability,
                        ReadSized(part, p + "probability", rows.size()));
    PB_ASSIGN_OR_RETURN(const std::vector<double> se,
                        ReadSized(part, p + "standard_error", rows.size()));
    if (trials.size() != rows.size() || replicates.size() != rows.size()) {
      return Error("part " + part.path() + ": /bug_power sizes differ");
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      DetectionPower& d = s == 0 ? rows[i].quick : rows[i].paper;
      d = {trials[i], replicates[i], probability[i], se[i]};
    }
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].worst_case = worst_case;
    rows[i].attack = attack[i];
    rows[i].law = law[i];
  }
  return rows;
}

Status RunGameUnit(const StudyPlan& plan, const UnitJob& job, ResultWriter& part) {
  const bool sweep = job.kind == UnitJob::Kind::kSweepGame;
  const GameInputs main = MainInputs(plan, 1);
  const GameInputs in = sweep ? SweepGameInputs(main, plan.sweep) : main;
  PB_ASSIGN_OR_RETURN(const GameResult game, RunGame(in, plan.cases[static_cast<size_t>(job.index)],
                                                     job.index, job.target, job.adversary));
  return WriteGame(game, !sweep && plan.config.keep_test_scores, part);
}

Status RunWorstCaseUnit(const StudyPlan& plan, const UnitJob& job, ResultWriter& part) {
  const GameInputs in = MainInputs(plan, 1);
  const WorstCasePlan& p = plan.worst_case[static_cast<size_t>(job.index)];
  PB_ASSIGN_OR_RETURN(WorstCaseResult w, RunWorstCase(in, p.spec, p.attributes, job.index));
  w.bug_audit = p.bug_audit;
  PB_ASSIGN_OR_RETURN(const std::vector<BugPower> power, BugPowerRows(in, job.index, w));
  PB_RETURN_IF_ERROR(part.WriteInts("/worst_case/attributes", {w.attributes}));
  PB_RETURN_IF_ERROR(part.WriteInts("/worst_case/bug_audit", {w.bug_audit ? 1 : 0}));
  PB_RETURN_IF_ERROR(part.WriteDoubles("/worst_case/best_cp_eps_lower", {w.best_cp_eps_lower}));
  PB_RETURN_IF_ERROR(part.WriteInts("/worst_case/flagged", {w.flagged ? 1 : 0}));
  PB_RETURN_IF_ERROR(WriteOutcomes("/worst_case/", w.attacks, true, part));
  return WriteBugPower(power, part);
}

Result<WorstCaseResult> ReadWorstCase(const ResultReader& part, const WorstCasePlan& p) {
  WorstCaseResult w;
  w.spec = p.spec;
  PB_ASSIGN_OR_RETURN(w.attributes, ReadOneInt(part, "/worst_case/attributes"));
  PB_ASSIGN_OR_RETURN(const int64_t bug_audit, ReadOneInt(part, "/worst_case/bug_audit"));
  if (w.attributes != p.attributes || (bug_audit != 0) != p.bug_audit) {
    return Error("part " + part.path() + " holds another worst-case audit than its unit's");
  }
  w.bug_audit = p.bug_audit;
  PB_ASSIGN_OR_RETURN(const std::vector<double> best,
                      ReadSized(part, "/worst_case/best_cp_eps_lower", 1));
  w.best_cp_eps_lower = best[0];
  PB_ASSIGN_OR_RETURN(const int64_t flagged, ReadOneInt(part, "/worst_case/flagged"));
  w.flagged = flagged != 0;
  PB_ASSIGN_OR_RETURN(w.attacks,
                      ReadOutcomes(part, "/worst_case/", {"white_box", "dcr_hamming"}, true));
  return w;
}

// Reads part k (unit jobs[k]) into r.
Status MergePart(const StudyPlan& plan, size_t k, const ResultReader& part, Results& r) {
  const UnitJob& job = plan.jobs[k];
  switch (job.kind) {
    case UnitJob::Kind::kGame: {
      PB_ASSIGN_OR_RETURN(GameResult g,
                          ReadGame(part, job, r.attacks, plan.config.keep_test_scores));
      r.games.push_back(std::move(g));
      return Status::Ok();
    }
    case UnitJob::Kind::kSweepGame: {
      PB_ASSIGN_OR_RETURN(GameResult g, ReadGame(part, job, r.sweep.attacks, false));
      r.sweep.games.push_back(std::move(g));
      return Status::Ok();
    }
    case UnitJob::Kind::kWorstCase:
      break;
  }
  PB_ASSIGN_OR_RETURN(WorstCaseResult w,
                      ReadWorstCase(part, plan.worst_case[static_cast<size_t>(job.index)]));
  PB_ASSIGN_OR_RETURN(std::vector<BugPower> rows, ReadBugPower(part, job.index));
  for (BugPower& row : rows) r.bug_power.push_back(std::move(row));
  r.worst_case.push_back(std::move(w));
  return Status::Ok();
}

}  // namespace

std::string SweepConfigText(const Config& c, uint64_t seed, const std::string& data_checksums) {
  std::string s;
  auto kv = [&s](const std::string& k, const std::string& v) { s += k + " = " + v + "\n"; };
  kv("study", "synthetic_data_mia");
  kv("seed", std::to_string(seed));
  kv("data_checksums", data_checksums);
  kv("synthesizers", Join(c.synthesizers));
  kv("epsilons", JoinDoubles(c.epsilons));
  kv("delta", FormatDouble(c.delta));
  kv("n_records", std::to_string(c.n_records));
  kv("n_synthetic", std::to_string(c.n_synthetic));
  kv("train_datasets", std::to_string(c.train_datasets));
  kv("test_datasets", std::to_string(c.test_datasets));
  kv("keep_test_scores", c.keep_test_scores ? "true" : "false");
  kv("outlier_targets", std::to_string(c.outlier_targets));
  kv("random_targets", std::to_string(c.random_targets));
  kv("canary_target", c.canary_target ? "true" : "false");
  kv("knn_k", std::to_string(c.knn_k));
  kv("outlier_pool", std::to_string(c.outlier_pool));
  kv("queries", std::to_string(c.queries));
  kv("adversaries", Join(c.adversaries));
  kv("attacks", Join(SelectedAttacks(c)));
  kv("alpha", FormatDouble(c.alpha));
  kv("worst_case_trials", std::to_string(c.worst_case_trials));
  kv("bug_epsilon", FormatDouble(c.bug_epsilon));
  kv("bug_power_replicates", std::to_string(c.bug_power_replicates));
  kv("sweep_outliers", std::to_string(c.sweep_outliers));
  kv("sweep_randoms", std::to_string(c.sweep_randoms));
  kv("sweep_epsilons", JoinDoubles(c.sweep_epsilons));
  kv("sweep_adversaries", Join(c.sweep_adversaries));
  kv("sweep_train_datasets", std::to_string(c.sweep_train_datasets));
  kv("sweep_test_datasets", std::to_string(c.sweep_test_datasets));
  kv("sweep_attacks", Join(c.sweep_attacks));
  return s;
}

std::string GameUnitId(const std::string& kind, const CaseSpec& spec, int64_t target,
                       const std::string& adversary) {
  return kind + "=" + CaseText(spec) + "_target=" + std::to_string(target) +
         "_adversary=" + adversary;
}

Status MakePlan(const Config& c, uint64_t seed, const CategoricalTable& pool,
                const CategoricalDomain& domain, const std::string& data_checksums,
                StudyPlan* plan) {
  plan->config = c;
  plan->seed = seed;
  plan->domain = &domain;
  PB_ASSIGN_OR_RETURN(plan->setup, ChooseTargets(pool, domain, c, seed));
  PB_ASSIGN_OR_RETURN(plan->cases, MainCases(c));
  PB_ASSIGN_OR_RETURN(plan->worst_case, WorstCasePlans(c, plan->cases, domain));
  PB_ASSIGN_OR_RETURN(plan->sweep, PlanOutlierSweep(MainInputs(*plan, 1), pool, plan->cases));
  plan->sweep_plan.config_text = SweepConfigText(c, seed, data_checksums);
  PlanUnits(plan);
  return Status::Ok();
}

GameInputs MainInputs(const StudyPlan& plan, int threads) {
  return {&plan.config,        plan.domain, &plan.setup.population,
          &plan.setup.targets, plan.seed,   threads};
}

Status RunUnit(const StudyPlan& plan, int64_t k, ResultWriter& part) {
  const UnitJob& job = plan.jobs[static_cast<size_t>(k)];
  switch (job.kind) {
    case UnitJob::Kind::kGame:
    case UnitJob::Kind::kSweepGame:
      return RunGameUnit(plan, job, part);
    case UnitJob::Kind::kWorstCase:
      break;
  }
  return RunWorstCaseUnit(plan, job, part);
}

Result<Results> MergeParts(const StudyPlan& plan, const SweepParts& parts) {
  if (parts.size() != plan.jobs.size()) {
    return Error(std::to_string(parts.size()) + " parts for " + std::to_string(plan.jobs.size()) +
                 " units");
  }
  Results r;
  r.cases = plan.cases;
  r.targets = plan.setup.targets;
  r.attacks = SelectedAttacks(plan.config);
  r.removed_duplicates = plan.setup.removed_duplicates;
  r.data_provenance = "uci-adult";
  r.sweep = plan.sweep.sweep;
  for (size_t k = 0; k < parts.size(); ++k) {
    PB_RETURN_IF_ERROR(MergePart(plan, k, *parts[k], r));
  }
  // What needs no releases: the perfect-test bounds and the cost
  // measurement (timings only), after every unit.
  const GameInputs in = MainInputs(plan, 1);
  PB_ASSIGN_OR_RETURN(r.perfect_test, PerfectTestBounds(in, r.cases));
  for (const std::string& name : plan.config.synthesizers) {
    PB_ASSIGN_OR_RETURN(CostResult cost, MeasureCost(in, name));
    r.cost.push_back(std::move(cost));
  }
  return r;
}

}  // namespace synthetic_data_mia
}  // namespace privbench
