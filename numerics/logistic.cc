#include "numerics/logistic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

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

// Whether this CPU runs the AVX2 copies of the kernels below (the same bits
// as the baseline copies; checked once).
bool HasAvx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
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
    (HasAvx2() ? GramBlockAvx2 : GramBlockGeneric)(xb.data(), yb.data(), rows, mp, acc.data());
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

// ---- Batched fits (FitLogisticBatch) ----

namespace {

typedef long long V4i __attribute__((vector_size(32)));

// The helpers below pass V4 by value inside this file only (inlined, no ABI
// exposed); GCC reports it at the end of the file, so it stays off from here.
#pragma GCC diagnostic ignored "-Wpsabi"

constexpr int64_t kBatchLanes = 16;  // draws iterated together (a multiple of 4)
constexpr int kMaxBatchSteps = 200;  // trial points per draw before the single-fit fallback
// A factor is kept while ||grad F_k|| shrinks at least this much per step (a
// Hessian costs several passes over the rows).
constexpr double kKeepFactor = 0.25;

inline __attribute__((always_inline)) V4 Splat(double v) { return V4{v, v, v, v}; }

inline __attribute__((always_inline)) V4 Load4(const double* a) {
  V4 v;
  std::memcpy(&v, a, sizeof(v));
  return v;
}

inline __attribute__((always_inline)) void Store4(double* a, V4 v) {
  std::memcpy(a, &v, sizeof(v));
}

// exp(x[b]) lane-wise for x <= 0 (0 below -708), for `blocks` vectors at
// once (independent chains, interleaved): x = n ln 2 + r, |r| <= ln 2 / 2
// (Cody-Waite, ln 2 in two parts), exp(r) by its Taylor polynomial of degree
// 13 (truncation < 5e-18 relative), times 2^n from the exponent bits.
// Lane-wise IEEE operations only: the same bits on every instruction set and
// in every lane; within a few ulp of std::exp.
template <int kBlocks>
inline __attribute__((always_inline)) void ExpNonPositive(V4* x) {
  const V4 shift = Splat(6755399441055744.0);  // 1.5 * 2^52: round to integer
  const V4 lowest = Splat(-708.0);
  V4 r[kBlocks], kd[kBlocks], poly[kBlocks];
#pragma GCC unroll 4
  for (int b = 0; b < kBlocks; ++b) {
    const V4 xc = x[b] < lowest ? lowest : x[b];
    kd[b] = xc * Splat(1.4426950408889634) + shift;
    const V4 n = kd[b] - shift;
    r[b] = (xc - n * Splat(6.93147180369123816490e-01)) - n * Splat(1.90821492927058770002e-10);
    poly[b] = Splat(1.0 / 6227020800.0);
  }
  const double inverse_factorials[] = {1.0 / 479001600.0,
                                       1.0 / 39916800.0,
                                       1.0 / 3628800.0,
                                       1.0 / 362880.0,
                                       1.0 / 40320.0,
                                       1.0 / 5040.0,
                                       1.0 / 720.0,
                                       1.0 / 120.0,
                                       1.0 / 24.0,
                                       1.0 / 6.0,
                                       0.5,
                                       1.0,
                                       1.0};
#pragma GCC unroll 13
  for (double c : inverse_factorials) {
#pragma GCC unroll 4
    for (int b = 0; b < kBlocks; ++b) poly[b] = poly[b] * r[b] + Splat(c);
  }
  V4i shift_bits;
  std::memcpy(&shift_bits, &shift, sizeof(shift_bits));
#pragma GCC unroll 4
  for (int b = 0; b < kBlocks; ++b) {
    V4i bits;
    std::memcpy(&bits, &kd[b], sizeof(bits));
    const V4i exponent = (bits - shift_bits + 1023) << 52;
    V4 scale;
    std::memcpy(&scale, &exponent, sizeof(scale));
    x[b] = x[b] < lowest ? Splat(0.0) : poly[b] * scale;
  }
}

// log1p(e) lane-wise for 0 <= e <= 1: log(1 + e) = 2 atanh(s) with s = e /
// (2 + e) for e <= sqrt(2) - 1, else ln 2 + 2 atanh((e - 1) / (3 + e)), so
// |s| <= 0.172 and the odd series of atanh to s^23 (truncation < 1e-18
// relative). Lane-wise IEEE operations only (see ExpNonPositive).
template <int kBlocks>
inline __attribute__((always_inline)) void Log1pUnit(const V4* e, V4* out) {
  V4 s[kBlocks], s2[kBlocks], poly[kBlocks];
  V4i high[kBlocks];
#pragma GCC unroll 4
  for (int b = 0; b < kBlocks; ++b) {
    high[b] = e[b] > Splat(0.41421356237309503);
    s[b] = (high[b] ? e[b] - 1 : e[b]) / (high[b] ? e[b] + 3 : e[b] + 2);
    s2[b] = s[b] * s[b];
    poly[b] = Splat(1.0 / 23);
  }
#pragma GCC unroll 11
  for (int k = 10; k >= 0; --k) {
#pragma GCC unroll 4
    for (int b = 0; b < kBlocks; ++b) poly[b] = poly[b] * s2[b] + Splat(1.0 / (2 * k + 1));
  }
#pragma GCC unroll 4
  for (int b = 0; b < kBlocks; ++b) {
    const V4 v = 2 * s[b] * poly[b];
    out[b] = high[b] ? v + Splat(0.69314718055994530942) : v;
  }
}

// One pass over the rows for 4 kBlocks iterates (w: m x lanes, lane-minor,
// lanes = 4 kBlocks): g (m x lanes) += sum_i gc_i x_i (compressed rows: the
// s_i part), coeff[l] = sum_i gc_i and coeff[lanes + l] = sum_i c_i log(1 +
// exp(-u_i)) per lane l, curv (n x lanes) the Hessian's row weights. Each lane's sums run over the
// rows in order, so a lane's results do not depend on the other lanes.
template <bool kCompressed, int kBlocks>
inline __attribute__((always_inline)) void BatchPassBody(const LogisticProblem& p, const double* w,
                                                         const double* shift_w, double* g,
                                                         double* coeff, double* curv) {
  constexpr int64_t lanes = 4 * kBlocks;
  const int64_t n = p.n(), m = p.m;
  V4 co[kBlocks], loss[kBlocks], sw[kBlocks];
#pragma GCC unroll 4
  for (int b = 0; b < kBlocks; ++b) {
    co[b] = loss[b] = Splat(0.0);
    sw[b] = Load4(shift_w + 4 * b);
  }
  for (int64_t i = 0; i < n; ++i) {
    V4 t[kBlocks], u[kBlocks], e[kBlocks], gc[kBlocks], l1p[kBlocks];
#pragma GCC unroll 4
    for (int b = 0; b < kBlocks; ++b) t[b] = Splat(0.0);
    const int64_t begin = kCompressed ? p.row_begin[i] : 0;
    const int64_t end = kCompressed ? p.row_begin[i + 1] : m;
    for (int64_t k = begin; k < end; ++k) {
      const double v = kCompressed ? p.val[k] : p.x[i * m + k];
      const double* wr = w + (kCompressed ? p.col[k] : k) * lanes;
#pragma GCC unroll 4
      for (int b = 0; b < kBlocks; ++b) t[b] += v * Load4(wr + 4 * b);
    }
    const double s = p.sign[i], c = Weight(p, i);
#pragma GCC unroll 4
    for (int b = 0; b < kBlocks; ++b) {
      u[b] = s * (kCompressed ? sw[b] + t[b] : t[b]);
      e[b] = u[b] < 0 ? u[b] : -u[b];
    }
    ExpNonPositive<kBlocks>(e);
    Log1pUnit<kBlocks>(e, l1p);
#pragma GCC unroll 4
    for (int b = 0; b < kBlocks; ++b) {
      loss[b] += c * (u[b] > 0 ? l1p[b] : l1p[b] - u[b]);
      // 1 / (1 + e) and e / (1 + e) are sigmoid(|u|) and sigmoid(-|u|);
      // q (1 - q) = e / (1 + e)^2 whatever the sign.
      const V4 inv = 1 / (1 + e[b]), ratio = e[b] * inv;
      gc[b] = -c * s * (u[b] <= 0 ? inv : ratio);
      co[b] += gc[b];
      Store4(curv + i * lanes + 4 * b, c * ratio * inv);
    }
    for (int64_t k = begin; k < end; ++k) {
      const double v = kCompressed ? p.val[k] : p.x[i * m + k];
      double* gr = g + (kCompressed ? p.col[k] : k) * lanes;
#pragma GCC unroll 4
      for (int b = 0; b < kBlocks; ++b) Store4(gr + 4 * b, Load4(gr + 4 * b) + gc[b] * v);
    }
  }
#pragma GCC unroll 4
  for (int b = 0; b < kBlocks; ++b) {
    Store4(coeff + 4 * b, co[b]);
    Store4(coeff + lanes + 4 * b, loss[b]);
  }
}

template <int kBlocks>
inline __attribute__((always_inline)) void BatchPassDispatch(const LogisticProblem& p,
                                                             const double* w, const double* shift_w,
                                                             double* g, double* coeff,
                                                             double* curv) {
  if (p.compressed()) {
    BatchPassBody<true, kBlocks>(p, w, shift_w, g, coeff, curv);
  } else {
    BatchPassBody<false, kBlocks>(p, w, shift_w, g, coeff, curv);
  }
}

// Compiled for the baseline instruction set and for AVX2 (chosen at run
// time; the same bits, see V4); lanes: 4, 8, 12 or 16.
#define PRIVBENCH_BATCH_PASS(name, attributes)                                          \
  attributes void name(const LogisticProblem& p, int64_t lanes, const double* w,        \
                       const double* shift_w, double* g, double* coeff, double* curv) { \
    switch (lanes) {                                                                    \
      case 4:                                                                           \
        return BatchPassDispatch<1>(p, w, shift_w, g, coeff, curv);                     \
      case 8:                                                                           \
        return BatchPassDispatch<2>(p, w, shift_w, g, coeff, curv);                     \
      case 12:                                                                          \
        return BatchPassDispatch<3>(p, w, shift_w, g, coeff, curv);                     \
      default:                                                                          \
        return BatchPassDispatch<4>(p, w, shift_w, g, coeff, curv);                     \
    }                                                                                   \
  }
PRIVBENCH_BATCH_PASS(BatchPassGeneric, )
PRIVBENCH_BATCH_PASS(BatchPassAvx2, __attribute__((target("avx2"))))
#undef PRIVBENCH_BATCH_PASS

constexpr int64_t kGramLanes = 8;  // at most this many Hessians per pass over the rows

// Row j of a packed lower triangle starts at Tri(j).
inline int64_t Tri(int64_t j) { return j * (j + 1) / 2; }

// Lower triangle of sum_i r_i x_i x_i^T for 4 kQ draws at once (r_i of lane
// a: curv[i lanes + pick[a]]; acc: packed lower triangle, 4 kQ lanes per
// entry), the sums of SparseGram / the row-by-row Gram per lane.
template <bool kCompressed, int kQ>
inline __attribute__((always_inline)) void BatchGramBody(const LogisticProblem& p,
                                                         const double* curv, int64_t lanes,
                                                         const int64_t* pick, double* acc) {
  constexpr int64_t kL = 4 * kQ;
  const int64_t n = p.n(), m = p.m;
  std::vector<double> u(kCompressed ? kL * m : 0, 0.0);
  V4 total[kQ] = {}, c[kQ] = {}, ca[kQ] = {};
  for (int q = 0; q < kQ; ++q) total[q] = Splat(0.0);
  for (int64_t i = 0; i < n; ++i) {
    const double* ci = curv + i * lanes;
    for (int q = 0; q < kQ; ++q) {
      c[q] = V4{ci[pick[4 * q]], ci[pick[4 * q + 1]], ci[pick[4 * q + 2]], ci[pick[4 * q + 3]]};
      total[q] += c[q];
    }
    const int64_t begin = kCompressed ? p.row_begin[i] : 0;
    const int64_t end = kCompressed ? p.row_begin[i + 1] : m;
    for (int64_t a = begin; a < end; ++a) {
      const double va = kCompressed ? p.val[a] : p.x[i * m + a];
      const int64_t ja = kCompressed ? p.col[a] : a;
      for (int q = 0; q < kQ; ++q) {
        ca[q] = c[q] * va;
        if (kCompressed) Store4(&u[kL * ja + 4 * q], Load4(&u[kL * ja + 4 * q]) + ca[q]);
      }
      double* row = acc + Tri(ja) * kL;
      for (int64_t k = begin; k <= a; ++k) {
        const double vk = kCompressed ? p.val[k] : p.x[i * m + k];
        double* cell = row + kL * (kCompressed ? p.col[k] : k);
        for (int q = 0; q < kQ; ++q) Store4(cell + 4 * q, Load4(cell + 4 * q) + ca[q] * vk);
      }
    }
  }
  if (!kCompressed) return;
  const std::vector<double>& a = p.shift;
  for (int64_t j = 0; j < m; ++j) {
    for (int64_t k = 0; k <= j; ++k) {
      double* cell = acc + (Tri(j) + k) * kL;
      for (int q = 0; q < kQ; ++q) {
        const V4 add = total[q] * (a[j] * a[k]) + a[j] * Load4(&u[kL * k + 4 * q]) +
                       Load4(&u[kL * j + 4 * q]) * a[k];
        Store4(cell + 4 * q, Load4(cell + 4 * q) + add);
      }
    }
  }
}

// Compiled for the baseline instruction set and for AVX2 (the same bits);
// 4 or 8 lanes.
#define PRIVBENCH_BATCH_GRAM(name, attributes)                                      \
  attributes void name(const LogisticProblem& p, const double* curv, int64_t lanes, \
                       const int64_t* pick, int64_t gram_lanes, double* acc) {      \
    const bool c = p.compressed();                                                  \
    if (gram_lanes == 4) {                                                          \
      return c ? BatchGramBody<true, 1>(p, curv, lanes, pick, acc)                  \
               : BatchGramBody<false, 1>(p, curv, lanes, pick, acc);                \
    }                                                                               \
    return c ? BatchGramBody<true, 2>(p, curv, lanes, pick, acc)                    \
             : BatchGramBody<false, 2>(p, curv, lanes, pick, acc);                  \
  }
PRIVBENCH_BATCH_GRAM(BatchGramGeneric, )
PRIVBENCH_BATCH_GRAM(BatchGramAvx2, __attribute__((target("avx2"))))
#undef PRIVBENCH_BATCH_GRAM

// Cholesky (linalg.h's loops, the same sums) of `lanes` (4 or 8) packed
// lower triangles at once, in place; ok[a] false where lane a is not
// numerically positive definite (its factor is then garbage).
void BatchCholesky(int64_t m, int64_t lanes, double* acc, bool* ok) {
  const int64_t nq = lanes / 4;
  for (int64_t a = 0; a < lanes; ++a) ok[a] = true;
  for (int64_t j = 0; j < m; ++j) {
    double* lj = acc + Tri(j) * lanes;
    double d[kGramLanes];
    for (int64_t q = 0; q < nq; ++q) {
      V4 s = Load4(lj + j * lanes + 4 * q);
      for (int64_t k = 0; k < j; ++k) {
        const V4 l = Load4(lj + k * lanes + 4 * q);
        s -= l * l;
      }
      for (int a = 0; a < 4; ++a) {
        if (!(s[a] > 0)) ok[4 * q + a] = false;
        d[4 * q + a] = ok[4 * q + a] ? std::sqrt(s[a]) : 1.0;
      }
    }
    std::memcpy(lj + j * lanes, d, sizeof(double) * lanes);
    for (int64_t i = j + 1; i < m; ++i) {
      double* li = acc + Tri(i) * lanes;
      for (int64_t q = 0; q < nq; ++q) {
        V4 t = Load4(li + j * lanes + 4 * q);
        for (int64_t k = 0; k < j; ++k) {
          t -= Load4(li + k * lanes + 4 * q) * Load4(lj + k * lanes + 4 * q);
        }
        Store4(li + j * lanes + 4 * q, t / Load4(d + 4 * q));
      }
    }
  }
}

// One draw's state in the batch.
struct BatchDraw {
  int64_t index = 0;
  std::vector<double> w, g, step;        // iterate, grad F_k there, the factor's step
  double gnorm = 0, f = 0;               // ||grad F_k(w)||, F_k(w)
  double slope = 0;                      // grad F_k(w) . step
  const SquareMatrix* factor = nullptr;  // h0 or own
  SquareMatrix own;
  bool fresh = true;      // factor is the Hessian at w (else: a stale one, chord steps)
  bool evaluate = false;  // next pass at w itself (for its Hessian)
  bool hessian = false;   // form the Hessian at this pass's point
  double t = 1;           // step length
  int halvings = 0, trials = 0;
  LogisticFit fit;
};

// What one lane of a pass saw: the trial point and grad F_k there.
struct LaneResult {
  std::vector<double> w, g;
  double gnorm = 0, f = 0;
};

enum class Outcome { kContinue, kDone, kFallback };

void NewStep(BatchDraw* d) {
  d->step = d->g;
  CholeskySolve(*d->factor, &d->step);
  d->slope = Dot(d->g.data(), d->step.data(), static_cast<int64_t>(d->g.size()));
  d->t = 1;
  d->halvings = 0;
}

// The decision after a pass (see FitLogisticBatch in logistic.h): Armijo on
// F_k along the step (FitLogistic's rule, c = 1e-4), backtracking with a
// fresh Hessian; a stale factor's step that fails it sends the draw to a
// fresh Hessian at w.
Outcome Decide(BatchDraw* d, LaneResult* lr, double tolerance) {
  ++d->fit.passes;
  if (lr->gnorm < tolerance) {
    d->w = std::move(lr->w);
    d->fit.gradient_norm = lr->gnorm;
    return Outcome::kDone;
  }
  if (++d->trials > kMaxBatchSteps) return Outcome::kFallback;
  if (d->evaluate) {
    d->evaluate = false;
    d->hessian = true;
    return Outcome::kContinue;
  }
  if (!(lr->f <= d->f - 1e-4 * d->t * d->slope)) {
    if (!d->fresh) {
      d->evaluate = true;  // the older factor failed here: its Hessian at w next
      return Outcome::kContinue;
    }
    d->t *= 0.5;
    return ++d->halvings > 60 ? Outcome::kFallback : Outcome::kContinue;
  }
  ++d->fit.iterations;
  d->hessian = lr->gnorm > kKeepFactor * d->gnorm;
  d->w = std::move(lr->w);
  d->g = std::move(lr->g);
  d->gnorm = lr->gnorm;
  d->f = lr->f;
  d->fresh = false;
  if (!d->hessian) NewStep(d);
  return Outcome::kContinue;
}

// Packs the lanes' trial points into w (m x lanes; padding lanes: start).
void PackTrials(const std::vector<BatchDraw*>& active, const std::vector<double>& start,
                int64_t lanes, std::vector<LaneResult>* trials, std::vector<double>* w) {
  const int64_t m = static_cast<int64_t>(start.size());
  trials->resize(active.size());
  w->assign(m * lanes, 0.0);
  for (int64_t l = 0; l < lanes; ++l) {
    const bool live = l < static_cast<int64_t>(active.size());
    std::vector<double> trial = live ? active[l]->w : start;
    if (live && !active[l]->evaluate) {
      for (int64_t j = 0; j < m; ++j) trial[j] -= active[l]->t * active[l]->step[j];
    }
    for (int64_t j = 0; j < m; ++j) (*w)[j * lanes + l] = trial[j];
    if (live) (*trials)[l].w = std::move(trial);
  }
}

// grad F_k at every lane's trial point, from one pass; curv gets the rows'
// Hessian weights (n x lanes).
void BatchGradients(const LogisticProblem& p, const std::vector<BatchDraw*>& active,
                    const double* bs, int64_t lanes, const std::vector<double>& w,
                    std::vector<LaneResult>* trials, std::vector<double>* curv) {
  const int64_t m = p.m, n = p.n();
  std::vector<double> shift_w(lanes, 0.0), g(m * lanes, 0.0), coeff(2 * lanes, 0.0);
  if (p.compressed()) {
    for (int64_t j = 0; j < m; ++j) {
      for (int64_t l = 0; l < lanes; ++l) shift_w[l] += p.shift[j] * w[j * lanes + l];
    }
  }
  curv->resize(n * lanes);
  (HasAvx2() ? BatchPassAvx2 : BatchPassGeneric)(p, lanes, w.data(), shift_w.data(), g.data(),
                                                 coeff.data(), curv->data());
  for (size_t l = 0; l < active.size(); ++l) {
    LaneResult& lr = (*trials)[l];
    const double* b = bs + active[l]->index * m;
    lr.g.resize(m);
    for (int64_t j = 0; j < m; ++j) {
      double gj = g[j * lanes + l];
      if (p.compressed()) gj += coeff[l] * p.shift[j];
      lr.g[j] = gj / n + p.lambda * lr.w[j] + b[j] / n;
    }
    lr.gnorm = Norm2(lr.g);
    // F_k as Evaluate forms it.
    lr.f = coeff[lanes + l] / n + 0.5 * p.lambda * Dot(lr.w.data(), lr.w.data(), m) +
           Dot(b, lr.w.data(), m) / n;
  }
}

// The Hessians (Cholesky factors) of the draws marked `hessian`, at this
// pass's points, 4 or 8 lanes per pass over the rows; false for a draw whose
// Hessian is not numerically positive definite.
std::vector<bool> BatchHessians(const LogisticProblem& p, const std::vector<BatchDraw*>& active,
                                const std::vector<double>& curv, int64_t lanes) {
  const int64_t m = p.m;
  std::vector<int64_t> todo;
  for (size_t l = 0; l < active.size(); ++l) {
    if (active[l]->hessian) todo.push_back(static_cast<int64_t>(l));
  }
  std::vector<bool> ok(active.size(), true);
  std::vector<double> acc(Tri(m) * kGramLanes);
  const double n = static_cast<double>(p.n());
  for (size_t q = 0; q < todo.size(); q += kGramLanes) {
    const int64_t count = std::min<int64_t>(kGramLanes, static_cast<int64_t>(todo.size() - q));
    const int64_t gl = count <= 4 ? 4 : 8;
    int64_t pick[kGramLanes];
    for (int64_t a = 0; a < gl; ++a) pick[a] = todo[q + std::min(a, count - 1)];
    std::fill(acc.begin(), acc.begin() + Tri(m) * gl, 0.0);
    (HasAvx2() ? BatchGramAvx2 : BatchGramGeneric)(p, curv.data(), lanes, pick, gl, acc.data());
    for (int64_t j = 0; j < m; ++j) {  // FinishGram: / n, + lambda on the diagonal
      for (int64_t k = 0; k <= j; ++k) {
        double* cell = acc.data() + (Tri(j) + k) * gl;
        for (int64_t a = 0; a < gl; ++a) cell[a] = cell[a] / n + (j == k ? p.lambda : 0);
      }
    }
    bool factored[kGramLanes];
    BatchCholesky(m, gl, acc.data(), factored);
    for (int64_t a = 0; a < count; ++a) {
      BatchDraw* d = active[todo[q + a]];
      ++d->fit.hessians;
      d->hessian = false;
      if (!factored[a]) {
        ok[todo[q + a]] = false;
        continue;
      }
      d->own = SquareMatrix(m);
      for (int64_t j = 0; j < m; ++j) {
        for (int64_t k = 0; k <= j; ++k) d->own.at(j, k) = acc[(Tri(j) + k) * gl + a];
      }
      d->factor = &d->own;
      d->fresh = true;
      NewStep(d);
    }
  }
  return ok;
}

// A new draw at start: grad F_k(start) = grad F(start) + b_k / n, factor h0
// (the Hessian there: F_k's Hessian does not depend on b_k).
void StartDraw(int64_t index, const double* b_k, const std::vector<double>& start,
               const std::vector<double>& g_start, double f_start, double n, const SquareMatrix& h0,
               BatchDraw* d) {
  *d = BatchDraw();
  d->index = index;
  d->w = start;
  d->g.resize(start.size());
  for (size_t j = 0; j < start.size(); ++j) d->g[j] = g_start[j] + b_k[j] / n;
  d->gnorm = Norm2(d->g);
  d->f = f_start + Dot(b_k, start.data(), static_cast<int64_t>(start.size())) / n;
  d->factor = &h0;
  NewStep(d);
}

// A finished draw's fit; a draw that fell back is solved alone by Newton
// from start (FitLogistic), its counts added.
Status FinishDraw(const LogisticProblem& p, const double* bs, const std::vector<double>& start,
                  double tolerance, bool fallback, BatchDraw* d, LogisticFit* out) {
  if (!fallback) {
    d->fit.w = std::move(d->w);
    *out = std::move(d->fit);
    return Status::Ok();
  }
  const std::vector<double> b(bs + d->index * p.m, bs + (d->index + 1) * p.m);
  PB_ASSIGN_OR_RETURN(LogisticFit single, FitLogistic(p, b, start, tolerance));
  single.passes += d->fit.passes;
  single.hessians += d->fit.hessians;
  single.fallback = true;
  *out = std::move(single);
  return Status::Ok();
}

}  // namespace

Status FitLogisticBatch(const LogisticProblem& p, const double* b, int64_t count,
                        const std::vector<double>& start, const SquareMatrix& h0, double tolerance,
                        std::vector<LogisticFit>* fits) {
  if (count <= 0)
    return Error("FitLogisticBatch: count must be >= 1, got " + std::to_string(count));
  if (b == nullptr) return Error("FitLogisticBatch: b must not be null");
  if (fits == nullptr) return Error("FitLogisticBatch: fits must not be null");
  if (static_cast<int64_t>(start.size()) != p.m || h0.m != p.m) {
    return Error("FitLogisticBatch: start and h0 must have p.m = " + std::to_string(p.m) +
                 " entries per dimension");
  }
  const int64_t m = p.m;
  const double n = static_cast<double>(p.n());
  fits->assign(count, LogisticFit());
  Point at_start;
  at_start.w = start;
  Evaluate(p, {}, &at_start);
  std::vector<BatchDraw> slots(std::min(count, kBatchLanes));
  std::vector<BatchDraw*> free_slots, active, still;
  for (BatchDraw& d : slots) free_slots.push_back(&d);
  std::vector<LaneResult> trials;
  std::vector<double> w, curv;
  int64_t next = 0;
  while (next < count || !active.empty()) {
    for (; next < count && !free_slots.empty(); ++next) {
      StartDraw(next, b + next * m, start, at_start.g, at_start.f, n, h0, free_slots.back());
      active.push_back(free_slots.back());
      free_slots.pop_back();
    }
    const int64_t lanes = (static_cast<int64_t>(active.size()) + 3) / 4 * 4;
    PackTrials(active, start, lanes, &trials, &w);
    BatchGradients(p, active, b, lanes, w, &trials, &curv);
    std::vector<Outcome> outcome(active.size());
    for (size_t l = 0; l < active.size(); ++l)
      outcome[l] = Decide(active[l], &trials[l], tolerance);
    const std::vector<bool> factored = BatchHessians(p, active, curv, lanes);
    still.clear();
    for (size_t l = 0; l < active.size(); ++l) {
      if (!factored[l]) outcome[l] = Outcome::kFallback;
      if (outcome[l] == Outcome::kContinue) {
        still.push_back(active[l]);
        continue;
      }
      PB_RETURN_IF_ERROR(FinishDraw(p, b, start, tolerance, outcome[l] == Outcome::kFallback,
                                    active[l], &(*fits)[active[l]->index]));
      free_slots.push_back(active[l]);
    }
    active.swap(still);
  }
  return Status::Ok();
}

}  // namespace privbench
