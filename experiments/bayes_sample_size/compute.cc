#include "experiments/bayes_sample_size/compute.h"

#include "estimators/eps_from_rates.h"
#include "experiments/lib/framework/study.h"

namespace privbench::bayes_sample_size {
namespace {

// Every method's interval at every grid point, [G][M].
Result<std::vector<std::vector<MethodInterval>>> IntervalsOnGrid(
    const Config& c, const std::vector<WidthMethod>& methods, const std::vector<int64_t>& n,
    int threads, ProgressReporter* progress, std::vector<ConfusionCounts>* counts) {
  const int64_t G = static_cast<int64_t>(n.size());
  std::vector<std::vector<MethodInterval>> intervals(G);
  counts->assign(G, ConfusionCounts{});
  PB_RETURN_IF_ERROR(ParallelFor(G, threads, [&](int64_t g) -> Status {
    PB_ASSIGN_OR_RETURN((*counts)[g], BalancedCounts(c.fpr, c.fnr, n[g]));
    PB_ASSIGN_OR_RETURN(intervals[g], EstimateAll(methods, (*counts)[g], c.alpha));
    if (progress != nullptr) progress->Advance();
    return Status::Ok();
  }));
  return intervals;
}

}  // namespace

std::vector<int64_t> SampleSizeGrid(const Config& c) {
  std::vector<int64_t> ns;
  for (int64_t n = c.n_min; n <= c.n_max; n += c.n_step) ns.push_back(n);
  return ns;
}

Result<SampleSizeCurves> ComputeSampleSizeCurves(const Config& c, const std::vector<int64_t>& n,
                                                 int threads, ProgressReporter* progress) {
  SampleSizeCurves r;
  PB_ASSIGN_OR_RETURN(r.methods, RegisteredWidthMethods(c.delta));
  r.n = n;
  PB_ASSIGN_OR_RETURN(auto intervals,
                      IntervalsOnGrid(c, r.methods, n, threads, progress, &r.counts));
  const size_t M = r.methods.size(), G = n.size();
  for (const ConfusionCounts& cc : r.counts) {
    r.point_eps.push_back(EpsFromRatesUnchecked(cc.fnr(), cc.fpr(), c.delta));
  }
  r.target_width = 2.0 * c.target_half_width;
  r.lower.assign(M, std::vector<double>(G));
  r.upper.assign(M, std::vector<double>(G));
  r.width.assign(M, std::vector<double>(G));
  r.needed.assign(M, SamplesNeeded{});
  for (size_t m = 0; m < M; ++m) {
    for (size_t g = 0; g < G; ++g) {
      r.lower[m][g] = intervals[g][m].lower;
      r.upper[m][g] = intervals[g][m].upper;
      r.width[m][g] = intervals[g][m].width();
    }
    if (!r.methods[m].one_sided) {
      PB_ASSIGN_OR_RETURN(r.needed[m], FindSamplesNeeded(n, r.width[m], r.target_width));
    }
  }
  r.true_eps = EpsFromRatesUnchecked(c.fnr, c.fpr, c.delta);
  return r;
}

}  // namespace privbench::bayes_sample_size
