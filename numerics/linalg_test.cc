#include "numerics/linalg.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "numerics/logistic.h"
#include "numerics/logistic_testing.h"

namespace privbench {
namespace {

using testing::OneHotProblem;

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

std::vector<double> RandomLinearTerm(int64_t m, double norm, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  std::vector<double> b(m);
  for (double& v : b) v = normal(rng);
  const double scale = norm / Norm2(b);
  for (double& v : b) v *= scale;
  return b;
}

// Compressed (shift + sparse) rows give the dense solve's minimiser: both stop
// at gradient norm < 1e-9 and F is lambda-strongly convex, so each lies within
// 1e-9 / lambda of the minimiser. ||b|| up to 400 n lambda moves w far (as
// objective perturbation's noise does at small eps, ||w|| in the hundreds).
TEST(LogisticTest, CompressedRowsGiveTheDenseSolution) {
  std::mt19937_64 rng(11);
  for (int64_t n : {60, 400}) {
    const LogisticProblem dense = OneHotProblem(n, rng);
    LogisticProblem sparse = dense;
    EXPECT_LT(CompressRows(&sparse), 0.5);
    ASSERT_TRUE(sparse.compressed());
    Result<LogisticFit> start = FitLogistic(dense, {}, {});
    ASSERT_TRUE(start.ok()) << start.message();
    Result<SquareMatrix> h0 = Cholesky(LogisticHessian(dense, start->w));
    ASSERT_TRUE(h0.ok());
    for (double scale : {0.0, 1.0, 30.0, 400.0}) {
      const std::vector<double> b = RandomLinearTerm(dense.m, scale * n * dense.lambda, rng);
      Result<LogisticFit> a = FitLogistic(dense, b, start->w);
      Result<LogisticFit> c = FitLogistic(sparse, b, start->w);
      Result<LogisticFit> chord = FitLogisticChord(sparse, b, start->w, *h0);
      ASSERT_TRUE(a.ok() && c.ok() && chord.ok()) << scale;
      const double bound = 2e-9 / dense.lambda;
      double diff = 0, diff_chord = 0;
      for (int64_t j = 0; j < dense.m; ++j) {
        diff = std::max(diff, std::fabs(a->w[j] - c->w[j]));
        diff_chord = std::max(diff_chord, std::fabs(a->w[j] - chord->w[j]));
      }
      EXPECT_LT(diff, bound) << "n " << n << " scale " << scale;
      EXPECT_LT(diff_chord, bound) << "n " << n << " scale " << scale;
      if (scale == 400.0) {
        EXPECT_GT(Norm2(a->w), 50.0);  // far from the start
      }
    }
  }
}

// The Hessian at a point is the same matrix from dense and compressed rows.
TEST(LogisticTest, CompressedHessianMatchesDense) {
  std::mt19937_64 rng(5);
  const LogisticProblem dense = OneHotProblem(300, rng);
  LogisticProblem sparse = dense;
  CompressRows(&sparse);
  const std::vector<double> w = RandomLinearTerm(dense.m, 20, rng);
  const SquareMatrix a = LogisticHessian(dense, w), b = LogisticHessian(sparse, w);
  for (int64_t k = 0; k < dense.m * dense.m; ++k) {
    EXPECT_NEAR(a.a[k], b.a[k], 1e-13 * (1 + std::fabs(a.a[k])));
  }
}

// Dense enough or not finite: left dense.
TEST(LogisticTest, CompressRowsLeavesDenseOrNonFiniteRowsDense) {
  std::mt19937_64 rng(2);
  LogisticProblem p = OneHotProblem(50, rng);
  EXPECT_GT(CompressRows(&p, 0.01), 0.01);
  EXPECT_FALSE(p.compressed());
  p.x[7] = std::nan("");
  EXPECT_EQ(CompressRows(&p), 1.0);
  EXPECT_FALSE(p.compressed());
}

// The register-tiled dense Gram equals the row-by-row one to 1e-12 relative
// (widths not a multiple of the tile, row counts not a multiple of a block).
TEST(LogisticTest, TiledDenseGramMatchesRowByRow) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int64_t m : {1, 5, 37, 130}) {
    LogisticProblem p;
    p.m = m;
    const int64_t n = 301;
    p.x.resize(n * m);
    for (double& v : p.x) v = u(rng);
    p.sign.assign(n, 1.0);
    p.lambda = 0.01;
    std::vector<double> r(n);
    for (double& v : r) v = 0.25 * (u(rng) + 1) / 2;
    const SquareMatrix fast = WeightedGram(p, r), naive = WeightedGramNaive(p, r);
    double scale = 0;
    for (double v : naive.a) scale = std::max(scale, std::fabs(v));
    for (int64_t k = 0; k < m * m; ++k) {
      EXPECT_NEAR(fast.a[k], naive.a[k], 1e-12 * scale) << "m " << m << " entry " << k;
    }
  }
}

}  // namespace
}  // namespace privbench
