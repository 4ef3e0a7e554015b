// Argument checks shared by the synthetic-data attacks (private to
// attacks/synthetic): a target record against the domain, a non-empty table
// against the domain. Errors name the argument.
#ifndef PRIVBENCH_ATTACKS_SYNTHETIC_CHECKS_H_
#define PRIVBENCH_ATTACKS_SYNTHETIC_CHECKS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "data_scripts/categorical.h"

namespace privbench {

// target.size() == domain.attributes() and every code in range: "target
// attribute 'age': code 9 outside [0, 7)".
Status CheckTargetRecord(const std::vector<int32_t>& target, const CategoricalDomain& domain,
                         const std::string& what = "target");

// CheckTable (width, codes) and at least one row: "synthetic is empty".
Status CheckNonEmptyTable(const CategoricalTable& table, const CategoricalDomain& domain,
                          const std::string& what);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_SYNTHETIC_CHECKS_H_
