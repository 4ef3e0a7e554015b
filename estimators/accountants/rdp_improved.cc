// RDP accountant with the improved conversion (docs/studies.md, Accounting
// reference).
//
// WHAT: eps = min over orders alpha of
//   T rdp(alpha) + ln(1 - 1/alpha) - (ln delta + ln alpha)/(alpha - 1)
// (Canonne, Kamath & Steinke 2020, Prop. 12; Balle et al. 2020, Thm 21),
// clamped at 0, with rdp the RDP of the sampled Gaussian mechanism
// (sampled_gaussian_rdp.h). At every order it is below the classic
// conversion by ln(alpha)/(alpha - 1) - ln(1 - 1/alpha) > 0, so it is never
// worse than the `rdp` accountant on the same orders.
// ASSUMPTIONS: Poisson sampling at rate q, add/remove-one neighbours.
#include <memory>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"
#include "estimators/accountants/sampled_gaussian_rdp.h"

namespace privbench {

namespace {

class RdpImprovedAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "rdp_improved"; }
  bool uses_orders() const override { return true; }
  std::string_view description() const override {
    return "RDP of the sampled Gaussian mechanism (Mironov, Talwar & Zhang 2019), improved "
           "conversion eps = T rdp + ln(1-1/alpha) - (ln delta + ln alpha)/(alpha-1) "
           "(Canonne, Kamath & Steinke 2020 Prop 12; Balle et al. 2020 Thm 21)";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    return SampledGaussianRdpEpsilon(s, RdpConversion::kImproved);
  }
};

}  // namespace

std::unique_ptr<Accountant> MakeRdpImprovedAccountant() {
  return std::make_unique<RdpImprovedAccountant>();
}

}  // namespace privbench
