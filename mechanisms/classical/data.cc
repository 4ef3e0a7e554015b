#include "mechanisms/classical/data.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"

namespace privbench {

void BinaryData::Append(const std::vector<double>& features, int label) {
  x.insert(x.end(), features.begin(), features.end());
  y.push_back(label);
}

Status CheckBinaryData(const BinaryData& data) {
  if (data.d < 1) return Error("data: d must be >= 1, got " + std::to_string(data.d));
  if (data.n() < 1) return Error("data: no rows");
  if (static_cast<int64_t>(data.x.size()) != data.n() * data.d) {
    return Error("data: x has " + std::to_string(data.x.size()) +
                 " values, expected n * d = " + std::to_string(data.n() * data.d));
  }
  for (int64_t i = 0; i < data.n(); ++i) {
    if (data.y[i] != 0 && data.y[i] != 1) {
      return Error("data: label of row " + std::to_string(i) + " must be 0 or 1");
    }
  }
  for (double v : data.x) {
    if (!std::isfinite(v)) return Error("data: features must be finite");
  }
  return Status::Ok();
}

DataBounds BoundsOf(const BinaryData& data) {
  DataBounds b;
  b.lo.assign(data.d, INFINITY);
  b.hi.assign(data.d, -INFINITY);
  double r2 = 0;
  for (int64_t i = 0; i < data.n(); ++i) {
    const double* x = data.row(i);
    double s = 0;
    for (int64_t j = 0; j < data.d; ++j) {
      b.lo[j] = std::min(b.lo[j], x[j]);
      b.hi[j] = std::max(b.hi[j], x[j]);
      s += x[j] * x[j];
    }
    r2 = std::max(r2, s);
  }
  for (int64_t j = 0; j < data.d; ++j) {
    if (!(b.hi[j] > b.lo[j])) {
      b.lo[j] -= 0.5;
      b.hi[j] += 0.5;
    }
  }
  b.radius = std::max(std::sqrt(r2), 1e-12);
  return b;
}

Status CheckWithinBounds(const BinaryData& data, const DataBounds& bounds) {
  for (int64_t i = 0; i < data.n(); ++i) {
    const double* x = data.row(i);
    double s = 0;
    for (int64_t j = 0; j < data.d; ++j) {
      const double slack = 1e-9 * (bounds.hi[j] - bounds.lo[j]);
      if (x[j] < bounds.lo[j] - slack || x[j] > bounds.hi[j] + slack) {
        return Error("row " + std::to_string(i) + " feature " + std::to_string(j) +
                     " lies outside the data bounds [" + FormatDouble(bounds.lo[j]) + ", " +
                     FormatDouble(bounds.hi[j]) + "]");
      }
      s += x[j] * x[j];
    }
    if (std::sqrt(s) > bounds.radius * (1 + 1e-9)) {
      return Error("row " + std::to_string(i) + " has norm " + FormatDouble(std::sqrt(s)) +
                   " above the data radius " + FormatDouble(bounds.radius));
    }
  }
  return Status::Ok();
}

}  // namespace privbench
