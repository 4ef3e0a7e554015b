#include "estimators/accountants/naive.h"

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"
#include "estimators/accountants/gaussian_step.h"

namespace privbench {

double NaiveCompositionEpsilon(double sigma, double q, int64_t steps, double delta) {
  const double t = static_cast<double>(steps);
  return t * SampledGaussianStepEpsilon(sigma, q, delta / (t * q));
}

namespace {

class NaiveAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "naive"; }
  std::string_view description() const override {
    return "naive composition T*ln(1+q(e^eps0-1)), eps0 = sqrt(2 ln(1.25/delta0))/sigma, "
           "delta0 = delta/(T q) (Dwork & Roth 2014 Thm 3.16, Thm A.1; sampling amplification)";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    return AccountantResult{NaiveCompositionEpsilon(s.sigma, s.q, s.steps, s.delta), {}};
  }
};

}  // namespace

std::unique_ptr<Accountant> MakeNaiveAccountant() { return std::make_unique<NaiveAccountant>(); }

}  // namespace privbench
