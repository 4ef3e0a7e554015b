#include "experiments/lib/framework/judged_claim.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"

namespace privbench {

Status WriteJudgedClaim(const JudgedClaim& j, ResultWriter& out) {
  PB_RETURN_IF_ERROR(out.WriteClaim(j.claim));
  const std::string g = "/claims/" + j.claim.id;
  PB_RETURN_IF_ERROR(out.SetAttribute(g, "inconclusive", j.inconclusive ? 1.0 : 0.0));
  return out.SetAttribute(g, "holds_fraction", j.holds_fraction);
}

double SignTestUpperTail(int64_t k, int64_t m) {
  if (k <= 0) return 1.0;
  if (k > m) return 0.0;
  double tail = 0.0;
  for (int64_t j = k; j <= m; ++j) {
    tail += std::exp(std::lgamma(m + 1.0) - std::lgamma(j + 1.0) - std::lgamma(m - j + 1.0) -
                     static_cast<double>(m) * std::log(2.0));
  }
  return std::min(1.0, tail);
}

SignTest PairedSignTest(const std::vector<double>& a, const std::vector<double>& b) {
  SignTest s;
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    s.greater += a[i] > b[i];
    s.less += a[i] < b[i];
  }
  s.pairs = static_cast<int64_t>(n);
  s.p_greater = SignTestUpperTail(s.greater, s.greater + s.less);
  s.p_less = SignTestUpperTail(s.less, s.greater + s.less);
  return s;
}

SignVerdict JudgeAllGreater(const std::vector<SignTest>& tests, double alpha) {
  SignVerdict v;
  if (tests.empty()) return v;
  const double level = alpha / static_cast<double>(tests.size());
  bool all = true, opposite = false;
  int64_t greater = 0, pairs = 0;
  for (const SignTest& t : tests) {
    all = all && t.p_greater <= level;
    opposite = opposite || t.p_less <= level;
    greater += t.greater;
    pairs += t.pairs;
  }
  v.holds = all;
  v.inconclusive = !all && !opposite;
  v.holds_fraction = pairs > 0 ? static_cast<double>(greater) / static_cast<double>(pairs) : 0.0;
  return v;
}

std::string SignTestText(const SignTest& t) {
  return std::to_string(t.greater) + " of " + std::to_string(t.pairs) +
         " replicates (sign-test p " + FormatSignificant(t.p_greater, 2) + ", opposite p " +
         FormatSignificant(t.p_less, 2) + ")";
}

}  // namespace privbench
