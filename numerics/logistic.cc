#include "numerics/logistic.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/format.h"

namespace privbench {

double Sigmoid(double t) {
  if (t >= 0) return 1 / (1 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1 + e);
}

namespace {

// The most frequent value of column j of p.x (0 when 0 is among the most
// frequent).
double ColumnMode(const LogisticProblem& p, int64_t j, std::vector<double>* column) {
  const int64_t n = p.n(), m = p.m;
  column->resize(n);
  for (int64_t i = 0; i < n; ++i) (*column)[i] = p.x[i * m + j];
  std::sort(column->begin(), column->end());
  double mode = 0;
  int64_t best = 0, zeros = 0;
  for (int64_t i = 0; i < n;) {
    int64_t k = i;
    while (k < n && (*column)[k] == (*column)[i]) ++k;
    if ((*column)[i] == 0) zeros = k - i;
    if (k - i > best) best = k - i, mode = (*column)[i];
    i = k;
  }
  return zeros == best ? 0.0 : mode;
}

}  // namespace

double CompressRows(LogisticProblem* p, double max_density) {
  const int64_t n = p->n(), m = p->m;
  p->shift.clear();
  p->row_begin.clear();
  p->col.clear();
  p->val.clear();
  for (double v : p->x) {
    if (!std::isfinite(v)) return 1.0;  // not sortable: stays dense
  }
  std::vector<double> shift(m), column;
  for (int64_t j = 0; j < m; ++j) shift[j] = ColumnMode(*p, j, &column);
  int64_t nnz = 0;
  for (int64_t k = 0; k < n * m; ++k) nnz += p->x[k] != shift[k % m];
  const double density = n * m > 0 ? static_cast<double>(nnz) / static_cast<double>(n * m) : 1.0;
  if (density > max_density) return density;
  p->shift = std::move(shift);
  p->row_begin.reserve(n + 1);
  p->col.reserve(nnz);
  p->val.reserve(nnz);
  p->row_begin.push_back(0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      const double v = p->x[i * m + j];
      if (v == p->shift[j]) continue;
      p->col.push_back(static_cast<int32_t>(j));
      p->val.push_back(v - p->shift[j]);
    }
    p->row_begin.push_back(static_cast<int64_t>(p->col.size()));
  }
  return density;
}

namespace {

double Weight(const LogisticProblem& p, int64_t i) { return p.weight.empty() ? 1.0 : p.weight[i]; }

// x_i . w; compressed rows: shift_w (= shift . w) + s_i . w.
double RowDot(const LogisticProblem& p, int64_t i, const double* w, double shift_w) {
  if (!p.compressed()) return Dot(p.x.data() + i * p.m, w, p.m);
  double s = 0;
  for (int64_t k = p.row_begin[i]; k < p.row_begin[i + 1]; ++k) s += p.val[k] * w[p.col[k]];
  return shift_w + s;
}

// g += c x_i; compressed rows: g += c s_i (the caller adds (sum c) shift).
void RowAxpy(const LogisticProblem& p, int64_t i, double c, double* g) {
  if (!p.compressed()) {
    const double* xi = p.x.data() + i * p.m;
    for (int64_t j = 0; j < p.m; ++j) g[j] += c * xi[j];
    return;
  }
  for (int64_t k = p.row_begin[i]; k < p.row_begin[i + 1]; ++k) g[p.col[k]] += c * p.val[k];
}

// An iterate with F, grad F and the Hessian's row weights c_i q_i (1 - q_i)
// (q_i = sigmoid(w.x_i)) there.
struct Point {
  std::vector<double> w;
  double f = 0;
  std::vector<double> g;
  std::vector<double> curvature;
};

// One pass over the rows at pt->w: e = exp(-|s_i w.x_i|) per row gives the
// log-loss log(1 + exp(-u)), sigmoid(-u) for the gradient and q (1 - q) for
// the Hessian (the same values as evaluating each from its own exp).
void Evaluate(const LogisticProblem& p, const std::vector<double>& b, Point* pt) {
  const int64_t n = p.n(), m = p.m;
  const std::vector<double>& w = pt->w;
  pt->g.assign(m, 0.0);
  pt->curvature.resize(n);
  const double shift_w = p.compressed() ? Dot(p.shift.data(), w.data(), m) : 0.0;
  double f = 0, coefficients = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double t = RowDot(p, i, w.data(), shift_w), s = p.sign[i], u = s * t;
    const double e = std::exp(-std::fabs(u)), c = Weight(p, i);
    f += c * (u > 0 ? std::log1p(e) : -u + std::log1p(e));
    const double sig_minus_u = u <= 0 ? 1 / (1 + e) : e / (1 + e);
    const double gc = -c * s * sig_minus_u;
    coefficients += gc;
    RowAxpy(p, i, gc, pt->g.data());
    const double q = t >= 0 ? 1 / (1 + e) : e / (1 + e);
    pt->curvature[i] = c * q * (1 - q);
  }
  f /= n;
  f += 0.5 * p.lambda * Dot(w.data(), w.data(), m);
  if (!b.empty()) f += Dot(b.data(), w.data(), m) / n;
  pt->f = f;
  if (p.compressed()) {
    for (int64_t j = 0; j < m; ++j) pt->g[j] += coefficients * p.shift[j];
  }
  for (int64_t j = 0; j < m; ++j) {
    pt->g[j] = pt->g[j] / n + p.lambda * w[j] + (b.empty() ? 0.0 : b[j] / n);
  }
}

// (1/n) h (lower triangle given) mirrored, plus lambda on the diagonal.
void FinishGram(const LogisticProblem& p, SquareMatrix* h) {
  const int64_t n = p.n();
  for (int64_t r = 0; r < h->m; ++r) {
    for (int64_t s = 0; s <= r; ++s) {
      h->at(r, s) /= n;
      h->at(s, r) = h->at(r, s);
    }
    h->at(r, r) += p.lambda;
  }
}

// Lower triangle of sum_i r_i x_i x_i^T over compressed rows x_i = a + s_i:
// sum r_i s_i s_i^T (sparse) + (sum r_i) a a^T + a u^T + u a^T, u = sum r_i s_i.
void SparseGram(const LogisticProblem& p, const std::vector<double>& r, SquareMatrix* h) {
  const int64_t m = p.m;
  std::vector<double> u(m, 0.0);
  double total = 0;
  for (int64_t i = 0; i < p.n(); ++i) {
    const double c = r[i];
    if (c == 0) continue;
    total += c;
    const int64_t begin = p.row_begin[i], end = p.row_begin[i + 1];
    for (int64_t a = begin; a < end; ++a) {
      const double ca = c * p.val[a];
      u[p.col[a]] += ca;
      double* row = &h->at(p.col[a], 0);
      for (int64_t k = begin; k <= a; ++k) row[p.col[k]] += ca * p.val[k];
    }
  }
  const std::vector<double>& a = p.shift;
  for (int64_t j = 0; j < m; ++j) {
    if (a[j] == 0 && u[j] == 0) continue;
    for (int64_t k = 0; k <= j; ++k) h->at(j, k) += total * a[j] * a[k] + a[j] * u[k] + u[j] * a[k];
  }
}

constexpr int64_t kPanelRows = 128;  // rows per block of the dense Gram

// Four doubles (GCC/Clang vector extension): lane-wise IEEE products and
// sums, so every instruction set gives the same bits.
typedef double V4 __attribute__((vector_size(32)));

// acc[r0 + a][s0 .. s0 + 7] += sum_k yb[k][r0 + a] xb[k][s0 .. s0 + 7] for
// a < 4 over the block's rows (row stride mp): 32 sums in 8 vector registers.
inline __attribute__((always_inline)) void GramTileBody(const double* xb, const double* yb,
                                                        int64_t rows, int64_t mp, int64_t r0,
                                                        int64_t s0, double* acc) {
  V4 c00 = {0, 0, 0, 0}, c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00,
     c31 = c00;
  for (int64_t k = 0; k < rows; ++k) {
    V4 x0, x1;
    std::memcpy(&x0, xb + k * mp + s0, sizeof(x0));
    std::memcpy(&x1, xb + k * mp + s0 + 4, sizeof(x1));
    const double* y = yb + k * mp + r0;
    c00 += y[0] * x0, c01 += y[0] * x1, c10 += y[1] * x0, c11 += y[1] * x1;
    c20 += y[2] * x0, c21 += y[2] * x1, c30 += y[3] * x0, c31 += y[3] * x1;
  }
  const V4 c[4][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  for (int a = 0; a < 4; ++a) {
    double* out = acc + (r0 + a) * mp + s0;
    for (int l = 0; l < 4; ++l) out[l] += c[a][0][l], out[4 + l] += c[a][1][l];
  }
}

// The block's lower tiles, compiled for the baseline instruction set and for
// AVX2 (chosen at run time; the same bits, see V4).
void GramBlockGeneric(const double* xb, const double* yb, int64_t rows, int64_t mp, double* acc) {
  for (int64_t r0 = 0; r0 < mp; r0 += 4) {
    for (int64_t s0 = 0; s0 <= r0; s0 += 8) GramTileBody(xb, yb, rows, mp, r0, s0, acc);
  }
}
__attribute__((target("avx2"))) void GramBlockAvx2(const double* xb, const double* yb, int64_t rows,
                                                   int64_t mp, double* acc) {
  for (int64_t r0 = 0; r0 < mp; r0 += 4) {
    for (int64_t s0 = 0; s0 <= r0; s0 += 8) GramTileBody(xb, yb, rows, mp, r0, s0, acc);
  }
}

// Lower triangle of sum_i r_i x_i x_i^T over dense rows: blocks of
// kPanelRows rows are copied with rows padded to a multiple of 8 entries
// (zeros), next to their copies scaled by r_i, and multiplied tile by tile.
void DenseGram(const LogisticProblem& p, const std::vector<double>& r, SquareMatrix* h) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  const int64_t n = p.n(), m = p.m, mp = (m + 7) / 8 * 8;
  std::vector<double> acc(mp * mp, 0.0), xb(mp * kPanelRows, 0.0), yb(mp * kPanelRows, 0.0);
  for (int64_t i0 = 0; i0 < n; i0 += kPanelRows) {
    const int64_t rows = std::min(kPanelRows, n - i0);
    for (int64_t k = 0; k < rows; ++k) {
      const double* xi = p.x.data() + (i0 + k) * m;
      for (int64_t j = 0; j < m; ++j) {
        xb[k * mp + j] = xi[j];
        yb[k * mp + j] = r[i0 + k] * xi[j];
      }
    }
    (avx2 ? GramBlockAvx2 : GramBlockGeneric)(xb.data(), yb.data(), rows, mp, acc.data());
  }
  for (int64_t a = 0; a < m; ++a) {
    for (int64_t s = 0; s <= a; ++s) h->at(a, s) = acc[a * mp + s];
  }
}

// Newton's method with backtracking from `cur` (F, grad F and the row
// weights evaluated); `fit` carries the pass counts so far.
Result<LogisticFit> NewtonFrom(const LogisticProblem& p, const std::vector<double>& b, Point cur,
                               double tolerance, LogisticFit fit) {
  Point trial;
  for (fit.iterations = 0; fit.iterations < 100; ++fit.iterations) {
    fit.gradient_norm = Norm2(cur.g);
    fit.w = cur.w;
    if (fit.gradient_norm < tolerance) return fit;
    PB_ASSIGN_OR_RETURN(SquareMatrix l, Cholesky(WeightedGram(p, cur.curvature)));
    ++fit.hessians;
    std::vector<double> step = cur.g;
    CholeskySolve(l, &step);
    const double slope = Dot(cur.g.data(), step.data(), p.m);
    double t = 1;
    bool accepted = false;
    trial.w.resize(p.m);
    for (int k = 0; k < 60 && !accepted; ++k, t *= 0.5) {
      for (int64_t j = 0; j < p.m; ++j) trial.w[j] = cur.w[j] - t * step[j];
      Evaluate(p, b, &trial);
      ++fit.passes;
      if (trial.f <= cur.f - 1e-4 * t * slope) {
        accepted = true;
        // Progress below rounding with a small gradient: converged.
        if (cur.f - trial.f <= 1e-14 * std::fabs(cur.f) && fit.gradient_norm < 1e-5) {
          fit.w = trial.w;
          return fit;
        }
      }
    }
    // No decrease representable in double precision: the minimum is reached
    // to rounding (the objective is flat there); accept a small gradient.
    if (!accepted || trial.w == cur.w) {
      if (fit.gradient_norm < 1e-5) return fit;
      return Error("logistic regression line search failed (gradient norm " +
                   FormatDouble(fit.gradient_norm) + ")");
    }
    std::swap(cur, trial);
  }
  return Error("logistic regression did not converge in 100 Newton steps (gradient norm " +
               FormatDouble(fit.gradient_norm) + ")");
}

}  // namespace

SquareMatrix WeightedGram(const LogisticProblem& p, const std::vector<double>& r) {
  SquareMatrix h(p.m);
  if (p.compressed()) {
    SparseGram(p, r, &h);
  } else {
    DenseGram(p, r, &h);
  }
  FinishGram(p, &h);
  return h;
}

SquareMatrix WeightedGramNaive(const LogisticProblem& p, const std::vector<double>& r) {
  const int64_t m = p.m;
  SquareMatrix h(m);
  for (int64_t i = 0; i < p.n(); ++i) {
    const double* xi = p.x.data() + i * m;
    for (int64_t a = 0; a < m; ++a) {
      const double ca = r[i] * xi[a];
      for (int64_t s = 0; s <= a; ++s) h.at(a, s) += ca * xi[s];
    }
  }
  FinishGram(p, &h);
  return h;
}

SquareMatrix LogisticHessian(const LogisticProblem& p, const std::vector<double>& w) {
  Point pt;
  pt.w = w;
  Evaluate(p, {}, &pt);
  return WeightedGram(p, pt.curvature);
}

Result<LogisticFit> FitLogistic(const LogisticProblem& p, const std::vector<double>& b,
                                const std::vector<double>& start, double tolerance) {
  Point cur;
  cur.w = start.empty() ? std::vector<double>(p.m, 0.0) : start;
  Evaluate(p, b, &cur);
  LogisticFit fit;
  fit.passes = 1;
  return NewtonFrom(p, b, std::move(cur), tolerance, std::move(fit));
}

Result<LogisticFit> FitLogisticChord(const LogisticProblem& p, const std::vector<double>& b,
                                     const std::vector<double>& start, const SquareMatrix& h0,
                                     double tolerance) {
  LogisticFit fit;
  Point cur, next;
  cur.w = start;
  Evaluate(p, b, &cur);
  fit.passes = 1;
  for (fit.iterations = 0; fit.iterations < 40; ++fit.iterations) {
    fit.gradient_norm = Norm2(cur.g);
    if (fit.gradient_norm < tolerance) {
      fit.w = cur.w;
      return fit;
    }
    std::vector<double> step = cur.g;
    CholeskySolve(h0, &step);
    next.w.resize(p.m);
    for (int64_t j = 0; j < p.m; ++j) next.w[j] = cur.w[j] - step[j];
    Evaluate(p, b, &next);
    ++fit.passes;
    if (!(next.f <= cur.f)) break;  // the fixed factor is too far off here
    std::swap(cur, next);
  }
  return NewtonFrom(p, b, std::move(cur), tolerance, std::move(fit));
}

Result<LogisticFit> FitLogisticNear(const LogisticProblem& p, const std::vector<double>& b,
                                    const std::vector<double>& start, const SquareMatrix& h0,
                                    double tolerance) {
  return p.m >= 64 && !p.compressed() ? FitLogisticChord(p, b, start, h0, tolerance)
                                      : FitLogistic(p, b, start, tolerance);
}

}  // namespace privbench
