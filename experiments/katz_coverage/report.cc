// Study katz_coverage: WriteReport wires the raw draws and per-method
// statistics of the lower bounds on log(p1/p0), the settings' targets, every
// detection-ceiling bound, the tables (tables.cc) and the claims (claims.cc)
// into the result file (layout: report.h).
#include "experiments/katz_coverage/report.h"

#include <string>

namespace privbench::katz_coverage {
namespace {

constexpr const char* kLostParameters =
    "ML-Audit's Appendix (Lemma A.3 and the coverage simulations behind 'far better coverage "
    "properties') is not in our text of the paper. Chosen by privbench: (p1, p0) = (0.5, 0.05), "
    "(0.9, 0.1), (0.05, 0.005), (0.99, 0.01), (0.2, 0.2); N = 100, 1000, 10000 per side "
    "(ML-Audit uses N = 10000, and 500 for DP-SGD); 5000 (quick) / 50000 (paper) trials per "
    "setting; alpha = 0.05 (the paper's level); delta = 0 (the paper's simplification). "
    "katz_log follows KatzLogEpsLowerBound (z_{alpha/2}); Algorithm 1's 'Eps_LB(n1, n0, N, "
    "alpha/2)' could mean z_{alpha/4}, which the lost Lemma A.3 would settle. The values "
    "actually used are in /meta config.";

// /methods/{description,nominal} and the attributes of /bounds/<method>.
Status WriteMethods(const Results& r, ResultWriter& out) {
  std::vector<std::string> desc;
  std::vector<double> nominal;
  for (const CoverageMethod& m : r.methods) {
    desc.push_back(m.description);
    nominal.push_back(m.nominal);
    PB_RETURN_IF_ERROR(SetAttributes(out, "/bounds/" + m.name,
                                     {{"nominal", m.nominal},
                                      {"description", m.description},
                                      {"guaranteed", int64_t{m.guaranteed}}}));
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/description", desc));
  return out.WriteDoubles("/methods/nominal", nominal);
}

// /numbers/katz_coverage_ceiling_<method>_N<N>_n0_<n0>: every ceiling bound.
Status WriteCeilingNumbers(const Results& r, ResultWriter& out) {
  for (const CeilingRow& row : r.ceiling) {
    for (size_t m = 0; m < r.methods.size(); ++m) {
      PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/katz_coverage_ceiling_" + r.methods[m].name +
                                             "_N" + std::to_string(row.n) + "_n0_" +
                                             std::to_string(row.n0),
                                         row.bounds[m]));
    }
  }
  return Status::Ok();
}

}  // namespace

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(
      WriteCoverageRun(out, r,
                       "[setting, trial]: n1 ~ Bin(n, p1) then n0 ~ Bin(n, p0), "
                       "boost::random::binomial_distribution on std::mt19937_64 seeded with "
                       "DeriveSeed(seed, {setting, trial})",
                       ClippedStats()));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/target", Targets(r)));
  PB_RETURN_IF_ERROR(SetAttributes(out, "/settings",
                                   {{"description",
                                     "one row per (pair, N) setting, pair-major; n = samples per "
                                     "side; target = log(p1/p0)"}}));
  PB_RETURN_IF_ERROR(WriteMethods(r, out));
  PB_RETURN_IF_ERROR(WriteCeilingNumbers(r, out));
  PB_ASSIGN_OR_RETURN(const std::vector<SummaryTable> tables, RatioTables(c, r));
  for (const SummaryTable& t : tables) PB_RETURN_IF_ERROR(out.WriteTable(t));
  for (const Claim& cl : RatioClaims(c, r)) PB_RETURN_IF_ERROR(out.WriteClaim(cl));
  return SetAttributes(out, "/meta", {{"lost_parameters", kLostParameters}});
}

}  // namespace privbench::katz_coverage
