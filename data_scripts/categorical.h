// Categorical tables over a public domain: the data the synthetic-data
// study (experiments/synthetic_data_mia) synthesises, attacks and audits.
//
// A CategoricalDomain is PUBLIC METADATA: the attributes and, for each, its
// list of values, fixed before any private record is seen (for Adult, the
// value lists of UCI's adult.names and bin edges chosen without the data:
// adult_categorical.h). Synthesizers read the number of values from the
// domain, never from the sample (a domain taken from the data leaks which
// values occur; that is one of the planted bugs the audit must catch).
//
// A CategoricalTable is n rows of d value codes, row-major; code c of
// attribute j is in [0, domain.sizes[j]).
#ifndef PRIVBENCH_DATA_SCRIPTS_CATEGORICAL_H_
#define PRIVBENCH_DATA_SCRIPTS_CATEGORICAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

struct CategoricalDomain {
  std::vector<std::string> names;                // d attribute names
  std::vector<int32_t> sizes;                    // values per attribute, >= 1
  std::vector<std::vector<std::string>> labels;  // labels[j].size() == sizes[j]

  int64_t attributes() const { return static_cast<int64_t>(sizes.size()); }
};

struct CategoricalTable {
  int64_t d = 0;                // attributes per row
  std::vector<int32_t> values;  // n x d codes, row-major

  int64_t n() const { return d == 0 ? 0 : static_cast<int64_t>(values.size()) / d; }
  const int32_t* row(int64_t i) const { return values.data() + i * d; }
  int32_t* row(int64_t i) { return values.data() + i * d; }
  int32_t at(int64_t i, int64_t j) const { return values[i * d + j]; }
  // Appends one row of d codes (no check; see CheckTable).
  void Append(const int32_t* codes) { values.insert(values.end(), codes, codes + d); }
  void Append(const std::vector<int32_t>& codes) { Append(codes.data()); }
};

// d >= 1, names/sizes/labels agree in length, every size >= 1, every label
// list has sizes[j] entries, names unique and non-empty. Errors name `what`.
Status CheckDomain(const CategoricalDomain& domain, const std::string& what = "domain");

// table.d == domain.attributes(), values.size() a multiple of d, every code in
// range. Errors name `what`, the row and the attribute: "data row 12,
// attribute 'age': code 9 outside [0, 7)".
Status CheckTable(const CategoricalTable& table, const CategoricalDomain& domain,
                  const std::string& what = "data");

// An empty table with the domain's width.
CategoricalTable EmptyTable(const CategoricalDomain& domain);

// The rows of `table` at `rows` (in that order); indices must be in range.
CategoricalTable SelectRows(const CategoricalTable& table, const std::vector<int64_t>& rows);

// Counts of each value of attribute j (domain.sizes[j] entries).
std::vector<int64_t> Marginal1(const CategoricalTable& table, const CategoricalDomain& domain,
                               int64_t j);

// Counts of each (value of a, value of b), a's value major: index
// va * sizes[b] + vb.
std::vector<int64_t> Marginal2(const CategoricalTable& table, const CategoricalDomain& domain,
                               int64_t a, int64_t b);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_CATEGORICAL_H_
