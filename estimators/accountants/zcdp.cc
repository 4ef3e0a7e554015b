#include "estimators/accountants/zcdp.h"

#include <cmath>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"

namespace privbench {

double JayaramanEvansZcdpRho(double sigma, double q, int64_t steps) {
  const double epochs = static_cast<double>(steps) * q;
  return epochs / (2.0 * sigma * sigma);
}

double ZcdpToEpsilon(double rho, double delta) {
  return rho + 2.0 * std::sqrt(rho * -std::log(delta));
}

namespace {

class ZcdpAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "zcdp"; }
  std::string_view description() const override {
    return "zCDP as Jayaraman & Evans 2019: rho = T q/(2 sigma^2) (no sampling amplification), "
           "eps = rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016 Prop 1.3, 1.6, Lemma 1.7)";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    return AccountantResult{ZcdpToEpsilon(JayaramanEvansZcdpRho(s.sigma, s.q, s.steps), s.delta),
                            {}};
  }
};

}  // namespace

std::unique_ptr<Accountant> MakeZcdpAccountant() { return std::make_unique<ZcdpAccountant>(); }

}  // namespace privbench
