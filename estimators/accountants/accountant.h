// Privacy accountants for DP-SGD: upper bounds on eps for T steps of the
// sampled Gaussian mechanism (experiments/published_examples/README.md, B8, and docs/studies.md
// "Accounting reference").
//
// WHAT: eps such that T steps of DP-SGD are (eps, delta)-DP, where each step
// adds N(0, sigma^2 C^2) noise to a sum of gradients clipped to norm C and
// each example is included independently with probability q (Poisson
// sampling). Every accountant here assumes Poisson sampling; Jayaraman &
// Evans' own code uses shuffled passes (docs/studies.md, Accounting
// reference).
//
// One registered accountant is NOT an upper bound: last_iterate_heuristic
// (last_iterate_heuristic.h) is the exact eps of the last iterate for linear
// losses only, a heuristic prediction (Steinke et al., ICLR 2025).
//
// HOW: one subclass per accountant (naive, advanced, zcdp, rdp,
// rdp_improved; see their headers for the theorems used) behind the
// public-validates / protected-computes split of estimators/interval_
// estimator.h. Epsilon() validates the setting with messages naming the
// argument, calls EpsilonImpl(), turns third-party exceptions into Error
// and refuses NaN or negative answers. eps may be +inf when a bound exceeds
// the double range (advanced composition at tiny sigma); it is never NaN.
//
// To add an accountant: write estimators/accountants/<name>.cc with a
// subclass and a factory `std::unique_ptr<Accountant> Make<Name>Accountant()`,
// declare the factory in estimators/accountants/factories.h, add its row
// {"<name>", &Make<Name>Accountant} to the table in accountant_registry.cc,
// and one line "<name>": [its deps] to ACCOUNTANTS in the BUILD file; the
// conformance test picks it up.
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ACCOUNTANT_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ACCOUNTANT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace privbench {

// The DP-SGD setting being accounted. (The member defaults only avoid
// indeterminate values; set every field.)
struct DpSgdAccounting {
  double sigma = 1.0;          // noise multiplier (noise std = sigma * clip norm)
  double q = 0.01;             // Poisson sampling rate in (0, 1]
  int64_t steps = 1;           // number of steps T >= 1
  double delta = 1e-5;         // target delta in (0, 1)
  std::vector<double> orders;  // RDP orders, all > 1; empty = DefaultRdpOrders()
  // Loss-grid interval of the `pld` accountant (pld.h), in (0, 1]; 0 = its
  // default 1e-4. The other accountants ignore it.
  double discretization = 0.0;

  // "sigma=1 q=0.02 steps=5000 delta=1e-05" (orders omitted).
  std::string ToString() const;
};

struct AccountantResult {
  double epsilon = 0.0;         // >= 0; +inf if the bound exceeds the double range
  std::optional<double> order;  // the minimising RDP order (RDP methods only)
};

class Accountant {
 public:
  virtual ~Accountant() = default;

  // Registry name, e.g. "rdp".
  virtual std::string_view name() const = 0;
  // One line: the bound and the paper/theorem it comes from.
  virtual std::string_view description() const = 0;
  // Whether DpSgdAccounting::orders means anything to this accountant (the
  // RDP accountants); the others ignore it.
  virtual bool uses_orders() const { return false; }

  // Validates sigma (finite, > 0), q in (0, 1], steps >= 1, delta in (0, 1),
  // every order finite and > 1, discretization 0 or in (0, 1] (messages
  // name the argument), then calls
  // EpsilonImpl(). Exceptions become Error; NaN or negative eps is reported
  // as an internal error.
  Result<AccountantResult> Epsilon(const DpSgdAccounting& setting) const;

 protected:
  // Called with a validated setting.
  virtual Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& setting) const = 0;
};

// For requests from users (CLI, Python): orders given explicitly must be a
// non-empty list (an empty one silently meant the default) and the
// accountant must use them (naive, advanced, zcdp and pld ignored them).
// Errors name orders.
Status CheckRequestedOrders(const Accountant& acc, const std::vector<double>& orders);

// Validation used by Accountant::Epsilon (exposed for callers that build
// settings from flags): sigma, q, steps, delta and orders as documented above.
Status ValidateDpSgdAccounting(const DpSgdAccounting& setting);

// The noise range CalibrateSigma searches.
inline constexpr double kMinCalibratedSigma = 1e-3;
inline constexpr double kMaxCalibratedSigma = 1e4;

// The largest target CalibrateSigma accepts (its work bound).
inline constexpr double kMaxCalibratedEpsilon = 1e4;

// The finest pld `discretization` CalibrateSigma accepts (its work bound:
// calibration evaluates the accountant 10-20 times, ~0.2-0.5 s each at the
// default 1e-4, seconds each below it).
inline constexpr double kMinCalibratedDiscretization = 1e-4;

// sigma in [kMinCalibratedSigma, kMaxCalibratedSigma] with
// acc.Epsilon(setting with that sigma).epsilon == target_epsilon
// (setting.sigma is ignored). Every accountant's eps is nonincreasing in
// sigma, so the root is bracketed by a geometric search from sigma = 1 and
// refined by Boost's TOMS 748 on ln(eps) against ln(sigma) to 1e-12 relative
// in sigma. Where eps is continuous it then matches the target to ~1e-11
// relative (the midpoint of the final bracket is returned). Where eps jumps
// across the target inside that bracket (pld's grid moves eps in steps of
// ~1e-7 relative), the bracket's upper end is returned: its eps is at most
// the target, which is all the accountant can deliver there. Only a solver
// that did not converge is an internal error. target_epsilon above
// kMaxCalibratedEpsilon, or a discretization below
// kMinCalibratedDiscretization, is refused (work bounds). Errors name
// target_epsilon when it is not finite and > 0 or cannot be reached within
// the sigma range (too small: eps at sigma = 1e4 is larger; too large: eps
// at sigma = 1e-3 is smaller; the message names the search from sigma = 1
// and the eps at the range's end, and the setting without sigma), and
// propagate validation errors of the other fields.
Result<double> CalibrateSigma(const Accountant& acc, double target_epsilon,
                              const DpSgdAccounting& setting);

// The default RDP orders: a superset of TableOneRdpOrders() (so the default
// is never worse, since eps is a minimum over orders), extended where the
// Table 1 list is known to be too coarse or too narrow (the reasons
// below):
//  - below 1.25: 1.01, 1.02, 1.03, 1.05, 1.075, 1.1, 1.125, 1.15, 1.175,
//    1.2, 1.225 (a smallest order of 1.25 inflates large eps, which need
//    orders near 1), and between 1.25 and 5 a step of 0.05-0.25;
//  - above 63: geometric steps of ratio 2^(1/4) up to 16384 (a list that
//    stops at 63 floors eps at ln(1/delta)/62 ~ 0.19 at delta = 1e-5, one
//    that stops at 512 at ~0.023; 16384 floors it at ~7e-4).
// Sorted ascending, no duplicates.
std::vector<double> DefaultRdpOrders();

// Exactly the order list of docs/studies.md's Accounting reference (TF Privacy's
// classic default): 1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5,
// 5, 6, ..., 63, 128, 256, 512.
std::vector<double> TableOneRdpOrders();

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ACCOUNTANT_H_
