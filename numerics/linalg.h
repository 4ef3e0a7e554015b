// Small dense linear algebra for the classical learners and their attacks
// (dimensions up to a few hundred): symmetric positive-definite solves by
// Cholesky, and the symmetric eigen-decomposition by cyclic Jacobi rotations
// (Golub & Van Loan, Matrix Computations, 4th ed., Sec. 8.5).
#ifndef PRIVBENCH_NUMERICS_LINALG_H_
#define PRIVBENCH_NUMERICS_LINALG_H_

#include <cstdint>
#include <vector>

#include "core/result.h"

namespace privbench {

// A row-major m x m matrix.
struct SquareMatrix {
  int64_t m = 0;
  std::vector<double> a;
  explicit SquareMatrix(int64_t size = 0) : m(size), a(size * size, 0.0) {}
  double& at(int64_t i, int64_t j) { return a[i * m + j]; }
  double at(int64_t i, int64_t j) const { return a[i * m + j]; }
};

// Lower Cholesky factor L (A = L L^T) of a symmetric positive-definite A;
// error if A is not numerically positive definite.
Result<SquareMatrix> Cholesky(const SquareMatrix& a);

// Solves L L^T x = b in place.
void CholeskySolve(const SquareMatrix& l, std::vector<double>* b);

// Eigenvalues (ascending) and the matching unit eigenvectors (columns of
// `vectors`) of a symmetric matrix.
struct Eigen {
  std::vector<double> values;
  SquareMatrix vectors;
};
Eigen SymmetricEigen(const SquareMatrix& a);

double Dot(const double* a, const double* b, int64_t n);
double Norm2(const std::vector<double>& v);

}  // namespace privbench

#endif  // PRIVBENCH_NUMERICS_LINALG_H_
