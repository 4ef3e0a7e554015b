// Result layout and claims of study ml_audit (README.md).
//
// Every audit (one cell of one unit) is a row of the flat table /audits/*:
//   strings: dataset, case, mechanism, variant, attack, mode, role,
//            poison_x (x*, comma-separated), mechanism_description,
//            classifier
//   doubles: eps (eps_th), guarantee (per copy), eps_lb (per copy),
//            eps_lb_raw (before / k), search_bound, threshold, noise_factor,
//            influence (of the poison under the non-private model)
//   ints:    n (N per side), k, replicate, search_n1, search_n0, fresh_n1, fresh_n0 (the
//            counts behind the search and the final bound: numerator,
//            denominator), complement (the kept set is S^c), haldane (a
//            fresh count was 0), replaced_row, poison_y, summary_dim
// The sweep's parts hold the same columns for one unit; the study file
// concatenates them in unit order.
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_REPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/ml_audit/compute.h"
#include "experiments/ml_audit/config.h"
#include "results/h5_file.h"

namespace privbench::ml_audit {

struct AuditTable {
  std::map<std::string, std::vector<double>> doubles;
  std::map<std::string, std::vector<int64_t>> ints;
  std::map<std::string, std::vector<std::string>> strings;
  size_t rows() const;
};

// The rows of one unit.
AuditTable UnitRows(const UnitResult& unit);
void AppendRows(const AuditTable& more, AuditTable* table);

Status WriteAuditTable(ResultWriter& out, const AuditTable& table);
Result<AuditTable> ReadAuditTable(const ResultReader& in);

// The claims of README.md (ids ml_audit_*), computed from the rows.
std::vector<Claim> AuditClaims(const AuditTable& table, const MlAuditConfig& config);

// The validity test's allowance: the largest count of exceedances that M
// independent audits, each exceeding with probability at most p, reach with
// probability >= 1 - beta: the (1 - beta) quantile of Bin(M, p).
int64_t AllowedExceedances(int64_t audits, double p, double beta);

// Tables (eps_lb, median_eps_lb, detection_ceiling), claims and the raw
// rows.
Status WriteMlAuditReport(ResultWriter& out, const AuditTable& table, const MlAuditConfig& config);

}  // namespace privbench::ml_audit

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_REPORT_H_
