#include "experiments/lib/epsilon_star_sim/sim_report.h"

#include "results/evidence.h"

namespace privbench {

std::string AnalysisSuffix(size_t a) { return a == 0 ? "" : "_common_window"; }

std::string AnalysisTitle(size_t a) {
  return a == 0 ? "each estimator on its own window" : "every estimator on a common window";
}

std::string AnalysisCaption(size_t a, const std::string& primary, const SimAnalysis& analysis) {
  return (a == 0 ? primary
                 : std::string("Secondary analysis: rate and clip windows both "
                               "[common_lo, common_hi].")) +
         " Options: " + EpsilonStarOptionsText(analysis.options) + ".";
}

Status WriteEstimatorsAndAnalyses(const std::vector<std::string>& names,
                                  const std::vector<SimAnalysis>& analyses, ResultWriter& out) {
  PB_RETURN_IF_ERROR(out.WriteStrings("/estimators", names));
  std::vector<std::string> analysis_names;
  for (const SimAnalysis& an : analyses) analysis_names.push_back(an.name);
  return out.WriteStrings("/analyses", analysis_names);
}

namespace {

Status SetExactWindowAttribute(const ExactWindows& windows, size_t w, ResultWriter& out) {
  return out.SetAttribute("/exact/" + windows.names[w], "window",
                          WindowText(windows.options[w], EpsilonStarWindow::kRate));
}

}  // namespace

Status WriteExactWindows(const ExactWindows& windows, const std::vector<double>& exact,
                         ResultWriter& out) {
  for (size_t w = 0; w < windows.names.size(); ++w) {
    PB_RETURN_IF_ERROR(out.WriteScalar("/exact/" + windows.names[w], exact[w]));
    PB_RETURN_IF_ERROR(SetExactWindowAttribute(windows, w, out));
  }
  return Status::Ok();
}

Status WriteExactWindows(const ExactWindows& windows, const std::vector<std::vector<double>>& exact,
                         ResultWriter& out) {
  for (size_t w = 0; w < windows.names.size(); ++w) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/exact/" + windows.names[w], exact[w]));
    PB_RETURN_IF_ERROR(SetExactWindowAttribute(windows, w, out));
  }
  return Status::Ok();
}

std::string EstimatorGroup(const SimAnalysis& analysis, const std::string& estimator) {
  return "/" + analysis.name + "/" + estimator;
}

Status SetEstimatorAttributes(size_t a, const SimAnalysis& analysis, const std::string& estimator,
                              const Attribute& reference, ResultWriter& out) {
  return SetAttributes(out, EstimatorGroup(analysis, estimator),
                       {{"window", WindowText(analysis.options, AnalysisWindow(a, estimator))},
                        reference,
                        {"options", EpsilonStarOptionsText(analysis.options)}});
}

JudgedClaim SignTestClaim(const std::string& id, const std::vector<SignTest>& tests, bool valid,
                          const std::string& head, const std::string& compared,
                          const std::string& tail) {
  const SignVerdict v = JudgeAllGreater(tests, 0.05);
  Evidence ev;
  ev << head;
  if (v.inconclusive) {
    ev << "; INCONCLUSIVE: holds in ";
    ev.Digits(100 * v.holds_fraction, 3) << "% of the " << compared;
  }
  ev << tail;
  JudgedClaim j;
  j.holds_fraction = v.holds_fraction;
  j.inconclusive = v.inconclusive;
  j.claim = ClaimEvidence(id, valid && v.holds, ev);
  return j;
}

Status WriteAnalysesMeta(const std::vector<SimAnalysis>& analyses,
                         const std::string& lost_parameters, ResultWriter& out) {
  return SetAttributes(
      out, "/meta",
      {{"epsilon_star_options_primary", EpsilonStarOptionsText(analyses[0].options)},
       {"epsilon_star_options_common_window", EpsilonStarOptionsText(analyses[1].options)},
       {"lost_parameters", lost_parameters}});
}

}  // namespace privbench
