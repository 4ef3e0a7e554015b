// Yeom et al.'s loss-threshold membership attack (CSF 2018; used by
// Jayaraman & Evans 2019 and that_which_we_call_private.txt Sec. 4-5), and
// the membership inference on population data (MIA-PD) behind Epsilon*.
//
// The attacker flags a query as a training member iff its loss is at most a
// threshold (the score is -loss). Three thresholds are reported:
//  - the average training loss (Yeom et al.'s attack);
//  - the one with the largest TPR at FPR <= a target, 5% by default, chosen
//    on the same non-member sample (Jayaraman & Evans' reporting);
//  - the one with the largest advantage TPR - FPR (that_which_we_call_private
//    Sec. 5.3: this uses the labels, so it is a slightly optimistic lower
//    bound, as the paper notes in Sec. 5.4).
// Plus the ROC curve, its AUC, TPR at FPR in {0.1%, 1%, 5%}, and the
// confusion counts at every threshold.
#ifndef PRIVBENCH_ATTACKS_LOSS_THRESHOLD_H_
#define PRIVBENCH_ATTACKS_LOSS_THRESHOLD_H_

#include <vector>

#include "core/result.h"
#include "estimators/roc/roc.h"

namespace privbench {

struct LossAttackResult {
  RocCurve roc;                  // on scores = -loss
  OperatingPoint average_loss;   // threshold = mean training (member) loss
  OperatingPoint at_target_fpr;  // best TPR with FPR <= target_fpr
  OperatingPoint best_advantage;
  double tpr_at_fpr_0_001 = 0.0, tpr_at_fpr_0_01 = 0.0, tpr_at_fpr_0_05 = 0.0;
};

// member_losses: losses of training examples; nonmember_losses: losses of
// population (held-out) examples. Both non-empty and finite; target_fpr in
// [0, 1].
Result<LossAttackResult> LossThresholdAttack(const std::vector<double>& member_losses,
                                             const std::vector<double>& nonmember_losses,
                                             double target_fpr = 0.05);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_LOSS_THRESHOLD_H_
