#include "attacks/synthetic/checks.h"

namespace privbench {

Status CheckTargetRecord(const std::vector<int32_t>& target, const CategoricalDomain& domain,
                         const std::string& what) {
  if (static_cast<int64_t>(target.size()) != domain.attributes()) {
    return Error(what + " has " + std::to_string(target.size()) + " codes, the domain " +
                 std::to_string(domain.attributes()) + " attributes");
  }
  for (int64_t j = 0; j < domain.attributes(); ++j) {
    if (target[j] < 0 || target[j] >= domain.sizes[j]) {
      return Error(what + " attribute '" + domain.names[j] + "': code " +
                   std::to_string(target[j]) + " outside [0, " + std::to_string(domain.sizes[j]) +
                   ")");
    }
  }
  return Status::Ok();
}

Status CheckNonEmptyTable(const CategoricalTable& table, const CategoricalDomain& domain,
                          const std::string& what) {
  PB_RETURN_IF_ERROR(CheckTable(table, domain, what));
  if (table.n() == 0) return Error(what + " is empty (no rows)");
  return Status::Ok();
}

}  // namespace privbench
