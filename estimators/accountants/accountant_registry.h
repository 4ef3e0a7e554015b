// The registry of privacy accountants (estimators/registry.h: one explicit
// table, no self-registering globals). Studies (B8 accountant_table),
// calibration tools and the conformance test iterate over
// AllAccountantNames(); the CLI resolves names here.
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ACCOUNTANT_REGISTRY_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ACCOUNTANT_REGISTRY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/accountants/accountant.h"

namespace privbench {

// Registered names, in registry order: naive, advanced, zcdp, rdp, rdp_improved,
// pld, zcdp_optimal, last_iterate_heuristic. The last is a HEURISTIC, not an
// upper bound (last_iterate_heuristic.h).
std::vector<std::string> AllAccountantNames();

// The registered accountants whose eps is an upper bound on the privacy of
// every release of the run (all but last_iterate_heuristic), in registry
// order: what a study lists as "the upper bounds" (B8's accountant table,
// the region of privacy's accounting).
std::vector<std::string> UpperBoundAccountantNames();

// A new instance of the named accountant, or an error naming `field` (the
// argument the caller read `name` from; the CLI field is "method") and
// listing the valid names.
Result<std::unique_ptr<Accountant>> MakeAccountant(std::string_view name,
                                                   std::string_view field = "method");

// eps(delta) of `steps` Poisson-sampled Gaussian steps (noise multiplier
// sigma, rate q) by the registered "rdp" accountant at DefaultRdpOrders()
// with the classic conversion: the accounting every DP-SGD study reports.
Result<double> RdpAccountedEpsilon(double sigma, double q, int64_t steps, double delta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ACCOUNTANT_REGISTRY_H_
