// Sequential (anytime-valid) auditing of a privacy claim: evidence against
// "the mechanism is (eps, delta)-DP" (or "is mu-GDP") accumulated round by
// round, valid whenever the auditor stops, without a sample size fixed in
// advance.
//
// REFERENCES
//  [GDRR] Tomás González, Mateo Dulce-Rubio, Aaditya Ramdas, Mónica Ribero.
//         "Sequentially Auditing Differential Privacy." NeurIPS 2025,
//         arXiv:2509.07055.
//  [KDWZ] Tim Kutta, Martin Dunsche, Yu Wei, Vassilis Zikas. "Sequential
//         Auditing for f-Differential Privacy." arXiv:2602.06518, 2026.
//  [CO]   Ashok Cutkosky, Francesco Orabona. "Black-Box Reductions for
//         Parameter-free Online Learning in Banach Spaces." COLT 2018
//         (online Newton step for betting; also Shekhar & Ramdas,
//         "Nonparametric Two-Sample Testing by Betting", IEEE Trans. Inf.
//         Theory 70(2), 2024, Def. 5).
//  [DRS]  Jinshuo Dong, Aaron Roth, Weijie J. Su. "Gaussian Differential
//         Privacy." JRSS B 84(1), 2022.
//
// WHAT IS OBSERVED. Each round is one of two kinds, chosen before the round:
//  - a GAME round (the distinguishing game): the auditor flips a fair coin
//    truth ~ Bernoulli(1/2), runs the mechanism afresh on the neighbour
//    `truth` picks (1 = with the target, 0 = without), and a guess in {0, 1}
//    is made from the output alone by a rule fixed before the round (given
//    directly, or as score > threshold with the pre-registered threshold).
//    The round's statistic is X = 1[guess == truth].
//  - a PAIR round ([GDRR]'s two-sample form): one fresh output of each
//    neighbour, scored; Z = 1[member_score > threshold] -
//    1[nonmember_score > threshold] in {-1, 0, 1}.
// Rounds must be fresh runs given the past (the mechanism may even change
// between rounds, as long as each round's run satisfies the claim). Abstaining
// is not supported: a stream of only confident guesses is not covered by the
// bounds below when delta > 0.
//
// WHAT IS TESTED. A fixed guessing rule is a test with rates (FPR, TPR)
// (guess 1 without / with the target). Under the null hypothesis
//  - (eps, delta)-DP: (FPR, TPR) lies in the privacy region TPR <= e^eps FPR +
//    delta, 1 - FPR <= e^eps (1 - TPR) + delta (Kairouz, Oh & Viswanath,
//    ICML 2015, Thm 2.1). TPR - FPR is linear, so its maximum is at the
//    region's vertex where both constraints bind, FPR = (1-delta)/(1+e^eps):
//        tau(eps, delta) = max (TPR - FPR) = (e^eps - 1 + 2 delta)/(e^eps + 1);
//  - mu-GDP ([DRS] Def. 2.6; the f-DP null of [KDWZ] with f the Gaussian
//    trade-off G_mu): TPR <= 1 - G_mu(FPR) = Phi(Phi^-1(FPR) + mu); the
//    maximum of Phi(z + mu) - Phi(z) is at z = -mu/2:
//        tau(mu) = 2 Phi(mu/2) - 1.
// A game round is correct with probability 1/2 + (TPR - FPR)/2, so
//        E[X | past] <= p0 = (1 + tau)/2   ((e^eps + delta)/(e^eps + 1); Phi(mu/2)),
// and a pair round has E[Z | past] = TPR - FPR <= tau. Both bounds are
// attained (randomized response with eps plus a delta chance of revealing
// the coin; the Gaussian mechanism thresholded at mu/2), so they are the
// exact boundary of each null for a single fixed rule.
//
// THE E-PROCESS (one per hypothesis). The round's payoff, normalised to
// [-1, 1] with mean <= 0 under the null, is
//        u = (X - p0)/p0   (game),     u = (Z - tau)/(1 + tau)   (pair),
// and the wealth is K_t = prod_{i<=t} (1 + b_i u_i) with b_i in [0, 1/2]
// chosen from rounds before i by the online Newton step [CO]:
//        g = -u/(1 + b u),  A <- A + g^2 (A_0 = 1),
//        b <- clip(b - 2/(2 - ln 3) g/A, 0, 1/2),   b_1 = 0.
// VALIDITY: under the null E[u_t | past] <= 0 and b_t >= 0 is fixed before
// round t, so E[1 + b_t u_t | past] <= 1 and 1 + b_t u_t >= 1/2 > 0: K is a
// nonnegative supermartingale with K_0 = 1, and by Ville's inequality
// P(K_t >= 1/alpha for some t) <= alpha. A hypothesis is rejected at the
// first round with K_t >= 1/alpha and stays rejected (the statement "K
// crossed 1/alpha at some time" is the one Ville's inequality controls, so
// stopping, continuing or peeking never inflates the error). Game and pair
// rounds may be mixed in one stream: each round's factor has mean <= 1 on
// its own.
//
// THE LOWER BOUND ON EPS. One e-process runs for each eps of a fixed grid
// (DefaultSequentialEpsilonGrid(): 0, 0.1, ..., 10, 101 values, or the
// caller's strictly increasing list) and each mu of an optional grid;
// O(grid) work per round. The nulls are nested (eps-DP implies eps'-DP for
// eps' > eps), so they are tested in a fixed sequence: the reported
// largest_rejected_epsilon is the largest grid eps such that it AND EVERY
// SMALLER GRID VALUE have been rejected. If the mechanism is eps*-DP, that
// exceeds eps* only if the e-process of the smallest grid value >= eps*, a
// true null, crossed: probability <= alpha, at all times at once. (Taking
// the largest rejected eps without the prefix condition, as [GDRR]'s
// notebook does, is not covered by this argument.) The same holds for mu.
//
// RELATION TO [GDRR]. Its Thm 3.2 process prod (1 + lambda[f(X_i) - f(Y_i) -
// tau']) on pairs, with tau' its bound on the witness' mean difference, is
// the pair round above with the witness f fixed in advance as the threshold
// indicator (tau' = tau for a {0,1}-valued witness); its Alg. 1 additionally
// learns a kernel (MMD) witness online, which needs the raw outputs and O(t)
// work per round and is not implemented here: this auditor takes outcomes,
// or scores with a pre-registered threshold. [GDRR]'s code caps the ONS bet
// at 1/4 in the normalised units above; [CO]'s 1/2 is used here (any bet in
// [0, 1/2] fixed before the round is valid; the cap only affects power). The game rounds and the
// prefix rule are this implementation's, not the paper's. [KDWZ] contributes the mu-GDP (f-DP)
// null; its own procedure (APT) is not reproduced, only the bound tau(mu) derived above enters this
// e-process.
//
// STATE: everything the next round needs (options, counts, each process'
// log-wealth, bet, A and rejection round) is SequentialAuditState, written
// and read exactly (hexadecimal floats) by SerializeSequentialAuditState /
// ParseSequentialAuditState: resuming from a stored state gives the same
// answer, bit for bit, as never stopping.
#ifndef PRIVBENCH_ESTIMATORS_SEQUENTIAL_SEQUENTIAL_AUDIT_H_
#define PRIVBENCH_ESTIMATORS_SEQUENTIAL_SEQUENTIAL_AUDIT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace privbench {

// Work bounds: grid sizes, and rounds times hypotheses per call.
inline constexpr int64_t kMaxSequentialGridSize = 10000;
inline constexpr double kMaxSequentialWorkPerCall = 1e9;

// 0, 0.1, 0.2, ..., 10 (101 values).
std::vector<double> DefaultSequentialEpsilonGrid();

struct SequentialAuditOptions {
  double alpha = 0.05;              // level: in (0, 1)
  double delta = 0.0;               // of every (eps, delta)-DP null: in [0, 1)
  std::vector<double> epsilons;     // finite, >= 0, strictly increasing; empty = the default grid
  std::vector<double> mus;          // mu-GDP nulls: finite, > 0, strictly increasing; may be empty
  std::optional<double> threshold;  // the pre-registered rule: score > threshold guesses "in"
};

// Errors name the field: alpha, delta, epsilons[i], mus[i], threshold.
Status ValidateSequentialAuditOptions(const SequentialAuditOptions& options);

// The null bounds of one hypothesis (see WHAT IS TESTED): tau on a pair
// round's Z and p0 = (1 + tau)/2 on a game round's X.
struct NullBounds {
  double tau = 0.0;
  double p0 = 0.5;
};
NullBounds DpNullBounds(double epsilon, double delta);
NullBounds GdpNullBounds(double mu);

// One hypothesis' e-process.
struct BettingProcess {
  double log_wealth = 0.0;       // ln K_t
  double bet = 0.0;              // b for the next round, in [0, 1/2]
  double gradient_sum_sq = 1.0;  // A, >= 1
  int64_t rejected_at = 0;       // first round with K >= 1/alpha; 0 = not (yet) rejected
};

struct SequentialAuditState {
  SequentialAuditOptions options;  // with the grid filled in
  int64_t game_rounds = 0;
  int64_t correct_guesses = 0;
  int64_t pair_rounds = 0;
  int64_t pair_difference_sum = 0;  // sum of Z over the pair rounds
  std::vector<BettingProcess> dp;   // one per options.epsilons[i]
  std::vector<BettingProcess> gdp;  // one per options.mus[j]
};

std::string SerializeSequentialAuditState(const SequentialAuditState& state);
// Errors start with "state: " and name the line.
Result<SequentialAuditState> ParseSequentialAuditState(std::string_view text);

struct NullVerdict {
  double parameter = 0.0;  // eps or mu
  NullBounds bounds;
  double e_value = 1.0;     // K_t (may be +inf)
  int64_t rejected_at = 0;  // 0 = not rejected
};

struct SequentialAuditReport {
  int64_t rounds = 0;
  int64_t game_rounds = 0;
  int64_t correct_guesses = 0;
  int64_t pair_rounds = 0;
  int64_t pair_difference_sum = 0;
  std::vector<NullVerdict> dp;   // per grid eps, at options.delta
  std::vector<NullVerdict> gdp;  // per grid mu
  // The prefix rule (see THE LOWER BOUND ON EPS); nullopt when the smallest
  // grid value is not rejected.
  std::optional<double> largest_rejected_epsilon;
  std::optional<double> largest_rejected_mu;
};

class SequentialAuditor {
 public:
  // Errors: ValidateSequentialAuditOptions's.
  static Result<SequentialAuditor> Start(const SequentialAuditOptions& options);
  // A stored state, checked (options, counts, every process' fields).
  static Result<SequentialAuditor> Resume(const SequentialAuditState& state);

  // Game rounds, in order. guesses[i], truths[i] in {0, 1}; equal lengths.
  // Every element is checked before any round is played: on error nothing
  // changes. Errors name the element (truths[3] must be 0 or 1, got 2).
  Status AddGuesses(const std::vector<int64_t>& guesses, const std::vector<int64_t>& truths);
  // Game rounds with guess = 1[scores[i] > threshold]; needs the threshold;
  // scores may be +-inf, not NaN.
  Status AddScores(const std::vector<double>& scores, const std::vector<int64_t>& truths);
  // Pair rounds; needs the threshold; equal lengths, no NaN.
  Status AddPairs(const std::vector<double>& member_scores,
                  const std::vector<double>& nonmember_scores);

  const SequentialAuditState& state() const { return state_; }
  SequentialAuditReport Report() const;

 private:
  explicit SequentialAuditor(SequentialAuditState state);
  Status CheckWork(size_t rounds) const;
  void PlayGameRound(bool correct);
  void PlayPairRound(int z);
  template <typename Payoff>
  void BetEveryNull(const Payoff& payoff);

  SequentialAuditState state_;
  std::vector<NullBounds> dp_bounds_, gdp_bounds_;  // cached from the options
};

// One call of the CLI op / Python function: start (or resume from `state`,
// a SerializeSequentialAuditState text), play one kind of rounds, report.
// With a state, alpha/delta/epsilons/mus/threshold may be omitted and must
// equal the state's when given (a running audit's nulls and level are
// fixed); an empty epsilons or mus list is refused (omit it instead).
// Observations: guesses + truths, or scores + truths, or member_scores +
// nonmember_scores, or none (report only).
struct SequentialAuditRequest {
  std::optional<std::string> state;
  std::optional<double> alpha, delta, threshold;
  std::optional<std::vector<double>> epsilons, mus;
  std::optional<std::vector<int64_t>> guesses, truths;
  std::optional<std::vector<double>> scores, member_scores, nonmember_scores;
};

struct SequentialAuditResponse {
  SequentialAuditOptions options;  // the audit's (the state's), grid filled in
  SequentialAuditReport report;
  std::string state;  // to pass back to continue
};

Result<SequentialAuditResponse> RunSequentialAudit(const SequentialAuditRequest& request);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SEQUENTIAL_SEQUENTIAL_AUDIT_H_
