// RDP accountant with the classic conversion (docs/studies.md, Accounting
// reference; that_which_we_call_private Table 1, "RDP").
//
// WHAT: eps = min over orders alpha of T rdp(alpha) + ln(1/delta)/(alpha - 1),
// rdp the RDP of the sampled Gaussian mechanism (Mironov, Talwar & Zhang
// 2019), converted by Mironov 2017, Prop. 3. The minimising order is
// reported. Computation: sampled_gaussian_rdp.h.
// ASSUMPTIONS: Poisson sampling at rate q, add/remove-one neighbours.
// With TableOneRdpOrders() it reproduces Table 1's RDP column to 0.5% for
// rows 1-4 (row 5's printed sigma 0.44 is rounded: it gives 105.9, not 100).
#include <memory>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"
#include "estimators/accountants/sampled_gaussian_rdp.h"

namespace privbench {

namespace {

class RdpAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "rdp"; }
  bool uses_orders() const override { return true; }
  std::string_view description() const override {
    return "RDP of the sampled Gaussian mechanism (Mironov, Talwar & Zhang 2019), classic "
           "conversion eps = T rdp + ln(1/delta)/(alpha-1) (Mironov 2017 Prop 3), min over orders";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    return SampledGaussianRdpEpsilon(s, RdpConversion::kClassic);
  }
};

}  // namespace

std::unique_ptr<Accountant> MakeRdpAccountant() { return std::make_unique<RdpAccountant>(); }

}  // namespace privbench
