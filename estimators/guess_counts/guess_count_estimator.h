// Guess-count estimators: an eps LOWER bound from the outcome of a one-run
// audit (docs/studies.md, one_run_audit). m canaries are each included in
// the training set independently with probability 1/2; after training, an
// attack guesses "in" or "out" for r of them (the rest are abstentions)
// and v of its r guesses are correct. An estimator turns (m, r, v) into the
// largest eps such that v correct guesses are still unlikely, at failure
// probability beta, for every (eps, delta)-DP training algorithm: a
// one-sided statistical lower bound, at confidence 1 - beta, on the eps of
// the audited algorithm.
//
// The public-validates / protected-computes split of the other kinds
// (estimators/interval_estimator.h): LowerBound() validates the counts
// (0 <= v <= r <= m, m >= 1), delta in [0, 1) and beta in (0, 1) with
// messages naming the argument, calls LowerBoundImpl() and refuses a NaN
// or negative answer.
#ifndef PRIVBENCH_ESTIMATORS_GUESS_COUNTS_GUESS_COUNT_ESTIMATOR_H_
#define PRIVBENCH_ESTIMATORS_GUESS_COUNTS_GUESS_COUNT_ESTIMATOR_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace privbench {

struct GuessCounts {
  int64_t m = 0;  // canaries, each included with probability 1/2
  int64_t r = 0;  // guesses made (m - r abstentions)
  int64_t v = 0;  // correct guesses

  // "m=1000 r=100 v=80".
  std::string ToString() const;
};

class GuessCountEstimator {
 public:
  virtual ~GuessCountEstimator() = default;

  // Registry name, e.g. "one_run".
  virtual std::string_view name() const = 0;
  // One line: the bound and the paper/theorem it comes from.
  virtual std::string_view description() const = 0;

  // The eps lower bound (>= 0; 0 when even eps = 0 is not rejected).
  Result<double> LowerBound(const GuessCounts& counts, double delta, double beta) const;

 protected:
  // Called with validated arguments.
  virtual Result<double> LowerBoundImpl(const GuessCounts& counts, double delta,
                                        double beta) const = 0;
};

// The most canaries a request may have: a work bound (at 2^53 one bound
// takes under 2 s; at 2^62 one took 109 s) and the range in which the
// binomial tails receive the counts as exact doubles.
inline constexpr int64_t kMaxCanaries = int64_t{1} << 53;

// The validation LowerBound() applies (for callers that read the arguments
// from flags or requests): 1 <= m <= kMaxCanaries, 0 <= r <= m, 0 <= v <= r,
// delta in [0, 1), beta in (0, 1).
Status ValidateGuessCounts(const GuessCounts& counts, double delta, double beta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_GUESS_COUNTS_GUESS_COUNT_ESTIMATOR_H_
