// What study published_examples (README.md and B8) writes, from
// WriteReport: one scalar per reproduced number under /numbers/<id> (the h5
// paths experiments/published_examples/claims.json refers to; the published
// values, tolerances and verdicts live there and in results/verify, never
// here), one summary table per example, the raw per-method intervals of the
// two examples run with every registered estimator, and the one claim
// (erlingsson_rows.h).
//
// Output (results/raw/published_examples.h5):
//   /meta lost_parameters
//   /numbers/worked_<m>_{lower,upper}, worked_{rectangle,region}_mass
//       (m: bayesian, jeffreys, clopper_pearson)
//   /numbers/footnote1_{corner,exact_min,dropped_term}
//   /numbers/perfect2000_<method>      90% lower bounds at 2000 trials
//   /numbers/readme_<m>_{lower,upper}
//   /numbers/katz_ceiling_n10000, erlingsson_t2_row<1-5>, b8_row<1-5>_<accountant>
//   /numbers/erlingsson_t2_printed_row<4,5>_needs_tpr, table2_* (lira_table2.h)
//   /worked_example/{method,eps_lo,eps_hi}, /privacy_estimates_readme/{...}
//   /summary/{worked_example,footnote1,perfect_attack,privacy_estimates_readme,
//             erlingsson_table2,accountant_table} (attribute /summary b8_orders),
//             table2_{widths,ceilings,below_ceiling} (lira_table2.h)
//   /claims/published_examples_erlingsson_t2_row4_is_row5_shifted
#ifndef PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_REPORT_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/published_examples/compute.h"
#include "experiments/published_examples/config.h"
#include "results/h5_file.h"

namespace privbench::published_examples {

// What the computation hands the report: every example.
using Results = Examples;

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// One reproduced number: /numbers/<id>.
struct NamedNumber {
  std::string id;
  double value;
};

// The numbers of each example, in the order report.cc writes them (exposed
// for the unit test of their ids).
std::vector<NamedNumber> WorkedExampleNumbers(const WorkedExample& w);
std::vector<NamedNumber> FootnoteOneNumbers(const FootnoteOne& f);
std::vector<NamedNumber> PerfectAttackNumbers(const PerfectAttack& p);  // 2000 trials only
std::vector<NamedNumber> ReadmeNumbers(const ReadmeExample& r);
std::vector<NamedNumber> CeilingAndAdvantageNumbers(const CeilingAndAdvantage& c);
std::vector<NamedNumber> AccountantNumbers(const AccountantTable& a);

// tables.cc: the summary tables, one per example.
// The worked example's intervals from every registered estimator
// (/summary/worked_example).
Result<SummaryTable> WorkedExampleTable(const WorkedExample& w);
// The README example's intervals from every registered estimator
// (/summary/privacy_estimates_readme).
Result<SummaryTable> ReadmeTable(const ReadmeExample& r);
// Footnote 1: Eq. 1 at the CP rectangle's corner, its exact minimum and the
// value with the infinite term dropped.
Result<SummaryTable> FootnoteOneTable(const FootnoteOne& f);
// The perfect attack's 90% lower bound per method and number of trials.
Result<SummaryTable> PerfectAttackTable(const PerfectAttack& p);
// Erlingsson et al. Table 2: the attack-derived lower bound per noise
// multiplier.
Result<SummaryTable> ErlingssonTable2(const CeilingAndAdvantage& c);
// The upper bound on eps of every accountant per noise multiplier (Table 1).
Result<SummaryTable> AccountantSummaryTable(const AccountantTable& a);

}  // namespace privbench::published_examples

#endif  // PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_REPORT_H_
