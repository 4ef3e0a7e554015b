#include "attacks/loss_threshold.h"

#include <gtest/gtest.h>

#include <cmath>

namespace privbench {
namespace {

TEST(LossAttackTest, ThresholdsAndRates) {
  // Members have low losses. Average member loss = 0.2.
  const std::vector<double> member = {0.1, 0.2, 0.3}, non = {0.25, 0.5, 0.9, 1.2};
  auto r = LossThresholdAttack(member, non, 0.25).value();
  EXPECT_EQ(r.average_loss.counts.tp, 2);  // losses <= 0.2
  EXPECT_EQ(r.average_loss.counts.fp, 0);
  EXPECT_EQ(r.at_target_fpr.counts.fp, 1);  // FPR 1/4 allowed: threshold at 0.3
  EXPECT_EQ(r.at_target_fpr.counts.tp, 3);
  EXPECT_NEAR(r.best_advantage.advantage(), 0.75, 1e-15);
  EXPECT_NEAR(r.roc.auc, 11.0 / 12.0, 1e-15);
}

TEST(LossAttackTest, RefusesBadInput) {
  EXPECT_EQ(LossThresholdAttack({}, {1.0}).message(), "member_losses must be non-empty");
  EXPECT_EQ(LossThresholdAttack({1.0}, {std::nan("")}).message(),
            "nonmember_losses[0] must be finite, got nan");
  EXPECT_FALSE(LossThresholdAttack({1.0}, {1.0}, 1.5).ok());
}

}  // namespace
}  // namespace privbench
