#include "experiments/epsilon_star_gof/report.h"

#include "results/table_builder.h"

namespace privbench::epsilon_star_gof {

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_ASSIGN_OR_RETURN(const SummaryTable by_n_eval, GofByNEvalTable(c, r));
  PB_RETURN_IF_ERROR(out.WriteTable(by_n_eval));
  PB_ASSIGN_OR_RETURN(const SummaryTable by_components, GofByComponentsTable(c, r));
  PB_RETURN_IF_ERROR(out.WriteTable(by_components));
  PB_ASSIGN_OR_RETURN(const SummaryTable models, ModelsTable(r));
  PB_RETURN_IF_ERROR(out.WriteTable(models));
  for (int64_t f = 0; f < r.arrays.A; ++f) {
    const AnalysisReport analysis = ReportAnalysis(c, r.arrays, f);
    for (const GofNumber& n : analysis.numbers) {
      PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/" + n.id, n.value));
    }
    for (const Claim& claim : analysis.claims) {
      const auto judged = analysis.sign_verdicts.find(claim.id);
      if (judged == analysis.sign_verdicts.end()) {
        PB_RETURN_IF_ERROR(out.WriteClaim(claim));
        continue;
      }
      PB_RETURN_IF_ERROR(WriteJudgedClaim(
          {claim, judged->second.inconclusive, judged->second.holds_fraction}, out));
    }
  }
  return Status::Ok();
}

}  // namespace privbench::epsilon_star_gof
