#include "tests/example_study/report.h"

#include <cmath>
#include <string>

#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench::example_study {

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  const double eps_hat = EmpiricalEpsilon(r), se = EmpiricalEpsilonStandardError(r);
  PB_RETURN_IF_ERROR(out.WriteInts("/counts/ones", {r.ones_given_one, r.ones_given_zero}));
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/empirical_epsilon", eps_hat));
  PB_RETURN_IF_ERROR(SetAttributes(out, "/meta",
                                   {{"lost_parameters",
                                     "none: the example study has no paper; trials per input bit "
                                     "and the seed are the only choices"}}));
  TableBuilder table("estimate", "Empirical epsilon of randomized response",
                     "one row: true eps, estimate, delta-method standard error",
                     {{"eps", Column::Type::kDouble},
                      {"estimate", Column::Type::kDouble},
                      {"standard_error", Column::Type::kDouble}});
  table.Row({c.eps, eps_hat, se});
  PB_ASSIGN_OR_RETURN(const SummaryTable built, table.Build());
  PB_RETURN_IF_ERROR(out.WriteTable(built));
  return out.WriteClaim(ClaimEvidence(
      "example_study_estimate_near_eps", std::abs(eps_hat - c.eps) <= 4 * se,
      Evidence() << "estimate " << eps_hat << ", eps " << c.eps << ", standard error " << se));
}

}  // namespace privbench::example_study
