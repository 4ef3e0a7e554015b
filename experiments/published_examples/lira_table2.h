// Two dataset-free checks of the Bayesian paper's Table 2 (Zanella-Beguelin
// et al., ICML 2023, Sec. 4.2; experiments/lira_bayes_audit/README.md), computed from the
// table's own printed numbers and the registered estimators:
//  1. Widths and width reductions vs Clopper-Pearson from the printed
//     endpoints. Each endpoint is printed to 2 significant digits, so the
//     true endpoint lies within half a unit of its last digit; the range of
//     widths and reductions those endpoints allow is reported beside the
//     value the printed endpoints give. (CIFAR-10 no DP: the endpoints give
//     a Bayesian reduction of -34%, at most -39% under rounding; the table
//     prints -40%.)
//  2. The detection ceiling of every registered estimator for the table's
//     1,024 trials: the interval a PERFECT attack gets (TP = TN = 512,
//     FP = FN = 0; alpha = 0.1, delta = 1e-5): no attack on 1,024 trials can
//     show a larger lower bound; and whether every printed lower bound of
//     Table 2 is below its method's ceiling.
#ifndef PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_LIRA_TABLE2_H_
#define PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_LIRA_TABLE2_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench::published_examples {

struct Table2Widths {
  // One row per (dataset, setting, method) with finite printed endpoints.
  std::vector<std::string> dataset, setting, method, printed_lower, printed_upper;
  std::vector<double> width, width_min, width_max;  // from the endpoints, and rounding range
  std::vector<double> reduction_pct, reduction_min_pct, reduction_max_pct;  // vs CP; NaN: no CP
};
Result<Table2Widths> ComputeTable2Widths();

struct Table2Ceilings {
  std::vector<std::string> method;
  std::vector<double> lower, upper;  // upper NaN for one-sided methods
  bool printed_below_ceiling = true;
  std::string evidence;
};
Result<Table2Ceilings> ComputeTable2Ceilings();

// Tables table2_widths, table2_ceilings and table2_below_ceiling; numbers
// table2_*.
Status WriteTable2Checks(ResultWriter& out);

}  // namespace privbench::published_examples

#endif  // PRIVBENCH_EXPERIMENTS_PUBLISHED_EXAMPLES_LIRA_TABLE2_H_
