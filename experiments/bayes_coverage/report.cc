// Study bayes_coverage: WriteReport wires the raw draws and per-method
// statistics, the settings' true eps (docs/studies.md A1, at the study's
// delta and at 0), the diagonal limits at independent terms (diagonal_limit.h),
// the tables (tables.cc) and the claims (claims.cc) into the result file
// (layout: report.h).
#include "experiments/bayes_coverage/report.h"

#include <string>

#include "experiments/bayes_coverage/diagonal_limit.h"
#include "experiments/lib/coverage/coverage_report.h"

namespace privbench::bayes_coverage {
namespace {

constexpr const char* kLostParameters =
    "The Bayesian paper reports no coverage simulation (Sec. 3.2 asserts nominal coverage by "
    "construction; Sec. 2.6 and 3.2 assert over-coverage of CP and the Jeffreys rectangle). "
    "Chosen by privbench: (FPR, FNR) pairs (0.001, 0.5), (0.01, 0.3) [low-FPR corners], "
    "(0.4, 0.4) [mid-range, as Fig. 4], (0.05, 0.05) [strong attack on the diagonal], "
    "(0.02, 0.2) [strong attack off the diagonal], (0.5, 0.5) [chance, eps = 0]; n = 200, 1000, "
    "5000 total trials, half members; 500 (quick) / 10000 (paper) "
    "Monte-Carlo trials per setting; alpha = 0.1 (90%, the paper's level in Sec. 3.1/3.4); "
    "delta = 1e-5 (Sec. 3.1). The values actually used are in /meta config.";

// /settings/{positives,negatives,true_eps,true_eps_delta0} and its description.
Status WriteSettings(const Config& c, const Results& r, ResultWriter& out) {
  std::vector<int64_t> pos, neg;
  std::vector<double> truth0;
  for (const CoverageSetting& st : r.settings) {
    pos.push_back(Positives(st));
    neg.push_back(Negatives(st));
    truth0.push_back(TrueEps(st, 0.0));
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/positives", pos));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/negatives", neg));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/true_eps", TrueEpsAtDelta(c, r)));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/true_eps_delta0", truth0));
  return SetAttributes(
      out, "/settings",
      {{"description",
        "one row per (pair, n) setting, pair-major; true_eps = docs/studies.md A1 at the true "
        "rates and the study's delta, true_eps_delta0 at delta = 0; positives = members = n/2"}});
}

// /methods/{label,one_sided,delta} and the attributes of /estimates/<name>.
Status WriteMethods(const Results& r, ResultWriter& out) {
  std::vector<int64_t> one_sided;
  std::vector<double> deltas;
  std::vector<std::string> labels;
  for (const CoverageMethod& m : r.methods) {
    labels.push_back(m.label);
    one_sided.push_back(m.one_sided);
    deltas.push_back(m.delta);
    PB_RETURN_IF_ERROR(SetAttributes(out, "/estimates/" + m.name,
                                     {{"label", m.label},
                                      {"one_sided", int64_t{m.one_sided}},
                                      {"delta", m.delta},
                                      {"description", m.description}}));
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/label", labels));
  PB_RETURN_IF_ERROR(out.WriteInts("/methods/one_sided", one_sided));
  return out.WriteDoubles("/methods/delta", deltas);
}

}  // namespace

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteCoverageRun(
      out, r,
      "[setting, trial] counts: FN ~ Bin(positives, fnr), FP ~ Bin(negatives, fpr), drawn in "
      "that order with boost::random::binomial_distribution from std::mt19937_64 seeded with "
      "DeriveSeed(seed, {setting, trial}); TP = positives - FN, TN = negatives - FP",
      {{"true_eps", &IntervalStats::truth},
       {"miss_low", &IntervalStats::miss_low},
       {"miss_high", &IntervalStats::miss_high},
       {"mean_width", &IntervalStats::mean_width},
       {"frac_infinite", &IntervalStats::frac_infinite},
       {"mean_lower", &IntervalStats::mean_lower},
       {"median_lower", &IntervalStats::median_lower}}));
  PB_RETURN_IF_ERROR(WriteSettings(c, r, out));
  PB_RETURN_IF_ERROR(WriteMethods(r, out));
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/bayes_coverage_diagonal_limit_one_sided",
                                     IndependentOneSidedLimit(c.alpha)));
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/bayes_coverage_diagonal_limit_two_sided",
                                     IndependentTwoSidedLimit(c.alpha)));
  PB_ASSIGN_OR_RETURN(const std::vector<SummaryTable> tables, CoverageTables(c, r));
  for (const SummaryTable& t : tables) PB_RETURN_IF_ERROR(out.WriteTable(t));
  for (const Claim& cl : CoverageClaims(c, r)) PB_RETURN_IF_ERROR(out.WriteClaim(cl));
  return SetAttributes(out, "/meta", {{"lost_parameters", kLostParameters}});
}

}  // namespace privbench::bayes_coverage
