#include "mechanisms/classical/linalg.h"

#include <cmath>

#include "gtest/gtest.h"
#include "mechanisms/classical/logistic.h"

namespace privbench {
namespace {

TEST(LinalgTest, CholeskySolvesAndRejectsIndefinite) {
  SquareMatrix a(2);
  a.at(0, 0) = 4;
  a.at(0, 1) = a.at(1, 0) = 2;
  a.at(1, 1) = 3;
  Result<SquareMatrix> l = Cholesky(a);
  ASSERT_TRUE(l.ok());
  std::vector<double> b = {2, 1};  // solution of [[4,2],[2,3]] x = [2,1]: (0.5, 0)
  CholeskySolve(*l, &b);
  EXPECT_NEAR(b[0], 0.5, 1e-12);
  EXPECT_NEAR(b[1], 0.0, 1e-12);
  a.at(1, 1) = 1;  // determinant 0
  EXPECT_FALSE(Cholesky(a).ok());
}

TEST(LinalgTest, JacobiEigenOfKnownMatrix) {
  SquareMatrix a(3);
  // diag(1, 2, 5) rotated in the (0, 1) plane by 45 degrees.
  a.at(0, 0) = a.at(1, 1) = 1.5;
  a.at(0, 1) = a.at(1, 0) = 0.5;
  a.at(2, 2) = 5;
  Eigen e = SymmetricEigen(a);
  EXPECT_NEAR(e.values[0], 1, 1e-12);
  EXPECT_NEAR(e.values[1], 2, 1e-12);
  EXPECT_NEAR(e.values[2], 5, 1e-12);
  EXPECT_NEAR(std::fabs(e.vectors.at(0, 0)), std::sqrt(0.5), 1e-9);
  EXPECT_NEAR(e.vectors.at(0, 0), -e.vectors.at(1, 0), 1e-9);
}

TEST(LogisticTest, NewtonReachesTheStationaryPoint) {
  LogisticProblem p;
  p.m = 2;
  p.x = {1, 0.5, 1, -0.3, 1, 0.9, 1, -1.2, 1, 0.1};
  p.sign = {1, -1, 1, -1, -1};
  p.lambda = 0.1;
  std::vector<double> b = {0.3, -0.2};
  Result<LogisticFit> fit = FitLogistic(p, b, {});
  ASSERT_TRUE(fit.ok()) << fit.message();
  // Gradient by hand at the solution.
  double g[2] = {0, 0};
  for (int i = 0; i < 5; ++i) {
    const double t = p.sign[i] * (p.x[2 * i] * fit->w[0] + p.x[2 * i + 1] * fit->w[1]);
    for (int j = 0; j < 2; ++j) g[j] += -p.sign[i] * Sigmoid(-t) * p.x[2 * i + j] / 5;
  }
  for (int j = 0; j < 2; ++j) EXPECT_NEAR(g[j] + 0.1 * fit->w[j] + b[j] / 5, 0, 1e-8);
}

TEST(LogisticTest, ChordIterationsReachNewtonsSolution) {
  LogisticProblem p;
  p.m = 2;
  p.x = {1, 0.5, 1, -0.3, 1, 0.9, 1, -1.2, 1, 0.1};
  p.sign = {1, -1, 1, -1, -1};
  p.lambda = 0.1;
  Result<LogisticFit> start = FitLogistic(p, {}, {});
  Result<SquareMatrix> h0 = Cholesky(LogisticHessian(p, start->w));
  for (double shift : {0.05, 3.0, 40.0}) {  // near, far, very far from the start
    std::vector<double> b = {shift, -shift};
    Result<LogisticFit> newton = FitLogistic(p, b, {});
    Result<LogisticFit> chord = FitLogisticChord(p, b, start->w, *h0);
    ASSERT_TRUE(chord.ok()) << chord.message();
    // Both stop at gradient norm < 1e-9; F is 0.1-strongly convex, so each is
    // within 1e-8 of the minimiser.
    for (int j = 0; j < 2; ++j) EXPECT_NEAR(chord->w[j], newton->w[j], 2e-8) << shift;
  }
}

}  // namespace
}  // namespace privbench
