// The large-n coverage of the Bayesian (joint-posterior) eps interval on the
// diagonal FPR = FNR (Zanella-Beguelin et al., "Bayesian Estimation of
// Differential Privacy", ICML 2023, Sec. 3.2-3.3; derivation in
// README.md).
//
// Where the two terms of eps (docs/studies.md A1),
//   T1 = log((1 - delta - FPR) / FNR),  T2 = log((1 - delta - FNR) / FPR),
// are equal at the truth (FPR = FNR = r < 1/2, delta negligible), the
// posterior of eps is the maximum of two estimates. As n grows (Bernstein-
// von Mises: posterior and sampling deviations both Normal with the same
// covariance), with standardised sampling errors (X1, X2) and posterior
// deviations (Z1, Z2), both bivariate Normal with unit variances and the
// correlation rho = 2 r (1 - r) / (r^2 + (1 - r)^2) of the linearised terms,
// the posterior CDF at the true eps is F = Phi2(-X1, -X2; rho). The lower
// bound F^-1(alpha) covers the truth iff F >= alpha, the equal-tailed
// interval iff alpha/2 <= F <= 1 - alpha/2. For rho = 0, F = U1 U2 with
// independent uniforms, P(U1 U2 <= w) = w - w ln w, so
//   one-sided coverage -> 1 - alpha + alpha ln(alpha)          (0.670 at 0.1)
//   two-sided coverage -> G(1 - alpha/2) - G(alpha/2),  G(w) = w - w ln w
//                                                              (0.799 at 0.1)
// instead of the nominal 1 - alpha: the paper's "nominal coverage" is
// posterior mass, not frequentist coverage. For rho > 0 the limit lies
// between these and 1 - alpha (rho = 1: one term, exact coverage); it is
// computed by quadrature (DiagonalCoverageLimit).
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_DIAGONAL_LIMIT_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_DIAGONAL_LIMIT_H_

namespace privbench::bayes_coverage {

// P(U1 U2 <= w) = w - w ln w for independent U(0, 1), w in [0, 1].
double ProductOfUniformsCdf(double w);

// The closed forms at rho = 0.
double IndependentOneSidedLimit(double alpha);  // 1 - alpha + alpha ln(alpha)
double IndependentTwoSidedLimit(double alpha);  // G(1 - alpha/2) - G(alpha/2)

// rho of the linearised terms at FPR = FNR = r (in (0, 1/2]).
double DiagonalTermCorrelation(double r);

// Phi2(h, k; rho), the standard bivariate Normal CDF, rho in [0, 1).
double BivariateNormalCdf(double h, double k, double rho);

// The limits for correlation rho in [0, 1) (quadrature; to about 1e-6).
struct CoverageLimit {
  double one_sided = 0.0;
  double two_sided = 0.0;
};
CoverageLimit DiagonalCoverageLimit(double alpha, double rho);

}  // namespace privbench::bayes_coverage

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_DIAGONAL_LIMIT_H_
