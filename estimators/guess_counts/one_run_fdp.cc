// One-run f-DP auditing (one_run_fdp.h).
#include "estimators/guess_counts/one_run_fdp.h"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <memory>
#include <string>

#include "core/format.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/guess_counts/factories.h"
#include "numerics/normal.h"

namespace privbench {

namespace {

// The recursion of one_run_fdp.h; inverse_blow_up is B^-1 on [0, 1].
template <class InverseBlowUp>
bool Rejects(const GuessCounts& c, double beta, const InverseBlowUp& inverse_blow_up) {
  const double m = static_cast<double>(c.m), guesses = static_cast<double>(c.r);
  const double target = guesses / m;
  double r = beta * static_cast<double>(c.v) / m;
  double h = beta * static_cast<double>(c.r - c.v) / m;
  for (int64_t i = c.v - 1; i >= 0; --i) {
    const double h_next = std::max(h, inverse_blow_up(r));
    if (h_next == h) break;  // a fixed point: nothing changes any more
    const double di = static_cast<double>(i);
    r = std::min(1.0, r + di / (guesses - di) * (h_next - h));
    h = h_next;
    if (r + h > target) return true;  // both only grow from here
  }
  return r + h > target;
}

// Phi^-1(y) for y in (0, 1).
double NormalQuantile(double y) { return -std::sqrt(2.0) * boost::math::erfc_inv(2.0 * y); }

// sup { x >= 0 : rejects(x) } for a claim family whose rejected set is an
// interval [0, x*) (0 when rejects(0) is false), by doubling then bisection
// to 1e-9. `cap` ends the doubling: no claim beyond it is rejected.
template <class RejectsAt>
Result<double> LargestRejected(const RejectsAt& rejects, double cap, const std::string& what) {
  if (!rejects(0.0)) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (rejects(hi)) {
    lo = hi;
    hi *= 2.0;
    if (hi > cap) return Error("internal error: " + what + " rejected beyond " + FormatDouble(cap));
  }
  while (hi - lo > 1e-9) {
    const double mid = 0.5 * (lo + hi);
    (rejects(mid) ? lo : hi) = mid;
  }
  return lo;  // rejected: every claim at or below lo is
}

Status CheckWorkBound(const GuessCounts& c) {
  if (c.v > kMaxFdpCorrectGuesses) {
    return Error("v must be <= " + std::to_string(kMaxFdpCorrectGuesses) +
                 " for the f-DP one-run audit (its work bound: O(v) per claim tested), got v=" +
                 std::to_string(c.v));
  }
  return Status::Ok();
}

class OneRunFdpEstimator final : public GuessCountEstimator {
 public:
  std::string_view name() const override { return "one_run_fdp"; }
  std::string_view description() const override {
    return "one-run f-DP audit eps lower bound: sup eps with f_{eps,delta}-DP rejected by the "
           "trade-off recursion at significance beta (Mahloujifar, Melis & Chaudhuri, ICML 2025)";
  }

 protected:
  Result<double> LowerBoundImpl(const GuessCounts& c, double delta, double beta) const override {
    PB_RETURN_IF_ERROR(CheckWorkBound(c));
    // B^-1 vanishes for eps beyond ~745 (e^-eps underflows): nothing is rejected there.
    return LargestRejected(
        [&](double eps) { return OneRunRejectsApproximateDp(c, eps, delta, beta); }, 2048.0,
        "eps at " + c.ToString());
  }
};

}  // namespace

bool OneRunRejectsGaussianDp(const GuessCounts& c, double mu, double beta) {
  return Rejects(c, beta, [mu](double y) {
    if (y <= 0.0 || y >= 1.0) return y <= 0.0 ? 0.0 : 1.0;
    return NormalCdf(NormalQuantile(y) - mu);
  });
}

bool OneRunRejectsApproximateDp(const GuessCounts& c, double eps, double delta, double beta) {
  const double e = std::exp(eps), inv_e = std::exp(-eps);
  return Rejects(c, beta, [=](double y) {
    return std::max({0.0, (y - delta) * inv_e, 1.0 - delta - e * (1.0 - y)});
  });
}

Result<double> OneRunGaussianDpMuLowerBound(const GuessCounts& c, double beta) {
  PB_RETURN_IF_ERROR(ValidateGuessCounts(c, 0.0, beta));
  PB_RETURN_IF_ERROR(CheckWorkBound(c));
  // B^-1 underflows to 0 for mu beyond ~40 (and for y >= 1e-300 by mu ~ 80).
  return LargestRejected([&](double mu) { return OneRunRejectsGaussianDp(c, mu, beta); }, 1024.0,
                         "mu at " + c.ToString());
}

Result<double> OneRunGaussianDpEpsilonLowerBound(const GuessCounts& c, double delta, double beta) {
  if (!(delta > 0.0 && delta < 1.0)) {
    return Error("delta must be in (0, 1), got " + FormatDouble(delta));
  }
  PB_ASSIGN_OR_RETURN(double mu, OneRunGaussianDpMuLowerBound(c, beta));
  if (mu == 0.0) return 0.0;
  return GaussianDpEpsilon(mu, delta);
}

std::unique_ptr<GuessCountEstimator> MakeOneRunFdpEstimator() {
  return std::make_unique<OneRunFdpEstimator>();
}

}  // namespace privbench
