// Study ml_audit: WriteReport wires /meta, the /audits rows, the tables
// (tables.cc) and the claims (claims.cc) into the result file (layout:
// report.h); the sweep's parts carry the same /audits rows.
#include "experiments/ml_audit/report.h"

#include "core/format.h"
#include "results/table_builder.h"

namespace privbench::ml_audit {
namespace {

const std::vector<std::string> kDoubleColumns = {"eps",          "guarantee",    "eps_lb",
                                                 "eps_lb_raw",   "search_bound", "threshold",
                                                 "noise_factor", "influence",    "max_loss"};
const std::vector<std::string> kIntColumns = {
    "n",        "k",          "replicate", "search_n1",    "search_n0", "fresh_n1",
    "fresh_n0", "complement", "haldane",   "replaced_row", "poison_y",  "summary_dim"};
const std::vector<std::string> kStringColumns = {"dataset",   "case",     "mechanism",
                                                 "variant",   "attack",   "mode",
                                                 "role",      "poison_x", "mechanism_description",
                                                 "classifier"};

constexpr const char* kLostParameters =
    "ML-Audit's appendix (hyperparameters, Lemma A.3) is not in our text of the paper; the "
    "paper's code is not public. Ours (experiments/ml_audit/README.md): logistic regression "
    "lambda = 1/n (the library's default C = 1), rows mapped to [x/R, 1]/sqrt(2) with R the "
    "largest clean row norm; features min-max scaled to [-1, 1]; iris binarised setosa vs rest; "
    "the forest with 10 trees, rows assigned to trees by a seeded hash, the library's monotonic "
    "permute-and-flip leaves; the audit's classifier: L2-penalised logistic regression on the "
    "summary decorrelated by its pooled covariance (Cholesky), standardised, and its squares "
    "(the paper does not name one); r = 1/N; Katz-log at z_{alpha/2} with Haldane-Anscombe +1/2 "
    "at a zero fresh count; neighbours: the mechanism's own adjacency (replace for logistic "
    "regression, appended copies for naive Bayes and the forest) except the bug-2 case; the "
    "library cases (role library) run diffprivlib 0.5.x's objective-perturbation calibration "
    "(variant diffprivlib_0_5) but penalise the intercept and solve exactly, as the textbook "
    "cases do";

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : separator) + item;
  return s;
}

std::string JoinDoubles(const std::vector<double>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + FormatDouble(v[i]);
  return s;
}

// Column `name`, empty when the table has no rows.
template <typename T>
std::vector<T> ColumnOrEmpty(const std::map<std::string, std::vector<T>>& columns,
                             const std::string& name) {
  return columns.count(name) ? columns.at(name) : std::vector<T>{};
}

// /meta: what the paper leaves open, the datasets and the sweep's parts.
Status WriteMeta(const Results& results, ResultWriter& out) {
  std::vector<std::string> provenance;
  for (const DatasetInfo& d : results.datasets) provenance.push_back(d.provenance);
  return SetAttributes(out, "/meta",
                       {{"lost_parameters", kLostParameters},
                        {"dataset_provenance", Join(provenance, "; ")},
                        {"datasets_unavailable", Join(results.unavailable, ",")},
                        {"sweep_part_versions", results.part_versions}});
}

}  // namespace

size_t AuditTable::rows() const { return doubles.count("eps") ? doubles.at("eps").size() : 0; }

AuditTable UnitRows(const UnitResult& u) {
  AuditTable t;
  const AuditCase& c = u.audit_case;
  for (const AuditCell& cell : u.cells) {
    const std::vector<double> d = {cell.eps,        cell.guarantee,     cell.eps_lb,
                                   cell.eps_lb_raw, cell.search_bound,  cell.threshold,
                                   c.noise_factor,  u.poison.influence, cell.max_loss};
    const std::vector<int64_t> i = {
        cell.n,        cell.k,        cell.replicate,          cell.search_n1,       cell.search_n0,
        cell.fresh_n1, cell.fresh_n0, cell.complement ? 1 : 0, cell.haldane ? 1 : 0, u.replaced_row,
        u.poison.y,    u.summary_dim};
    const std::string mode = NeighbourModeName(c.mode), x = JoinDoubles(u.poison.x);
    const std::vector<std::string> s = {u.dataset,   c.id,     c.mechanism,
                                        c.variant,   c.attack, mode,
                                        c.role,      x,        u.mechanism_description,
                                        u.classifier};
    for (size_t j = 0; j < d.size(); ++j) t.doubles[kDoubleColumns[j]].push_back(d[j]);
    for (size_t j = 0; j < i.size(); ++j) t.ints[kIntColumns[j]].push_back(i[j]);
    for (size_t j = 0; j < s.size(); ++j) t.strings[kStringColumns[j]].push_back(s[j]);
  }
  return t;
}

void AppendRows(const AuditTable& more, AuditTable* t) {
  for (const auto& [k, v] : more.doubles)
    t->doubles[k].insert(t->doubles[k].end(), v.begin(), v.end());
  for (const auto& [k, v] : more.ints) t->ints[k].insert(t->ints[k].end(), v.begin(), v.end());
  for (const auto& [k, v] : more.strings)
    t->strings[k].insert(t->strings[k].end(), v.begin(), v.end());
}

Status WriteAuditRows(ResultWriter& out, const AuditTable& t) {
  for (const std::string& c : kDoubleColumns) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/" + c, ColumnOrEmpty(t.doubles, c)));
  }
  for (const std::string& c : kIntColumns) {
    PB_RETURN_IF_ERROR(out.WriteInts("/audits/" + c, ColumnOrEmpty(t.ints, c)));
  }
  for (const std::string& c : kStringColumns) {
    PB_RETURN_IF_ERROR(out.WriteStrings("/audits/" + c, ColumnOrEmpty(t.strings, c)));
  }
  return Status::Ok();
}

Result<AuditTable> ReadAuditRows(const ResultReader& in) {
  AuditTable t;
  for (const std::string& c : kDoubleColumns) {
    PB_ASSIGN_OR_RETURN(t.doubles[c], in.ReadDoubles("/audits/" + c));
  }
  for (const std::string& c : kIntColumns) {
    PB_ASSIGN_OR_RETURN(t.ints[c], in.ReadInts("/audits/" + c));
  }
  for (const std::string& c : kStringColumns) {
    PB_ASSIGN_OR_RETURN(t.strings[c], in.ReadStrings("/audits/" + c));
  }
  return t;
}

Status WriteReport(const Config& config, const Results& results, ResultWriter& out) {
  const AuditTable& audits = results.audits;
  if (audits.rows() == 0) return Error("no audits ran (check --mechanisms, --attacks, --roles)");
  PB_RETURN_IF_ERROR(WriteMeta(results, out));
  for (auto table : {DatasetTable, EpsLbTable, MedianEpsLbTable, CeilingTable}) {
    PB_ASSIGN_OR_RETURN(const SummaryTable t, table(config, results));
    PB_RETURN_IF_ERROR(out.WriteTable(t));
  }
  PB_RETURN_IF_ERROR(WriteAuditRows(out, audits));
  for (const Claim& claim : AuditClaims(audits, config)) {
    // The one claim judged by a test also records inconclusive and
    // holds_fraction.
    PB_RETURN_IF_ERROR(claim.id == "ml_audit_nb_prior_beats_mean"
                           ? WriteJudgedClaim(NbPriorBeatsMeanClaim(audits), out)
                           : out.WriteClaim(claim));
  }
  if (ValidityUndecidable(audits, config)) {
    PB_RETURN_IF_ERROR(SetAttributes(out, "/claims/ml_audit_validity", {{"undecidable", 1}}));
  }
  return Status::Ok();
}

}  // namespace privbench::ml_audit
