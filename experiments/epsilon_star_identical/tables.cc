// Study epsilon_star_identical: its summary tables (/summary/*): per
// analysis, the mean and sd of every estimator at every n, with the exact
// value (Fig. 4).
#include <string>

#include "experiments/epsilon_star_identical/report.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_identical {
namespace {

std::string TableCaption(const Config& c, const IdenticalResults& r, size_t a) {
  return "Train and population losses both " + GammaLossText(IdenticalDistribution(c)) +
         "; mean and sample sd of " + std::to_string(c.est.repetitions) +
         " repetitions per n (n losses in each sample); true Epsilon* = 0 "
         "(exact column, computed from the known CDFs on the row's window). " +
         AnalysisCaption(a,
                         "Empirical on the paper's (rate_floor, rate_ceiling); parametric on "
                         "[clip_lo, clip_hi], whose value the paper lost (our default).",
                         r.analyses[a]);
}

}  // namespace

Result<SummaryTable> IdenticalTable(const Config& c, const IdenticalResults& r, size_t a) {
  const EpsilonStarOptions& o = r.analyses[a].options;
  TableBuilder t("identical_" + r.analyses[a].name,
                 "Epsilon* for identical loss distributions (Fig. 4), " + AnalysisTitle(a),
                 TableCaption(c, r, a),
                 {{"n", Column::Type::kInt},
                  {"estimator", Column::Type::kString},
                  {"window", Column::Type::kString},
                  {"exact", Column::Type::kDouble},
                  {"mean", Column::Type::kDouble},
                  {"sd", Column::Type::kDouble}});
  for (size_t i = 0; i < c.est.n.size(); ++i) {
    for (size_t e = 0; e < r.names.size(); ++e) {
      t.Row({c.est.n[i], r.names[e], WindowText(o, AnalysisWindow(a, r.names[e])), r.Exact(a, e),
             r.moments.mean(i, a, e), r.moments.sd(i, a, e)});
    }
    t.Row({c.est.n[i], "exact", "any", r.exact[0], r.exact[0], 0.0});
  }
  return t.Build();
}

}  // namespace privbench::epsilon_star_identical
