// Study synthetic_data_mia (F1): WriteReport wires /meta, the raw arrays, the
// summary tables (tables.cc) and the claims (claims.cc) into the result file
// (layout: report.h).
#include "experiments/synthetic_data_mia/report.h"

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "experiments/synthetic_data_mia/claims.h"
#include "experiments/synthetic_data_mia/power.h"
#include "results/table_builder.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

// get(x) for every x of xs, in order.
template <typename T, typename Get>
auto Collect(const std::vector<T>& xs, Get get) {
  std::vector<std::decay_t<decltype(get(xs.front()))>> values;
  values.reserve(xs.size());
  for (const T& x : xs) values.push_back(get(x));
  return values;
}

// The vectors get(x) of every x of xs, concatenated as V: the rows of a
// [xs.size(), n] dataset.
template <typename V, typename T, typename Get>
std::vector<V> Concat(const std::vector<T>& xs, Get get) {
  std::vector<V> values;
  for (const T& x : xs) {
    const auto& row = get(x);
    values.insert(values.end(), row.begin(), row.end());
  }
  return values;
}

// The shape [rows, values / rows] ([0, 0] without rows).
std::vector<uint64_t> RowsShape(size_t rows, size_t values) {
  return {rows, rows == 0 ? 0 : values / rows};
}

Status Write(ResultWriter& out, const std::string& path, const std::vector<double>& v) {
  return out.WriteDoubles(path, v);
}
Status Write(ResultWriter& out, const std::string& path, const std::vector<int64_t>& v) {
  return out.WriteInts(path, v);
}
Status Write(ResultWriter& out, const std::string& path, const std::vector<std::string>& v) {
  return out.WriteStrings(path, v);
}

// Writes 1-D datasets <group><name> of one value get(x) per x of xs (double,
// int64 or string, as get returns).
template <typename T>
class ColumnWriter {
 public:
  ColumnWriter(ResultWriter& out, std::string group, const std::vector<T>& xs)
      : out_(out), group_(std::move(group)), xs_(xs) {}
  template <typename Get>
  Status operator()(const std::string& name, Get get) const {
    return Write(out_, group_ + name, Collect(xs_, get));
  }

 private:
  ResultWriter& out_;
  std::string group_;
  const std::vector<T>& xs_;
};

using Outcomes = std::vector<const AttackOutcome*>;

// Every game's outcomes, game by game: the cells of a [G, A] array.
Outcomes GameOutcomes(const std::vector<GameResult>& games) {
  Outcomes o;
  for (const GameResult& g : games) {
    for (const AttackOutcome& a : g.attacks) o.push_back(&a);
  }
  return o;
}

std::vector<double> ScoresOf(const Outcomes& o) {
  return Concat<double>(
      o, [](const AttackOutcome* a) -> const auto& { return a->test_scores; });
}

// <g>{kind,outlier_score} [T] and <g>records [T, d].
Status WriteTargets(const std::string& g, const std::vector<Target>& targets, ResultWriter& out) {
  const ColumnWriter column(out, g, targets);
  PB_RETURN_IF_ERROR(column("kind", [](const Target& t) { return t.kind; }));
  PB_RETURN_IF_ERROR(column("outlier_score", [](const Target& t) { return t.outlier_score; }));
  const std::vector<int64_t> records = Concat<int64_t>(
      targets, [](const Target& t) -> const auto& { return t.record; });
  return out.WriteInts(g + "records", records, RowsShape(targets.size(), records.size()));
}

// <g>{case_index,target_index,adversary,seconds} [G].
Status WriteGameIndex(const std::string& g, const std::vector<GameResult>& games,
                      ResultWriter& out) {
  const ColumnWriter column(out, g, games);
  PB_RETURN_IF_ERROR(column("case_index", [](const GameResult& x) { return x.case_index; }));
  PB_RETURN_IF_ERROR(column("target_index", [](const GameResult& x) { return x.target_index; }));
  PB_RETURN_IF_ERROR(column("adversary", [](const GameResult& x) { return x.adversary; }));
  return column("seconds", [](const GameResult& x) { return x.seconds; });
}

Status WriteTargetsAndCases(const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteTargets("/targets/", r.targets, out));
  PB_RETURN_IF_ERROR(out.WriteInts("/targets/removed_duplicates", {r.removed_duplicates}));
  const ColumnWriter column(out, "/cases/", r.cases);
  PB_RETURN_IF_ERROR(column("synthesizer", [](const CaseSpec& s) { return s.synthesizer; }));
  PB_RETURN_IF_ERROR(column("bug", [](const CaseSpec& s) { return s.bug; }));
  PB_RETURN_IF_ERROR(column("epsilon", [](const CaseSpec& s) { return s.guarantee.epsilon; }));
  PB_RETURN_IF_ERROR(column("delta", [](const CaseSpec& s) { return s.audit_delta; }));
  PB_RETURN_IF_ERROR(column("rho", [](const CaseSpec& s) { return s.guarantee.rho; }));
  PB_RETURN_IF_ERROR(column("mu", [](const CaseSpec& s) { return s.guarantee.mu; }));
  if (r.perfect_test.size() != r.cases.size()) return Status::Ok();
  return out.WriteDoubles("/cases/perfect_test_eps_lower", r.perfect_test);
}

Status WriteGameArrays(const Results& r, ResultWriter& out) {
  const size_t games = r.games.size(), attacks = r.attacks.size();
  PB_RETURN_IF_ERROR(WriteGameIndex("/games/", r.games, out));
  PB_RETURN_IF_ERROR(out.WriteStrings("/games/attack_names", r.attacks));
  const Outcomes outcomes = GameOutcomes(r.games);
  for (const auto& f : kOutcomeFields) {  // the [G, A] arrays of /games
    const std::vector<double> values =
        Collect(outcomes, [&f](const AttackOutcome* o) { return o->*f.second; });
    PB_RETURN_IF_ERROR(
        out.WriteDoubles(std::string("/games/") + f.first, values, {games, attacks}));
  }
  // Methods: the union over games (katz_log applies at delta = 0 only).
  std::map<std::string, std::vector<double>> eps_lower;
  std::map<std::string, std::vector<int64_t>> applies;
  for (const GameResult& g : r.games) {
    for (const std::string& m : g.attacks.front().methods) {
      eps_lower[m].assign(games * attacks, 0.0);
      applies[m].assign(games, 0);
    }
  }
  for (size_t gi = 0; gi < games; ++gi) {
    for (size_t a = 0; a < attacks; ++a) {
      const AttackOutcome& o = r.games[gi].attacks[a];
      for (size_t m = 0; m < o.methods.size(); ++m) {
        eps_lower[o.methods[m]][gi * attacks + a] = o.eps_lower[m];
        applies[o.methods[m]][gi] = 1;
      }
    }
  }
  for (const auto& [method, values] : eps_lower) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/games/eps_lower/" + method, values, {games, attacks}));
    PB_RETURN_IF_ERROR(out.WriteInts("/games/method_applies/" + method, applies[method]));
  }
  const std::vector<double> scores = ScoresOf(outcomes);
  const size_t releases = games == 0 ? 0 : scores.size() / (games * attacks);
  return out.WriteDoubles("/games/test_scores", scores, {games, attacks, releases});
}

Status WriteWorstCaseArrays(const Results& r, ResultWriter& out) {
  const ColumnWriter column(out, "/worst_case/", r.worst_case);
  using W = WorstCaseResult;
  PB_RETURN_IF_ERROR(column("synthesizer", [](const W& w) { return w.spec.synthesizer; }));
  PB_RETURN_IF_ERROR(column("bug", [](const W& w) { return w.spec.bug; }));
  PB_RETURN_IF_ERROR(column("attributes", [](const W& w) { return w.attributes; }));
  PB_RETURN_IF_ERROR(column("flagged", [](const W& w) { return int64_t{w.flagged}; }));
  PB_RETURN_IF_ERROR(column("bug_audit", [](const W& w) { return int64_t{w.bug_audit}; }));
  PB_RETURN_IF_ERROR(column("epsilon", [](const W& w) { return w.spec.guarantee.epsilon; }));
  PB_RETURN_IF_ERROR(column("mu", [](const W& w) { return w.spec.guarantee.mu; }));
  // Each audit's attacks: white_box, then dcr_hamming (no dcr_mu_lower).
  for (size_t a = 0; a < 2; ++a) {
    const Outcomes o = Collect(r.worst_case, [a](const W& w) { return &w.attacks[a]; });
    const std::string p = a == 0 ? "/worst_case/white_box_" : "/worst_case/dcr_";
    const ColumnWriter attack(out, p, o);
    using O = const AttackOutcome*;
    PB_RETURN_IF_ERROR(attack("eps_lower", [](O x) { return x->cp_eps_lower; }));
    PB_RETURN_IF_ERROR(attack("gdp_eps_lower", [](O x) { return x->gdp_eps_lower; }));
    PB_RETURN_IF_ERROR(attack("ceiling", [](O x) { return x->judged_ceiling; }));
    if (a == 0) PB_RETURN_IF_ERROR(attack("mu_lower", [](O x) { return x->mu_lower; }));
    const std::vector<double> scores = ScoresOf(o);
    PB_RETURN_IF_ERROR(out.WriteDoubles(p + "scores", scores, RowsShape(o.size(), scores.size())));
  }
  return Status::Ok();
}

Status WriteSweepArrays(const Results& r, ResultWriter& out) {
  const OutlierSweep& w = r.sweep;
  const std::string p = "/outlier_sweep/";
  PB_RETURN_IF_ERROR(WriteTargets(p + "targets/", w.targets, out));
  PB_RETURN_IF_ERROR(out.WriteDoubles(p + "targets/exposure", TargetExposure(w)));
  PB_RETURN_IF_ERROR(out.WriteInts(p + "removed_duplicates", {w.removed_duplicates}));
  PB_RETURN_IF_ERROR(out.WriteInts(p + "cases", w.cases));
  PB_RETURN_IF_ERROR(out.WriteStrings(p + "attack_names", w.attacks));
  PB_RETURN_IF_ERROR(WriteGameIndex(p + "games/", w.games, out));
  const std::vector<double> auc =
      Collect(GameOutcomes(w.games), [](const AttackOutcome* o) { return o->auc; });
  return out.WriteDoubles(p + "games/auc", auc, {w.games.size(), w.attacks.size()});
}

Status WriteBugPowerArrays(const Results& r, ResultWriter& out) {
  const ColumnWriter column(out, "/bug_power/", r.bug_power);
  PB_RETURN_IF_ERROR(column("worst_case_index", [](const BugPower& p) { return p.worst_case; }));
  PB_RETURN_IF_ERROR(column("attack", [](const BugPower& p) { return p.attack; }));
  PB_RETURN_IF_ERROR(column("law", [](const BugPower& p) { return p.law; }));
  PB_RETURN_IF_ERROR(column("replicates", [](const BugPower& p) { return p.quick.replicates; }));
  for (const bool quick : {true, false}) {
    const std::vector<DetectionPower> d =
        Collect(r.bug_power, [quick](const BugPower& p) { return quick ? p.quick : p.paper; });
    const ColumnWriter scale(out, quick ? "/bug_power/quick_" : "/bug_power/paper_", d);
    PB_RETURN_IF_ERROR(scale("trials", [](const DetectionPower& x) { return x.trials; }));
    PB_RETURN_IF_ERROR(scale("probability", [](const DetectionPower& x) { return x.probability; }));
    PB_RETURN_IF_ERROR(scale("se", [](const DetectionPower& x) { return x.standard_error; }));
  }
  return Status::Ok();
}

Status WriteCostArrays(const Results& r, ResultWriter& out) {
  if (r.cost.empty()) return Status::Ok();
  const ColumnWriter column(out, "/cost/", r.cost);
  PB_RETURN_IF_ERROR(column("synthesizer", [](const CostResult& c) { return c.synthesizer; }));
  PB_RETURN_IF_ERROR(column("slope", [](const CostResult& c) { return c.slope; }));
  PB_RETURN_IF_ERROR(out.WriteInts("/cost/sizes", r.cost.front().sizes));
  const std::vector<double> seconds = Concat<double>(
      r.cost, [](const CostResult& c) -> const auto& { return c.seconds_per_release; });
  return out.WriteDoubles("/cost/seconds", seconds, {r.cost.size(), r.cost.front().sizes.size()});
}

Status WriteTables(const Results& r, ResultWriter& out) {
  for (auto table : {GamesTable, ByCaseTable, WorstCaseTable, BugPowerTable, OutlierSweepTable}) {
    PB_ASSIGN_OR_RETURN(const SummaryTable t, table(r));
    PB_RETURN_IF_ERROR(out.WriteTable(t));
  }
  if (r.cost.empty()) return Status::Ok();
  PB_ASSIGN_OR_RETURN(const SummaryTable cost, CostTable(r));
  return out.WriteTable(cost);
}

// The claims (claims.h); a judged one gets undecidable = 1 on its group when
// the games lack an attack it needs (UndecidableReason).
Status WriteClaims(const Config& c, const Results& r, ResultWriter& out) {
  for (const JudgedClaim& j : {FixedBeatsRandomClaim(r, c.alpha), FeaturesBeatDcrClaim(r, c.alpha),
                               OutliersLeakMoreClaim(r, c.alpha), NoViolationClaim(r, c.alpha),
                               BlackBoxFarBelowClaim(r)}) {
    PB_RETURN_IF_ERROR(WriteJudgedClaim(j, out));
    if (!UndecidableReason(r, j.claim.id).empty()) {
      PB_RETURN_IF_ERROR(SetAttributes(out, "/claims/" + j.claim.id, {{"undecidable", 1}}));
    }
  }
  PB_RETURN_IF_ERROR(out.WriteClaim(BugsFlaggedClaim(r)));
  return out.WriteClaim(CostClaim(r));
}

}  // namespace

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(SetAttributes(
      out, "/meta",
      {{"lost_parameters",
        "Adult only (Stadler et al. also use Texas hospital data; Annamalai et al. several "
        "sets), discretised to 13 attributes with public bin edges; n = " +
            std::to_string(c.n_records) + " records, " + std::to_string(c.train_datasets) + "/" +
            std::to_string(c.test_datasets) +
            " training/test releases per game (Stadler: 200/150 per target; TAPAS: 1,000/2,500; "
            "Annamalai: 2,000/1,000/2,000 x 5); PrivBayes of degree 1; MST with tree inference "
            "instead of Private-PGM and no domain compression; no GAN or CTGAN synthesizers"},
       {"dataset_provenance", r.data_provenance},
       {"removed_duplicates", r.removed_duplicates}}));
  PB_RETURN_IF_ERROR(WriteTargetsAndCases(r, out));
  PB_RETURN_IF_ERROR(WriteGameArrays(r, out));
  PB_RETURN_IF_ERROR(WriteWorstCaseArrays(r, out));
  PB_RETURN_IF_ERROR(WriteSweepArrays(r, out));
  PB_RETURN_IF_ERROR(WriteBugPowerArrays(r, out));
  PB_RETURN_IF_ERROR(WriteCostArrays(r, out));
  PB_RETURN_IF_ERROR(WriteTables(r, out));
  return WriteClaims(c, r, out);
}

}  // namespace synthetic_data_mia
}  // namespace privbench
