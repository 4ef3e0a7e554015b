#include "experiments/sequential_audit/compute.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/laplace_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <limits>
#include <memory>

#include "estimators/confusion_counts.h"
#include "estimators/interval_registry.h"
#include "estimators/sequential/sequential_audit.h"

namespace privbench {
namespace sequential_audit {

namespace {

// Pair rounds are generated and played this many at a time; a replication
// stops after the chunk in which its claim was rejected (rejected_at is the
// exact round: the e-process does not depend on the chunking).
constexpr int64_t kChunk = 256;

double NormalCdf(double x) { return boost::math::cdf(boost::math::normal(), x); }
double NormalQuantile(double p) { return boost::math::quantile(boost::math::normal(), p); }

// P(L > t) for L ~ Laplace(0, b).
double LaplaceSurvival(double t, double b) {
  return t >= 0 ? 0.5 * std::exp(-t / b) : 1.0 - 0.5 * std::exp(t / b);
}

SequentialAuditOptions OptionsFor(const MechanismCase& m, double alpha) {
  SequentialAuditOptions o;
  o.alpha = alpha;
  o.delta = 0.0;
  o.threshold = kThreshold;
  o.epsilons = {m.claimed};  // the claim itself, or (mu-GDP claims) a cheap extra process
  if (m.claim == ClaimKind::kGaussianDp) o.mus = {m.claimed};
  return o;
}

const BettingProcess& ClaimProcess(const MechanismCase& m, const SequentialAuditState& s) {
  return m.claim == ClaimKind::kPureDp ? s.dp[0] : s.gdp[0];
}

// Stream of replication r of case k: DeriveSeed(seed, {k, r, what}).
constexpr uint64_t kSequentialStream = 1, kBatchStream = 2;

}  // namespace

std::vector<MechanismCase> MechanismCases(const Config& c) {
  const double eps = c.claimed_epsilon, mu = c.claimed_mu;
  std::vector<MechanismCase> cases;
  cases.push_back({"rr_correct", true, NoiseKind::kRandomizedResponse, 1.0, eps, ClaimKind::kPureDp,
                   eps, eps,
                   "randomized response at eps (the bit is kept with probability e^eps/(1+e^eps)); "
                   "the threshold rule attains the (eps, 0) bound"});
  cases.push_back({"laplace_correct", true, NoiseKind::kLaplace, 1.0, 1.0 / eps, ClaimKind::kPureDp,
                   eps, eps, "x + Laplace(1/eps): eps-DP"});
  cases.push_back({"gaussian_correct", true, NoiseKind::kGaussian, 1.0, 1.0 / mu,
                   ClaimKind::kGaussianDp, mu, mu,
                   "x + N(0, 1/mu^2): mu-GDP; the threshold rule attains the mu-GDP bound"});
  cases.push_back({"laplace_half_scale", false, NoiseKind::kLaplace, 1.0, 0.5 / eps,
                   ClaimKind::kPureDp, eps, 2 * eps,
                   "x + Laplace(1/(2 eps)): the scale's factor 2 dropped, truly 2 eps-DP"});
  cases.push_back({"gaussian_double_sensitivity", false, NoiseKind::kGaussian, 2.0, 1.0 / mu,
                   ClaimKind::kGaussianDp, mu, 2 * mu,
                   "2x + N(0, 1/mu^2): sensitivity 2, noise calibrated to 1, truly 2 mu-GDP"});
  return cases;
}

double SampleOutput(const MechanismCase& m, bool with_target, Rng& rng) {
  const double x = with_target ? m.sensitivity : 0.0;
  switch (m.noise) {
    case NoiseKind::kRandomizedResponse: {
      const double keep = 1.0 / (1.0 + std::exp(-m.parameter));
      const bool kept = boost::random::bernoulli_distribution<double>(keep)(rng);
      return kept == with_target ? 1.0 : 0.0;
    }
    case NoiseKind::kLaplace:
      return x + boost::random::laplace_distribution<double>(0.0, m.parameter)(rng);
    case NoiseKind::kGaussian:
      return x + boost::random::normal_distribution<double>(0.0, m.parameter)(rng);
  }
  return x;
}

RuleRates ExactRuleRates(const MechanismCase& m) {
  RuleRates r;
  switch (m.noise) {
    case NoiseKind::kRandomizedResponse:
      r.tpr = 1.0 / (1.0 + std::exp(-m.parameter));
      r.fpr = 1.0 - r.tpr;
      break;
    case NoiseKind::kLaplace:
      r.tpr = LaplaceSurvival(kThreshold - m.sensitivity, m.parameter);
      r.fpr = LaplaceSurvival(kThreshold, m.parameter);
      break;
    case NoiseKind::kGaussian:
      r.tpr = NormalCdf((m.sensitivity - kThreshold) / m.parameter);
      r.fpr = NormalCdf(-kThreshold / m.parameter);
      break;
  }
  return r;
}

double ClaimTau(const MechanismCase& m) {
  return m.claim == ClaimKind::kPureDp ? DpNullBounds(m.claimed, 0.0).tau
                                       : GdpNullBounds(m.claimed).tau;
}

Result<SequentialRuns> RunSequential(const MechanismCase& m, int64_t replications,
                                     int64_t max_rounds, int64_t trace_rounds, double alpha,
                                     uint64_t seed, int64_t case_index) {
  SequentialRuns out;
  out.max_rounds = max_rounds;
  const SequentialAuditOptions options = OptionsFor(m, alpha);
  for (int64_t r = 0; r < replications; ++r) {
    PB_ASSIGN_OR_RETURN(SequentialAuditor auditor, SequentialAuditor::Start(options));
    Rng rng = MakeRng(
        seed, {static_cast<uint64_t>(case_index), static_cast<uint64_t>(r), kSequentialStream});
    std::vector<double> in, out_scores;
    int64_t played = 0;
    while (played < max_rounds && ClaimProcess(m, auditor.state()).rejected_at == 0) {
      // Replication 0's first trace_rounds rounds are played one at a time
      // to record the log-wealth after each.
      const bool tracing = r == 0 && played < trace_rounds;
      const int64_t k = tracing ? 1 : std::min(kChunk, max_rounds - played);
      in.resize(k);
      out_scores.resize(k);
      for (int64_t i = 0; i < k; ++i) {
        in[i] = SampleOutput(m, true, rng);
        out_scores[i] = SampleOutput(m, false, rng);
      }
      PB_RETURN_IF_ERROR(auditor.AddPairs(in, out_scores));
      played += k;
      if (tracing) out.trace.push_back(ClaimProcess(m, auditor.state()).log_wealth);
    }
    out.rejected_at.push_back(ClaimProcess(m, auditor.state()).rejected_at);
  }
  return out;
}

double GaussianDpMuLower(int64_t tp, int64_t fp, int64_t n, double alpha) {
  // One-sided Clopper-Pearson upper limits at alpha/2 each.
  auto upper = [&](int64_t k) {
    if (k >= n) return 1.0;
    return boost::math::ibeta_inv(static_cast<double>(k + 1), static_cast<double>(n - k),
                                  1.0 - alpha / 2);
  };
  const double fpr_u = upper(fp), fnr_u = upper(n - tp);
  if (fpr_u >= 1.0 || fnr_u >= 1.0) return 0.0;
  return std::max(0.0, NormalQuantile(1.0 - fpr_u) - NormalQuantile(fnr_u));
}

Result<bool> BatchRejects(const MechanismCase& m, int64_t tp, int64_t fp, int64_t n, double alpha) {
  if (m.claim == ClaimKind::kGaussianDp) return GaussianDpMuLower(tp, fp, n, alpha) > m.claimed;
  static const std::unique_ptr<IntervalEstimator> cp = [] {
    auto made = MakeIntervalEstimator("clopper_pearson_one_sided");
    return made.ok() ? std::move(made).value() : nullptr;
  }();
  if (cp == nullptr) return Error("clopper_pearson_one_sided is not registered");
  ConfusionCounts counts{tp, n - tp, fp, n - fp};
  PB_ASSIGN_OR_RETURN(const EpsInterval interval, cp->Estimate(counts, 0.0, alpha));
  return interval.lower > m.claimed;
}

Result<BatchRuns> RunBatch(const MechanismCase& m, int64_t n, int64_t replications, double alpha,
                           uint64_t seed, int64_t case_index) {
  BatchRuns out;
  out.n = n;
  out.replications = replications;
  for (int64_t r = 0; r < replications; ++r) {
    Rng rng = MakeRng(seed, {static_cast<uint64_t>(case_index), static_cast<uint64_t>(n),
                             static_cast<uint64_t>(r), kBatchStream});
    int64_t tp = 0, fp = 0;
    for (int64_t i = 0; i < n; ++i) {
      tp += SampleOutput(m, true, rng) > kThreshold;
      fp += SampleOutput(m, false, rng) > kThreshold;
    }
    PB_ASSIGN_OR_RETURN(const bool rejects, BatchRejects(m, tp, fp, n, alpha));
    out.rejections += rejects;
  }
  return out;
}

double MedianRounds(const std::vector<int64_t>& rejected_at) {
  if (rejected_at.empty()) return std::numeric_limits<double>::infinity();
  std::vector<double> v;
  for (int64_t t : rejected_at) {
    v.push_back(t > 0 ? static_cast<double>(t) : std::numeric_limits<double>::infinity());
  }
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace sequential_audit
}  // namespace privbench
