#include "experiments/published_examples/erlingsson_rows.h"

#include <cmath>

#include "core/format.h"
#include "results/evidence.h"

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
  // The rows' own values at the printed precision: what the verdict compares.
  const std::string own4 = FormatFixed(c.eps_lower[3], d), own5 = FormatFixed(c.eps_lower[4], d);
  const bool holds = own5 == row4 && own4 != row4;
  return ClaimEvidence(
      "published_examples_erlingsson_t2_row4_is_row5_shifted", holds,
      Evidence() << "Prop. 3 from Table 1's TPRs: row 4 (TPR " << 100 * c.attack_tpr[3] << "%) "
                 << c.eps_lower[3] << " -> prints as " << own4 << ", row 5 (TPR "
                 << 100 * c.attack_tpr[4] << "%) " << c.eps_lower[4] << " -> prints as " << own5
                 << "; printed " << row4 << " / " << row5 << "; the printed " << row4
                 << " needs TPR " << 100 * TprForProp3Bound(std::stod(row4)) << "% (row 5's is "
                 << 100 * c.attack_tpr[4] << "%), the printed " << row5 << " needs TPR "
                 << 100 * TprForProp3Bound(std::stod(row5)) << "%, which no row of Table 1 has");
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
