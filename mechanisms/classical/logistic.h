// L2-regularised logistic regression fitted by Newton's method with
// backtracking, the common core of the logistic-regression mechanisms
// (Chaudhuri, Monteleoni & Sarwate, JMLR 2011, Eqs. 1 and Alg. 1-2), the
// attacks' non-private model and the audit's default classifier:
//   F(w) = (1/n) sum_i c_i log(1 + exp(-s_i w.x_i)) + (lambda/2)||w||^2 + b.w / n,
// s_i in {-1, +1}, c_i >= 0 row weights (1 by default).
#ifndef PRIVBENCH_MECHANISMS_CLASSICAL_LOGISTIC_H_
#define PRIVBENCH_MECHANISMS_CLASSICAL_LOGISTIC_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "mechanisms/classical/linalg.h"

namespace privbench {

struct LogisticProblem {
  int64_t m = 0;               // parameters per row (features incl. any constant)
  std::vector<double> x;       // n x m, row-major
  std::vector<double> sign;    // n labels in {-1, +1}
  std::vector<double> weight;  // empty: every row weight 1
  double lambda = 1.0;         // > 0
  int64_t n() const { return static_cast<int64_t>(sign.size()); }
};

struct LogisticFit {
  std::vector<double> w;
  int iterations = 0;
  double gradient_norm = 0;
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

// The Hessian of F at w: (1/n) sum_i c_i p_i (1 - p_i) x_i x_i^T + lambda I.
SquareMatrix LogisticHessian(const LogisticProblem& p, const std::vector<double>& w);

// 1 / (1 + exp(-t)), stable for large |t|.
double Sigmoid(double t);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_CLASSICAL_LOGISTIC_H_
