// Study bayes_sample_size: its summary tables (/summary/*): the samples each
// method needs for the target width and the interval endpoints at selected n
// (Bayesian paper Fig. 4), and the samples-needed text the claims share.
#include <algorithm>

#include "core/format.h"
#include "experiments/bayes_sample_size/report.h"
#include "results/table_builder.h"

namespace privbench::bayes_sample_size {
namespace {

std::string Fmt(double x) { return FormatRounded(x, 4); }

}  // namespace

std::string NeededText(int64_t n, int64_t n_max) {
  return n < 0 ? "> " + std::to_string(n_max) + " (not reached)" : std::to_string(n);
}

std::vector<int64_t> EndpointSampleSizes(const Config& c, const std::vector<int64_t>& n) {
  std::vector<int64_t> picks;
  for (int64_t want :
       {c.n_min, int64_t{500}, int64_t{1000}, int64_t{1500}, int64_t{2000}, c.n_max}) {
    const bool on_grid = std::find(n.begin(), n.end(), want) != n.end();
    if (on_grid && std::find(picks.begin(), picks.end(), want) == picks.end()) {
      picks.push_back(want);
    }
  }
  return picks;
}

Result<SummaryTable> SamplesNeededTable(const Config& c, const Results& r) {
  TableBuilder t(
      "samples_needed",
      "Samples needed for an eps estimate within +-" + Fmt(c.target_half_width) +
          " (Bayesian paper Fig. 4)",
      "FPR = " + Fmt(c.fpr) + ", FNR = " + Fmt(c.fnr) + ", alpha = " + Fmt(c.alpha) +
          ", delta = " + FormatDouble(c.delta) + "; n = " + std::to_string(c.n_min) + ".." +
          std::to_string(c.n_max) + " step " + std::to_string(c.n_step) +
          " total samples, n/2 per class, counts = round(rate * n/2). 'samples needed' = "
          "smallest grid n from which upper - lower stays <= " +
          Fmt(r.target_width) + " to the end of the grid; 'first n' = first grid n with width <= " +
          Fmt(r.target_width) + ". Widths in eps units (nats).",
      {{"method", Column::Type::kString},
       {"kind", Column::Type::kString},
       {"delta", Column::Type::kDouble},
       {"samples_needed", Column::Type::kString},
       {"first_n_within_target", Column::Type::kString},
       {"width_at_n_min", Column::Type::kDouble},
       {"width_at_n_max", Column::Type::kDouble}});
  for (size_t m = 0; m < r.methods.size(); ++m) {
    const bool one_sided = r.methods[m].one_sided;
    t.Row({r.methods[m].label, one_sided ? "one-sided lower bound (no width)" : "two-sided",
           r.methods[m].delta, one_sided ? "n/a" : NeededText(r.needed[m].stays, c.n_max),
           one_sided ? "n/a" : NeededText(r.needed[m].first, c.n_max), r.width[m].front(),
           r.width[m].back()});
  }
  return t.Build();
}

Result<SummaryTable> EndpointsTable(const Config& c, const Results& r) {
  TableBuilder t("endpoints", "Interval endpoints at selected n (Bayesian paper Fig. 4)",
                 "Every registered estimator at n in {n_min, 500, 1000, 1500, 2000, n_max} (those "
                 "on the grid). True eps = " +
                     Fmt(r.true_eps) +
                     ". Upper and width are NaN for one-sided methods (lower bound only).",
                 {{"method", Column::Type::kString},
                  {"n", Column::Type::kInt},
                  {"eps_lower", Column::Type::kDouble},
                  {"eps_upper", Column::Type::kDouble},
                  {"width", Column::Type::kDouble}});
  for (int64_t want : EndpointSampleSizes(c, r.n)) {
    const size_t g = std::find(r.n.begin(), r.n.end(), want) - r.n.begin();
    for (size_t m = 0; m < r.methods.size(); ++m) {
      t.Row({r.methods[m].label, want, r.lower[m][g], r.upper[m][g], r.width[m][g]});
    }
  }
  return t.Build();
}

}  // namespace privbench::bayes_sample_size
