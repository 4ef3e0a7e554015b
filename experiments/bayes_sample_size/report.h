// What study bayes_sample_size (Bayesian paper, Sec. 3.4, Fig. 4;
// README.md) writes, all through WriteReport:
//   /n                          int64 [G]  total samples
//   /counts/{tp,fn,fp,tn}       int64 [G]
//   /point_eps                  [G]  Eq. 1 (A1) at the rounded rates
//   /methods                    strings [M] registry names
//   /intervals/<name>/{eps_lo,eps_hi,width}  [G]  (NaN upper/width: one-sided)
//       attributes label, delta, one_sided (samples_needed,
//       first_n_within_target for two-sided methods)
//   /numbers/...                scalars checked by verify
//   /summary/{samples_needed,endpoints}
//   /claims/...                 the verdict and evidence of the four claims
//                               of claims.json
//   /meta lost_parameters
// The tables and claims are pure functions of the computed curves, declared
// here for the unit test. The published values (Clopper-Pearson about 1500
// samples, Bayesian just over 500) live in
// experiments/bayes_sample_size/claims.json; this study never copies them.
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/bayes_sample_size/compute.h"
#include "experiments/bayes_sample_size/config.h"
#include "experiments/lib/bayes_width/bayes_width.h"
#include "results/h5_file.h"

namespace privbench::bayes_sample_size {

// What the computation hands the report: every method's curves over the grid.
using Results = SampleSizeCurves;

// Writes everything listed above into `out`.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// tables.cc: the tables and the samples-needed text the claims share.

// A samples-needed value as text: the number, or "> n_max (not reached)"
// for -1.
std::string NeededText(int64_t n, int64_t n_max);

// The n of the endpoints table: n_min, 500, 1000, 1500, 2000 and n_max, in
// that order, those on the grid `n`, each once.
std::vector<int64_t> EndpointSampleSizes(const Config& c, const std::vector<int64_t>& n);

// Samples needed per method (one row per method).
Result<SummaryTable> SamplesNeededTable(const Config& c, const Results& r);
// Every method's endpoints at EndpointSampleSizes().
Result<SummaryTable> EndpointsTable(const Config& c, const Results& r);

// Clopper-Pearson's samples needed over the Bayesian method's; NaN unless
// both reach the target (report.cc: /numbers/cp_to_bayesian_sample_ratio).
double CpToBayesianSampleRatio(const Results& r, const PaperMethods& paper);

// claims.cc: the paper's four claims (verdict and evidence): the Bayesian
// method needs the fewest samples, Jeffreys saves marginally against CP, the
// Bayesian method needs over 500, the Bayesian interval is the narrowest at
// every n.
std::vector<Claim> SampleSizeClaims(const Config& c, const Results& r, const PaperMethods& paper);

}  // namespace privbench::bayes_sample_size

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_REPORT_H_
