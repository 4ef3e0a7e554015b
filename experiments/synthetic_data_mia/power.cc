#include "experiments/synthetic_data_mia/power.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/laplace_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "estimators/accountants/gaussian_dp.h"
#include "estimators/interval_registry.h"
#include "estimators/score_audit/score_audit.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// P(L >= z) for L ~ Laplace(0, b).
double LaplaceSurvival(double z, double b) {
  return z >= 0 ? 0.5 * std::exp(-z / b) : 1.0 - 0.5 * std::exp(z / b);
}

// P(N(0, 1) >= z).
double NormalSurvival(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

// The pmf of Binomial(n, p) at 0..n (0 far in the tails).
std::vector<double> BinomialPmf(int64_t n, double p) {
  std::vector<double> pmf(static_cast<size_t>(n + 1), 0.0);
  const boost::math::binomial_distribution<double> d(static_cast<double>(n), p);
  const double mean = static_cast<double>(n) * p, sd = std::sqrt(mean * (1 - p));
  const int64_t lo = std::max<int64_t>(0, static_cast<int64_t>(std::floor(mean - 12 * sd)) - 2);
  const int64_t hi = std::min<int64_t>(n, static_cast<int64_t>(std::ceil(mean + 12 * sd)) + 2);
  for (int64_t k = lo; k <= hi; ++k) {
    pmf[static_cast<size_t>(k)] = boost::math::pdf(d, static_cast<double>(k));
  }
  return pmf;
}

// Cumulative sums of a pmf: cdf[k] = P(X <= k).
std::vector<double> Cumulative(const std::vector<double>& pmf) {
  std::vector<double> cdf(pmf.size());
  double s = 0;
  for (size_t k = 0; k < pmf.size(); ++k) cdf[k] = s = std::min(1.0, s + pmf[k]);
  return cdf;
}

const IntervalEstimator& OneSidedClopperPearson() {
  static const std::unique_ptr<IntervalEstimator> method =
      std::move(MakeIntervalEstimator("clopper_pearson_one_sided").value());
  return *method;
}

ConfusionCounts Counts(int64_t m_in, int64_t m_out, int64_t fp, int64_t fn) {
  ConfusionCounts c;
  c.tp = m_in - fn;
  c.fn = fn;
  c.fp = fp;
  c.tn = m_out - fp;
  return c;
}

Result<bool> Flagged(const AuditJudge& j, int64_t m_in, int64_t m_out, int64_t fp, int64_t fn) {
  PB_ASSIGN_OR_RETURN(const double bound, JudgeAtCounts(j, Counts(m_in, m_out, fp, fn)));
  return bound > j.epsilon;
}

// The split's threshold chosen on one selection half drawn from the law.
Result<double> SelectedThreshold(const ScoreLaw& law, const AuditJudge& j, int64_t m_sel,
                                 Rng& rng) {
  ScoreHalves h;
  for (int64_t i = 0; i < m_sel; ++i) h.select_member.push_back(DrawScore(law, true, rng));
  for (int64_t i = 0; i < m_sel; ++i) h.select_nonmember.push_back(DrawScore(law, false, rng));
  h.audit_member = {0.0};  // unused: the audit half is exact
  h.audit_nonmember = {0.0};
  if (j.gaussian_dp) {
    PB_ASSIGN_OR_RETURN(const GaussianDpBound b, GaussianDpSplit(h, j.delta, j.alpha));
    return b.threshold;
  }
  PB_ASSIGN_OR_RETURN(const AuditInterval i,
                      SelectSplit(OneSidedClopperPearson(), h, j.delta, j.alpha));
  return i.threshold;
}

// Phi^-1 of a one-sided Clopper-Pearson upper limit (+inf at 1).
double Probit(double upper) {
  if (upper >= 1.0) return kInf;
  return boost::math::quantile(boost::math::normal_distribution<double>(), upper);
}

// mu_lower = max(0, a[fp] - b[fn]) on an audit half of m a side at level
// alpha (score_audit.cc MuLower): a[fp] = -Phi^-1(FPR_u), b[fn] =
// Phi^-1(FNR_u).
Status MuTerms(int64_t m, double alpha, double delta, std::vector<double>* a,
               std::vector<double>* b) {
  for (int64_t k = 0; k <= m; ++k) {
    PB_ASSIGN_OR_RETURN(const GaussianDpBound fp,
                        GaussianDpAtCounts(Counts(m, m, k, 0), delta, alpha));
    PB_ASSIGN_OR_RETURN(const GaussianDpBound fn,
                        GaussianDpAtCounts(Counts(m, m, 0, k), delta, alpha));
    a->push_back(-Probit(fp.fpr_upper));
    b->push_back(Probit(fn.fnr_upper));
  }
  return Status::Ok();
}

// The median of max(0, a[X] - b[Y]), X ~ pmf_x, Y with cdf_y, b ascending.
double MedianMu(const std::vector<double>& a, const std::vector<double>& b,
                const std::vector<double>& pmf_x, const std::vector<double>& cdf_y) {
  auto at_least = [&](double v) {  // P(a[X] - b[Y] >= v)
    double p = 0;
    for (size_t x = 0; x < pmf_x.size(); ++x) {
      if (pmf_x[x] == 0) continue;
      const auto it = std::upper_bound(b.begin(), b.end(), a[x] - v);
      if (it != b.begin()) p += pmf_x[x] * cdf_y[static_cast<size_t>(it - b.begin() - 1)];
    }
    return p;
  };
  double lo = 0, hi = std::max(0.0, a[0] - b[0]);
  if (!(hi > 0) || at_least(1e-12) < 0.5) return 0.0;
  for (int it = 0; it < 60; ++it) {
    const double mid = (lo + hi) / 2;
    (at_least(mid) >= 0.5 ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

double Survival(const ScoreLaw& law, bool member, double t) {
  switch (law.kind) {
    case ScoreLaw::Kind::kGaussian:
      return NormalSurvival(t - (member ? law.mu : 0.0));
    case ScoreLaw::Kind::kLaplaceCell:
      if (t <= -1) return 1.0;
      if (t > 1) return 0.0;
      return LaplaceSurvival((t + 1) / 2 - (member ? 1.0 : 0.0), law.b);
    case ScoreLaw::Kind::kEmpirical:
      break;
  }
  const std::vector<double>& x = member ? law.member : law.nonmember;
  const auto below = std::lower_bound(x.begin(), x.end(), t) - x.begin();
  return static_cast<double>(static_cast<int64_t>(x.size()) - below) /
         static_cast<double>(x.size());
}

double DrawScore(const ScoreLaw& law, bool member, Rng& rng) {
  switch (law.kind) {
    case ScoreLaw::Kind::kGaussian:
      return boost::random::normal_distribution<double>(member ? law.mu : 0.0, 1.0)(rng);
    case ScoreLaw::Kind::kLaplaceCell: {
      const double x =
          (member ? 1.0 : 0.0) + boost::random::laplace_distribution<double>(0.0, law.b)(rng);
      return std::clamp(2 * x - 1, -1.0, 1.0);
    }
    case ScoreLaw::Kind::kEmpirical:
      break;
  }
  const std::vector<double>& x = member ? law.member : law.nonmember;
  boost::random::uniform_int_distribution<size_t> pick(0, x.size() - 1);
  return x[pick(rng)];
}

Result<double> JudgeAtCounts(const AuditJudge& j, const ConfusionCounts& c) {
  if (j.gaussian_dp) {
    PB_ASSIGN_OR_RETURN(const GaussianDpBound b, GaussianDpAtCounts(c, j.delta, j.alpha));
    return b.eps_lower.value_or(0.0);
  }
  PB_ASSIGN_OR_RETURN(const EpsInterval e, OneSidedClopperPearson().Estimate(c, j.delta, j.alpha));
  return e.lower;
}

Result<double> JudgedCeiling(const AuditJudge& judge, int64_t n_member, int64_t n_nonmember) {
  if (n_member < 2 || n_nonmember < 2) {
    return Error("n_member and n_nonmember must be >= 2 (a split needs two a side)");
  }
  const int64_t m_in = n_member - n_member / 2, m_out = n_nonmember - n_nonmember / 2;
  return JudgeAtCounts(judge, Counts(m_in, m_out, 0, 0));
}

Result<FlagRegion> MakeFlagRegion(const AuditJudge& j, int64_t m_in, int64_t m_out) {
  if (m_in < 1 || m_out < 1) return Error("m_in and m_out must be >= 1");
  FlagRegion r{m_in, m_out, std::vector<int64_t>(static_cast<size_t>(m_out + 1)),
               std::vector<int64_t>(static_cast<size_t>(m_out + 1))};
  // Below the line fn / m_in + fp / m_out = 1 the flagged counts are a
  // down-set; above it an up-set (score_audit.h, CANDIDATE THRESHOLDS).
  int64_t g = m_in;
  for (int64_t fp = 0; fp <= m_out; ++fp) {
    const int64_t num = m_in * (m_out - fp);  // fn * m_out < num: below the line
    g = std::min(g, num > 0 ? (num - 1) / m_out : -1);
    for (; g >= 0; --g) {
      PB_ASSIGN_OR_RETURN(const bool flagged, Flagged(j, m_in, m_out, fp, g));
      if (flagged) break;
    }
    r.below[static_cast<size_t>(fp)] = g;
  }
  int64_t h = 0;
  for (int64_t fp = m_out; fp >= 0; --fp) {
    h = std::max(h, m_in * (m_out - fp) / m_out + 1);  // fn * m_out > m_in (m_out - fp)
    for (; h <= m_in; ++h) {
      PB_ASSIGN_OR_RETURN(const bool flagged, Flagged(j, m_in, m_out, fp, h));
      if (flagged) break;
    }
    r.above[static_cast<size_t>(fp)] = h;
  }
  return r;
}

double FlagProbability(const FlagRegion& r, double fpr, double fnr) {
  const std::vector<double> pmf_fp = BinomialPmf(r.m_out, std::clamp(fpr, 0.0, 1.0));
  const std::vector<double> cdf_fn = Cumulative(BinomialPmf(r.m_in, std::clamp(fnr, 0.0, 1.0)));
  double p = 0;
  for (size_t fp = 0; fp < pmf_fp.size(); ++fp) {
    if (pmf_fp[fp] == 0) continue;
    const int64_t below = r.below[fp], above = r.above[fp];
    double q = below >= 0 ? cdf_fn[static_cast<size_t>(below)] : 0.0;
    if (above <= r.m_in) q += above > 0 ? 1.0 - cdf_fn[static_cast<size_t>(above - 1)] : 1.0;
    p += pmf_fp[fp] * std::min(1.0, q);
  }
  return std::min(1.0, p);
}

Result<DetectionPower> AuditDetectionPower(const ScoreLaw& law, const AuditJudge& judge,
                                           int64_t trials, int64_t replicates, uint64_t seed) {
  if (trials < 2) return Error("trials must be >= 2 (a split needs two releases a side)");
  if (replicates < 1) return Error("replicates must be >= 1");
  const int64_t m_sel = trials / 2, m_aud = trials - m_sel;
  PB_ASSIGN_OR_RETURN(const FlagRegion region, MakeFlagRegion(judge, m_aud, m_aud));
  double sum = 0, sum_sq = 0;
  for (int64_t r = 0; r < replicates; ++r) {
    Rng rng = MakeRng(seed, {static_cast<uint64_t>(r)});
    PB_ASSIGN_OR_RETURN(const double t, SelectedThreshold(law, judge, m_sel, rng));
    const double p = FlagProbability(region, Survival(law, false, t), 1 - Survival(law, true, t));
    sum += p;
    sum_sq += p * p;
  }
  DetectionPower out;
  out.trials = trials;
  out.replicates = replicates;
  const double n = static_cast<double>(replicates);
  out.probability = sum / n;
  out.standard_error =
      replicates > 1 ? std::sqrt(std::max(0.0, (sum_sq - sum * sum / n) / (n - 1) / n)) : 0.0;
  return out;
}

Result<double> PerfectTestBound(double mu, double alpha, double delta, int64_t trials) {
  if (!(mu >= 0) || !std::isfinite(mu)) return Error("mu must be finite and >= 0");
  if (!(delta > 0 && delta < 1)) return Error("delta must be in (0, 1)");
  if (trials < 2) return Error("trials must be >= 2");
  const int64_t m = trials - trials / 2;
  std::vector<double> a, b;
  PB_RETURN_IF_ERROR(MuTerms(m, alpha, delta, &a, &b));
  double best = 0;
  for (int k = 0; k <= 200; ++k) {
    const double t = -4.0 + (mu + 8.0) * k / 200.0;
    const std::vector<double> pmf_fp = BinomialPmf(m, NormalSurvival(t));
    const std::vector<double> cdf_fn = Cumulative(BinomialPmf(m, 1 - NormalSurvival(t - mu)));
    best = std::max(best, MedianMu(a, b, pmf_fp, cdf_fn));
  }
  if (best == 0) return 0.0;
  return GaussianDpEpsilon(best, delta);
}

}  // namespace synthetic_data_mia
}  // namespace privbench
