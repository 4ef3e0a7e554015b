// Differentially private L2-regularised logistic regression, Chaudhuri,
// Monteleoni & Sarwate, "Differentially Private Empirical Risk Minimization",
// JMLR 12 (2011), audited by ML-Audit (Lu et al., NeurIPS 2022, Sec. 5;
// experiments/ml_audit/README.md). Both are eps-DP (delta = 0) under REPLACE-ONE
// adjacency, assuming every row has ||x|| <= 1 and labels in {-1, +1}.
//
// Features: a row x (within the data bounds of data.h, radius R) is clipped
// to ||x|| <= R (a no-op for valid data) and mapped to the unit ball with a
// constant for the intercept, z = [x / R, 1] / sqrt(2), so ||z|| <= 1 and the
// proofs apply to the (d + 1)-vector w, whose last entry is the intercept.
// The summary tau is w (experiments/ml_audit/README.md, Table 1 of the paper).
//
// lr_output (Alg. 1, output perturbation): w* = argmin (1/n) sum log(1 +
// exp(-y w.z)) + (lambda/2)||w||^2, then w* + b with density of b
// proportional to exp(-(n lambda eps / 2) ||b||): ||b|| ~ Gamma(d + 1,
// 2 / (n lambda eps)), uniform direction (the L2 sensitivity of w* is
// 2 / (n lambda), Corollary 8). One fit serves every draw.
//
// lr_objective (Alg. 2, objective perturbation; c = 1/4 bounds the logistic
// loss's second derivative): eps' = eps - log(1 + 2c/(n lambda) + c^2/(n
// lambda)^2); if eps' > 0, Delta = 0, else Delta = c / (n (exp(eps/4) - 1)) -
// lambda and eps' = eps / 2; ||b|| ~ Gamma(d + 1, 2 / eps'), uniform
// direction; the output minimises the objective above + b.w / n +
// (Delta/2)||w||^2 (Theorem 9). Each draw is a fresh exact solve (gradient
// norm < 1e-8) started at the non-private fit (FitLogisticNear, logistic.h:
// Newton on compressed rows, as Adult's, or below 64 parameters; else chord
// steps with its Hessian, Newton when they stall). Draws asked for in blocks
// (SummarySampler::DrawMany, as the study does) are solved together by
// FitLogisticBatch (logistic.h: damped Newton with lagged Hessians, one pass
// over the rows for up to 16 draws, the start's Hessian factor shared), each
// to the same stopping rule; its noise vectors are drawn exactly as one at a
// time, so a seed gives the same b's either way. The paper audited IBM
// diffprivlib's version, which rescaled two terms for non-unit norms
// (experiments/ml_audit/README.md): lr_objective_diffprivlib.h.
#ifndef PRIVBENCH_MECHANISMS_CLASSICAL_LOGISTIC_REGRESSION_H_
#define PRIVBENCH_MECHANISMS_CLASSICAL_LOGISTIC_REGRESSION_H_

#include <memory>
#include <vector>

#include "mechanisms/classical/data.h"
#include "mechanisms/classical/mechanism.h"
#include "numerics/logistic.h"

namespace privbench {

// The problem the mechanisms solve: z rows as above, signs from the labels,
// lambda (0: 1/n); rows stored compressed too when at most half their
// entries are nonzero (logistic.h: the same solves, faster).
LogisticProblem LrProblem(const BinaryData& data, const DataBounds& bounds, double lambda);

// z = [x / R, 1] / sqrt(2) for one row (clipped to ||x|| <= R).
std::vector<double> LrFeatures(const double* x, int64_t d, double radius);

// Chaudhuri et al. Alg. 2's privacy budget of the noise, eps', and the
// extra regulariser Delta, for n rows and regulariser lambda.
struct ObjectiveBudget {
  double eps_prime = 0;
  double delta_reg = 0;
};
ObjectiveBudget ObjectivePerturbationBudget(double eps, int64_t n, double lambda);

// What lr_objective solves per draw: the problem with lambda + Delta, its
// minimiser without noise (the start) and the Cholesky factor of the Hessian
// there. Solve(b) is the exact minimiser with linear term b (gradient norm
// < 1e-8).
struct ObjectiveSolver {
  LogisticProblem p;
  std::vector<double> start;
  SquareMatrix h0;
  double noise_scale = 0;  // ||b|| ~ Gamma(m, noise_scale) (with noise_factor)
  Result<LogisticFit> Solve(const std::vector<double>& b) const;
  // The minimisers for k linear terms at once (row i of b: b[i m, (i + 1) m))
  // into out (k x m, row by row), each with gradient norm < 1e-8 of its own
  // objective: FitLogisticBatch (logistic.h), within that tolerance of
  // Solve's. fits (optional) gets each solve's counts.
  Status SolveMany(const double* b, int64_t k, double* out,
                   std::vector<LogisticFit>* fits = nullptr) const;
};
Result<ObjectiveSolver> PrepareObjectiveSolver(const BinaryData& data, const DataBounds& bounds,
                                               double eps, double lambda, double noise_factor);

// The solver of problem `p` (lambda already including any Delta): fits the
// start and factors the Hessian there. Shared by the textbook calibration
// (PrepareObjectiveSolver) and diffprivlib 0.5.x's (lr_objective_diffprivlib.h).
Result<ObjectiveSolver> MakeObjectiveSolver(LogisticProblem p, double noise_scale);

// lr_objective's draws: b uniform in direction with ||b|| ~ Gamma(m,
// noise_scale), the summary tau the minimiser Solve(b). DrawMany draws its k
// b's exactly as k calls of Draw would (same rng stream, same order), then
// solves them together (SolveMany).
std::unique_ptr<SummarySampler> MakeObjectiveSampler(ObjectiveSolver solver);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_CLASSICAL_LOGISTIC_REGRESSION_H_
