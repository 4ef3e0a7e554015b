#include "experiments/published_examples/erlingsson_rows.h"

#include <cmath>

#include "core/format.h"

namespace privbench::published_examples {
namespace {

constexpr double kDelta = 1e-5;
constexpr double kFpr = 0.05;

// The printed number's decimals ("0.04" -> 2).
int Decimals(const std::string& printed) {
  const size_t dot = printed.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
}

}  // namespace

const std::vector<std::string>& ErlingssonTable2Printed() {
  static const std::vector<std::string> printed = {"0", "0.003", "0.006", "0.04", "0.05"};
  return printed;
}

double TprForProp3Bound(double eps) { return kFpr + 1.0 - (1.0 - kDelta) * std::exp(-eps); }

Claim ShiftedRowClaim(const CeilingAndAdvantage& c) {
  const std::vector<std::string>& p = ErlingssonTable2Printed();
  const std::string row4 = p[3], row5 = p[4];
  const int d = Decimals(row4);
  const std::string own4 = FormatFixed(c.eps_lower[3], d), own5 = FormatFixed(c.eps_lower[4], d);
  const bool holds = own5 == row4 && own4 != row4;
  return {"published_examples_erlingsson_t2_row4_is_row5_shifted",
          "Erlingsson et al. Table 2: the printed row 4 (" + row4 +
              ") is row 5's Prop. 3 value shifted up by one row",
          "Erlingsson et al. Table 1-2, Prop. 3 (experiments/published_examples/README.md (B8))",
          holds,
          "Prop. 3 at 5% FPR, delta = 1e-5, from Table 1's TPRs: row 4 (TPR " +
              FormatSignificant(100 * c.attack_tpr[3], 3) + "%) " +
              FormatSignificant(c.eps_lower[3], 3) + " -> prints as " + own4 + ", row 5 (TPR " +
              FormatSignificant(100 * c.attack_tpr[4], 3) + "%) " +
              FormatSignificant(c.eps_lower[4], 3) + " -> prints as " + own5 + "; printed " + row4 +
              " / " + row5 + ". The printed " + row4 + " needs TPR " +
              FormatSignificant(100 * TprForProp3Bound(std::stod(row4)), 3) + "% (row 5's is " +
              FormatSignificant(100 * c.attack_tpr[4], 3) + "%); the printed " + row5 +
              " needs TPR " + FormatSignificant(100 * TprForProp3Bound(std::stod(row5)), 3) +
              "%, which no row of Table 1 has. Criterion: row 5's value at the printed precision "
              "equals the printed row 4 and row 4's own value does not"};
}

Status WriteErlingssonRowCheck(const CeilingAndAdvantage& c, ResultWriter& out) {
  const std::vector<std::string>& p = ErlingssonTable2Printed();
  for (size_t r : {3, 4}) {
    PB_RETURN_IF_ERROR(
        out.WriteScalar("/numbers/erlingsson_t2_printed_row" + std::to_string(r + 1) + "_needs_tpr",
                        TprForProp3Bound(std::stod(p[r]))));
  }
  return out.WriteClaim(ShiftedRowClaim(c));
}

}  // namespace privbench::published_examples
