#include "estimators/accountants/accountant.h"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "core/validate.h"

namespace privbench {

std::string DpSgdAccounting::ToString() const {
  return "sigma=" + FormatDouble(sigma) + " q=" + FormatDouble(q) +
         " steps=" + std::to_string(steps) + " delta=" + FormatDouble(delta);
}

Status CheckRequestedOrders(const Accountant& acc, const std::vector<double>& orders) {
  if (!acc.uses_orders()) {
    return Error("orders apply to the RDP accountants only; method " + std::string(acc.name()) +
                 " does not use them");
  }
  if (orders.empty()) {
    return Error("orders must be a non-empty list (omit it for the default orders)");
  }
  return Status::Ok();
}

Status ValidateDpSgdAccounting(const DpSgdAccounting& s) {
  PB_RETURN_IF_ERROR(CheckPositive("sigma", s.sigma));
  // The RDP terms hold 1/sigma^2, which overflows a double near 1e-154.
  if (s.sigma < 1e-100) {
    return Error("sigma must be >= 1e-100 (the accountants' numerics overflow below it), got " +
                 FormatDouble(s.sigma));
  }
  if (!(s.q > 0.0 && s.q <= 1.0)) {
    return Error("q must be in (0, 1], got " + FormatDouble(s.q));
  }
  PB_RETURN_IF_ERROR(CheckPositiveCount("steps", s.steps));
  if (!(s.delta > 0.0 && s.delta < 1.0)) {
    return Error("delta must be in (0, 1), got " + FormatDouble(s.delta));
  }
  if (!(s.discretization == 0.0 || (s.discretization > 0.0 && s.discretization <= 1.0))) {
    return Error("discretization must be in (0, 1] (0: the default), got " +
                 FormatDouble(s.discretization));
  }
  for (size_t k = 0; k < s.orders.size(); ++k) {
    const double a = s.orders[k];
    if (!(std::isfinite(a) && a > 1.0)) {
      return Error("orders[" + std::to_string(k) + "] must be finite and > 1, got " +
                   FormatDouble(a));
    }
  }
  return Status::Ok();
}

Result<AccountantResult> Accountant::Epsilon(const DpSgdAccounting& setting) const {
  PB_RETURN_IF_ERROR(ValidateDpSgdAccounting(setting));
  Result<AccountantResult> result = Error("");
  try {
    result = EpsilonImpl(setting);
  } catch (const std::exception& e) {
    // Boost.Math reports evaluation failures by exception; none may escape.
    return Error("internal error in " + std::string(name()) + " at " + setting.ToString() + ": " +
                 e.what());
  }
  PB_ASSIGN_OR_RETURN(AccountantResult r, std::move(result));
  if (std::isnan(r.epsilon) || r.epsilon < 0.0) {
    return Error("internal error in " + std::string(name()) + " at " + setting.ToString() +
                 ": epsilon " + FormatDouble(r.epsilon));
  }
  return r;
}

namespace {

// ln eps(sigma); +inf when eps is +inf, -inf when eps is 0.
Result<double> LogEpsAt(const Accountant& acc, DpSgdAccounting s, double sigma) {
  s.sigma = sigma;
  PB_ASSIGN_OR_RETURN(AccountantResult r, acc.Epsilon(s));
  return std::log(r.epsilon);
}

// g(x) = ln eps(e^x) - ln target, continuous and nonincreasing in x.
using LogGap = std::function<Result<double>(double)>;

// A bracket [a, b] in x = ln sigma with g(a) > 0 >= g(b).
struct Bracket {
  double a = 0, b = 0, ga = 0, gb = 0;
  std::string ToString(double log_target) const {
    return "sigma in [" + FormatDouble(std::exp(a)) + ", " + FormatDouble(std::exp(b)) + "] (eps " +
           FormatDouble(std::exp(ga + log_target)) + " to " +
           FormatDouble(std::exp(gb + log_target)) + ")";
  }
};

// Geometric bracketing from sigma = 1 in steps of a factor e (x += 1),
// clipped to [x_min, x_max]; `where` names the calibration in errors.
Result<Bracket> FindBracket(const LogGap& g, double log_target, const std::string& where) {
  const double x_min = std::log(kMinCalibratedSigma);
  const double x_max = std::log(kMaxCalibratedSigma);
  PB_ASSIGN_OR_RETURN(const double g0, g(0.0));
  // eps too large at sigma = 1: more noise (upwards); else less (downwards).
  const bool up = g0 > 0.0;
  double x = 0.0, gx = g0;
  for (;;) {
    const double next = up ? std::min(x + 1.0, x_max) : std::max(x - 1.0, x_min);
    PB_ASSIGN_OR_RETURN(const double gn, g(next));
    if (up ? gn <= 0.0 : gn > 0.0) {
      return up ? Bracket{x, next, gx, gn} : Bracket{next, x, gn, gx};
    }
    x = next, gx = gn;
    if (x == (up ? x_max : x_min)) break;
  }
  return Error(where + " cannot be reached with sigma in [" + FormatDouble(kMinCalibratedSigma) +
               ", " + FormatDouble(kMaxCalibratedSigma) + "]: searching from sigma=1 " +
               (up ? "up" : "down") + " by factors of e, eps at sigma=" +
               FormatDouble(up ? kMaxCalibratedSigma : kMinCalibratedSigma) +
               " (the end of that range) is " + FormatDouble(std::exp(gx + log_target)) +
               (up ? ", still above the target (target_epsilon too small)"
                   : ", still below the target (target_epsilon too large)"));
}

}  // namespace

Result<double> CalibrateSigma(const Accountant& acc, double target_epsilon,
                              const DpSgdAccounting& setting) {
  PB_RETURN_IF_ERROR(CheckPositive("target_epsilon", target_epsilon));
  if (target_epsilon > kMaxCalibratedEpsilon) {
    return Error("target_epsilon must be <= " + FormatDouble(kMaxCalibratedEpsilon) +
                 " (the calibration's work bound: larger targets need sigma below the "
                 "accountants' validated range), got " +
                 FormatDouble(target_epsilon));
  }
  DpSgdAccounting s = setting;
  s.sigma = 1.0;  // validates the other fields; sigma is what is searched
  PB_RETURN_IF_ERROR(ValidateDpSgdAccounting(s));
  if (s.discretization > 0.0 && s.discretization < kMinCalibratedDiscretization) {
    return Error("discretization must be >= " + FormatDouble(kMinCalibratedDiscretization) +
                 " for calibration (its work bound: each of its 10-20 evaluations composes a "
                 "grid of up to 2^21 points), got " +
                 FormatDouble(s.discretization));
  }
  const double log_target = std::log(target_epsilon);
  const LogGap g = [&](double x) -> Result<double> {
    PB_ASSIGN_OR_RETURN(double le, LogEpsAt(acc, s, std::exp(x)));
    return le - log_target;
  };
  // The setting without the sigma being searched (s.sigma is a placeholder).
  const std::string where = "target_epsilon=" + FormatDouble(target_epsilon) + " for " +
                            std::string(acc.name()) + " at q=" + FormatDouble(s.q) +
                            " steps=" + std::to_string(s.steps) + " delta=" + FormatDouble(s.delta);
  PB_ASSIGN_OR_RETURN(Bracket br, FindBracket(g, log_target, where));
  if (br.gb == 0.0) return std::exp(br.b);
  // eps may be +inf at the small-sigma end of the bracket (advanced
  // composition) or 0 at the large-sigma end (a bound clamped at 0): bisect
  // until both ends are finite for TOMS 748's interpolation.
  // A bracket narrowed to the solver's tolerance with eps still 0 at its
  // upper end has eps jumping from above the target to 0 inside it: the
  // upper end is the conservative answer (as below), and further bisection
  // (each step a full accountant evaluation) cannot help.
  const double kBracketTol = 1e-12;
  for (int k = 0; k < 200 && (std::isinf(br.ga) || std::isinf(br.gb)); ++k) {
    if (br.b - br.a <= kBracketTol && br.gb < 0.0) return std::exp(br.b);
    const double m = 0.5 * (br.a + br.b);
    PB_ASSIGN_OR_RETURN(double gm, g(m));
    if (gm == 0.0) return std::exp(m);
    if (gm > 0.0) {
      br.a = m, br.ga = gm;
    } else {
      br.b = m, br.gb = gm;
    }
  }
  if (std::isinf(br.ga) || std::isinf(br.gb)) {
    return Error("internal error calibrating " + where + ": eps is still 0 or infinite at " +
                 br.ToString(log_target) + " after 200 bisections");
  }

  // TOMS 748 on the bracket; Result errors inside the functor are carried out.
  Status inner_error;
  auto f = [&](double x) -> double {
    Result<double> r = g(x);
    if (!r.ok()) {
      if (inner_error.ok()) inner_error = r.status();
      return 0.0;  // terminates the solver; the error is returned below
    }
    return *r;
  };
  const double kRelTol = 1e-12;
  auto tol = [&](double lo, double hi) { return std::abs(hi - lo) <= kRelTol; };
  std::uintmax_t max_iter = 200;
  std::pair<double, double> root;
  try {
    root = boost::math::tools::toms748_solve(f, br.a, br.b, br.ga, br.gb, tol, max_iter);
  } catch (const std::exception& e) {
    return Error("calibrating " + where + " failed in the bracket " + br.ToString(log_target) +
                 ": " + e.what());
  }
  PB_RETURN_IF_ERROR(inner_error);
  const double sigma = std::exp(0.5 * (root.first + root.second));
  // Check the answer: eps(sigma) must match the target.
  PB_ASSIGN_OR_RETURN(double g_final, g(std::log(sigma)));
  if (std::abs(g_final) <= 1e-7) return sigma;
  // A bracket narrowed to the tolerance whose midpoint still misses: eps
  // jumps across the target inside it (pld's eps moves in steps as the grid
  // reassigns mass), so the target is met to the accountant's own accuracy.
  // The bracket's upper end is the conservative answer: its eps is at or
  // below the target.
  if (tol(root.first, root.second)) {
    PB_ASSIGN_OR_RETURN(const double g_upper, g(root.second));
    if (g_upper <= 0.0) return std::exp(root.second);
  }
  {
    return Error("internal error calibrating " + where + ": eps(sigma=" + FormatDouble(sigma) +
                 ") misses the target by " + FormatDouble(g_final) + " in ln eps after " +
                 std::to_string(max_iter) + " iterations in the bracket " +
                 br.ToString(log_target));
  }
  return sigma;
}

std::vector<double> TableOneRdpOrders() {
  std::vector<double> orders = {1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5};
  for (int a = 5; a <= 63; ++a) orders.push_back(a);
  for (double a : {128.0, 256.0, 512.0}) orders.push_back(a);
  return orders;
}

std::vector<double> DefaultRdpOrders() {
  std::vector<double> orders = {1.01, 1.02, 1.03, 1.05, 1.075, 1.1, 1.125, 1.15, 1.175, 1.2,  1.225,
                                1.3,  1.35, 1.4,  1.45, 1.6,   1.7, 1.8,   1.9,  2.75,  3.25, 3.75};
  for (int k = 0; k <= 32; ++k) {  // 64 * 2^(k/4): 64, 76, 91, 108, 128, ..., 16384
    orders.push_back(std::round(64.0 * std::exp2(k / 4.0)));
  }
  for (double a : TableOneRdpOrders()) orders.push_back(a);
  std::sort(orders.begin(), orders.end());
  orders.erase(std::unique(orders.begin(), orders.end()), orders.end());
  return orders;
}

}  // namespace privbench
