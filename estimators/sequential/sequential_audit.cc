// The sequential auditor (sequential_audit.h): null bounds, the betting
// e-processes, the prefix rule, and the exact state text.
#include "estimators/sequential/sequential_audit.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "core/format.h"
#include "core/quote.h"
#include "core/validate.h"

namespace privbench {

namespace {

// [CO]'s online Newton step for betting: its exp-concavity constant for
// bets in [0, 1/2] on payoffs in [-1, 1].
const double kOnsScale = 2.0 / (2.0 - std::log(3.0));
constexpr double kMaxBet = 0.5;
// Counts beyond this are refused in a stored state (the next rounds could
// overflow them).
constexpr int64_t kMaxStoredCount = int64_t{1} << 62;
constexpr char kStateHeader[] = "privbench sequential_audit state v1";

std::string Indexed(const std::string& name, size_t i) {
  return name + "[" + std::to_string(i) + "]";
}

Status CheckAlphaOpen(double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    return Error("alpha must be in (0, 1), got " + FormatDouble(alpha));
  }
  return Status::Ok();
}

// Every value finite and >= 0 (> 0 when `positive`), strictly increasing,
// at most kMaxSequentialGridSize values.
Status CheckGrid(const std::string& name, const std::vector<double>& grid, bool positive) {
  if (static_cast<int64_t>(grid.size()) > kMaxSequentialGridSize) {
    return Error(name + " must have at most " + std::to_string(kMaxSequentialGridSize) +
                 " values (work per round), got " + std::to_string(grid.size()));
  }
  for (size_t i = 0; i < grid.size(); ++i) {
    const double x = grid[i];
    const bool ok = std::isfinite(x) && (positive ? x > 0.0 : x >= 0.0);
    if (!ok) {
      return Error(Indexed(name, i) + " must be finite and " + (positive ? "> 0" : ">= 0") +
                   ", got " + FormatDouble(x));
    }
    if (i > 0 && !(x > grid[i - 1])) {
      return Error(name + " must be strictly increasing: " + Indexed(name, i) + "=" +
                   FormatDouble(x) + " after " + Indexed(name, i - 1) + "=" +
                   FormatDouble(grid[i - 1]));
    }
  }
  return Status::Ok();
}

// ---- one round's payoff, normalised to [-1, 1] with null mean <= 0.

double GamePayoff(bool correct, const NullBounds& b) {
  return ((correct ? 1.0 : 0.0) - b.p0) / b.p0;
}

double PairPayoff(int z, const NullBounds& b) { return (z - b.tau) / (1.0 + b.tau); }

// K <- K (1 + b u), the rejection check, then [CO]'s ONS update of b.
void Bet(BettingProcess& p, double payoff, double log_level, int64_t round) {
  const double factor = 1.0 + p.bet * payoff;
  p.log_wealth += std::log1p(p.bet * payoff);
  if (p.rejected_at == 0 && p.log_wealth >= log_level) p.rejected_at = round;
  const double gradient = -payoff / factor;
  p.gradient_sum_sq += gradient * gradient;
  p.bet = std::clamp(p.bet - kOnsScale * gradient / p.gradient_sum_sq, 0.0, kMaxBet);
}

// The largest grid value such that it and every smaller one are rejected.
std::optional<double> LargestRejectedPrefix(const std::vector<NullVerdict>& verdicts) {
  std::optional<double> largest;
  for (const NullVerdict& v : verdicts) {
    if (v.rejected_at == 0) break;
    largest = v.parameter;
  }
  return largest;
}

std::vector<NullVerdict> Verdicts(const std::vector<double>& grid,
                                  const std::vector<NullBounds>& bounds,
                                  const std::vector<BettingProcess>& processes) {
  std::vector<NullVerdict> out;
  for (size_t i = 0; i < grid.size(); ++i) {
    out.push_back(
        {grid[i], bounds[i], std::exp(processes[i].log_wealth), processes[i].rejected_at});
  }
  return out;
}

Status CheckProcess(const std::string& name, const BettingProcess& p, int64_t rounds,
                    double log_level) {
  if (!std::isfinite(p.log_wealth)) return Error(name + ": log_wealth must be finite");
  if (!(p.bet >= 0.0 && p.bet <= kMaxBet)) {
    return Error(name + ": bet must be in [0, 0.5], got " + FormatDouble(p.bet));
  }
  if (!(std::isfinite(p.gradient_sum_sq) && p.gradient_sum_sq >= 1.0)) {
    return Error(name + ": gradient_sum_sq must be finite and >= 1, got " +
                 FormatDouble(p.gradient_sum_sq));
  }
  if (p.rejected_at < 0 || p.rejected_at > rounds) {
    return Error(name + ": rejected_at must be in [0, rounds=" + std::to_string(rounds) +
                 "], got " + std::to_string(p.rejected_at));
  }
  if (p.rejected_at == 0 && p.log_wealth >= log_level) {
    return Error(name + ": wealth above 1/alpha but not marked rejected");
  }
  return Status::Ok();
}

Status CheckCounts(const SequentialAuditState& s) {
  if (s.game_rounds < 0 || s.game_rounds > kMaxStoredCount || s.pair_rounds < 0 ||
      s.pair_rounds > kMaxStoredCount) {
    return Error("state: game_rounds and pair_rounds must be in [0, 2^62]");
  }
  if (s.correct_guesses < 0 || s.correct_guesses > s.game_rounds) {
    return Error("state: correct_guesses must be in [0, game_rounds]");
  }
  if (s.pair_difference_sum < -s.pair_rounds || s.pair_difference_sum > s.pair_rounds) {
    return Error("state: pair_difference_sum must be in [-pair_rounds, pair_rounds]");
  }
  return Status::Ok();
}

Status CheckProcesses(const SequentialAuditState& s) {
  if (s.dp.size() != s.options.epsilons.size() || s.gdp.size() != s.options.mus.size()) {
    return Error("state: one process per grid value is needed");
  }
  const int64_t rounds = s.game_rounds + s.pair_rounds;
  const double log_level = -std::log(s.options.alpha);
  for (size_t i = 0; i < s.dp.size(); ++i) {
    PB_RETURN_IF_ERROR(
        CheckProcess("state: " + Indexed("epsilons", i), s.dp[i], rounds, log_level));
  }
  for (size_t i = 0; i < s.gdp.size(); ++i) {
    PB_RETURN_IF_ERROR(CheckProcess("state: " + Indexed("mus", i), s.gdp[i], rounds, log_level));
  }
  return Status::Ok();
}

// ---- the state text: one "key value" per line, doubles as C99 hex floats.

std::string Hex(double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%a", x);
  return buf;
}

std::string ProcessLine(double parameter, const BettingProcess& p) {
  return Hex(parameter) + " " + Hex(p.log_wealth) + " " + Hex(p.bet) + " " +
         Hex(p.gradient_sum_sq) + " " + std::to_string(p.rejected_at) + "\n";
}

// A hex float as Hex writes it ("-0x1.8p+1"), the whole token.
std::optional<double> ParseHex(std::string_view t) {
  bool negative = false;
  if (!t.empty() && t[0] == '-') {
    negative = true;
    t.remove_prefix(1);
  }
  if (t.size() < 3 || t.substr(0, 2) != "0x") return std::nullopt;
  t.remove_prefix(2);
  double x = 0.0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x, std::chars_format::hex);
  if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return negative ? -x : x;
}

std::optional<int64_t> ParseInt(std::string_view t) {
  int64_t x = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) return std::nullopt;
  return x;
}

std::vector<std::string_view> Split(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= line.size()) {
    const size_t end = std::min(line.find(' ', start), line.size());
    out.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Reads the state text line by line; errors name the line.
class StateReader {
 public:
  explicit StateReader(std::string_view text) : text_(text) {}

  Error Fail(const std::string& what) const {
    return Error("state: line " + std::to_string(line_number_) + ": " + what);
  }
  Result<std::string_view> Line() {
    ++line_number_;
    if (pos_ >= text_.size()) return Fail("missing (the text ends early)");
    const size_t end = std::min(text_.find('\n', pos_), text_.size());
    const std::string_view line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return line;
  }
  // "key <value>" with one value token.
  Result<std::string_view> Keyed(std::string_view key) {
    PB_ASSIGN_OR_RETURN(const std::string_view line, Line());
    const std::vector<std::string_view> t = Split(line);
    if (t.size() != 2 || t[0] != key) {
      return Fail("expected '" + std::string(key) + " <value>', got " + QuoteText(line));
    }
    return t[1];
  }
  Result<int64_t> KeyedInt(std::string_view key) {
    PB_ASSIGN_OR_RETURN(const std::string_view v, Keyed(key));
    const std::optional<int64_t> x = ParseInt(v);
    if (!x) return Fail(std::string(key) + " must be an integer, got " + QuoteText(v));
    return *x;
  }
  Result<double> KeyedHex(std::string_view key) {
    PB_ASSIGN_OR_RETURN(const std::string_view v, Keyed(key));
    const std::optional<double> x = ParseHex(v);
    if (!x) return Fail(std::string(key) + " must be a hex float, got " + QuoteText(v));
    return *x;
  }
  // "<parameter> <log_wealth> <bet> <A> <rejected_at>".
  Result<std::pair<double, BettingProcess>> Process() {
    PB_ASSIGN_OR_RETURN(const std::string_view line, Line());
    const std::vector<std::string_view> t = Split(line);
    const auto bad = [&] {
      return Fail("expected '<parameter> <log_wealth> <bet> <A> <rejected_at>', got " +
                  QuoteText(line));
    };
    if (t.size() != 5) return bad();
    const auto parameter = ParseHex(t[0]), log_wealth = ParseHex(t[1]), bet = ParseHex(t[2]),
               a = ParseHex(t[3]);
    const auto rejected_at = ParseInt(t[4]);
    if (!parameter || !log_wealth || !bet || !a || !rejected_at) return bad();
    return std::make_pair(*parameter, BettingProcess{*log_wealth, *bet, *a, *rejected_at});
  }
  // "<key> <count>" then count process lines.
  Status Grid(std::string_view key, std::vector<double>* grid,
              std::vector<BettingProcess>* processes) {
    PB_ASSIGN_OR_RETURN(const int64_t n, KeyedInt(key));
    if (n < 0 || n > kMaxSequentialGridSize) {
      return Fail(std::string(key) + " count must be in [0, " +
                  std::to_string(kMaxSequentialGridSize) + "], got " + std::to_string(n));
    }
    for (int64_t i = 0; i < n; ++i) {
      PB_ASSIGN_OR_RETURN(const auto row, Process());
      grid->push_back(row.first);
      processes->push_back(row.second);
    }
    return Status::Ok();
  }
  Status End() {
    PB_ASSIGN_OR_RETURN(const std::string_view line, Line());
    if (line != "end") return Fail("expected 'end', got " + QuoteText(line));
    if (pos_ < text_.size()) return Fail("text after 'end'");
    return Status::Ok();
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int64_t line_number_ = 0;
};

// ---- requests

std::string Shown(const std::vector<double>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size() && i < 5; ++i) out += (i ? ", " : "") + FormatDouble(v[i]);
  return out + (v.size() > 5 ? ", ... (" + std::to_string(v.size()) + " values)]" : "]");
}

Error Differs(const std::string& name, const std::string& given, const std::string& stored) {
  return Error(name + "=" + given + " differs from the state's " + stored +
               " (a running audit's level, nulls and threshold are fixed at its start)");
}

Status CheckSameOptions(const SequentialAuditRequest& r, const SequentialAuditOptions& o) {
  if (r.alpha && *r.alpha != o.alpha) {
    return Differs("alpha", FormatDouble(*r.alpha), FormatDouble(o.alpha));
  }
  if (r.delta && *r.delta != o.delta) {
    return Differs("delta", FormatDouble(*r.delta), FormatDouble(o.delta));
  }
  if (r.epsilons && *r.epsilons != o.epsilons) {
    return Differs("epsilons", Shown(*r.epsilons), Shown(o.epsilons));
  }
  if (r.mus && *r.mus != o.mus) return Differs("mus", Shown(*r.mus), Shown(o.mus));
  if (r.threshold && r.threshold != o.threshold) {
    return Differs("threshold", FormatDouble(*r.threshold),
                   o.threshold ? FormatDouble(*o.threshold) : "none");
  }
  return Status::Ok();
}

SequentialAuditOptions OptionsOf(const SequentialAuditRequest& r) {
  SequentialAuditOptions o;
  if (r.alpha) o.alpha = *r.alpha;
  if (r.delta) o.delta = *r.delta;
  if (r.epsilons) o.epsilons = *r.epsilons;
  if (r.mus) o.mus = *r.mus;
  o.threshold = r.threshold;
  return o;
}

Result<SequentialAuditor> AuditorFor(const SequentialAuditRequest& r) {
  if (!r.state) return SequentialAuditor::Start(OptionsOf(r));
  PB_ASSIGN_OR_RETURN(const SequentialAuditState state, ParseSequentialAuditState(*r.state));
  PB_RETURN_IF_ERROR(CheckSameOptions(r, state.options));
  return SequentialAuditor::Resume(state);
}

Status Play(const SequentialAuditRequest& r, SequentialAuditor& auditor) {
  const int kinds =
      (r.guesses ? 1 : 0) + (r.scores ? 1 : 0) + (r.member_scores || r.nonmember_scores ? 1 : 0);
  if (kinds > 1) {
    return Error(
        "give one kind of rounds per call: guesses with truths, scores with truths, or "
        "member_scores with nonmember_scores");
  }
  if (r.truths && !r.guesses && !r.scores) return Error("truths needs guesses or scores");
  if ((r.guesses || r.scores) && !r.truths) {
    return Error(std::string("truths is required with ") + (r.guesses ? "guesses" : "scores"));
  }
  if (r.member_scores.has_value() != r.nonmember_scores.has_value()) {
    return Error("member_scores and nonmember_scores go together (one pair round each)");
  }
  if (r.guesses) return auditor.AddGuesses(*r.guesses, *r.truths);
  if (r.scores) return auditor.AddScores(*r.scores, *r.truths);
  if (r.member_scores) return auditor.AddPairs(*r.member_scores, *r.nonmember_scores);
  return Status::Ok();
}

Status CheckSameLength(const std::string& a, size_t na, const std::string& b, size_t nb) {
  if (na != nb) {
    return Error(a + " and " + b + " must have the same length, got " + std::to_string(na) +
                 " and " + std::to_string(nb));
  }
  return Status::Ok();
}

Status CheckBits(const std::string& name, const std::vector<int64_t>& v) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] != 0 && v[i] != 1) {
      return Error(Indexed(name, i) + " must be 0 or 1, got " + std::to_string(v[i]));
    }
  }
  return Status::Ok();
}

Status CheckNotNan(const std::string& name, const std::vector<double>& v) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) return Error(Indexed(name, i) + " must not be NaN");
  }
  return Status::Ok();
}

}  // namespace

std::vector<double> DefaultSequentialEpsilonGrid() {
  std::vector<double> grid;
  for (int k = 0; k <= 100; ++k) grid.push_back(k / 10.0);
  return grid;
}

Status ValidateSequentialAuditOptions(const SequentialAuditOptions& o) {
  PB_RETURN_IF_ERROR(CheckAlphaOpen(o.alpha));
  PB_RETURN_IF_ERROR(CheckDelta(o.delta));
  PB_RETURN_IF_ERROR(CheckGrid("epsilons", o.epsilons, /*positive=*/false));
  PB_RETURN_IF_ERROR(CheckGrid("mus", o.mus, /*positive=*/true));
  if (o.threshold) PB_RETURN_IF_ERROR(CheckFinite("threshold", *o.threshold));
  return Status::Ok();
}

NullBounds DpNullBounds(double epsilon, double delta) {
  // 1 - 2(1 - delta)/(1 + e^eps): no cancellation of e^eps terms, and
  // exactly 1 once e^eps overflows.
  const double tau = 1.0 - 2.0 * (1.0 - delta) / (1.0 + std::exp(epsilon));
  return {tau, (1.0 + tau) / 2.0};
}

NullBounds GdpNullBounds(double mu) {
  const double tau = std::erf(mu / (2.0 * std::sqrt(2.0)));  // 2 Phi(mu/2) - 1
  return {tau, (1.0 + tau) / 2.0};
}

std::string SerializeSequentialAuditState(const SequentialAuditState& s) {
  const SequentialAuditOptions& o = s.options;
  std::string out = std::string(kStateHeader) + "\n";
  out += "alpha " + Hex(o.alpha) + "\n";
  out += "delta " + Hex(o.delta) + "\n";
  out += "threshold " + (o.threshold ? Hex(*o.threshold) : std::string("none")) + "\n";
  out += "game_rounds " + std::to_string(s.game_rounds) + "\n";
  out += "correct_guesses " + std::to_string(s.correct_guesses) + "\n";
  out += "pair_rounds " + std::to_string(s.pair_rounds) + "\n";
  out += "pair_difference_sum " + std::to_string(s.pair_difference_sum) + "\n";
  out += "epsilons " + std::to_string(o.epsilons.size()) + "\n";
  for (size_t i = 0; i < o.epsilons.size(); ++i) out += ProcessLine(o.epsilons[i], s.dp[i]);
  out += "mus " + std::to_string(o.mus.size()) + "\n";
  for (size_t i = 0; i < o.mus.size(); ++i) out += ProcessLine(o.mus[i], s.gdp[i]);
  return out + "end\n";
}

Result<SequentialAuditState> ParseSequentialAuditState(std::string_view text) {
  StateReader in(text);
  PB_ASSIGN_OR_RETURN(const std::string_view header, in.Line());
  if (header != kStateHeader) {
    return in.Fail("expected '" + std::string(kStateHeader) + "', got " + QuoteText(header));
  }
  SequentialAuditState s;
  PB_ASSIGN_OR_RETURN(s.options.alpha, in.KeyedHex("alpha"));
  PB_ASSIGN_OR_RETURN(s.options.delta, in.KeyedHex("delta"));
  PB_ASSIGN_OR_RETURN(const std::string_view threshold, in.Keyed("threshold"));
  if (threshold != "none") {
    const std::optional<double> t = ParseHex(threshold);
    if (!t) return in.Fail("threshold must be 'none' or a hex float, got " + QuoteText(threshold));
    s.options.threshold = *t;
  }
  PB_ASSIGN_OR_RETURN(s.game_rounds, in.KeyedInt("game_rounds"));
  PB_ASSIGN_OR_RETURN(s.correct_guesses, in.KeyedInt("correct_guesses"));
  PB_ASSIGN_OR_RETURN(s.pair_rounds, in.KeyedInt("pair_rounds"));
  PB_ASSIGN_OR_RETURN(s.pair_difference_sum, in.KeyedInt("pair_difference_sum"));
  PB_RETURN_IF_ERROR(in.Grid("epsilons", &s.options.epsilons, &s.dp));
  PB_RETURN_IF_ERROR(in.Grid("mus", &s.options.mus, &s.gdp));
  PB_RETURN_IF_ERROR(in.End());
  return s;
}

SequentialAuditor::SequentialAuditor(SequentialAuditState state) : state_(std::move(state)) {
  for (double eps : state_.options.epsilons) {
    dp_bounds_.push_back(DpNullBounds(eps, state_.options.delta));
  }
  for (double mu : state_.options.mus) gdp_bounds_.push_back(GdpNullBounds(mu));
}

Result<SequentialAuditor> SequentialAuditor::Start(const SequentialAuditOptions& options) {
  SequentialAuditState s;
  s.options = options;
  if (s.options.epsilons.empty()) s.options.epsilons = DefaultSequentialEpsilonGrid();
  PB_RETURN_IF_ERROR(ValidateSequentialAuditOptions(s.options));
  s.dp.resize(s.options.epsilons.size());
  s.gdp.resize(s.options.mus.size());
  return SequentialAuditor(std::move(s));
}

Result<SequentialAuditor> SequentialAuditor::Resume(const SequentialAuditState& state) {
  const Status options = ValidateSequentialAuditOptions(state.options);
  if (!options.ok()) return Error("state: " + options.message());
  if (state.options.epsilons.empty()) return Error("state: epsilons must be non-empty");
  PB_RETURN_IF_ERROR(CheckCounts(state));
  PB_RETURN_IF_ERROR(CheckProcesses(state));
  return SequentialAuditor(state);
}

Status SequentialAuditor::CheckWork(size_t rounds) const {
  const double hypotheses = static_cast<double>(state_.dp.size() + state_.gdp.size());
  if (static_cast<double>(rounds) * hypotheses > kMaxSequentialWorkPerCall) {
    return Error(std::to_string(rounds) + " rounds x " + FormatDouble(hypotheses) +
                 " hypotheses exceed the work bound of " + FormatDouble(kMaxSequentialWorkPerCall) +
                 " per call (split the rounds)");
  }
  return Status::Ok();
}

// One bet of every hypothesis's e-process on this round, payoff(bounds) the
// round's normalised payoff under that hypothesis's null.
template <typename Payoff>
void SequentialAuditor::BetEveryNull(const Payoff& payoff) {
  const int64_t round = state_.game_rounds + state_.pair_rounds;
  const double log_level = -std::log(state_.options.alpha);
  for (size_t i = 0; i < state_.dp.size(); ++i) {
    Bet(state_.dp[i], payoff(dp_bounds_[i]), log_level, round);
  }
  for (size_t i = 0; i < state_.gdp.size(); ++i) {
    Bet(state_.gdp[i], payoff(gdp_bounds_[i]), log_level, round);
  }
}

void SequentialAuditor::PlayGameRound(bool correct) {
  ++state_.game_rounds;
  state_.correct_guesses += correct ? 1 : 0;
  BetEveryNull([correct](const NullBounds& b) { return GamePayoff(correct, b); });
}

void SequentialAuditor::PlayPairRound(int z) {
  ++state_.pair_rounds;
  state_.pair_difference_sum += z;
  BetEveryNull([z](const NullBounds& b) { return PairPayoff(z, b); });
}

Status SequentialAuditor::AddGuesses(const std::vector<int64_t>& guesses,
                                     const std::vector<int64_t>& truths) {
  PB_RETURN_IF_ERROR(CheckSameLength("guesses", guesses.size(), "truths", truths.size()));
  PB_RETURN_IF_ERROR(CheckBits("guesses", guesses));
  PB_RETURN_IF_ERROR(CheckBits("truths", truths));
  PB_RETURN_IF_ERROR(CheckWork(guesses.size()));
  for (size_t i = 0; i < guesses.size(); ++i) PlayGameRound(guesses[i] == truths[i]);
  return Status::Ok();
}

Status SequentialAuditor::AddScores(const std::vector<double>& scores,
                                    const std::vector<int64_t>& truths) {
  if (!state_.options.threshold) {
    return Error("scores need the pre-registered threshold, set when the audit starts");
  }
  PB_RETURN_IF_ERROR(CheckSameLength("scores", scores.size(), "truths", truths.size()));
  PB_RETURN_IF_ERROR(CheckNotNan("scores", scores));
  PB_RETURN_IF_ERROR(CheckBits("truths", truths));
  PB_RETURN_IF_ERROR(CheckWork(scores.size()));
  const double threshold = *state_.options.threshold;
  for (size_t i = 0; i < scores.size(); ++i) {
    PlayGameRound((scores[i] > threshold ? 1 : 0) == truths[i]);
  }
  return Status::Ok();
}

Status SequentialAuditor::AddPairs(const std::vector<double>& member_scores,
                                   const std::vector<double>& nonmember_scores) {
  if (!state_.options.threshold) {
    return Error("member_scores need the pre-registered threshold, set when the audit starts");
  }
  PB_RETURN_IF_ERROR(CheckSameLength("member_scores", member_scores.size(), "nonmember_scores",
                                     nonmember_scores.size()));
  PB_RETURN_IF_ERROR(CheckNotNan("member_scores", member_scores));
  PB_RETURN_IF_ERROR(CheckNotNan("nonmember_scores", nonmember_scores));
  PB_RETURN_IF_ERROR(CheckWork(member_scores.size()));
  const double threshold = *state_.options.threshold;
  for (size_t i = 0; i < member_scores.size(); ++i) {
    PlayPairRound((member_scores[i] > threshold ? 1 : 0) -
                  (nonmember_scores[i] > threshold ? 1 : 0));
  }
  return Status::Ok();
}

SequentialAuditReport SequentialAuditor::Report() const {
  SequentialAuditReport r;
  r.game_rounds = state_.game_rounds;
  r.correct_guesses = state_.correct_guesses;
  r.pair_rounds = state_.pair_rounds;
  r.pair_difference_sum = state_.pair_difference_sum;
  r.rounds = r.game_rounds + r.pair_rounds;
  r.dp = Verdicts(state_.options.epsilons, dp_bounds_, state_.dp);
  r.gdp = Verdicts(state_.options.mus, gdp_bounds_, state_.gdp);
  r.largest_rejected_epsilon = LargestRejectedPrefix(r.dp);
  r.largest_rejected_mu = LargestRejectedPrefix(r.gdp);
  return r;
}

Result<SequentialAuditResponse> RunSequentialAudit(const SequentialAuditRequest& request) {
  if (request.epsilons && request.epsilons->empty()) {
    return Error("epsilons must be non-empty (leave it out for the default grid)");
  }
  if (request.mus && request.mus->empty()) {
    return Error("mus must be non-empty (leave it out for no mu-GDP nulls)");
  }
  PB_ASSIGN_OR_RETURN(SequentialAuditor auditor, AuditorFor(request));
  PB_RETURN_IF_ERROR(Play(request, auditor));
  return SequentialAuditResponse{auditor.state().options, auditor.Report(),
                                 SerializeSequentialAuditState(auditor.state())};
}

}  // namespace privbench
