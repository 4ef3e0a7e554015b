#include "mechanisms/classical/logistic.h"

#include <cmath>

#include "core/format.h"

namespace privbench {

double Sigmoid(double t) {
  if (t >= 0) return 1 / (1 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1 + e);
}

namespace {

double Weight(const LogisticProblem& p, int64_t i) { return p.weight.empty() ? 1.0 : p.weight[i]; }

// log(1 + exp(-t)), stable.
double LogLoss(double t) { return t > 0 ? std::log1p(std::exp(-t)) : -t + std::log1p(std::exp(t)); }

double Objective(const LogisticProblem& p, const std::vector<double>& b,
                 const std::vector<double>& w) {
  const int64_t n = p.n(), m = p.m;
  double f = 0;
  for (int64_t i = 0; i < n; ++i) {
    f += Weight(p, i) * LogLoss(p.sign[i] * Dot(p.x.data() + i * m, w.data(), m));
  }
  f /= n;
  f += 0.5 * p.lambda * Dot(w.data(), w.data(), m);
  if (!b.empty()) f += Dot(b.data(), w.data(), m) / n;
  return f;
}

std::vector<double> Gradient(const LogisticProblem& p, const std::vector<double>& b,
                             const std::vector<double>& w) {
  const int64_t n = p.n(), m = p.m;
  std::vector<double> g(m, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const double* xi = p.x.data() + i * m;
    const double c = -Weight(p, i) * p.sign[i] * Sigmoid(-p.sign[i] * Dot(xi, w.data(), m));
    for (int64_t j = 0; j < m; ++j) g[j] += c * xi[j];
  }
  for (int64_t j = 0; j < m; ++j) {
    g[j] = g[j] / n + p.lambda * w[j] + (b.empty() ? 0.0 : b[j] / n);
  }
  return g;
}

}  // namespace

SquareMatrix LogisticHessian(const LogisticProblem& p, const std::vector<double>& w) {
  const int64_t n = p.n(), m = p.m;
  SquareMatrix h(m);
  for (int64_t i = 0; i < n; ++i) {
    const double* xi = p.x.data() + i * m;
    const double q = Sigmoid(Dot(xi, w.data(), m));
    const double c = Weight(p, i) * q * (1 - q);
    if (c == 0) continue;
    for (int64_t r = 0; r < m; ++r) {
      const double cr = c * xi[r];
      for (int64_t s = 0; s <= r; ++s) h.at(r, s) += cr * xi[s];
    }
  }
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t s = 0; s <= r; ++s) {
      h.at(r, s) /= n;
      h.at(s, r) = h.at(r, s);
    }
    h.at(r, r) += p.lambda;
  }
  return h;
}

Result<LogisticFit> FitLogistic(const LogisticProblem& p, const std::vector<double>& b,
                                const std::vector<double>& start, double tolerance) {
  LogisticFit fit;
  fit.w = start.empty() ? std::vector<double>(p.m, 0.0) : start;
  double f = Objective(p, b, fit.w);
  for (fit.iterations = 0; fit.iterations < 100; ++fit.iterations) {
    std::vector<double> g = Gradient(p, b, fit.w);
    fit.gradient_norm = Norm2(g);
    if (fit.gradient_norm < tolerance) return fit;
    PB_ASSIGN_OR_RETURN(SquareMatrix l, Cholesky(LogisticHessian(p, fit.w)));
    std::vector<double> step = g;
    CholeskySolve(l, &step);
    const double slope = Dot(g.data(), step.data(), p.m);
    double t = 1;
    bool accepted = false;
    std::vector<double> trial(p.m);
    for (int k = 0; k < 60 && !accepted; ++k, t *= 0.5) {
      for (int64_t j = 0; j < p.m; ++j) trial[j] = fit.w[j] - t * step[j];
      const double ft = Objective(p, b, trial);
      if (ft <= f - 1e-4 * t * slope) {
        accepted = true;
        // Progress below rounding with a small gradient: converged.
        if (f - ft <= 1e-14 * std::fabs(f) && fit.gradient_norm < 1e-5) {
          fit.w = trial;
          return fit;
        }
        f = ft;
      }
    }
    // No decrease representable in double precision: the minimum is reached
    // to rounding (the objective is flat there); accept a small gradient.
    if (!accepted || trial == fit.w) {
      if (fit.gradient_norm < 1e-5) return fit;
      return Error("logistic regression line search failed (gradient norm " +
                   FormatDouble(fit.gradient_norm) + ")");
    }
    fit.w = trial;
  }
  return Error("logistic regression did not converge in 100 Newton steps (gradient norm " +
               FormatDouble(fit.gradient_norm) + ")");
}

Result<LogisticFit> FitLogisticChord(const LogisticProblem& p, const std::vector<double>& b,
                                     const std::vector<double>& start, const SquareMatrix& h0,
                                     double tolerance) {
  LogisticFit fit;
  fit.w = start;
  double f = Objective(p, b, fit.w);
  for (fit.iterations = 0; fit.iterations < 40; ++fit.iterations) {
    std::vector<double> g = Gradient(p, b, fit.w);
    fit.gradient_norm = Norm2(g);
    if (fit.gradient_norm < tolerance) return fit;
    CholeskySolve(h0, &g);
    std::vector<double> next(p.m);
    for (int64_t j = 0; j < p.m; ++j) next[j] = fit.w[j] - g[j];
    const double fn = Objective(p, b, next);
    if (!(fn <= f)) break;  // the fixed factor is too far off here
    f = fn;
    fit.w = next;
  }
  return FitLogistic(p, b, fit.w, tolerance);
}

}  // namespace privbench
