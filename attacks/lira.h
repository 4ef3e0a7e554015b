// The likelihood-ratio membership attack LiRA (Carlini, Chien, Nasr, Song,
// Terzis & Tramer, "Membership Inference Attacks From First Principles",
// IEEE S&P 2022, Sec. IV, Alg. 1) and the challenge-point selection
// SelectWorst of the Bayesian paper (Zanella-Beguelin et al., ICML 2023,
// Sec. 4.1 and App. A.1, Alg. 3); experiments/lira_bayes_audit/README.md.
//
// Torch-free: the inputs are per-example statistics of trained models (the
// models themselves are never stored).
//
//  - Statistic (Carlini et al. Sec. IV-A, "logit scaling"): for a softmax
//    output p over K classes and true class y,
//      phi = ln p_y - ln sum_{y' != y} p_y' = z_y - logsumexp_{y' != y} z_y'
//    computed from the logits z without forming p (no cancellation).
//  - Shadow design: M shadow models, each trained on a subset of a pool of
//    P points such that every point is IN for exactly M/2 shadows (the
//    reference implementation's "keep" matrix: for each point an
//    independent random choice of M/2 of the M shadows).
//  - Online LiRA: per point, Gaussians N(mu_in, s_in^2), N(mu_out, s_out^2)
//    fitted to phi over the IN and OUT shadows, per-example variance; the
//    location is the median (as the reference implementations do; the mean
//    is an option); score = log N(phi; mu_in, s_in) - log N(phi; mu_out,
//    s_out), larger = more likely a member. Standard deviations are floored
//    at kMinLiraStd (the references add 1e-30; we floor higher so that a
//    point whose shadows agree to the last bit still gives a finite score).
//  - Offline LiRA (Sec. IV-C): OUT shadows only, the one-sided test
//    score = log Phi((phi - mu_out) / s_out) (larger = member).
//  - SelectWorst (Alg. 3): the shadows are split into a fit part (the first
//    round(fit_fraction * M); the paper 80:20, the public code 60:40) and a
//    test part; per point the Gaussians are fitted on the fit part and the
//    point's LiRA score is computed under every test shadow; the point's
//    weight is the attack's accuracy on those test shadows,
//    max over thresholds of 1 - (FPR + FNR) / 2 (or the AUC, the public
//    code's choice); the k points with the largest weights are returned.
//    Ties (frequent with few test shadows: many points reach accuracy 1) are
//    broken by the mean score gap between the IN and OUT test shadows, then
//    by index. A point without an IN and an OUT shadow in either part gets
//    no weight and is never selected.
#ifndef PRIVBENCH_ATTACKS_LIRA_H_
#define PRIVBENCH_ATTACKS_LIRA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

inline constexpr double kMinLiraStd = 1e-6;

// phi for each row of a row-major (n x num_classes) logit matrix with labels
// y in [0, num_classes). num_classes >= 2; errors name "logits" / "labels".
Result<std::vector<double>> LogitScaledConfidence(const std::vector<double>& logits,
                                                  const std::vector<int64_t>& labels,
                                                  int64_t num_classes);

// Membership matrix of M shadows over P pool points, row-major (M x P),
// 1 = IN: every column has exactly M/2 ones. M even and >= 2 ("shadows"),
// P >= 1 ("pool_size"). Deterministic in seed.
Result<std::vector<uint8_t>> BalancedHalves(int64_t shadows, int64_t pool_size, uint64_t seed);

// Shadow statistics: phi of every shadow model on every pool point.
struct ShadowScores {
  int64_t models = 0;          // M
  int64_t points = 0;          // P
  std::vector<double> phi;     // row-major (M x P)
  std::vector<uint8_t> is_in;  // row-major (M x P), 1 = the point trained the shadow
  // Checks sizes, finiteness and 0/1 entries; errors name the field.
  Status Validate() const;
};

enum class LiraLocation { kMedian, kMean };

struct LiraGaussians {
  double mu_in = 0.0, s_in = 0.0;
  double mu_out = 0.0, s_out = 0.0;
  int64_t n_in = 0, n_out = 0;
};

// Fits the per-point Gaussians on the shadows listed in `models` (indices
// into 0..M-1; all models if empty). A point with no OUT shadow, or (online)
// no IN shadow, is an error naming the point.
Result<std::vector<LiraGaussians>> FitLira(const ShadowScores& shadows,
                                           const std::vector<int64_t>& models,
                                           LiraLocation location, bool online);

// Online score log N(phi; in) - log N(phi; out).
double LiraOnlineScore(const LiraGaussians& g, double phi);
// Offline score log Phi((phi - mu_out) / s_out).
double LiraOfflineScore(const LiraGaussians& g, double phi);

enum class SelectionWeight { kAccuracy, kAuc };

struct SelectWorstOptions {
  double fit_fraction = 0.8;  // in (0, 1)
  SelectionWeight weight = SelectionWeight::kAccuracy;
  LiraLocation location = LiraLocation::kMedian;
  int64_t k = 1;  // points to return, 1..P
};

struct PointWeight {
  double weight = 0.0;  // accuracy or AUC on the test shadows; NaN: no weight
  double gap = 0.0;     // mean test score of IN shadows minus OUT shadows
};

struct SelectWorstResult {
  std::vector<int64_t> selected;     // k pool indices, best first
  std::vector<PointWeight> weights;  // per pool point
  int64_t fit_models = 0;            // shadows 0..fit_models-1 fit, the rest test
};

// Algorithm 3 with online LiRA as the attack. Errors name fit_fraction / k,
// or the shortage ("only 3 of 1000 points have IN and OUT test shadows").
Result<SelectWorstResult> SelectWorst(const ShadowScores& shadows,
                                      const SelectWorstOptions& options);

// Best balanced accuracy max_t 1 - (FPR + FNR)/2 over thresholds "score >= t"
// (including flagging nobody), and the Mann-Whitney AUC, of member vs
// non-member scores; both samples non-empty.
double BestBalancedAccuracy(const std::vector<double>& member, const std::vector<double>& non);
double MannWhitneyAuc(const std::vector<double>& member, const std::vector<double>& non);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_LIRA_H_
