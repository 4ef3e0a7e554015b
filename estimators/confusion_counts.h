// Confusion counts of a membership test, with named fields.
//
// Positives are members (the alternative hypothesis, b = 1 in the Bayesian
// paper's Experiment 2), negatives are non-members:
//   FNR = fn / (tp + fn),   FPR = fp / (fp + tn).
#ifndef PRIVBENCH_ESTIMATORS_CONFUSION_COUNTS_H_
#define PRIVBENCH_ESTIMATORS_CONFUSION_COUNTS_H_

#include <cstdint>
#include <limits>
#include <string>

#include "core/result.h"
#include "core/validate.h"

namespace privbench {

struct ConfusionCounts {
  int64_t tp = 0;  // members flagged as members
  int64_t fn = 0;  // members missed
  int64_t fp = 0;  // non-members flagged as members
  int64_t tn = 0;  // non-members correctly rejected

  int64_t positives() const { return tp + fn; }
  int64_t negatives() const { return fp + tn; }
  double fnr() const { return static_cast<double>(fn) / positives(); }
  double fpr() const { return static_cast<double>(fp) / negatives(); }

  // Every count >= 0, each sum below 2^63, and at least one positive and one negative trial (the
  // rates are undefined otherwise).
  Status Validate() const {
    PB_RETURN_IF_ERROR(CheckNonNegativeCount("tp", tp));
    PB_RETURN_IF_ERROR(CheckNonNegativeCount("fn", fn));
    PB_RETURN_IF_ERROR(CheckNonNegativeCount("fp", fp));
    PB_RETURN_IF_ERROR(CheckNonNegativeCount("tn", tn));
    // Checked before adding: a sum past 2^63 - 1 is undefined behaviour.
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    if (tp > kMax - fn) {
      return Error("tp + fn (positive trials) must be below 2^63, got tp=" + std::to_string(tp) +
                   " fn=" + std::to_string(fn));
    }
    if (fp > kMax - tn) {
      return Error("fp + tn (negative trials) must be below 2^63, got fp=" + std::to_string(fp) +
                   " tn=" + std::to_string(tn));
    }
    if (positives() < 1) return Error("tp + fn (positive trials) must be >= 1, got 0");
    if (negatives() < 1) return Error("fp + tn (negative trials) must be >= 1, got 0");
    return Status::Ok();
  }

  std::string ToString() const {
    return "tp=" + std::to_string(tp) + " fn=" + std::to_string(fn) + " fp=" + std::to_string(fp) +
           " tn=" + std::to_string(tn);
  }
};

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_CONFUSION_COUNTS_H_
