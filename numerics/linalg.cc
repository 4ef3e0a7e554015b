#include "numerics/linalg.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace privbench {

Result<SquareMatrix> Cholesky(const SquareMatrix& a) {
  const int64_t m = a.m;
  SquareMatrix l(m);
  for (int64_t j = 0; j < m; ++j) {
    double s = a.at(j, j);
    for (int64_t k = 0; k < j; ++k) s -= l.at(j, k) * l.at(j, k);
    if (!(s > 0)) return Error("matrix is not positive definite");
    const double d = std::sqrt(s);
    l.at(j, j) = d;
    for (int64_t i = j + 1; i < m; ++i) {
      double t = a.at(i, j);
      for (int64_t k = 0; k < j; ++k) t -= l.at(i, k) * l.at(j, k);
      l.at(i, j) = t / d;
    }
  }
  return l;
}

void CholeskySolve(const SquareMatrix& l, std::vector<double>* b) {
  const int64_t m = l.m;
  std::vector<double>& x = *b;
  for (int64_t i = 0; i < m; ++i) {
    double s = x[i];
    for (int64_t k = 0; k < i; ++k) s -= l.at(i, k) * x[k];
    x[i] = s / l.at(i, i);
  }
  for (int64_t i = m - 1; i >= 0; --i) {
    double s = x[i];
    for (int64_t k = i + 1; k < m; ++k) s -= l.at(k, i) * x[k];
    x[i] = s / l.at(i, i);
  }
}

namespace {

// One Jacobi rotation zeroing a(p, q), applied to a and accumulated in v.
void Rotate(SquareMatrix& a, SquareMatrix& v, int64_t p, int64_t q) {
  const double apq = a.at(p, q);
  const double theta = (a.at(q, q) - a.at(p, p)) / (2 * apq);
  const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
  const double c = 1 / std::sqrt(t * t + 1), s = t * c;
  for (int64_t k = 0; k < a.m; ++k) {
    const double akp = a.at(k, p), akq = a.at(k, q);
    a.at(k, p) = c * akp - s * akq;
    a.at(k, q) = s * akp + c * akq;
  }
  for (int64_t k = 0; k < a.m; ++k) {
    const double apk = a.at(p, k), aqk = a.at(q, k);
    a.at(p, k) = c * apk - s * aqk;
    a.at(q, k) = s * apk + c * aqk;
  }
  for (int64_t k = 0; k < a.m; ++k) {
    const double vkp = v.at(k, p), vkq = v.at(k, q);
    v.at(k, p) = c * vkp - s * vkq;
    v.at(k, q) = s * vkp + c * vkq;
  }
}

}  // namespace

Eigen SymmetricEigen(const SquareMatrix& input) {
  const int64_t m = input.m;
  SquareMatrix a = input, v(m);
  for (int64_t i = 0; i < m; ++i) v.at(i, i) = 1;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, diag = 0;
    for (int64_t i = 0; i < m; ++i) {
      diag += a.at(i, i) * a.at(i, i);
      for (int64_t j = i + 1; j < m; ++j) off += a.at(i, j) * a.at(i, j);
    }
    if (off <= 1e-30 * std::max(diag, 1e-300)) break;
    for (int64_t p = 0; p < m; ++p) {
      for (int64_t q = p + 1; q < m; ++q) {
        if (a.at(p, q) != 0) Rotate(a, v, p, q);
      }
    }
  }
  std::vector<int64_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int64_t i, int64_t j) { return a.at(i, i) < a.at(j, j); });
  Eigen e;
  e.vectors = SquareMatrix(m);
  for (int64_t c = 0; c < m; ++c) {
    e.values.push_back(a.at(order[c], order[c]));
    for (int64_t r = 0; r < m; ++r) e.vectors.at(r, c) = v.at(r, order[c]);
  }
  return e;
}

double Dot(const double* a, const double* b, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

double Norm2(const std::vector<double>& v) { return std::sqrt(Dot(v.data(), v.data(), v.size())); }

}  // namespace privbench
