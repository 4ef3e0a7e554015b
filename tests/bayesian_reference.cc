#include "tests/bayesian_reference.h"

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

namespace privbench {

double ReferenceBayesianCdf(const ConfusionCounts& c, double delta, double eps) {
  if (std::isinf(eps)) return 1.0;
  // Outer variable u: the rate whose posterior mean is below 1/2 (mirroring
  // both rates if needed; R is invariant under (x, y) -> (1-x, 1-y) and
  // symmetric in x <-> y). u ~ Beta(au, bu), the inner rate v ~ Beta(av, bv).
  double au = 0.5 + c.fp, bu = 0.5 + c.tn, av = 0.5 + c.fn, bv = 0.5 + c.tp;
  if (au > bu) {
    if (av <= bv) {
      std::swap(au, av);
      std::swap(bu, bv);
    } else {
      std::swap(au, bu);
      std::swap(av, bv);
    }
  }
  const boost::math::beta_distribution<double> U(au, bu), V(av, bv);
  const double E = std::exp(eps), d = delta;
  // For fixed u, v ranges over [lo(u), hi(u)] (the region is symmetric, so
  // the same boundary formulas apply with the roles of the rates swapped).
  auto inner = [&](double u) {
    const double lo = std::max({0.0, 1.0 - d - E * u, (1.0 - d - u) / E});
    const double hi = std::min({1.0, E * (1.0 - u) + d, 1.0 - (u - d) / E});
    if (!(hi > lo)) return 0.0;
    const double p_hi = hi >= 1.0 ? 1.0 : boost::math::cdf(V, hi);
    const double p_lo = lo <= 0.0 ? 0.0 : boost::math::cdf(V, lo);
    if (p_hi - p_lo > 0.5) {  // the complement is the accurate side
      const double q_lo = lo <= 0.0 ? 1.0 : boost::math::cdf(boost::math::complement(V, lo));
      const double q_hi = hi >= 1.0 ? 0.0 : boost::math::cdf(boost::math::complement(V, hi));
      return q_lo - q_hi;
    }
    return p_hi - p_lo;
  };
  std::vector<double> cuts = {0.0, 1.0, d, (1.0 - d) / (1.0 + E), (E + d) / (1.0 + E), 1.0 - d};
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  boost::math::quadrature::tanh_sinh<double> ts(15);
  double total = 0.0;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const double a = cuts[i], b = cuts[i + 1];
    if (!(b > a)) continue;
    auto f = [&](double u) {
      if (!(u > 0.0 && u < 1.0)) return 0.0;
      const double pdf = boost::math::pdf(U, u);
      return std::isfinite(pdf) ? pdf * inner(u) : 0.0;
    };
    total += ts.integrate(f, a, b, 1e-13);
  }
  return std::min(1.0, std::max(0.0, total));
}

double ReferenceBayesianQuantile(const ConfusionCounts& c, double delta, double p) {
  auto f = [&](double e) { return ReferenceBayesianCdf(c, delta, e) - p; };
  const double f0 = f(0.0);
  if (f0 >= 0.0) return 0.0;
  double lo = 0.0, hi = 1.0, fhi = f(hi);
  while (fhi < 0.0) {
    lo = hi;
    hi *= 2.0;
    fhi = f(hi);
    if (hi > 700) return std::numeric_limits<double>::infinity();
  }
  std::uintmax_t iters = 300;
  auto tol = [](double a, double b) { return std::abs(b - a) <= 1e-12 * std::max(1.0, a); };
  const auto r = boost::math::tools::toms748_solve(f, lo, hi, tol, iters);
  return 0.5 * (r.first + r.second);
}

}  // namespace privbench
