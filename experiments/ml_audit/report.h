// What study ml_audit (README.md) writes, from WriteReport:
//   /meta {lost_parameters,dataset_provenance,datasets_unavailable,
//          sweep_part_versions}
//   /audits/*         every audit (one cell of one unit) as a row of a flat
//                     table of 1-D datasets:
//     strings: dataset, case, mechanism, variant, attack, mode, role,
//              poison_x (x*, comma-separated), mechanism_description,
//              classifier
//     doubles: eps (eps_th), guarantee (per copy), eps_lb (per copy),
//              eps_lb_raw (before / k), search_bound, threshold, noise_factor,
//              influence (of the poison under the non-private model), max_loss
//     ints:    n (N per side), k, replicate, search_n1, search_n0, fresh_n1,
//              fresh_n0 (the counts behind the search and the final bound:
//              numerator, denominator), complement (the kept set is S^c),
//              haldane (a fresh count was 0), replaced_row, poison_y,
//              summary_dim
//   /summary/{datasets,eps_lb,median_eps_lb,detection_ceiling}   tables.cc
//   /claims/ml_audit_*  the claims of README.md, judged from the rows
//                       (verdicts and evidence; statements and criteria:
//                       claims.json)   claims.cc
// The sweep's parts hold the same /audits columns for one unit
// (WriteAuditRows); the study file concatenates them in unit order.
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_REPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/ml_audit/compute.h"
#include "experiments/ml_audit/config.h"
#include "results/h5_file.h"

namespace privbench::ml_audit {

// The /audits rows, column by column.
struct AuditTable {
  std::map<std::string, std::vector<double>> doubles;
  std::map<std::string, std::vector<int64_t>> ints;
  std::map<std::string, std::vector<std::string>> strings;
  size_t rows() const;
  // The cell of row r in string, double or int column c.
  const std::string& S(const std::string& c, size_t r) const { return strings.at(c)[r]; }
  double D(const std::string& c, size_t r) const { return doubles.at(c)[r]; }
  int64_t I(const std::string& c, size_t r) const { return ints.at(c)[r]; }
};

// One dataset of the run, as the table "datasets" and /meta describe it.
struct DatasetInfo {
  std::string name;
  std::string provenance;
  std::string checksums;
  int64_t rows = 0;  // after preprocessing
  int64_t features = 0;
};

// What the sweep hands the report.
struct Results {
  AuditTable audits;                     // every unit's rows, in unit order
  std::vector<DatasetInfo> datasets;     // the datasets read, in run order
  std::vector<std::string> unavailable;  // downloadable datasets whose files were not found
  std::string part_versions;             // the sweep parts' versions (/meta)
};

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// The sweep's parts: the rows of one unit, written to and read from a part
// file's /audits, and appended in unit order.
AuditTable UnitRows(const UnitResult& unit);
void AppendRows(const AuditTable& more, AuditTable* table);
Status WriteAuditRows(ResultWriter& out, const AuditTable& table);
Result<AuditTable> ReadAuditRows(const ResultReader& in);

// claims.cc: the claims, computed from the rows (exposed for their unit tests).
std::vector<Claim> AuditClaims(const AuditTable& table, const Config& config);
// No outcome of the audits can fail ml_audit_validity: none could exceed its
// guarantee, or the binomial allowance admits all that could exceeding.
bool ValidityUndecidable(const AuditTable& table, const Config& config);

// The level of the sign test that judges ml_audit_nb_prior_beats_mean.
inline constexpr double kNbSignTestAlpha = 0.05;
// ml_audit_nb_prior_beats_mean with its test's verdict (inconclusive,
// holds_fraction = the fraction of matched replace audits where the flip's
// bound is larger); AuditClaims carries its claim.
JudgedClaim NbPriorBeatsMeanClaim(const AuditTable& table);

// The validity test's allowance: the largest count of exceedances that M
// independent audits, each exceeding with probability at most p, reach with
// probability >= 1 - beta: the (1 - beta) quantile of Bin(M, p).
int64_t AllowedExceedances(int64_t audits, double p, double beta);

// tables.cc
Result<SummaryTable> DatasetTable(const Config& config, const Results& results);
Result<SummaryTable> EpsLbTable(const Config& config, const Results& results);
Result<SummaryTable> MedianEpsLbTable(const Config& config, const Results& results);
Result<SummaryTable> CeilingTable(const Config& config, const Results& results);

}  // namespace privbench::ml_audit

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_REPORT_H_
