#include "mechanisms/classical/lr_objective_diffprivlib.h"

#include <cmath>

#include "core/format.h"
#include "mechanisms/classical/logistic_regression.h"
#include "numerics/logistic.h"

namespace privbench {

DiffprivlibCalibration Diffprivlib05Calibration(double eps, double radius, double alpha) {
  const double c = 0.25;
  DiffprivlibCalibration k;
  k.data_norm = std::sqrt(radius * radius + 1);
  k.eps_prime = eps - 2 * std::log(1 + c * k.data_norm / (0.5 * alpha));
  if (k.eps_prime <= 0) {
    k.delta_reg = c * k.data_norm / std::expm1(eps / 4) - 0.5 * alpha;
    k.eps_prime = eps / 2;
  }
  k.noise_scale = 2 * k.data_norm / k.eps_prime;
  k.eps_theorem =
      k.eps_prime + 2 * std::log1p(c * k.data_norm * k.data_norm / (alpha + k.delta_reg));
  return k;
}

namespace {

// Rows clipped to ||x|| <= R with the intercept column 1 appended (no
// rescaling: the library's features).
LogisticProblem LibraryProblem(const BinaryData& data, double radius, double lambda) {
  LogisticProblem p;
  p.m = data.d + 1;
  p.lambda = lambda;
  p.x.reserve(data.n() * p.m);
  for (int64_t i = 0; i < data.n(); ++i) {
    const double* x = data.row(i);
    double s = 0;
    for (int64_t j = 0; j < data.d; ++j) s += x[j] * x[j];
    const double norm = std::sqrt(s), f = norm > radius ? radius / norm : 1.0;
    for (int64_t j = 0; j < data.d; ++j) p.x.push_back(x[j] * f);
    p.x.push_back(1.0);
    p.sign.push_back(data.y[i] == 1 ? 1.0 : -1.0);
  }
  CompressRows(&p);  // Adult: shift + ~9 nonzeros of 109 per row (logistic.h)
  return p;
}

class LrObjectiveDiffprivlib05 : public ClassicalMechanism {
 public:
  explicit LrObjectiveDiffprivlib05(MechanismOptions o) : o_(std::move(o)) {}
  std::string name() const override { return "lr_objective"; }
  Adjacency adjacency() const override { return Adjacency::kReplaceOne; }
  std::string Describe() const override {
    return "objective perturbation as diffprivlib 0.5.x (variant diffprivlib_0_5: eps' = eps - "
           "2 ln(1 + c R'/(alpha/2)), Delta = c R'/(exp(eps/4) - 1) - alpha/2, ||b|| ~ Gamma(m, "
           "2 R'/eps'), R' = sqrt(R^2 + 1), rows clipped to R with an intercept column 1; every "
           "coordinate penalised and the exact minimiser, unlike the library), eps = " +
           FormatDouble(o_.eps) +
           ", lambda = " + (o_.lambda > 0 ? FormatDouble(o_.lambda) : std::string("1/n")) +
           ", noise_factor = " + FormatDouble(o_.noise_factor) + ", adjacency replace_one";
  }
  Result<std::unique_ptr<SummarySampler>> Prepare(const BinaryData& data, const DataBounds& bounds,
                                                  const std::vector<double>&) const override {
    const double n = static_cast<double>(data.n());
    const double lambda = o_.lambda > 0 ? o_.lambda : 1 / n;
    const DiffprivlibCalibration k = Diffprivlib05Calibration(o_.eps, bounds.radius, n * lambda);
    // The library's objective divided by n: (1/n) sum loss + ((alpha + Delta)
    // / (2n))||w||^2 + b.w / n, solved exactly as the textbook variant is.
    PB_ASSIGN_OR_RETURN(
        ObjectiveSolver solver,
        MakeObjectiveSolver(LibraryProblem(data, bounds.radius, lambda + k.delta_reg / n),
                            o_.noise_factor * k.noise_scale));
    return MakeObjectiveSampler(std::move(solver));
  }

 private:
  MechanismOptions o_;
};

}  // namespace

std::unique_ptr<ClassicalMechanism> MakeLrObjectiveDiffprivlib05(const MechanismOptions& options) {
  return std::make_unique<LrObjectiveDiffprivlib05>(options);
}

}  // namespace privbench
