#include "data_scripts/categorical.h"

#include <set>
#include <string>

namespace privbench {

Status CheckDomain(const CategoricalDomain& domain, const std::string& what) {
  const size_t d = domain.sizes.size();
  if (d == 0) return Error(what + " must have at least one attribute");
  if (domain.names.size() != d || domain.labels.size() != d) {
    return Error(what + ": names (" + std::to_string(domain.names.size()) + "), sizes (" +
                 std::to_string(d) + ") and labels (" + std::to_string(domain.labels.size()) +
                 ") must have the same length");
  }
  std::set<std::string> seen;
  for (size_t j = 0; j < d; ++j) {
    if (domain.names[j].empty()) {
      return Error(what + " attribute " + std::to_string(j) + " has an empty name");
    }
    if (!seen.insert(domain.names[j]).second) {
      return Error(what + " attribute name '" + domain.names[j] + "' appears twice");
    }
    if (domain.sizes[j] < 1) {
      return Error(what + " attribute '" + domain.names[j] +
                   "' must have at least one value, got " + std::to_string(domain.sizes[j]));
    }
    if (static_cast<int64_t>(domain.labels[j].size()) != domain.sizes[j]) {
      return Error(what + " attribute '" + domain.names[j] + "' has " +
                   std::to_string(domain.sizes[j]) + " values but " +
                   std::to_string(domain.labels[j].size()) + " labels");
    }
  }
  return Status::Ok();
}

Status CheckTable(const CategoricalTable& table, const CategoricalDomain& domain,
                  const std::string& what) {
  if (table.d != domain.attributes()) {
    return Error(what + " has " + std::to_string(table.d) + " attributes per row, the domain " +
                 std::to_string(domain.attributes()));
  }
  if (table.d == 0 || table.values.size() % static_cast<size_t>(table.d) != 0) {
    return Error(what + " holds " + std::to_string(table.values.size()) +
                 " codes, not a multiple of its " + std::to_string(table.d) + " attributes");
  }
  for (int64_t i = 0; i < table.n(); ++i) {
    for (int64_t j = 0; j < table.d; ++j) {
      const int32_t code = table.at(i, j);
      if (code < 0 || code >= domain.sizes[j]) {
        return Error(what + " row " + std::to_string(i) + ", attribute '" + domain.names[j] +
                     "': code " + std::to_string(code) + " outside [0, " +
                     std::to_string(domain.sizes[j]) + ")");
      }
    }
  }
  return Status::Ok();
}

CategoricalTable EmptyTable(const CategoricalDomain& domain) {
  CategoricalTable t;
  t.d = domain.attributes();
  return t;
}

CategoricalTable SelectRows(const CategoricalTable& table, const std::vector<int64_t>& rows) {
  CategoricalTable out;
  out.d = table.d;
  out.values.reserve(rows.size() * static_cast<size_t>(table.d));
  for (int64_t r : rows) out.Append(table.row(r));
  return out;
}

std::vector<int64_t> Marginal1(const CategoricalTable& table, const CategoricalDomain& domain,
                               int64_t j) {
  std::vector<int64_t> counts(static_cast<size_t>(domain.sizes[j]), 0);
  for (int64_t i = 0; i < table.n(); ++i) ++counts[static_cast<size_t>(table.at(i, j))];
  return counts;
}

std::vector<int64_t> Marginal2(const CategoricalTable& table, const CategoricalDomain& domain,
                               int64_t a, int64_t b) {
  const int64_t kb = domain.sizes[b];
  std::vector<int64_t> counts(static_cast<size_t>(domain.sizes[a] * kb), 0);
  for (int64_t i = 0; i < table.n(); ++i) {
    ++counts[static_cast<size_t>(table.at(i, a) * kb + table.at(i, b))];
  }
  return counts;
}

}  // namespace privbench
