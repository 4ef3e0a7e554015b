// The factories of the privacy accountants, one line per registered name.
// Each is defined in estimators/accountants/<name>.cc (which includes this
// header) and listed, with its registry name, in the table of
// estimators/accountants/accountant_registry.cc. Studies and tools do not
// call these: they go through MakeAccountant(name) (accountant_registry.h).
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_FACTORIES_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_FACTORIES_H_

#include <memory>

#include "estimators/accountants/accountant.h"

namespace privbench {

std::unique_ptr<Accountant> MakeNaiveAccountant();        // naive.cc
std::unique_ptr<Accountant> MakeAdvancedAccountant();     // advanced.cc
std::unique_ptr<Accountant> MakeZcdpAccountant();         // zcdp.cc
std::unique_ptr<Accountant> MakeZcdpOptimalAccountant();  // zcdp_optimal.cc
std::unique_ptr<Accountant> MakeRdpAccountant();          // rdp.cc
std::unique_ptr<Accountant> MakeRdpImprovedAccountant();  // rdp_improved.cc
std::unique_ptr<Accountant> MakePldAccountant();          // pld.cc
// A HEURISTIC, not an upper bound (last_iterate_heuristic.h).
std::unique_ptr<Accountant> MakeLastIterateHeuristicAccountant();  // last_iterate_heuristic.cc

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_FACTORIES_H_
