// Speed of the score auditor and the tightness of its
// Gaussian-DP bound under each threshold selection.
//
// TIMES. AuditScores with methods = {"clopper_pearson"} (plus the
// Gaussian-DP bound every audit reports), one selection per call, on n
// N(1, 1) member and n N(0, 1) non-member scores, n in --n (default 10^4,
// 10^5, 10^6), delta = 1e-5, alpha = 0.05. A call includes everything an
// audit does: the ROC of all the scores, the TPR rows, the split, the
// candidates, the intervals. Figures: the median of --repeats calls on the
// calling thread's CPU clock (single-threaded code; time spent descheduled
// by other processes of the shared machine is not counted), with the load
// average. Targets (one core): n = 10^6 in <= 1 s for split and bonferroni,
// <= 2 s for max_over_thresholds.
//
// TIGHTNESS (--tightness, default on). For mu in --mus (default 0.1, 0.3, 1,
// 3), --tightness_n scores a side (default 5 * 10^5), N(mu, 1) vs N(0, 1),
// delta = 0.05, alpha = 0.1: the true eps (GaussianDpEpsilon(mu, delta)),
// and the Gaussian-DP eps_lower and the Clopper-Pearson eps lower end under
// each selection; for "split" also the threshold the selection half chose,
// the mu_lower it predicted there, and the earlier rule (gdp:split0: the
// threshold that maximises mu_lower at alpha among the methods' candidates;
// score_audit.h, "SPLIT FOR A FLAT BOUND"). --tightness_seeds repeats the
// table on other data and split seeds.
//
//   bazel run //estimators/score_audit:score_audit_benchmark
//   bazel run //estimators/score_audit:score_audit_benchmark -- --n=1000000 --repeats=5
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/bench_clock.h"
#include "core/flags.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/score_audit/benchmark_scores.h"
#include "estimators/score_audit/score_audit.h"

namespace privbench {
namespace {

struct Config {
  std::vector<int64_t> n = {10000, 100000, 1000000};
  int64_t repeats = 3;
  bool tightness = true;
  std::vector<double> mus = {0.1, 0.3, 1.0, 3.0};
  int64_t tightness_n = 500000;
  int64_t tightness_seeds = 1;
  std::vector<std::string> selections = {"split", "bonferroni", "bonferroni_all",
                                         "max_over_thresholds"};
};

// The selections of --selections that this build knows (the benchmark
// names selections by string so that it can time older code too).
std::vector<ThresholdSelection> KnownSelections(const Config& c) {
  std::vector<ThresholdSelection> out;
  for (const std::string& name : c.selections) {
    const Result<ThresholdSelection> s = ParseThresholdSelection(name);
    if (s.ok()) {
      out.push_back(*s);
    } else {
      std::printf("(selection %s: not in this build, skipped)\n", name.c_str());
    }
  }
  return out;
}

int Times(const Config& c) {
  std::printf("== seconds per audit (thread CPU, median of %lld), clopper_pearson + gaussian_dp\n",
              static_cast<long long>(c.repeats));
  std::printf("load average: %s\n", bench::LoadAverages().c_str());
  const std::vector<ThresholdSelection> selections = KnownSelections(c);
  std::printf("%-22s", "selection");
  for (int64_t n : c.n) std::printf(" %12lld", static_cast<long long>(n));
  std::printf("\n");
  std::vector<std::vector<double>> table(selections.size());
  for (int64_t n : c.n) {
    Rng rng = MakeRng(34, {static_cast<uint64_t>(n)});
    const std::vector<double> m = UnitGaussianScores(n, 1.0, rng),
                              non = UnitGaussianScores(n, 0.0, rng);
    for (size_t s = 0; s < selections.size(); ++s) {
      ScoreAuditOptions o;
      o.alpha = 0.05;
      o.delta = 1e-5;
      o.methods = {"clopper_pearson"};
      o.selections = {selections[s]};
      std::vector<double> secs;
      for (int64_t r = 0; r < c.repeats; ++r) {
        const double start = bench::ThreadCpuSeconds();
        const Result<ScoreAudit> a = AuditScores(m, non, o);
        secs.push_back(bench::ThreadCpuSeconds() - start);
        if (!a.ok()) {
          std::fprintf(stderr, "audit failed: %s\n", a.message().c_str());
          return 1;
        }
      }
      table[s].push_back(Median(secs));
    }
  }
  for (size_t s = 0; s < selections.size(); ++s) {
    std::printf("%-22s", std::string(ThresholdSelectionName(selections[s])).c_str());
    for (double t : table[s]) std::printf(" %12.4f", t);
    std::printf("\n");
  }
  std::printf("load average: %s\n", bench::LoadAverages().c_str());
  return 0;
}

// The split's Gaussian-DP row dissected: the threshold the selection half
// chose (as bonferroni_all would there, level alpha / K), mu_lower there on
// the selection half at alpha and on the audit half (what is reported);
// then the EARLIER rule (no longer the library's): the threshold that
// maximises mu_lower at alpha among the methods' candidates of the
// selection half (what max_over_thresholds picks there), audited at alpha
// on the audit half.
struct SplitDissection {
  double threshold = 0, select_mu = 0, audit_mu = 0;
  ConfusionCounts select_counts;
  double earlier_threshold = 0, earlier_select_mu = 0, earlier_mu = 0, earlier_eps = 0;
};

SplitDissection DissectSplit(const std::vector<double>& m, const std::vector<double>& non,
                             const GaussianDpBound& split_row, double delta, double alpha,
                             uint64_t seed) {
  SplitDissection d;
  const ScoreHalves h = SplitScoreHalves(m, non, seed).value();
  d.threshold = split_row.threshold;
  d.audit_mu = split_row.mu_lower;
  d.select_counts = AtThreshold(h.select_member, h.select_nonmember, d.threshold).value().counts;
  d.select_mu = GaussianDpAtCounts(d.select_counts, delta, alpha).value().mu_lower;
  const RocCurve select_roc = ComputeRoc(h.select_member, h.select_nonmember).value();
  const GaussianDpBound choice = GaussianDpMaxOverThresholds(select_roc, delta, alpha).value();
  d.earlier_threshold = choice.threshold;
  d.earlier_select_mu = choice.mu_lower;
  const ConfusionCounts audit =
      AtThreshold(h.audit_member, h.audit_nonmember, choice.threshold).value().counts;
  const GaussianDpBound audited = GaussianDpAtCounts(audit, delta, alpha).value();
  d.earlier_mu = audited.mu_lower;
  d.earlier_eps = audited.eps_lower.value_or(0.0);
  return d;
}

int Tightness(const Config& c) {
  const double delta = 0.05, alpha = 0.1;
  std::printf(
      "\n== tightness: N(mu, 1) vs N(0, 1), %lld scores a side, delta = %g, alpha = %g, %lld data "
      "seed(s)\n   eps lower bounds (gdp: Gaussian-DP eps_lower; cp: clopper_pearson lower end);"
      " mu_lower of each Gaussian-DP row below the table\n",
      static_cast<long long>(c.tightness_n), delta, alpha,
      static_cast<long long>(c.tightness_seeds));
  const std::vector<ThresholdSelection> selections = KnownSelections(c);
  for (int64_t seed = 0; seed < c.tightness_seeds; ++seed) {
    std::printf("%-4s %-5s %-8s", "seed", "mu", "true_eps");
    for (ThresholdSelection s : selections) {
      const std::string name(ThresholdSelectionName(s));
      std::printf(" %23s %23s", ("gdp:" + name).substr(0, 23).c_str(),
                  ("cp:" + name).substr(0, 23).c_str());
    }
    std::printf(" %23s\n", "gdp:split0");
    for (double mu : c.mus) {
      Rng rng = MakeRng(341, {static_cast<uint64_t>(mu * 1000), static_cast<uint64_t>(seed)});
      const std::vector<double> m = UnitGaussianScores(c.tightness_n, mu, rng),
                                non = UnitGaussianScores(c.tightness_n, 0.0, rng);
      ScoreAuditOptions o;
      o.alpha = alpha;
      o.delta = delta;
      o.seed = static_cast<uint64_t>(seed);
      o.methods = {"clopper_pearson"};
      o.selections = selections;
      const Result<ScoreAudit> a = AuditScores(m, non, o);
      if (!a.ok()) {
        std::fprintf(stderr, "audit failed: %s\n", a.message().c_str());
        return 1;
      }
      std::printf("%-4lld %-5g %-8.4f", static_cast<long long>(seed), mu,
                  GaussianDpEpsilon(mu, delta).value());
      for (size_t s = 0; s < selections.size(); ++s) {
        std::printf(" %23.4f %23.4f", a->gaussian_dp[s].eps_lower.value_or(-1.0),
                    a->intervals[s].lower);
      }
      const auto split =
          std::find(selections.begin(), selections.end(), ThresholdSelection::kSplit);
      SplitDissection d;
      if (split != selections.end()) {
        d = DissectSplit(m, non, a->gaussian_dp[static_cast<size_t>(split - selections.begin())],
                         delta, alpha, o.seed);
        std::printf(" %23.4f", d.earlier_eps);
      }
      std::printf("\n");
      for (size_t s = 0; s < selections.size(); ++s) {
        const GaussianDpBound& g = a->gaussian_dp[s];
        std::printf("      gdp %-20s threshold %8.4f mu_lower %.4f at %s, level %.3g (%lld)\n",
                    std::string(ThresholdSelectionName(selections[s])).c_str(), g.threshold,
                    g.mu_lower, g.counts.ToString().c_str(), g.level_alpha,
                    static_cast<long long>(g.thresholds_considered));
      }
      if (split != selections.end()) {
        std::printf(
            "      split dissected: chose %.4f where the selection half (%s) gives mu_lower %.4f"
            " at alpha; the audit half %.4f. split0 (earlier rule): chose %.4f, selection half"
            " %.4f, audit half %.4f\n",
            d.threshold, d.select_counts.ToString().c_str(), d.select_mu, d.audit_mu,
            d.earlier_threshold, d.earlier_select_mu, d.earlier_mu);
      }
    }
  }
  std::printf(
      "gdp:split0 = the EARLIER split rule (no longer the library's): the Gaussian-DP threshold "
      "that maximises mu_lower at alpha among the methods' candidates of the selection half, "
      "audited at alpha on the audit half; gdp:split chooses as bonferroni_all would on the "
      "selection half (level alpha / K)\n");
  return 0;
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  privbench::Config c;
  privbench::FlagSet flags("score_audit_benchmark",
                           "Seconds per score audit by selection and n; the Gaussian-DP bound's "
                           "tightness by selection (estimators/score_audit/score_audit.h).");
  flags.AddIntList("n", &c.n, "scores per side").Min(2);
  flags.AddInt("repeats", &c.repeats, "timed calls per cell (median)").Min(1);
  flags.AddBool("tightness", &c.tightness, "print the tightness table");
  flags.AddDoubleList("mus", &c.mus, "mu of the tightness table").Above(0);
  flags.AddInt("tightness_n", &c.tightness_n, "scores per side of the tightness table").Min(2);
  flags.AddInt("tightness_seeds", &c.tightness_seeds, "data seeds of the tightness table").Min(1);
  flags.AddStringList("selections", &c.selections, "selections to time (unknown ones skipped)");
  const privbench::ParseOutcome parsed = flags.Parse(argc, argv);
  if (parsed == privbench::ParseOutcome::kHelp) return 0;
  if (parsed == privbench::ParseOutcome::kError) return 2;
  const privbench::Status valid = flags.Validate();
  if (!valid.ok()) {
    std::fprintf(stderr, "%s\n", valid.message().c_str());
    return 2;
  }
  if (int rc = privbench::Times(c); rc != 0) return rc;
  return c.tightness ? privbench::Tightness(c) : 0;
}
