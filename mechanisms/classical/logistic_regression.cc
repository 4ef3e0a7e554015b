#include "mechanisms/classical/logistic_regression.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "mechanisms/classical/mechanism.h"

namespace privbench {

std::vector<double> LrFeatures(const double* x, int64_t d, double radius) {
  double s = 0;
  for (int64_t j = 0; j < d; ++j) s += x[j] * x[j];
  const double norm = std::sqrt(s);
  const double scale = (norm > radius ? 1 / norm : 1 / radius) / std::sqrt(2.0);
  std::vector<double> z(d + 1);
  for (int64_t j = 0; j < d; ++j) z[j] = x[j] * scale;
  z[d] = 1 / std::sqrt(2.0);
  return z;
}

LogisticProblem LrProblem(const BinaryData& data, const DataBounds& bounds, double lambda) {
  LogisticProblem p;
  p.m = data.d + 1;
  p.lambda = lambda > 0 ? lambda : 1.0 / static_cast<double>(data.n());
  p.x.reserve(data.n() * p.m);
  for (int64_t i = 0; i < data.n(); ++i) {
    const std::vector<double> z = LrFeatures(data.row(i), data.d, bounds.radius);
    p.x.insert(p.x.end(), z.begin(), z.end());
    p.sign.push_back(data.y[i] == 1 ? 1.0 : -1.0);
  }
  CompressRows(&p);  // one-hot data (Adult): ~15 of 109 entries per row
  return p;
}

ObjectiveBudget ObjectivePerturbationBudget(double eps, int64_t n, double lambda) {
  const double c = 0.25, nl = static_cast<double>(n) * lambda;
  ObjectiveBudget b;
  b.eps_prime = eps - std::log(1 + 2 * c / nl + c * c / (nl * nl));
  if (b.eps_prime <= 0) {
    b.delta_reg = c / (static_cast<double>(n) * (std::exp(eps / 4) - 1)) - lambda;
    b.eps_prime = eps / 2;
  }
  return b;
}

// Every draw's stopping rule, one at a time or batched: gradient norm below
// this (logistic_regression.h).
constexpr double kDrawTolerance = 1e-8;

Result<LogisticFit> ObjectiveSolver::Solve(const std::vector<double>& b) const {
  return FitLogisticNear(p, b, start, h0, kDrawTolerance);
}

Status ObjectiveSolver::SolveMany(const double* b, int64_t k, double* out,
                                  std::vector<LogisticFit>* fits) const {
  if (out == nullptr) return Error("SolveMany: out must not be null");
  std::vector<LogisticFit> own;
  std::vector<LogisticFit>* f = fits != nullptr ? fits : &own;
  PB_RETURN_IF_ERROR(FitLogisticBatch(p, b, k, start, h0, kDrawTolerance, f));
  for (int64_t i = 0; i < k; ++i) std::copy((*f)[i].w.begin(), (*f)[i].w.end(), out + i * p.m);
  return Status::Ok();
}

Result<ObjectiveSolver> PrepareObjectiveSolver(const BinaryData& data, const DataBounds& bounds,
                                               double eps, double lambda, double noise_factor) {
  LogisticProblem p = LrProblem(data, bounds, lambda);
  const ObjectiveBudget budget = ObjectivePerturbationBudget(eps, data.n(), p.lambda);
  p.lambda += budget.delta_reg;
  return MakeObjectiveSolver(std::move(p), noise_factor * 2 / budget.eps_prime);
}

Result<ObjectiveSolver> MakeObjectiveSolver(LogisticProblem p, double noise_scale) {
  ObjectiveSolver s;
  s.p = std::move(p);
  PB_ASSIGN_OR_RETURN(LogisticFit start, FitLogistic(s.p, {}, {}));
  s.start = std::move(start.w);
  PB_ASSIGN_OR_RETURN(s.h0, Cholesky(LogisticHessian(s.p, s.start)));
  s.noise_scale = noise_scale;
  return s;
}

namespace {

class OutputSampler : public SummarySampler {
 public:
  OutputSampler(std::vector<double> w, double scale) : w_(std::move(w)), scale_(scale) {}
  int64_t dim() const override { return static_cast<int64_t>(w_.size()); }
  Status Draw(Rng& rng, double* out) override {
    DrawGammaNormVector(rng, dim(), scale_, out);
    for (int64_t j = 0; j < dim(); ++j) out[j] += w_[j];
    return Status::Ok();
  }

 private:
  std::vector<double> w_;
  double scale_;
};

class ObjectiveSampler : public SummarySampler {
 public:
  explicit ObjectiveSampler(ObjectiveSolver solver) : solver_(std::move(solver)), b_(solver_.p.m) {}
  int64_t dim() const override { return solver_.p.m; }
  Status Draw(Rng& rng, double* out) override {
    DrawGammaNormVector(rng, dim(), solver_.noise_scale, b_.data());
    PB_ASSIGN_OR_RETURN(LogisticFit fit, solver_.Solve(b_));
    for (int64_t j = 0; j < dim(); ++j) out[j] = fit.w[j];
    return Status::Ok();
  }

 protected:
  // The k noise vectors in Draw's order, then one batched solve.
  Status DrawManyChecked(Rng& rng, int64_t k, double* out) override {
    const int64_t m = dim();
    std::vector<double> b(k * m);
    for (int64_t i = 0; i < k; ++i) DrawGammaNormVector(rng, m, solver_.noise_scale, &b[i * m]);
    return solver_.SolveMany(b.data(), k, out);
  }

 private:
  ObjectiveSolver solver_;
  std::vector<double> b_;
};

class LrMechanism : public ClassicalMechanism {
 public:
  LrMechanism(MechanismOptions o, bool objective) : o_(std::move(o)), objective_(objective) {}
  std::string name() const override { return objective_ ? "lr_objective" : "lr_output"; }
  Adjacency adjacency() const override { return Adjacency::kReplaceOne; }
  std::string Describe() const override {
    return std::string(objective_ ? "objective perturbation (Chaudhuri et al. 2011 Alg. 2)"
                                  : "output perturbation (Chaudhuri et al. 2011 Alg. 1)") +
           ", eps = " + FormatDouble(o_.eps) +
           ", lambda = " + (o_.lambda > 0 ? FormatDouble(o_.lambda) : std::string("1/n")) +
           ", noise_factor = " + FormatDouble(o_.noise_factor) +
           ", rows mapped to [x/R, 1]/sqrt(2), adjacency replace_one";
  }
  Result<std::unique_ptr<SummarySampler>> Prepare(
      const BinaryData& data, const DataBounds& bounds,
      const std::vector<double>& target_x) const override {
    LogisticProblem p = LrProblem(data, bounds, o_.lambda);
    const int64_t n = data.n();
    if (!objective_) {
      PB_ASSIGN_OR_RETURN(LogisticFit fit, FitLogistic(p, {}, {}));
      const double scale = o_.noise_factor * 2 / (static_cast<double>(n) * p.lambda * o_.eps);
      return std::unique_ptr<SummarySampler>(new OutputSampler(fit.w, scale));
    }
    PB_ASSIGN_OR_RETURN(ObjectiveSolver solver,
                        PrepareObjectiveSolver(data, bounds, o_.eps, o_.lambda, o_.noise_factor));
    return MakeObjectiveSampler(std::move(solver));
  }

 private:
  MechanismOptions o_;
  bool objective_;
};

}  // namespace

std::unique_ptr<SummarySampler> MakeObjectiveSampler(ObjectiveSolver solver) {
  return std::make_unique<ObjectiveSampler>(std::move(solver));
}

std::unique_ptr<ClassicalMechanism> MakeLrOutput(const MechanismOptions& options) {
  return std::make_unique<LrMechanism>(options, false);
}
std::unique_ptr<ClassicalMechanism> MakeLrObjective(const MechanismOptions& options) {
  return std::make_unique<LrMechanism>(options, true);
}

}  // namespace privbench
