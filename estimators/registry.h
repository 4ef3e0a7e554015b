// The one registry mechanism of the estimator library: a fixed table of
// {name, factory} rows per kind of estimator, written out in that kind's
// registry .cc (no self-registering globals, no static-initialisation order
// to get wrong). Used by the four kinds:
//   interval estimators    estimators/interval_registry.cc
//   accountants            estimators/accountants/accountant_registry.cc
//   loss-sample estimators estimators/loss_samples/loss_sample_registry.cc
//   guess-count estimators estimators/guess_counts/guess_count_registry.cc
// Each kind declares its factories in one header that both the methods and
// the registry include (estimators/intervals/factories.h,
// estimators/accountants/factories.h, estimators/loss_samples/factories.h),
// so a factory whose signature differs from its row does not compile.
//
// T is the kind's interface (IntervalEstimator, Accountant,
// LossSampleEstimator); it must have `std::string_view name() const`.
#ifndef PRIVBENCH_ESTIMATORS_REGISTRY_H_
#define PRIVBENCH_ESTIMATORS_REGISTRY_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace privbench {

// One registered method: its registry name (what users write, and what the
// made instance's name() returns) and its factory.
template <typename T>
struct RegistryRow {
  std::string_view name;
  std::unique_ptr<T> (*make)();
};

template <typename T>
class Registry {
 public:
  // `kind` names what the rows make, for messages ("interval estimator").
  template <size_t N>
  constexpr Registry(std::string_view kind, const RegistryRow<T> (&rows)[N])
      : kind_(kind), rows_(rows), size_(N) {}

  // The registered names, in table order (the order studies report them in).
  std::vector<std::string> AllNames() const {
    std::vector<std::string> names;
    for (size_t i = 0; i < size_; ++i) names.emplace_back(rows_[i].name);
    return names;
  }

  // A new instance of the method registered as `name`. `field` is the name
  // of the argument the user wrote `name` into (a CLI field or flag), so the
  // error reads e.g. "method must be a registered interval estimator
  // (clopper_pearson, ...), got 'nope'". A row whose instance reports a
  // different name() is an internal error (caught by every kind's
  // conformance test).
  Result<std::unique_ptr<T>> Make(std::string_view name, std::string_view field) const {
    for (size_t i = 0; i < size_; ++i) {
      if (rows_[i].name != name) continue;
      std::unique_ptr<T> made = rows_[i].make();
      if (made == nullptr || made->name() != name) {
        return Error("internal error: the " + std::string(kind_) + " registered as '" +
                     std::string(name) + "' reports the name '" +
                     (made == nullptr ? std::string("(null)") : std::string(made->name())) + "'");
      }
      return made;
    }
    std::string known;
    for (size_t i = 0; i < size_; ++i) {
      known += (i == 0 ? "" : ", ") + std::string(rows_[i].name);
    }
    return Error(std::string(field) + " must be a registered " + std::string(kind_) + " (" + known +
                 "), got '" + std::string(name) + "'");
  }

 private:
  std::string_view kind_;
  const RegistryRow<T>* rows_;
  size_t size_;
};

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_REGISTRY_H_
