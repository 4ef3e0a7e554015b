// Study bayes_sample_size: WriteReport wires the raw counts and curves, the
// numbers, the tables (tables.cc) and the claims (claims.cc) into the result
// file (layout: report.h).
#include "experiments/bayes_sample_size/report.h"

#include <limits>

#include "results/table_builder.h"

namespace privbench::bayes_sample_size {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// A samples-needed value for /numbers: "not reached" is NaN there.
double NeededNumber(int64_t n) { return n < 0 ? kNan : static_cast<double>(n); }

Status WriteRawData(const Results& r, ResultWriter& out) {
  const size_t G = r.n.size();
  std::vector<int64_t> tp(G), fn(G), fp(G), tn(G);
  for (size_t g = 0; g < G; ++g) {
    tp[g] = r.counts[g].tp;
    fn[g] = r.counts[g].fn;
    fp[g] = r.counts[g].fp;
    tn[g] = r.counts[g].tn;
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/n", r.n));
  PB_RETURN_IF_ERROR(out.WriteInts("/counts/tp", tp));
  PB_RETURN_IF_ERROR(out.WriteInts("/counts/fn", fn));
  PB_RETURN_IF_ERROR(out.WriteInts("/counts/fp", fp));
  PB_RETURN_IF_ERROR(out.WriteInts("/counts/tn", tn));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/point_eps", r.point_eps));
  std::vector<std::string> names;
  for (const WidthMethod& m : r.methods) names.push_back(m.name);
  return out.WriteStrings("/methods", names);
}

// /intervals/<name>/... and each two-sided method's samples needed.
Status WriteIntervals(const Results& r, ResultWriter& out) {
  for (size_t m = 0; m < r.methods.size(); ++m) {
    const WidthMethod& method = r.methods[m];
    const std::string grp = "/intervals/" + method.name;
    PB_RETURN_IF_ERROR(out.WriteDoubles(grp + "/eps_lo", r.lower[m]));
    PB_RETURN_IF_ERROR(out.WriteDoubles(grp + "/eps_hi", r.upper[m]));
    PB_RETURN_IF_ERROR(out.WriteDoubles(grp + "/width", r.width[m]));
    PB_RETURN_IF_ERROR(SetAttributes(out, grp,
                                     {{"label", method.label},
                                      {"delta", method.delta},
                                      {"one_sided", int64_t{method.one_sided}}}));
    if (method.one_sided) continue;
    PB_RETURN_IF_ERROR(SetAttributes(
        out, grp,
        {{"samples_needed", r.needed[m].stays}, {"first_n_within_target", r.needed[m].first}}));
    PB_RETURN_IF_ERROR(
        out.WriteScalar("/numbers/samples_needed_" + method.name, NeededNumber(r.needed[m].stays)));
    PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/first_n_within_target_" + method.name,
                                       NeededNumber(r.needed[m].first)));
  }
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/true_eps", r.true_eps));
  return out.WriteScalar("/numbers/target_width", r.target_width);
}

constexpr const char* kLostParameters =
    "none essential: the paper gives FPR = FNR = 0.4, alpha = 0.1 and the +-0.15 target; "
    "not stated and chosen here: delta = 1e-5 (as elsewhere in the paper), the grid of n "
    "(every even n from 100 to 3000), counts = round(rate * n/2) half away from zero, and "
    "'samples needed' = smallest grid n from which the width stays <= 0.3";

}  // namespace

double CpToBayesianSampleRatio(const Results& r, const PaperMethods& paper) {
  const int64_t n_cp = r.needed[paper.clopper_pearson].stays;
  const int64_t n_by = r.needed[paper.bayesian].stays;
  return (n_cp > 0 && n_by > 0) ? static_cast<double>(n_cp) / static_cast<double>(n_by) : kNan;
}

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteRawData(r, out));
  PB_RETURN_IF_ERROR(WriteIntervals(r, out));
  PB_ASSIGN_OR_RETURN(const SummaryTable needed, SamplesNeededTable(c, r));
  PB_RETURN_IF_ERROR(out.WriteTable(needed));
  PB_ASSIGN_OR_RETURN(const SummaryTable endpoints, EndpointsTable(c, r));
  PB_RETURN_IF_ERROR(out.WriteTable(endpoints));
  PB_ASSIGN_OR_RETURN(const PaperMethods paper, FindPaperMethods(r.methods));
  PB_RETURN_IF_ERROR(
      out.WriteScalar("/numbers/cp_to_bayesian_sample_ratio", CpToBayesianSampleRatio(r, paper)));
  for (const Claim& claim : SampleSizeClaims(c, r, paper)) {
    PB_RETURN_IF_ERROR(out.WriteClaim(claim));
  }
  return SetAttributes(out, "/meta", {{"lost_parameters", kLostParameters}});
}

}  // namespace privbench::bayes_sample_size
