// The zcdp_optimal accountant: Jayaraman & Evans' rho (zcdp.h) converted to
// (eps, delta) by the optimal conversion of Canonne, Kamath & Steinke 2020
// (CdpEpsilon, zcdp.h) instead of Bun & Steinke's rho + 2 sqrt(rho ln(1/delta)).
// Same model, same assumptions (no amplification by sampling); never above
// the zcdp accountant.
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"
#include "estimators/accountants/zcdp.h"

namespace privbench {
namespace {

class ZcdpOptimalAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "zcdp_optimal"; }
  std::string_view description() const override {
    return "zCDP as Jayaraman & Evans 2019 (rho = T q/(2 sigma^2), no sampling amplification), "
           "converted optimally: eps = min eps with inf_{a>1} e^{(a-1)(a rho-eps)} (1-1/a)^(a-1)/a "
           "<= delta (Canonne, Kamath & Steinke 2020)";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    PB_ASSIGN_OR_RETURN(double eps,
                        CdpEpsilon(JayaramanEvansZcdpRho(s.sigma, s.q, s.steps), s.delta));
    return AccountantResult{eps, {}};
  }
};

}  // namespace

std::unique_ptr<Accountant> MakeZcdpOptimalAccountant() {
  return std::make_unique<ZcdpOptimalAccountant>();
}

}  // namespace privbench
