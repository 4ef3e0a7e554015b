// MultiSplit and the bootstrap of membership-score metrics (resampling.h).
#include "estimators/score_audit/resampling.h"

#include <algorithm>
#include <atomic>
#include <boost/math/special_functions/erf.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "core/threads.h"
#include "core/validate.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/interval_registry.h"
#include "estimators/score_audit/one_run_scores.h"
#include "estimators/score_audit/score_audit.h"
#include "numerics/normal.h"

namespace privbench {

namespace {

double NormalQuantile(double p) { return -std::sqrt(2.0) * boost::math::erfc_inv(2.0 * p); }

// A metric's value, or an error naming where it was computed; a value that
// is not finite is refused (quantiles of infinities are not defined).
Result<double> Checked(Result<double> value, const std::string& where) {
  if (!value.ok()) return Error(where + ": " + value.message());
  if (!std::isfinite(*value)) return Error(where + ": not finite, got " + FormatDouble(*value));
  return value;
}

// n indices drawn uniformly from [0, size) (size >= 1) into out.
void Resample(const std::vector<double>& from, Rng& rng, std::vector<double>* out) {
  boost::random::uniform_int_distribution<size_t> pick(0, from.size() - 1);
  out->resize(from.size());
  for (double& x : *out) x = from[pick(rng)];
}

// Replicates [0, B), on `threads` threads taking replicates from a shared
// counter; the first failure by index wins.
Result<std::vector<double>> Replicates(const std::vector<double>& member,
                                       const std::vector<double>& nonmember,
                                       const ScoreMetric& metric, const BootstrapOptions& o) {
  const size_t B = static_cast<size_t>(o.num_samples);
  std::vector<double> values(B);
  std::vector<std::string> errors(B);
  std::atomic<size_t> next{0};
  RunOnThreads(o.threads - 1, [&] {
    std::vector<double> m, n;
    for (size_t b = next.fetch_add(1); b < B; b = next.fetch_add(1)) {
      Rng rng(DeriveSeed(o.seed, {4, b}));
      Resample(member, rng, &m);
      Resample(nonmember, rng, &n);
      Result<double> v = Checked(metric(m, n), "bootstrap replicate " + std::to_string(b));
      if (v.ok()) {
        values[b] = *v;
      } else {
        errors[b] = v.message();
      }
    }
  });
  for (const std::string& e : errors) {
    if (!e.empty()) return Error(e);
  }
  return values;
}

// The jackknife acceleration (resampling.h).
Result<double> JackknifeAcceleration(const std::vector<double>& member,
                                     const std::vector<double>& nonmember,
                                     const ScoreMetric& metric) {
  std::vector<double> theta;
  theta.reserve(member.size() + nonmember.size());
  for (int side = 0; side < 2; ++side) {
    const std::vector<double>& x = side == 0 ? member : nonmember;
    for (size_t i = 0; i < x.size(); ++i) {
      std::vector<double> rest = x;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      const std::string where = std::string("jackknife (") + (side == 0 ? "member" : "nonmember") +
                                "_scores[" + std::to_string(i) + "] left out)";
      PB_ASSIGN_OR_RETURN(
          double t, Checked(side == 0 ? metric(rest, nonmember) : metric(member, rest), where));
      theta.push_back(t);
    }
  }
  const double mean = Mean(theta);
  double num = 0.0, den = 0.0;
  for (double t : theta) {
    const double d = mean - t;
    num += d * d * d;
    den += d * d;
  }
  den = 6.0 * std::pow(den, 1.5);
  return den == 0.0 ? 0.0 : num / den;
}

Status CheckBootstrapOptions(const std::vector<double>& member,
                             const std::vector<double>& nonmember, const BootstrapOptions& o) {
  if (o.num_samples < 1 || o.num_samples > kMaxBootstrapSamples) {
    return Error("num_samples must be in [1, " + std::to_string(kMaxBootstrapSamples) + "], got " +
                 std::to_string(o.num_samples));
  }
  if (o.quantiles.empty()) return Error("quantiles must be non-empty");
  for (size_t i = 0; i < o.quantiles.size(); ++i) {
    if (!(o.quantiles[i] > 0.0 && o.quantiles[i] < 1.0)) {
      return Error("quantiles[" + std::to_string(i) + "] must be in (0, 1), got " +
                   FormatDouble(o.quantiles[i]));
    }
  }
  if (o.threads < 1 || o.threads > 1024) {
    return Error("threads must be in [1, 1024], got " + std::to_string(o.threads));
  }
  if (o.acceleration && !o.bias_correction) {
    return Error("acceleration needs bias_correction (BCa corrects both)");
  }
  const size_t n = member.size() + nonmember.size();
  if (o.acceleration && n > static_cast<size_t>(kMaxJackknifeScores)) {
    return Error("acceleration (a jackknife over every score) is limited to " +
                 std::to_string(kMaxJackknifeScores) + " scores, got " + std::to_string(n));
  }
  return Status::Ok();
}

// The level BC(a) reads the replicates at for the requested level u.
double CorrectedLevel(double u, double z0, double a) {
  const double num = z0 + NormalQuantile(u);
  const double den = 1.0 - a * num;
  if (den <= 0.0) return num > 0.0 ? 1.0 : 0.0;  // the formula's limit
  return NormalCdf(z0 + num / den);
}

}  // namespace

Result<SplitBound> SplitBoundByName(const std::string& bound,
                                    const std::vector<double>& member_scores,
                                    const std::vector<double>& nonmember_scores, double delta) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  const std::vector<double>& m = member_scores;
  const std::vector<double>& n = nonmember_scores;
  if (Result<OneRunMethod> method = ParseOneRunMethod(bound); method.ok()) {
    OneRunScoreOptions o;
    o.method = *method;
    o.delta = delta;
    return SplitBound([&m, &n, o](uint64_t seed, double level) {
      return OneRunSplitBound(m, n, o, seed, level);
    });
  }
  if (bound == "gaussian_dp") {
    return SplitBound([&m, &n, delta](uint64_t seed, double level) -> Result<double> {
      PB_ASSIGN_OR_RETURN(ScoreHalves h, SplitScoreHalves(m, n, seed));
      PB_ASSIGN_OR_RETURN(GaussianDpBound g, GaussianDpSplit(h, delta, level));
      return g.mu_lower;
    });
  }
  Result<std::unique_ptr<IntervalEstimator>> made = MakeIntervalEstimator(bound, "bound");
  if (!made.ok()) {
    return Error(made.message() + " (or one_run, one_run_fdp, one_run_gaussian_dp, gaussian_dp)");
  }
  std::shared_ptr<IntervalEstimator> method = std::move(made).value();
  return SplitBound([&m, &n, delta, method](uint64_t seed, double level) -> Result<double> {
    PB_ASSIGN_OR_RETURN(ScoreHalves h, SplitScoreHalves(m, n, seed));
    PB_ASSIGN_OR_RETURN(AuditInterval i, SelectSplit(*method, h, delta, level));
    return i.lower;
  });
}

Result<NamedMultiSplit> MultiSplitByName(const std::string& bound,
                                         const std::vector<double>& member_scores,
                                         const std::vector<double>& nonmember_scores, double delta,
                                         const MultiSplitOptions& options) {
  PB_ASSIGN_OR_RETURN(SplitBound split,
                      SplitBoundByName(bound, member_scores, nonmember_scores, delta));
  NamedMultiSplit out;
  PB_ASSIGN_OR_RETURN(out.result, MultiSplit(split, options));
  out.bounds_mu = bound == "gaussian_dp" || bound == "one_run_gaussian_dp";
  const double median = out.result.bound;
  if (!out.bounds_mu) {
    out.eps_lower = median;
  } else if (delta > 0.0) {
    if (median == 0.0) {
      out.eps_lower = 0.0;
    } else {
      PB_ASSIGN_OR_RETURN(out.eps_lower, GaussianDpEpsilon(median, delta));
    }
  }
  return out;
}

Result<BootstrapResult> Bootstrap(const std::vector<double>& member_scores,
                                  const std::vector<double>& nonmember_scores,
                                  const ScoreMetric& metric, const BootstrapOptions& options) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("nonmember_scores", nonmember_scores));
  PB_RETURN_IF_ERROR(CheckBootstrapOptions(member_scores, nonmember_scores, options));
  BootstrapResult out;
  PB_ASSIGN_OR_RETURN(out.estimate,
                      Checked(metric(member_scores, nonmember_scores), "the metric on the scores"));
  PB_ASSIGN_OR_RETURN(out.replicates, Replicates(member_scores, nonmember_scores, metric, options));
  out.quantiles = options.quantiles;
  if (options.bias_correction) {
    const double below = static_cast<double>(std::count_if(
        out.replicates.begin(), out.replicates.end(), [&](double v) { return v < out.estimate; }));
    out.z0 = NormalQuantile((below + 1.0) / (static_cast<double>(options.num_samples) + 2.0));
  }
  if (options.acceleration) {
    PB_ASSIGN_OR_RETURN(out.acceleration,
                        JackknifeAcceleration(member_scores, nonmember_scores, metric));
  }
  for (double u : options.quantiles) {
    const double level = options.bias_correction ? CorrectedLevel(u, out.z0, out.acceleration) : u;
    out.levels.push_back(level);
    out.values.push_back(Quantile(out.replicates, level));
  }
  return out;
}

std::vector<double> ConfidenceQuantiles(double confidence) {
  return {(1.0 - confidence) / 2.0, 1.0 - (1.0 - confidence) / 2.0};
}

}  // namespace privbench
