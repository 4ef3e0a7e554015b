#include "attacks/synthetic/feature_sets.h"

#include <algorithm>
#include <cmath>

#include "attacks/synthetic/checks.h"

namespace privbench {

Result<TableFeatureExtractor> TableFeatureExtractor::Make(const CategoricalDomain& domain) {
  PB_RETURN_IF_ERROR(CheckDomain(domain));
  TableFeatureExtractor e;
  e.domain_ = domain;
  const int64_t d = domain.attributes();
  e.value_offset_.assign(d + 1, 0);
  e.column_offset_.assign(d + 1, 0);
  for (int64_t j = 0; j < d; ++j) {
    e.value_offset_[j + 1] = e.value_offset_[j] + domain.sizes[j];
    e.column_offset_[j + 1] = e.column_offset_[j] + domain.sizes[j] - 1;
  }
  e.counts_.assign(e.value_offset_[d], 0);
  e.active_.reserve(d);
  return e;
}

int64_t TableFeatureExtractor::Size(TableFeatureSet set) const {
  const int64_t d = domain_.attributes();
  switch (set) {
    case TableFeatureSet::kNaive:
      return 3 * d;
    case TableFeatureSet::kHistogram:
      return value_offset_[d];
    case TableFeatureSet::kCorrelations: {
      const int64_t k = column_offset_[d];
      return k * (k - 1) / 2;
    }
  }
  return 0;
}

void TableFeatureExtractor::Counts(const CategoricalTable& table) {
  std::fill(counts_.begin(), counts_.end(), 0);
  const int64_t d = table.d;
  const int64_t* offset = value_offset_.data();
  int64_t* counts = counts_.data();
  for (int64_t i = 0; i < table.n(); ++i) {
    const int32_t* row = table.row(i);
    for (int64_t j = 0; j < d; ++j) ++counts[offset[j] + row[j]];
  }
}

void TableFeatureExtractor::Naive(std::vector<double>* out) const {
  const int64_t d = domain_.attributes();
  const size_t base = out->size();
  out->resize(base + 3 * d);
  double* mode = out->data() + base;
  double* least = mode + d;
  double* distinct = least + d;
  for (int64_t j = 0; j < d; ++j) {
    const int64_t* c = counts_.data() + value_offset_[j];
    int64_t best = 0, worst = -1, present = 0;
    for (int32_t v = 0; v < domain_.sizes[j]; ++v) {
      if (c[v] == 0) continue;
      ++present;
      if (c[v] > c[best]) best = v;
      if (worst < 0 || c[v] <= c[worst]) worst = v;  // largest code among the least frequent
    }
    mode[j] = static_cast<double>(best);
    least[j] = static_cast<double>(worst);
    distinct[j] = static_cast<double>(present);
  }
}

void TableFeatureExtractor::Histogram(int64_t n, std::vector<double>* out) const {
  const double inv_n = 1.0 / static_cast<double>(n);
  for (int64_t c : counts_) out->push_back(static_cast<double>(c) * inv_n);
}

void TableFeatureExtractor::Correlations(const CategoricalTable& table, std::vector<double>* out) {
  const int64_t d = table.d;
  const int64_t k = column_offset_[d];
  pairs_.assign(static_cast<size_t>(k * k), 0);
  int32_t* pairs = pairs_.data();
  for (int64_t i = 0; i < table.n(); ++i) {
    const int32_t* row = table.row(i);
    active_.clear();
    for (int64_t j = 0; j < d; ++j) {
      if (row[j] != 0) active_.push_back(static_cast<int32_t>(column_offset_[j] + row[j] - 1));
    }
    const int64_t m = static_cast<int64_t>(active_.size());
    for (int64_t p = 0; p < m; ++p) {
      int32_t* line = pairs + static_cast<int64_t>(active_[p]) * k;
      for (int64_t q = p + 1; q < m; ++q) ++line[active_[q]];
    }
  }
  // Column a's row count: the 1-way count of its (attribute, code).
  std::vector<double>& col = scratch_columns_;
  col.resize(k);
  for (int64_t j = 0; j < d; ++j) {
    for (int32_t v = 1; v < domain_.sizes[j]; ++v) {
      col[column_offset_[j] + v - 1] = static_cast<double>(counts_[value_offset_[j] + v]);
    }
  }
  const double n = static_cast<double>(table.n());
  const size_t base = out->size();
  out->resize(base + k * (k - 1) / 2);
  double* f = out->data() + base;
  for (int64_t a = 0; a < k; ++a) {
    const double ca = col[a];
    const double va = ca * (n - ca);
    for (int64_t b = a + 1; b < k; ++b) {
      const double cb = col[b];
      const double vb = cb * (n - cb);
      double r = 0.0;  // a constant column: pandas' NaN, filled with 0
      if (va > 0.0 && vb > 0.0) {
        // Exact in doubles while n^2 < 2^53.
        r = (n * static_cast<double>(pairs[a * k + b]) - ca * cb) / std::sqrt(va * vb);
        r = std::min(1.0, std::max(-1.0, r));
      }
      *f++ = r;
    }
  }
}

Status TableFeatureExtractor::Extract(TableFeatureSet set, const CategoricalTable& table,
                                      std::vector<double>* out) {
  if (set != TableFeatureSet::kNaive && set != TableFeatureSet::kHistogram &&
      set != TableFeatureSet::kCorrelations) {
    return Error("set must be kNaive, kHistogram or kCorrelations");
  }
  if (out == nullptr) return Error("out must not be null");
  PB_RETURN_IF_ERROR(CheckNonEmptyTable(table, domain_, "synthetic"));
  Counts(table);
  switch (set) {
    case TableFeatureSet::kNaive:
      Naive(out);
      break;
    case TableFeatureSet::kHistogram:
      Histogram(table.n(), out);
      break;
    case TableFeatureSet::kCorrelations:
      Correlations(table, out);
      break;
  }
  return Status::Ok();
}

int64_t TableFeatureSize(const CategoricalDomain& domain, TableFeatureSet set) {
  auto e = TableFeatureExtractor::Make(domain);
  return e.ok() ? e.value().Size(set) : 0;
}

namespace {

Result<std::vector<double>> ExtractOnce(TableFeatureSet set, const CategoricalTable& table,
                                        const CategoricalDomain& domain) {
  PB_ASSIGN_OR_RETURN(TableFeatureExtractor e, TableFeatureExtractor::Make(domain));
  std::vector<double> out;
  out.reserve(e.Size(set));
  PB_RETURN_IF_ERROR(e.Extract(set, table, &out));
  return out;
}

}  // namespace

Result<std::vector<double>> NaiveFeatures(const CategoricalTable& table,
                                          const CategoricalDomain& domain) {
  return ExtractOnce(TableFeatureSet::kNaive, table, domain);
}

Result<std::vector<double>> HistogramFeatures(const CategoricalTable& table,
                                              const CategoricalDomain& domain) {
  return ExtractOnce(TableFeatureSet::kHistogram, table, domain);
}

Result<std::vector<double>> CorrelationFeatures(const CategoricalTable& table,
                                                const CategoricalDomain& domain) {
  return ExtractOnce(TableFeatureSet::kCorrelations, table, domain);
}

}  // namespace privbench
