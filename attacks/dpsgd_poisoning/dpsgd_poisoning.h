// Poisons for auditing DP-SGD-trained networks, the two ML-Audit runs (Lu et
// al., "A General Framework for Auditing Differentially Private Machine
// Learning", NeurIPS 2022, Sec. 5, "DP-SGD"; experiments/ml_audit_dpsgd/README.md). Both build
// one point (x*, y*) that an auditor inserts k times into D to get D'.
//
//  - ClipBKD (Jagielski, Ullman & Oprea, "Auditing Differentially Private
//    Machine Learning: How Private is Private SGD?", NeurIPS 2020, Alg. 2;
//    ML-Audit Sec. 5): x* = the eigenvector of the smallest eigenvalue of
//    the rows' sample covariance, scaled to the median row L2 norm (ML-Audit's
//    wording; Jagielski et al.'s code scales to 10, about the median norm of
//    their Fashion-MNIST rows). y* = the label least likely at x* under the
//    MEAN softmax of the given non-private networks trained on D. Assumes x*
//    is (nearly) orthogonal to the rows, as least-variance directions of
//    image data are: then the rows never move a network's first-layer
//    weights along x*, so one network's prediction there is its random
//    initialisation's, and only the mean over networks says what a trained
//    network predicts (Jagielski et al.'s code fits a logistic regression,
//    whose weights along x* stay 0). The point of x*: its clipped gradient
//    lies where no row's gradient does, so the copies' push survives
//    clipping and noise. LeastLikelyLabel is the label rule alone: ML-Audit
//    Sec. 4.1, step 2 lets the networks be non-private (M_inf(D)) or
//    DP-trained outputs averaged (E_b[M(D, b)]), which can disagree at x*
//    (experiments/ml_audit_dpsgd/README.md).
//    Neighbours: ML-Audit inserts the poison (add/remove, k copies
//    appended); Jagielski et al.'s public code (their Fashion-MNIST Fig. 1a
//    data) replaces the last k rows of D by x*, labelled 1 - y* in D and y*
//    in D' (a label flip: n kept; replace-one = remove + add, so the pair is
//    at add/remove distance 2k). The study builds both pairs
//    (experiments/ml_audit_dpsgd/models.h, PoisonedRows).
//  - Shadow-adversarial (Nasr, Song, Thakurta, Papernot & Carlini,
//    "Adversary Instantiation: Lower Bounds for Differentially Private
//    Machine Learning", IEEE S&P 2021, the adversarial-example poison, as
//    ML-Audit describes it): the row `source_row` of D, label kept, moved by
//    `steps` steps of normalised gradient ascent (L2 length `step`) on its
//    cross-entropy summed over the given non-private shadow networks,
//    projected into [lo, hi]^d after every step (the data's box: the
//    constraint set C of ML-Audit Sec. 4.1). Assumes the shadows stand in
//    for the DP-trained model (ML-Audit Sec. 4.1, step 2: E_b[M(D, b)] ~
//    M_inf(D)).
//
// Both take the rows as an (n, d) float tensor and two-class networks
// (mechanisms/dp_model.h); deterministic (no random draws).
#ifndef PRIVBENCH_ATTACKS_DPSGD_POISONING_DPSGD_POISONING_H_
#define PRIVBENCH_ATTACKS_DPSGD_POISONING_DPSGD_POISONING_H_

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "mechanisms/dp_model.h"

namespace privbench {

// Softmax probabilities (n, classes) of `model` at the rows of x, in
// float64 (the poisons' and the study's probes' reading of a network).
Result<torch::Tensor> Probabilities(const DpModel& model, const torch::Tensor& x);

struct NetworkPoison {
  std::vector<float> x;     // x*, d values
  int64_t y = 0;            // y*
  int64_t source_row = -1;  // shadow: the row it started from
  double clean_prob = 0;    // P_{y*}(x*) under the mean of the given networks
};

struct LabelChoice {
  int64_t y = 0;    // the label of least mean probability at the point
  double prob = 0;  // its mean probability there (<= 1/2)
};
// The label least likely at `at` (one row, (1, d)) under the MEAN softmax of
// `networks` (ties: label 0). Errors: no network, a network without 2
// classes, `at` not one row.
Result<LabelChoice> LeastLikelyLabel(const torch::Tensor& at, const std::vector<DpModel>& networks);

// y* = LeastLikelyLabel(x*, networks).
// Errors: fewer than 2 rows, no network, a network without 2 classes.
Result<NetworkPoison> ClipBkdPoison(const torch::Tensor& x, const std::vector<DpModel>& networks);

struct ShadowAscent {
  int64_t steps = 50;
  double step = 0.5;  // L2 length of each ascent step
  double lo = 0, hi = 1;
};
// Errors: source_row outside [0, n), no shadow, a shadow without 2 classes,
// steps < 0, step <= 0, lo > hi.
Result<NetworkPoison> ShadowAdversarialPoison(const torch::Tensor& x, const torch::Tensor& y,
                                              int64_t source_row,
                                              const std::vector<DpModel>& shadows,
                                              const ShadowAscent& ascent);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_DPSGD_POISONING_DPSGD_POISONING_H_
