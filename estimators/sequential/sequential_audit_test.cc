// Deterministic tests of the sequential auditor (sequential_audit.h): the
// betting arithmetic where it has a closed form, the null bounds against a
// brute-force search of the privacy regions, the prefix rule, restart
// equality through the stored text, and bad input.
#include "estimators/sequential/sequential_audit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace privbench {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

SequentialAuditOptions Options(std::vector<double> epsilons, double alpha = 0.05) {
  SequentialAuditOptions o;
  o.alpha = alpha;
  o.epsilons = std::move(epsilons);
  return o;
}

SequentialAuditor Start(const SequentialAuditOptions& o) {
  auto a = SequentialAuditor::Start(o);
  EXPECT_TRUE(a.ok()) << a.message();
  return std::move(a).value();
}

// At eps = 0, delta = 0 the null bound is p0 = 1/2 and a correct guess pays
// u = 1. The first bet is 0; after it the ONS step 2/(2 - ln 3) * 1/2 > 1/2
// clips the bet to 1/2, where every later correct guess keeps it. So the
// wealth after n correct guesses is exactly 1.5^(n-1), and it first reaches
// 1/alpha = 20 at n = 9 (1.5^8 = 25.6 > 20 > 1.5^7 = 17.1).
TEST(SequentialAudit, AllCorrectAtEpsilonZeroGrowsByHalfEachRound) {
  SequentialAuditor a = Start(Options({0.0}));
  for (int n = 1; n <= 12; ++n) {
    ASSERT_TRUE(a.AddGuesses({1}, {1}).ok());
    const SequentialAuditReport r = a.Report();
    EXPECT_NEAR(r.dp[0].e_value, std::pow(1.5, n - 1), 1e-12 * std::pow(1.5, n)) << n;
    EXPECT_EQ(r.dp[0].rejected_at, n >= 9 ? 9 : 0) << n;
  }
  EXPECT_EQ(a.Report().largest_rejected_epsilon, 0.0);
  // Pair rounds at tau = 0: Z = 1 pays the same, Z = 0 pays nothing.
  SequentialAuditOptions o = Options({0.0});
  o.threshold = 0.5;
  SequentialAuditor pairs = Start(o);
  ASSERT_TRUE(pairs.AddPairs({0.0, 0.0}, {0.0, 0.0}).ok());  // Z = 0, 0
  EXPECT_EQ(pairs.Report().dp[0].e_value, 1.0);
  ASSERT_TRUE(pairs.AddPairs({1, 1, 1, 1}, {0, 0, 0, 0}).ok());  // Z = 1 x 4
  EXPECT_NEAR(pairs.Report().dp[0].e_value, std::pow(1.5, 3), 1e-12);
  EXPECT_EQ(pairs.Report().pair_difference_sum, 4);
}

// Wrong guesses at p0 = 1/2 pay u = -1; the ONS step then keeps the bet at
// 0, so the wealth never moves.
TEST(SequentialAudit, WrongGuessesNeverBet) {
  SequentialAuditor a = Start(Options({0.0, 1.0}));
  ASSERT_TRUE(a.AddGuesses(std::vector<int64_t>(50, 1), std::vector<int64_t>(50, 0)).ok());
  const SequentialAuditReport r = a.Report();
  EXPECT_EQ(r.dp[0].e_value, 1.0);
  EXPECT_EQ(r.dp[1].e_value, 1.0);
  EXPECT_EQ(r.game_rounds, 50);
  EXPECT_EQ(r.correct_guesses, 0);
  EXPECT_FALSE(r.largest_rejected_epsilon.has_value());
}

// tau is the largest TPR - FPR over the privacy region: a brute-force scan
// of FPR (for (eps, delta)-DP, the largest TPR the two constraints allow;
// for mu-GDP the trade-off curve TPR = Phi(z + mu), FPR = Phi(z)).
TEST(SequentialAudit, NullBoundsAreTheMaximaOfThePrivacyRegions) {
  for (double eps : {0.0, 0.3, 1.0, 3.0}) {
    for (double delta : {0.0, 1e-3, 0.2}) {
      double best = 0;
      for (int i = 0; i <= 200000; ++i) {
        const double fpr = i / 200000.0;
        const double tpr =
            std::min({1.0, std::exp(eps) * fpr + delta, 1.0 - (1.0 - fpr - delta) / std::exp(eps)});
        best = std::max(best, tpr - fpr);
      }
      const NullBounds b = DpNullBounds(eps, delta);
      EXPECT_NEAR(b.tau, best, 2e-5) << eps << " " << delta;
      EXPECT_GE(b.tau, best - 1e-15);
      EXPECT_NEAR(b.p0, (std::exp(eps) + delta) / (1 + std::exp(eps)), 1e-15);
    }
  }
  const auto phi = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
  for (double mu : {0.01, 0.5, 1.0, 4.0}) {
    double best = 0;
    for (int i = -200000; i <= 200000; ++i) {
      const double z = i * 1e-4;
      best = std::max(best, phi(z + mu) - phi(z));
    }
    const NullBounds b = GdpNullBounds(mu);
    EXPECT_NEAR(b.tau, best, 1e-9) << mu;
    EXPECT_GE(b.tau, best - 1e-15);
    EXPECT_NEAR(b.p0, phi(mu / 2), 1e-15);
  }
  // eps large enough that e^eps overflows: tau = p0 = 1, no bet can win.
  EXPECT_EQ(DpNullBounds(1000.0, 0.0).p0, 1.0);
}

// A stored state where rejections are not a prefix of the grid.
SequentialAuditState StateWithRejections(std::vector<int64_t> rejected_at) {
  SequentialAuditState s;
  s.options = Options({0.0, 0.5, 1.0});
  s.game_rounds = 5;
  s.correct_guesses = 5;
  for (int64_t at : rejected_at) s.dp.push_back(BettingProcess{0.0, 0.5, 3.0, at});
  return s;
}

TEST(SequentialAudit, LowerBoundIsTheRejectedPrefixOfTheGrid) {
  const auto largest = [](std::vector<int64_t> at) {
    auto a = SequentialAuditor::Resume(StateWithRejections(std::move(at)));
    EXPECT_TRUE(a.ok()) << a.message();
    return a->Report().largest_rejected_epsilon;
  };
  EXPECT_EQ(largest({0, 3, 3}), std::nullopt);  // 0.5 and 1 rejected, 0 not: no bound
  EXPECT_EQ(largest({3, 0, 3}), 0.0);
  EXPECT_EQ(largest({3, 4, 0}), 0.5);
  EXPECT_EQ(largest({3, 4, 5}), 1.0);
}

// 400 rounds of every kind from a fixed stream, played straight through or
// stopped after `split`, stored as text, read back and resumed.
struct Rounds {
  std::vector<int64_t> guesses, truths, score_truths;
  std::vector<double> scores, members, nonmembers;
};

Rounds MakeRounds() {
  std::mt19937_64 rng(7);
  Rounds r;
  for (int i = 0; i < 400; ++i) {
    r.truths.push_back(rng() % 2);
    r.guesses.push_back(rng() % 10 < 7 ? r.truths.back() : 1 - r.truths.back());
    r.score_truths.push_back(rng() % 2);
    r.scores.push_back(r.score_truths.back() + (rng() % 1000) / 700.0);
    r.members.push_back((rng() % 1000) / 600.0);
    r.nonmembers.push_back((rng() % 1000) / 900.0);
  }
  return r;
}

template <typename T>
std::vector<T> Slice(const std::vector<T>& v, size_t from, size_t to) {
  return std::vector<T>(v.begin() + from, v.begin() + to);
}

void Play(SequentialAuditor& a, const Rounds& r, size_t from, size_t to) {
  ASSERT_TRUE(a.AddGuesses(Slice(r.guesses, from, to), Slice(r.truths, from, to)).ok());
  ASSERT_TRUE(a.AddScores(Slice(r.scores, from, to), Slice(r.score_truths, from, to)).ok());
  ASSERT_TRUE(a.AddPairs(Slice(r.members, from, to), Slice(r.nonmembers, from, to)).ok());
}

TEST(SequentialAudit, ResumingFromTheStoredTextGivesTheSameAnswer) {
  SequentialAuditOptions o;
  o.alpha = 0.01;
  o.delta = 1e-5;
  o.mus = {0.25, 0.5, 1.0};
  o.threshold = 0.9;
  const Rounds r = MakeRounds();
  for (size_t split : {size_t{0}, size_t{1}, size_t{137}, size_t{399}}) {
    // Each call plays its guesses, then its scores, then its pairs: the
    // uninterrupted run makes the same two calls.
    SequentialAuditor straight = Start(o);
    Play(straight, r, 0, split);
    Play(straight, r, split, 400);
    SequentialAuditor first = Start(o);
    Play(first, r, 0, split);
    const std::string stored = SerializeSequentialAuditState(first.state());
    auto parsed = ParseSequentialAuditState(stored);
    ASSERT_TRUE(parsed.ok()) << parsed.message();
    EXPECT_EQ(SerializeSequentialAuditState(*parsed), stored);
    auto resumed = SequentialAuditor::Resume(*parsed);
    ASSERT_TRUE(resumed.ok()) << resumed.message();
    SequentialAuditor second = std::move(resumed).value();
    Play(second, r, split, 400);
    EXPECT_EQ(SerializeSequentialAuditState(second.state()),
              SerializeSequentialAuditState(straight.state()))
        << "split " << split;
  }
  SequentialAuditor straight = Start(o);
  Play(straight, r, 0, 400);
  // The stream does reject something (so the comparison covers rejections).
  const SequentialAuditReport report = straight.Report();
  EXPECT_EQ(report.rounds, 1200);
  EXPECT_GT(report.dp[0].rejected_at, 0);
}

TEST(SequentialAudit, RequestsResumeThroughTheStateText) {
  const Rounds r = MakeRounds();
  SequentialAuditRequest start;
  start.alpha = 0.05;
  start.threshold = 0.9;
  start.scores = Slice(r.scores, 0, 200);
  start.truths = Slice(r.score_truths, 0, 200);
  auto first = RunSequentialAudit(start);
  ASSERT_TRUE(first.ok()) << first.message();
  SequentialAuditRequest next;
  next.state = first->state;
  next.alpha = 0.05;  // the same value is accepted
  next.scores = Slice(r.scores, 200, 400);
  next.truths = Slice(r.score_truths, 200, 400);
  auto second = RunSequentialAudit(next);
  ASSERT_TRUE(second.ok()) << second.message();
  start.scores = r.scores;
  start.truths = r.score_truths;
  auto whole = RunSequentialAudit(start);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(second->state, whole->state);
  EXPECT_EQ(second->report.rounds, 400);
  // A report without new rounds.
  SequentialAuditRequest look;
  look.state = whole->state;
  auto seen = RunSequentialAudit(look);
  ASSERT_TRUE(seen.ok());
  EXPECT_EQ(seen->state, whole->state);
}

// ---- bad input: every error names the argument.

std::string StartError(const SequentialAuditOptions& o) {
  return SequentialAuditor::Start(o).message();
}

TEST(SequentialAudit, BadOptionsNameTheArgument) {
  SequentialAuditOptions o = Options({0.0, 1.0});
  for (double alpha : {0.0, 1.0, kNan}) {
    o.alpha = alpha;
    EXPECT_EQ(StartError(o).rfind("alpha must be in (0, 1), got ", 0), 0u) << alpha;
  }
  o.alpha = 0.05;
  o.delta = 1.0;
  EXPECT_EQ(StartError(o), "delta must be in [0, 1), got 1");
  o.delta = -0.1;
  EXPECT_EQ(StartError(o), "delta must be in [0, 1), got -0.1");
  o.delta = 0;
  o.epsilons = {0.5, -1.0};
  EXPECT_EQ(StartError(o), "epsilons[1] must be finite and >= 0, got -1");
  o.epsilons = {1.0, 0.5};
  EXPECT_EQ(StartError(o),
            "epsilons must be strictly increasing: epsilons[1]=0.5 after epsilons[0]=1");
  o.epsilons = std::vector<double>(10001, 0.0);
  EXPECT_EQ(StartError(o).rfind("epsilons must have at most 10000 values", 0), 0u);
  o.epsilons = {};
  o.mus = {0.0};
  EXPECT_EQ(StartError(o), "mus[0] must be finite and > 0, got 0");
  o.mus = {1.0, kNan};
  EXPECT_EQ(StartError(o), "mus[1] must be finite and > 0, got nan");
  o.mus = {};
  o.threshold = kNan;
  EXPECT_EQ(StartError(o), "threshold must be finite, got nan");
  // Omitted epsilons mean the default grid.
  o.threshold.reset();
  EXPECT_EQ(Start(o).state().options.epsilons, DefaultSequentialEpsilonGrid());
  EXPECT_EQ(DefaultSequentialEpsilonGrid().size(), 101u);
  EXPECT_EQ(DefaultSequentialEpsilonGrid().back(), 10.0);
}

TEST(SequentialAudit, BadRoundsNameTheElementAndChangeNothing) {
  SequentialAuditor a = Start(Options({0.0}));
  EXPECT_EQ(a.AddGuesses({1, 0, 1}, {1, 2, 1}).message(), "truths[1] must be 0 or 1, got 2");
  EXPECT_EQ(a.AddGuesses({1, -1}, {1, 1}).message(), "guesses[1] must be 0 or 1, got -1");
  EXPECT_EQ(a.AddGuesses({1}, {1, 1}).message(),
            "guesses and truths must have the same length, got 1 and 2");
  EXPECT_EQ(a.AddScores({1.0}, {1}).message(),
            "scores need the pre-registered threshold, set when the audit starts");
  EXPECT_EQ(a.Report().rounds, 0);  // nothing was played
  SequentialAuditOptions o = Options({0.0});
  o.threshold = 0.0;
  SequentialAuditor s = Start(o);
  EXPECT_EQ(s.AddScores({1.0, kNan}, {1, 1}).message(), "scores[1] must not be NaN");
  EXPECT_EQ(s.AddPairs({1.0}, {kNan}).message(), "nonmember_scores[0] must not be NaN");
  EXPECT_EQ(s.AddPairs({1.0}, {}).message(),
            "member_scores and nonmember_scores must have the same length, got 1 and 0");
  EXPECT_TRUE(s.AddScores({INFINITY, -INFINITY}, {1, 0}).ok());  // infinite scores are guesses
  EXPECT_EQ(s.Report().correct_guesses, 2);
  // Work bound: rounds x hypotheses per call.
  SequentialAuditOptions big = Options(std::vector<double>(10000));
  for (int i = 0; i < 10000; ++i) big.epsilons[i] = i * 1e-3;
  SequentialAuditor b = Start(big);
  const std::vector<int64_t> ones(100001, 1);
  EXPECT_EQ(b.AddGuesses(ones, ones).message().rfind("100001 rounds x 10000 hypotheses exceed", 0),
            0u);
}

TEST(SequentialAudit, RequestsRefuseMixedOrIncompleteRounds) {
  SequentialAuditRequest r;
  r.guesses = std::vector<int64_t>{1};
  r.scores = std::vector<double>{1.0};
  r.truths = std::vector<int64_t>{1};
  EXPECT_EQ(RunSequentialAudit(r).message().rfind("give one kind of rounds per call", 0), 0u);
  r.scores.reset();
  r.truths.reset();
  EXPECT_EQ(RunSequentialAudit(r).message(), "truths is required with guesses");
  r.guesses.reset();
  r.truths = std::vector<int64_t>{1};
  EXPECT_EQ(RunSequentialAudit(r).message(), "truths needs guesses or scores");
  r.truths.reset();
  r.member_scores = std::vector<double>{1.0};
  EXPECT_EQ(RunSequentialAudit(r).message(),
            "member_scores and nonmember_scores go together (one pair round each)");
  SequentialAuditRequest empty;
  empty.epsilons = std::vector<double>{};
  EXPECT_EQ(RunSequentialAudit(empty).message(),
            "epsilons must be non-empty (leave it out for the default grid)");
  empty.epsilons.reset();
  empty.mus = std::vector<double>{};
  EXPECT_EQ(RunSequentialAudit(empty).message(),
            "mus must be non-empty (leave it out for no mu-GDP nulls)");
}

TEST(SequentialAudit, ResumingRefusesOtherOptions) {
  SequentialAuditRequest start;
  start.alpha = 0.05;
  start.epsilons = std::vector<double>{0.0, 1.0};
  auto first = RunSequentialAudit(start);
  ASSERT_TRUE(first.ok()) << first.message();
  SequentialAuditRequest next;
  next.state = first->state;
  next.alpha = 0.1;
  EXPECT_EQ(RunSequentialAudit(next).message(),
            "alpha=0.1 differs from the state's 0.05 (a running audit's level, nulls and "
            "threshold are fixed at its start)");
  next.alpha.reset();
  next.epsilons = std::vector<double>{0.0, 2.0};
  EXPECT_EQ(RunSequentialAudit(next).message().rfind(
                "epsilons=[0, 2] differs from the state's [0, 1]", 0),
            0u);
  next.epsilons.reset();
  next.threshold = 1.0;
  EXPECT_EQ(
      RunSequentialAudit(next).message().rfind("threshold=1 differs from the state's none", 0), 0u);
}

TEST(SequentialAudit, CorruptStateTextIsRefusedNamingTheLine) {
  SequentialAuditor a = Start(Options({0.0, 1.0}));
  ASSERT_TRUE(a.AddGuesses({1, 1, 0}, {1, 1, 1}).ok());
  const std::string good = SerializeSequentialAuditState(a.state());
  const auto error = [](const std::string& text) {
    auto s = ParseSequentialAuditState(text);
    if (!s.ok()) return s.message();
    return SequentialAuditor::Resume(*s).message();
  };
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  EXPECT_EQ(error(""), "state: line 1: missing (the text ends early)");
  EXPECT_EQ(
      error("hello\n").rfind("state: line 1: expected 'privbench sequential_audit state v1'", 0),
      0u);
  EXPECT_EQ(error(good.substr(0, good.size() / 2)).rfind("state: line ", 0), 0u);
  EXPECT_EQ(error(good + "x"), "state: line 13: text after 'end'");
  EXPECT_EQ(error(replaced("game_rounds 3", "game_rounds three")),
            "state: line 5: game_rounds must be an integer, got 'three'");
  EXPECT_EQ(error(replaced("alpha 0x", "alpha 1x")).rfind("state: line 2: alpha must be a hex", 0),
            0u);
  EXPECT_EQ(error(replaced("correct_guesses 2", "correct_guesses 4")),
            "state: correct_guesses must be in [0, game_rounds]");
  // The first process line: "0x0p+0 <log_wealth> <bet> <A> <rejected_at>".
  const size_t line = good.find("epsilons 2\n") + 11;
  std::string bet = good;
  bet.replace(line, good.find('\n', line) - line, "0x0p+0 0x0p+0 0x1.8p-1 0x1p+0 0");
  EXPECT_EQ(error(bet), "state: epsilons[0]: bet must be in [0, 0.5], got 0.75");
  std::string rich = good;
  rich.replace(line, good.find('\n', line) - line, "0x0p+0 0x1p+3 0x0p+0 0x1p+0 0");
  EXPECT_EQ(error(rich), "state: epsilons[0]: wealth above 1/alpha but not marked rejected");
  std::string late = good;
  late.replace(line, good.find('\n', line) - line, "0x0p+0 0x0p+0 0x0p+0 0x1p+0 4");
  EXPECT_EQ(error(late), "state: epsilons[0]: rejected_at must be in [0, rounds=3], got 4");
  EXPECT_EQ(error(replaced("alpha 0x", "alpha -0x")).rfind("state: alpha must be in (0, 1)", 0),
            0u);
}

}  // namespace
}  // namespace privbench
