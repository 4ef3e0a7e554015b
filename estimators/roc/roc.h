// ROC analysis of a membership score: higher scores mean "member".
//
// Convention: a threshold t flags an example as a member iff score >= t.
// ComputeRoc evaluates every distinct threshold — each distinct score, plus
// +inf (flag nobody) — so a sample with k distinct scores gives k + 1
// points, from (FPR, TPR) = (0, 0) to (1, 1), each with its confusion
// counts (the input of every interval estimator). Ties are never split.
// The AUC is exact: the Mann-Whitney probability P[S_member > S_non] +
// P[S_member = S_non] / 2, computed in O(n log n).
//
// Home: estimators/roc, below both attacks/ (whose attacks produce the
// scores) and estimators/score_audit (which audits them), so that neither
// package depends on the other.
#ifndef PRIVBENCH_ESTIMATORS_ROC_ROC_H_
#define PRIVBENCH_ESTIMATORS_ROC_ROC_H_

#include <vector>

#include "core/result.h"
#include "estimators/confusion_counts.h"

namespace privbench {

struct OperatingPoint {
  double threshold = 0.0;  // flag member iff score >= threshold (+inf: nobody)
  ConfusionCounts counts;
  double tpr() const { return static_cast<double>(counts.tp) / counts.positives(); }
  double fpr() const { return static_cast<double>(counts.fp) / counts.negatives(); }
  double advantage() const { return tpr() - fpr(); }  // Yeom et al.'s membership advantage
};

struct RocCurve {
  std::vector<OperatingPoint> points;  // thresholds decreasing: FPR and TPR non-decreasing
  double auc = 0.0;
};

// Both samples non-empty and finite (messages name "member_scores" /
// "nonmember_scores").
Result<RocCurve> ComputeRoc(const std::vector<double>& member_scores,
                            const std::vector<double>& nonmember_scores);

// The point with the largest TPR among those with FPR <= max_fpr (no
// interpolation between points; ties in TPR keep the smaller FPR).
// max_fpr in [0, 1].
Result<OperatingPoint> BestTprAtFpr(const RocCurve& roc, double max_fpr);

// The point maximising TPR - FPR (the first such point, i.e. the highest
// threshold, on ties).
OperatingPoint BestAdvantage(const RocCurve& roc);

// The operating point of one given threshold.
Result<OperatingPoint> AtThreshold(const std::vector<double>& member_scores,
                                   const std::vector<double>& nonmember_scores, double threshold);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ROC_ROC_H_
