#include "estimators/accountants/advanced.h"

#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <limits>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"
#include "estimators/accountants/gaussian_step.h"

namespace privbench {

namespace {

// ln(1 + e^x) without overflow.
double Softplus(double x) {
  return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

constexpr double kMinLogOdds = -745.0;
constexpr double kMaxLogOdds = 40.0;

}  // namespace

AdvancedCompositionBound AdvancedCompositionAtSplit(double sigma, double q, int64_t steps,
                                                    double delta, double u) {
  const double t = static_cast<double>(steps);
  AdvancedCompositionBound b;
  // f = 1/(1 + e^-u), 1 - f = 1/(1 + e^u).
  b.log_delta_prime = std::log(delta) - Softplus(-u);
  b.log_step_delta = std::log(delta) - Softplus(u) - std::log(t * q);
  b.delta_prime_fraction = std::exp(-Softplus(-u));
  b.step_epsilon =
      AmplifyBySampling(GaussianMechanismEpsilonFromLogDelta(sigma, b.log_step_delta), q);
  const double e = b.step_epsilon;
  const double first = std::sqrt(-2.0 * t * b.log_delta_prime) * e;
  const double second = e == 0.0 ? 0.0 : t * e * std::expm1(e);  // may be +inf
  b.epsilon = first + second;
  return b;
}

AdvancedCompositionBound AdvancedCompositionEpsilon(double sigma, double q, int64_t steps,
                                                    double delta) {
  auto eps_at = [&](double u) {
    return AdvancedCompositionAtSplit(sigma, q, steps, delta, u).epsilon;
  };
  // Coarse grid on the log-odds, then Brent around the best grid point.
  double best_u = 0.0;
  double best = std::numeric_limits<double>::infinity();
  for (double u = kMinLogOdds; u <= kMaxLogOdds; u += 1.0) {
    const double e = eps_at(u);
    if (e < best) best = e, best_u = u;
  }
  if (std::isinf(best)) return AdvancedCompositionAtSplit(sigma, q, steps, delta, 0.0);
  const auto [u_opt, e_opt] = boost::math::tools::brent_find_minima(
      eps_at, std::max(kMinLogOdds, best_u - 1.0), std::min(kMaxLogOdds, best_u + 1.0),
      std::numeric_limits<double>::digits / 2);
  return AdvancedCompositionAtSplit(sigma, q, steps, delta, e_opt <= best ? u_opt : best_u);
}

namespace {

class AdvancedAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "advanced"; }
  std::string_view description() const override {
    return "advanced composition sqrt(2T ln(1/delta'))eps_s + T eps_s(e^eps_s-1) of sampled "
           "Gaussian steps, delta split optimised (Dwork, Rothblum & Vadhan 2010 Thm III.3)";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    return AccountantResult{AdvancedCompositionEpsilon(s.sigma, s.q, s.steps, s.delta).epsilon, {}};
  }
};

}  // namespace

std::unique_ptr<Accountant> MakeAdvancedAccountant() {
  return std::make_unique<AdvancedAccountant>();
}

}  // namespace privbench
