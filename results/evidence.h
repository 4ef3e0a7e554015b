// Claim evidence: the numbers behind a verdict, formatted one way in every
// study. Doubles get 4 significant digits (FormatSignificant: "0.1235",
// "1.235e+04", "nan", "inf"), integers are exact, text is verbatim.
//
//   out.WriteClaim(ClaimEvidence("foo_narrower", w_bayes < w_cp,
//                                Evidence() << "width " << w_bayes << " vs " << w_cp));
//
// A study wanting another precision for one number says so where it matters
// (Evidence::Digits) instead of calling std::to_string, whose six fixed
// decimals print 1e-7 as "0.000000".
#ifndef PRIVBENCH_RESULTS_EVIDENCE_H_
#define PRIVBENCH_RESULTS_EVIDENCE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/format.h"

namespace privbench {

class Evidence {
 public:
  static constexpr int kDigits = 4;

  template <typename T, typename std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Evidence& operator<<(T x) {
    text_ += FormatSignificant(static_cast<double>(x), kDigits);
    return *this;
  }
  template <
      typename T,
      typename std::enable_if_t<
          std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>, int> = 0>
  Evidence& operator<<(T n) {
    text_ += std::to_string(n);
    return *this;
  }
  Evidence& operator<<(std::string_view s) {
    text_ += s;
    return *this;
  }
  Evidence& operator<<(const char* s) {
    text_ += s;
    return *this;
  }
  Evidence& operator<<(char c) {
    text_ += c;
    return *this;
  }
  // `x` to `digits` significant digits, for the rare number that needs more
  // (or fewer) than kDigits.
  Evidence& Digits(double x, int digits) {
    text_ += FormatSignificant(x, digits);
    return *this;
  }

  const std::string& str() const { return text_; }
  operator std::string() const { return text_; }  // NOLINT: implicit by design

 private:
  std::string text_;
};

}  // namespace privbench

#endif  // PRIVBENCH_RESULTS_EVIDENCE_H_
