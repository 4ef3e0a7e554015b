#include "estimators/accountants/accountant_registry.h"

#include "estimators/accountants/factories.h"
#include "estimators/registry.h"

namespace privbench {
namespace {

// THE REGISTRY: one row per accountant, {registry name, factory}. The
// factory is declared in estimators/accountants/factories.h and defined in
// estimators/accountants/<name>.cc; the instance's name() must equal the
// row's name. Row order is the order studies report the accountants in.
constexpr RegistryRow<Accountant> kRows[] = {
    {"naive", &MakeNaiveAccountant},
    {"advanced", &MakeAdvancedAccountant},
    {"zcdp", &MakeZcdpAccountant},
    {"rdp", &MakeRdpAccountant},
    {"rdp_improved", &MakeRdpImprovedAccountant},
    {"pld", &MakePldAccountant},
    {"zcdp_optimal", &MakeZcdpOptimalAccountant},
    // Not an upper bound: the last-iterate heuristic of Steinke et al. 2025
    // (last_iterate_heuristic.h), listed last.
    {"last_iterate_heuristic", &MakeLastIterateHeuristicAccountant},
};

constexpr Registry<Accountant> kRegistry("accountant", kRows);

// The registered accountants that are predictions, not upper bounds.
constexpr std::string_view kHeuristicAccountants[] = {"last_iterate_heuristic"};

bool IsHeuristic(std::string_view name) {
  for (std::string_view h : kHeuristicAccountants) {
    if (h == name) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> AllAccountantNames() { return kRegistry.AllNames(); }

std::vector<std::string> UpperBoundAccountantNames() {
  std::vector<std::string> names;
  for (const std::string& name : AllAccountantNames()) {
    if (!IsHeuristic(name)) names.push_back(name);
  }
  return names;
}

Result<std::unique_ptr<Accountant>> MakeAccountant(std::string_view name, std::string_view field) {
  return kRegistry.Make(name, field);
}

Result<double> RdpAccountedEpsilon(double sigma, double q, int64_t steps, double delta) {
  PB_ASSIGN_OR_RETURN(std::unique_ptr<Accountant> accountant, MakeAccountant("rdp"));
  DpSgdAccounting s;
  s.sigma = sigma;
  s.q = q;
  s.steps = steps;
  s.delta = delta;
  s.orders = DefaultRdpOrders();
  PB_ASSIGN_OR_RETURN(AccountantResult r, accountant->Epsilon(s));
  return r.epsilon;
}

}  // namespace privbench
