#include "estimators/accountants/accountant_registry.h"

namespace privbench {

// THE REGISTRY. One line per accountant: X(factory), where the factory is
// defined in estimators/accountants/<name>.cc and returns a
// std::unique_ptr<Accountant> whose name() is the registry name.
#define PRIVBENCH_ACCOUNTANTS(X) \
  X(MakeNaiveAccountant)         \
  X(MakeAdvancedAccountant)      \
  X(MakeZcdpAccountant)          \
  X(MakeRdpAccountant)           \
  X(MakeRdpImprovedAccountant)

#define PRIVBENCH_DECLARE_FACTORY(f) std::unique_ptr<Accountant> f();
PRIVBENCH_ACCOUNTANTS(PRIVBENCH_DECLARE_FACTORY)
#undef PRIVBENCH_DECLARE_FACTORY

namespace {
using Factory = std::unique_ptr<Accountant> (*)();
#define PRIVBENCH_LIST_FACTORY(f) &f,
const Factory kFactories[] = {PRIVBENCH_ACCOUNTANTS(PRIVBENCH_LIST_FACTORY)};
#undef PRIVBENCH_LIST_FACTORY
}  // namespace

std::vector<std::string> AllAccountantNames() {
  std::vector<std::string> names;
  for (Factory f : kFactories) names.emplace_back(f()->name());
  return names;
}

Result<std::unique_ptr<Accountant>> MakeAccountant(std::string_view name) {
  std::string known;
  for (Factory f : kFactories) {
    auto acc = f();
    if (acc->name() == name) return acc;
    known += (known.empty() ? "" : ", ") + std::string(acc->name());
  }
  return Error("accountant must be a registered accountant (" + known + "), got '" +
               std::string(name) + "'");
}

}  // namespace privbench
