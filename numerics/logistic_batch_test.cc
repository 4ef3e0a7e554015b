// FitLogisticBatch (logistic.h) against one fit at a time: dense and
// compressed rows, one draw and more draws than the batch holds, draws that
// converge at different iterations, and bad arguments.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/linalg.h"
#include "numerics/logistic.h"
#include "numerics/logistic_testing.h"

namespace privbench {
namespace {

using testing::OneHotProblem;

// Dense rows: m - 1 features in [-1, 1] and a constant; labels from a noisy
// linear rule.
LogisticProblem DenseProblem(int64_t n, int64_t m, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1, 1);
  LogisticProblem p;
  p.m = m;
  p.lambda = 1.0 / static_cast<double>(n);
  for (int64_t i = 0; i < n; ++i) {
    double margin = 0;
    for (int64_t j = 0; j + 1 < m; ++j) {
      p.x.push_back(unit(rng) / std::sqrt(2.0 * static_cast<double>(m)));
      margin += p.x.back() * (j % 2 == 0 ? 3 : -2);
    }
    p.x.push_back(1 / std::sqrt(2.0));
    p.sign.push_back(margin + 0.3 * unit(rng) > 0 ? 1.0 : -1.0);
  }
  return p;
}

// count linear terms (row-major), the k-th of norm norms[k % size] * n lambda.
std::vector<double> LinearTerms(const LogisticProblem& p, int64_t count,
                                const std::vector<double>& norms, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  std::vector<double> b(count * p.m);
  for (int64_t k = 0; k < count; ++k) {
    double s = 0;
    for (int64_t j = 0; j < p.m; ++j) s += (b[k * p.m + j] = normal(rng)) * b[k * p.m + j];
    const double scale = norms[k % norms.size()] * static_cast<double>(p.n()) * p.lambda;
    for (int64_t j = 0; j < p.m; ++j) b[k * p.m + j] *= scale / std::sqrt(s);
  }
  return b;
}

struct Start {
  std::vector<double> w;
  SquareMatrix h0;
};

Start StartOf(const LogisticProblem& p) {
  Result<LogisticFit> fit = FitLogistic(p, {}, {});
  EXPECT_TRUE(fit.ok()) << fit.message();
  Result<SquareMatrix> h0 = Cholesky(LogisticHessian(p, fit->w));
  EXPECT_TRUE(h0.ok());
  return {fit->w, *h0};
}

// Every batched fit: its gradient, recomputed by FitLogistic's own pass,
// meets the tolerance (FitLogistic from it stops at once), and it lies within
// 2 tol / lambda of the single fit (both residuals below tol, F
// lambda-strongly convex). Returns the largest |w_batch - w_single|.
double CheckAgainstSingle(const LogisticProblem& p, const std::vector<double>& b, int64_t count,
                          const std::vector<LogisticFit>& fits, const Start& s, double tol) {
  double worst = 0;
  for (int64_t k = 0; k < count; ++k) {
    const std::vector<double> bk(b.begin() + k * p.m, b.begin() + (k + 1) * p.m);
    Result<LogisticFit> single = FitLogisticNear(p, bk, s.w, s.h0, tol);
    Result<LogisticFit> again = FitLogistic(p, bk, fits[k].w, tol);
    EXPECT_TRUE(single.ok() && again.ok()) << k;
    if (!single.ok() || !again.ok()) continue;
    EXPECT_EQ(again->iterations, 0) << "draw " << k << ": gradient " << again->gradient_norm;
    EXPECT_LT(fits[k].gradient_norm, tol) << k;
    for (int64_t j = 0; j < p.m; ++j) {
      const double d = std::fabs(fits[k].w[j] - single->w[j]);
      EXPECT_LE(d, 2 * tol / p.lambda) << "draw " << k << " coordinate " << j;
      worst = std::max(worst, d);
    }
  }
  return worst;
}

TEST(LogisticBatchTest, DenseRowsMatchSingleFits) {
  std::mt19937_64 rng(3);
  const LogisticProblem p = DenseProblem(300, 7, rng);
  const Start s = StartOf(p);
  for (int64_t count : {1, 5, 37}) {  // 37: more draws than the batch's 16 lanes
    const std::vector<double> b = LinearTerms(p, count, {0.5, 5, 50}, rng);
    std::vector<LogisticFit> fits;
    ASSERT_TRUE(FitLogisticBatch(p, b.data(), count, s.w, s.h0, 1e-8, &fits).ok());
    ASSERT_EQ(static_cast<int64_t>(fits.size()), count);
    CheckAgainstSingle(p, b, count, fits, s, 1e-8);
  }
}

TEST(LogisticBatchTest, CompressedRowsMatchSingleFits) {
  std::mt19937_64 rng(5);
  LogisticProblem p = OneHotProblem(400, rng);
  EXPECT_LT(CompressRows(&p), 0.5);
  ASSERT_TRUE(p.compressed());
  const Start s = StartOf(p);
  for (int64_t count : {1, 21}) {
    const std::vector<double> b = LinearTerms(p, count, {1, 30, 400}, rng);
    std::vector<LogisticFit> fits;
    ASSERT_TRUE(FitLogisticBatch(p, b.data(), count, s.w, s.h0, 1e-8, &fits).ok());
    CheckAgainstSingle(p, b, count, fits, s, 1e-8);
  }
}

// Noise norms from 1e-4 to 400 n lambda in one batch: the small ones converge
// after a pass or two and leave, the large ones need several Newton steps;
// each draw's fit is the one it gets alone (its own lane, bit for bit).
TEST(LogisticBatchTest, DrawsConvergingAtDifferentIterationsLeaveTheBatch) {
  std::mt19937_64 rng(9);
  LogisticProblem p = OneHotProblem(300, rng);
  CompressRows(&p);
  const Start s = StartOf(p);
  const int64_t count = 24;
  const std::vector<double> b = LinearTerms(p, count, {1e-4, 0.1, 3, 400}, rng);
  std::vector<LogisticFit> fits;
  ASSERT_TRUE(FitLogisticBatch(p, b.data(), count, s.w, s.h0, 1e-8, &fits).ok());
  int fewest = 1 << 30, most = 0;
  for (const LogisticFit& f : fits) {
    fewest = std::min(fewest, f.passes);
    most = std::max(most, f.passes);
    EXPECT_FALSE(f.fallback);
  }
  EXPECT_LE(fewest, 2);
  EXPECT_GE(most, fewest + 3);
  CheckAgainstSingle(p, b, count, fits, s, 1e-8);
  for (int64_t k : {0, 3, 17}) {
    std::vector<LogisticFit> alone;
    ASSERT_TRUE(FitLogisticBatch(p, b.data() + k * p.m, 1, s.w, s.h0, 1e-8, &alone).ok());
    EXPECT_EQ(alone[0].w, fits[k].w) << k;
    EXPECT_EQ(alone[0].passes, fits[k].passes) << k;
  }
}

TEST(LogisticBatchTest, BadArgumentsAreNamed) {
  std::mt19937_64 rng(1);
  const LogisticProblem p = DenseProblem(50, 3, rng);
  const Start s = StartOf(p);
  const std::vector<double> b(3, 0.1);
  std::vector<LogisticFit> fits;
  const auto message = [](const Status& st) { return st.ok() ? std::string() : st.message(); };
  EXPECT_NE(message(FitLogisticBatch(p, b.data(), 0, s.w, s.h0, 1e-8, &fits)).find("count"),
            std::string::npos);
  EXPECT_NE(message(FitLogisticBatch(p, b.data(), -2, s.w, s.h0, 1e-8, &fits)).find("count"),
            std::string::npos);
  EXPECT_NE(message(FitLogisticBatch(p, nullptr, 1, s.w, s.h0, 1e-8, &fits)).find("b must"),
            std::string::npos);
  EXPECT_NE(message(FitLogisticBatch(p, b.data(), 1, s.w, s.h0, 1e-8, nullptr)).find("fits"),
            std::string::npos);
  EXPECT_NE(message(FitLogisticBatch(p, b.data(), 1, {1.0}, s.h0, 1e-8, &fits)).find("start"),
            std::string::npos);
}

// A draw whose line search cannot succeed (a NaN in its b) falls back to
// FitLogistic alone, whose error is returned; the other draws do not hide it.
TEST(LogisticBatchTest, AFailingDrawFallsBackAndItsErrorIsReturned) {
  std::mt19937_64 rng(2);
  const LogisticProblem p = DenseProblem(80, 4, rng);
  const Start s = StartOf(p);
  std::vector<double> b = LinearTerms(p, 6, {1}, rng);
  std::vector<LogisticFit> fits;
  ASSERT_TRUE(FitLogisticBatch(p, b.data(), 6, s.w, s.h0, 1e-8, &fits).ok());
  b[3 * p.m + 1] = std::nan("");
  const Status st = FitLogisticBatch(p, b.data(), 6, s.w, s.h0, 1e-8, &fits);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("logistic regression"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace privbench
