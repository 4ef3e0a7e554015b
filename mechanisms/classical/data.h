// The data every classical DP learner of mechanisms/classical/ is trained on
// (ML-Audit, Lu et al. NeurIPS 2022, Sec. 5; experiments/ml_audit/README.md): a binary
// classification set of dense double features, row-major, labels in {0, 1}.
// The feature bounds are part of the mechanisms' privacy proofs: they are
// fixed before any poisoning and are the same for D and D' (experiments/ml_audit/README.md
// (D1), "constraint set C").
#ifndef PRIVBENCH_MECHANISMS_CLASSICAL_DATA_H_
#define PRIVBENCH_MECHANISMS_CLASSICAL_DATA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

struct BinaryData {
  int64_t d = 0;          // features per row
  std::vector<double> x;  // n x d, row-major
  std::vector<int> y;     // n labels in {0, 1}

  int64_t n() const { return static_cast<int64_t>(y.size()); }
  const double* row(int64_t i) const { return x.data() + i * d; }
  double* row(int64_t i) { return x.data() + i * d; }
  void Append(const std::vector<double>& features, int label);
};

// Shapes agree, labels in {0, 1}, features finite, n >= 1, d >= 1.
Status CheckBinaryData(const BinaryData& data);

// Per-feature box [lo_j, hi_j] (lo_j < hi_j) and the L2 radius R of the
// ball around the origin holding every row: the data bounds of the proofs.
struct DataBounds {
  std::vector<double> lo, hi;
  double radius = 1.0;
};

// The smallest box and ball holding the rows (a constant feature gets the
// box [v - 1/2, v + 1/2]).
DataBounds BoundsOf(const BinaryData& data);

// Every row inside the box and the ball (up to 1e-9 relative): a valid
// poisoning keeps its rows there.
Status CheckWithinBounds(const BinaryData& data, const DataBounds& bounds);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_CLASSICAL_DATA_H_
