// The output of study bayes_sample_size (Bayesian paper, Sec. 3.4, Fig. 4;
// README.md): raw curves, the scalars results/verify checks, the
// summary tables and the paper's claims. Tables and claims are pure
// functions of the computed curves.
//
// Output (results/raw/bayes_sample_size.h5):
//   /n                          int64 [G]  total samples
//   /counts/{tp,fn,fp,tn}       int64 [G]
//   /point_eps                  [G]  Eq. 1 (A1) at the rounded rates
//   /methods                    strings [M] registry names
//   /intervals/<name>/{eps_lo,eps_hi,width}  [G]  (NaN upper/width: one-sided)
//       attributes label, delta, one_sided (samples_needed,
//       first_n_within_target for two-sided methods)
//   /numbers/...                scalars checked by verify
//   /summary/{samples_needed,endpoints}, /claims/...
// The published values (Clopper-Pearson about 1500 samples, Bayesian just
// over 500) live in experiments/bayes_sample_size/claims.json; this study
// never copies them.
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

// A samples-needed value as text: the number, or "> n_max (not reached)"
// for -1.
std::string NeededText(int64_t n, int64_t n_max);

// The n of the endpoints table: n_min, 500, 1000, 1500, 2000 and n_max, in
// that order, those on the grid `n`, each once.
std::vector<int64_t> EndpointSampleSizes(const Config& c, const std::vector<int64_t>& n);

// Samples needed per method (one row per method).
Result<SummaryTable> SamplesNeededTable(const Config& c, const SampleSizeCurves& r);
// Every method's endpoints at EndpointSampleSizes().
Result<SummaryTable> EndpointsTable(const Config& c, const SampleSizeCurves& r);

// Clopper-Pearson's samples needed over the Bayesian method's; NaN unless
// both reach the target.
double CpToBayesianSampleRatio(const SampleSizeCurves& r, const PaperMethods& paper);

// The paper's four claims: the Bayesian method needs the fewest samples,
// Jeffreys saves marginally against CP, the Bayesian method needs over 500,
// the Bayesian interval is the narrowest at every n.
std::vector<Claim> SampleSizeClaims(const Config& c, const SampleSizeCurves& r,
                                    const PaperMethods& paper);

// What the paper does not state and this study chose (/meta lost_parameters).
std::string SampleSizeLostParameters();

// Writes everything listed above into `out`.
Status WriteSampleSizeResults(const Config& c, const SampleSizeCurves& r, ResultWriter& out);

}  // namespace privbench::bayes_sample_size

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_REPORT_H_
