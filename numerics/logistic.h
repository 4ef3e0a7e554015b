// L2-regularised logistic regression fitted by Newton's method with
// backtracking, the common core of the logistic-regression mechanisms
// (Chaudhuri, Monteleoni & Sarwate, JMLR 2011, Eqs. 1 and Alg. 1-2), the
// attacks' non-private model and the audit's default classifier:
//   F(w) = (1/n) sum_i c_i log(1 + exp(-s_i w.x_i)) + (lambda/2)||w||^2 + b.w / n,
// s_i in {-1, +1}, c_i >= 0 row weights (1 by default).
//
// Cost: each pass over the data computes the margins w.x_i once and from one
// exp per row the objective, the gradient and the Hessian's row weights
// together. Rows stored compressed (CompressRows) as x_i = a + s_i, a fixed
// vector (each column's most frequent value) plus a sparse s_i, are visited
// at the nonzeros of s_i only: O(n nnz + m) per pass and O(n nnz^2 + m^2)
// per Hessian instead of O(n m) and O(n m^2) (e.g. one-hot columns scaled to
// {-1, +1}). Same quantities, summed in another order (agreeing to
// rounding). Dense Hessians are accumulated in register tiles over blocks of
// rows (O(n m^2 / 2) multiply-adds, cache-friendly).
#ifndef PRIVBENCH_NUMERICS_LOGISTIC_H_
#define PRIVBENCH_NUMERICS_LOGISTIC_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "numerics/linalg.h"

namespace privbench {

struct LogisticProblem {
  int64_t m = 0;               // parameters per row (features incl. any constant)
  std::vector<double> x;       // n x m, row-major
  std::vector<double> sign;    // n labels in {-1, +1}
  std::vector<double> weight;  // empty: every row weight 1
  double lambda = 1.0;         // > 0
  // Optional compressed rows (CompressRows): x_i = shift + s_i, with the
  // nonzero entries of s_i in column order at [row_begin[i],
  // row_begin[i + 1]) of col/val. Empty row_begin: the rows are read dense.
  // x must not change after CompressRows.
  std::vector<double> shift;
  std::vector<int64_t> row_begin;
  std::vector<int32_t> col;
  std::vector<double> val;
  int64_t n() const { return static_cast<int64_t>(sign.size()); }
  bool compressed() const { return !row_begin.empty(); }
};

// Fills p's compressed rows from p->x (shift: each column's most frequent
// value, 0 on ties) when at most `max_density` of the entries of the s_i are
// nonzero (else leaves them empty; also when x has a non-finite entry, then
// returning 1); returns that fraction.
double CompressRows(LogisticProblem* p, double max_density = 0.5);

struct LogisticFit {
  std::vector<double> w;
  int iterations = 0;
  double gradient_norm = 0;
  int passes = 0;         // passes over the data computing margins (each: f, grad F)
  int hessians = 0;       // Hessians formed (each a further pass, no exp)
  bool fallback = false;  // FitLogisticBatch: solved alone by FitLogistic instead
};

// Minimises F with linear term `b` (empty: none) from `start` (empty: 0).
// Converges when ||grad F|| < tolerance; error after 100 iterations.
Result<LogisticFit> FitLogistic(const LogisticProblem& p, const std::vector<double>& b,
                                const std::vector<double>& start, double tolerance = 1e-9);

// Chord (simplified Newton) iterations w <- w - H0^-1 grad F(w) with a fixed
// factor `h0` (Cholesky of a Hessian near the solution), each O(n m); falls
// back to FitLogistic from the last iterate when 40 chord steps do not reach
// the tolerance or a step raises F. Same solution as FitLogistic (to the
// tolerance), much cheaper when many fits share a nearby start.
Result<LogisticFit> FitLogisticChord(const LogisticProblem& p, const std::vector<double>& b,
                                     const std::vector<double>& start, const SquareMatrix& h0,
                                     double tolerance = 1e-9);

// The fit from a nearby start whose Hessian's Cholesky factor is h0 (many
// fits with different b): chord steps (FitLogisticChord) for dense rows from
// 64 parameters, where a Newton step's O(n m^2) dwarfs a pass; Newton
// otherwise (compressed rows make Hessians cheap, and chord steps stall
// when the optimum moves far from the start).
Result<LogisticFit> FitLogisticNear(const LogisticProblem& p, const std::vector<double>& b,
                                    const std::vector<double>& start, const SquareMatrix& h0,
                                    double tolerance = 1e-9);

// Batched exact fits: the minimisers w_k of F_k = F + b_k.w / n for `count`
// linear terms b_k (row k of b: b[k m, (k + 1) m)), each from `start`, where
// h0 must be the Cholesky factor of F's Hessian at start (F_k's Hessian does
// not depend on b_k, so h0 is every F_k's exact Hessian there). Writes
// fits[k] for every k. Each w_k meets FitLogistic's stopping rule for its own
// objective, ||grad F_k(w_k)|| < tolerance, so it is FitLogistic's /
// FitLogisticNear's minimiser of F_k to within that tolerance (F_k is
// lambda-strongly convex: one minimiser, and any two points meeting the rule
// lie within 2 tolerance / lambda of each other).
//
// Algorithm: Newton's method with backtracking (Armijo on F_k, c = 1e-4, as
// FitLogistic) and lagged Hessians (Shamanskii's modification of Newton's
// method; Kelley, Iterative Methods for Linear and Nonlinear Equations, SIAM
// 1995, Sec. 5.4), up to 16 draws iterated together:
//   - one pass over the rows computes F_k, grad F_k and the Hessian's row
//     weights at every draw's trial point at once: the margins Z W and the
//     sums Z^T R of all draws from one read of each row, dense or compressed
//     (exp and log1p lane-wise in SIMD, within a few ulp of std::exp and
//     std::log1p);
//   - each draw's step is L^-1 L^-T grad F_k with L its current factor: first
//     h0, shared by every draw; later the draw's own Hessian, formed only
//     when the current factor stops shrinking ||grad F_k|| at least 4x per
//     step (up to 8 draws' Hessians per pass over the rows, and their
//     Cholesky factors, together);
//   - a step with the Hessian at the iterate backtracks (halving) until F_k
//     meets Armijo; a step with an older factor that fails Armijo sends the
//     draw to a fresh Hessian at its iterate (one more pass);
//   - a converged draw leaves the batch and the next draw enters.
// A draw falls back to FitLogistic from start, alone (fit.fallback), when its
// Hessian is not numerically positive definite, backtracking halves the step
// 60 times, or it has used 200 passes; that fit's error is returned.
// Each draw's arithmetic runs in its own SIMD lane in a fixed order, so its
// result does not depend on count or on the other draws (bit for bit). Errors
// name a bad argument (count >= 1, b and fits non-null, start and h0 of size
// p.m).
Status FitLogisticBatch(const LogisticProblem& p, const double* b, int64_t count,
                        const std::vector<double>& start, const SquareMatrix& h0, double tolerance,
                        std::vector<LogisticFit>* fits);

// The Hessian of F at w: (1/n) sum_i c_i p_i (1 - p_i) x_i x_i^T + lambda I.
SquareMatrix LogisticHessian(const LogisticProblem& p, const std::vector<double>& w);

// The same Hessian from given row weights r_i = c_i p_i (1 - p_i):
// (1/n) sum_i r_i x_i x_i^T + lambda I. Compressed rows: sparse updates;
// dense rows: register-tiled updates over blocks of rows (summation order
// differs from row by row; agrees with it to rounding).
SquareMatrix WeightedGram(const LogisticProblem& p, const std::vector<double>& r);

// The row-by-row reference of WeightedGram for dense rows (x_i x_i^T added
// one row at a time, O(n m^2 / 2)); for tests of the fast path.
SquareMatrix WeightedGramNaive(const LogisticProblem& p, const std::vector<double>& r);

// 1 / (1 + exp(-t)), stable for large |t|.
double Sigmoid(double t);

}  // namespace privbench

#endif  // PRIVBENCH_NUMERICS_LOGISTIC_H_
