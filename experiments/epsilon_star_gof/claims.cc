// The study's claims (report.h): per analysis, the numbers and the Fig. 6
// claims on the training losses' p-values, the comparative ones judged by
// exact sign tests.
#include <cmath>
#include <string>
#include <vector>

#include "core/format.h"
#include "core/stats.h"
#include "experiments/epsilon_star_gof/report.h"
#include "results/evidence.h"

namespace privbench::epsilon_star_gof {
namespace {

// The p-values of the training losses (s = 0, the paper's Fig. 6) of one
// analysis, pooled as the claims need them, and their fractions above alpha.
struct TrainingPools {
  std::vector<double> no_dp, dp, all, k1_no, k1_dp, big, k1;
  double f_all, f_no, f_dp, f_k1, f_big, f_k1_no, f_k1_dp;
  double f_all_other, f_all_one;  // the other p-value method; one-sample KS
};

TrainingPools PoolTraining(const GofArrays& g, const Config& c, int64_t f) {
  const double alpha = c.significance;
  TrainingPools t;
  t.no_dp = g.P(0, 0, f, 1, g.K);
  t.dp = g.P(1, 0, f, 1, g.K);
  t.all = g.Both(0, f, 1, g.K);
  t.k1_no = g.P(0, 0, f, 1, 1);
  t.k1_dp = g.P(1, 0, f, 1, 1);
  t.big = g.Both(0, f, BigK(g), g.K);
  t.k1 = g.Both(0, f, 1, 1);
  t.f_all = FractionAbove(t.all, alpha);
  t.f_no = FractionAbove(t.no_dp, alpha);
  t.f_dp = FractionAbove(t.dp, alpha);
  t.f_k1 = FractionAbove(t.k1, alpha);
  t.f_big = FractionAbove(t.big, alpha);
  t.f_k1_no = FractionAbove(t.k1_no, alpha);
  t.f_k1_dp = FractionAbove(t.k1_dp, alpha);
  const char* other = c.ks_method == "exact" ? "p_asymptotic" : "p_exact";
  t.f_all_other = FractionAbove(g.Both(0, f, 1, g.K, other), alpha);
  t.f_all_one = FractionAbove(g.Both(0, f, 1, g.K, "p_one_sample"), alpha);
  return t;
}

// Per (model, n_eval): the median p at k = 1 of the training losses.
struct KOneMedians {
  std::vector<int> most = {0, 0};  // per model: n_eval values with median > alpha
  std::string text;                // "no DP: n=100 0.2 n=500 0.01* ...; DP: ..."
};

void AddNumber(std::vector<GofNumber>& numbers, const std::string& id, double value) {
  numbers.push_back({"epsilon_star_gof_" + id, value});
}

KOneMedians MediansAtKOne(const GofArrays& g, const Config& c, int64_t f, const std::string& sfx,
                          std::vector<GofNumber>& numbers) {
  const double alpha = c.significance;
  KOneMedians out;
  Evidence text;
  for (int64_t m = 0; m < g.M; ++m) {
    text << (m ? "; " : "") << kGofModelLabels[m] << ":";
    for (int64_t i = 0; i < g.I; ++i) {
      const int64_t n = c.n_eval[static_cast<size_t>(i)];
      const double med = Median(g.P(m, 0, f, 1, 1, "p_value", i));
      AddNumber(numbers, "median_p_k1_" + kGofModels[m] + "_n" + std::to_string(n) + sfx, med);
      if (med > alpha) ++out.most[static_cast<size_t>(m)];
      text << " n=" << n << " " << med << (med > alpha ? "" : "*");
    }
  }
  text << " (* = not above " << alpha << ")";
  out.text = text.str();
  return out;
}

// The numbers of analysis f before the k = 1 medians.
void AddPoolNumbers(const GofArrays& g, const Config& c, int64_t f, const std::string& sfx,
                    const TrainingPools& t, std::vector<GofNumber>& numbers) {
  const double alpha = c.significance;
  AddNumber(numbers, "frac_above_all" + sfx, t.f_all);
  AddNumber(numbers, "frac_above_no_dp" + sfx, t.f_no);
  AddNumber(numbers, "frac_above_dp" + sfx, t.f_dp);
  AddNumber(numbers, "frac_above_k1" + sfx, t.f_k1);
  AddNumber(numbers, "frac_above_k_big" + sfx, t.f_big);
  AddNumber(numbers, "frac_above_k1_no_dp" + sfx, t.f_k1_no);
  AddNumber(numbers, "frac_above_k1_dp" + sfx, t.f_k1_dp);
  AddNumber(numbers, "median_p_all" + sfx, Median(t.all));
  AddNumber(numbers, "frac_above_all_other_method" + sfx, t.f_all_other);
  AddNumber(numbers, "frac_above_all_one_sample" + sfx, t.f_all_one);
  for (int64_t m = 0; m < g.M; ++m) {
    for (int64_t s = 0; s < g.S; ++s) {
      const std::string tag = kGofModels[m] + "_" + kGofLossSets[s] + sfx;
      AddNumber(numbers, "frac_above_one_sample_k1_" + tag,
                FractionAbove(g.P(m, s, f, 1, 1, "p_one_sample"), alpha));
      AddNumber(numbers, "frac_above_" + tag, FractionAbove(g.P(m, s, f, 1, g.K), alpha));
      AddNumber(numbers, "frac_above_k1_" + tag, FractionAbove(g.P(m, s, f, 1, 1), alpha));
      AddNumber(numbers, "frac_above_k_big_" + tag,
                FractionAbove(g.P(m, s, f, BigK(g), g.K), alpha));
    }
  }
}

// The claims of one analysis: its id suffix, alpha, the sizes of the pools.
struct ClaimContext {
  std::string sfx;
  double alpha = 0.05;
  int64_t R = 0, I = 0, K = 0;
};

Claim MostAboveClaim(const ClaimContext& x, const TrainingPools& t) {
  return ClaimEvidence(
      "epsilon_star_gof_most_above" + x.sfx, t.f_all > 0.5,
      Evidence() << "fraction of p > " << x.alpha << " over all " << t.all.size() << " p-values ("
                 << x.R << " repetitions x " << x.I << " n_eval x " << x.K
                 << " k x 2 model types): " << t.f_all << " (no DP " << t.f_no << ", DP " << t.f_dp
                 << "; median p " << Median(t.all) << "); with the other p-value method "
                 << t.f_all_other << ", one-sample KS against the fitted CDF (extra) "
                 << t.f_all_one);
}

// The level of the sign tests of the comparative claims.
constexpr double kSignTestAlpha = 0.05;

// Per repetition, the fraction of model m's training-set p-values (every
// n_eval, components k_lo..k_hi) above alpha.
std::vector<double> RepetitionFractions(const GofArrays& g, int64_t m, int64_t f, int64_t k_lo,
                                        int64_t k_hi, double alpha) {
  const std::vector<double>& p = g.d.at("p_value");
  std::vector<double> out;
  for (int64_t r = 0; r < g.R; ++r) {
    int64_t above = 0, total = 0;
    for (int64_t i = 0; i < g.I; ++i) {
      for (int64_t k = k_lo; k <= k_hi; ++k) {
        above += p[g.At(m, r, 0, f, i, k)] > alpha;
        ++total;
      }
    }
    out.push_back(total ? static_cast<double>(above) / static_cast<double>(total) : 0.0);
  }
  return out;
}

// The pooled comparison as evidence, then the sign test that judges it.
struct SignJudged {
  Claim claim;
  SignVerdict verdict;
};
SignJudged JudgeBySignTest(const std::string& id, const std::vector<double>& a,
                           const std::vector<double>& b, Evidence evidence) {
  const SignTest test = PairedSignTest(a, b);
  const SignVerdict v = JudgeAllGreater({test}, kSignTestAlpha);
  evidence << "; judged by an exact sign test over the repetitions' fractions at level "
           << kSignTestAlpha << ": " << SignTestText(test)
           << (v.inconclusive ? " (inconclusive: the test decides neither way)" : "");
  return {ClaimEvidence(id, v.holds, evidence), v};
}

SignJudged MoreWithDpClaim(const GofArrays& g, int64_t f, const ClaimContext& x,
                           const TrainingPools& t) {
  return JudgeBySignTest(
      "epsilon_star_gof_more_with_dp" + x.sfx, RepetitionFractions(g, 1, f, 1, g.K, x.alpha),
      RepetitionFractions(g, 0, f, 1, g.K, x.alpha),
      Evidence() << "pooled fraction of p > " << x.alpha << ": DP " << t.f_dp << " vs no DP "
                 << t.f_no << " (" << t.dp.size() << " p-values each; medians " << Median(t.dp)
                 << " vs " << Median(t.no_dp) << ")");
}

SignJudged MoreWithComponentsClaim(const GofArrays& g, int64_t f, const ClaimContext& x,
                                   const TrainingPools& t, int64_t k_big) {
  std::vector<double> big, one;  // both model types, each repetition a pair
  for (int64_t m = 0; m < g.M; ++m) {
    for (double v : RepetitionFractions(g, m, f, k_big, g.K, x.alpha)) big.push_back(v);
    for (double v : RepetitionFractions(g, m, f, 1, 1, x.alpha)) one.push_back(v);
  }
  return JudgeBySignTest("epsilon_star_gof_more_with_components" + x.sfx, big, one,
                         Evidence()
                             << "pooled fraction of p > " << x.alpha << " at k >= " << k_big
                             << " vs k = 1 (both model types): " << t.f_big << " vs " << t.f_k1
                             << " (medians " << Median(t.big) << " vs " << Median(t.k1) << ")");
}

// "p > alpha for most n_eval" per model type, judged by an exact sign test
// of p > alpha over its R x I k = 1 p-values (every repetition and n_eval;
// ties at alpha dropped), Bonferroni over the two model types: the medians
// per n_eval stay the evidence, but with 3 repetitions a median's side of
// alpha is a coin flip near the boundary, so they do not decide.
SignJudged OneComponentMostClaim(const GofArrays& g, int64_t f, const ClaimContext& x,
                                 const KOneMedians& med) {
  std::vector<SignTest> tests;
  for (int64_t m = 0; m < g.M; ++m) {
    const std::vector<double> p = g.P(m, 0, f, 1, 1);
    tests.push_back(PairedSignTest(p, std::vector<double>(p.size(), x.alpha)));
  }
  const SignVerdict v = JudgeAllGreater(tests, kSignTestAlpha);
  Evidence evidence;
  evidence << "n_eval values with median p (over " << x.R << " repetitions) at k = 1 above "
           << x.alpha << ": no DP " << med.most[0] << " of " << x.I << ", DP " << med.most[1]
           << " of " << x.I << "; medians: " << med.text << "; judged by exact sign tests of p > "
           << x.alpha
           << " over each model type's k = 1 p-values (Bonferroni over the model types, family "
              "level "
           << kSignTestAlpha << "): no DP " << SignTestText(tests[0]) << ", DP "
           << SignTestText(tests[1])
           << (v.inconclusive ? " (inconclusive: the tests decide neither way)" : "");
  return {ClaimEvidence("epsilon_star_gof_one_component_most_n_eval" + x.sfx, v.holds, evidence),
          v};
}

SignJudged OneComponentMoreWithDpClaim(const GofArrays& g, int64_t f, const ClaimContext& x,
                                       const TrainingPools& t) {
  return JudgeBySignTest("epsilon_star_gof_one_component_more_with_dp" + x.sfx,
                         RepetitionFractions(g, 1, f, 1, 1, x.alpha),
                         RepetitionFractions(g, 0, f, 1, 1, x.alpha),
                         Evidence() << "pooled fraction of k = 1 p-values > " << x.alpha << ": DP "
                                    << t.f_k1_dp << " vs no DP " << t.f_k1_no << " ("
                                    << t.k1_dp.size() << " p-values each; medians "
                                    << Median(t.k1_dp) << " vs " << Median(t.k1_no) << ")");
}

}  // namespace

AnalysisReport ReportAnalysis(const Config& c, const GofArrays& g, int64_t f) {
  const AnalysisSpec spec = Analyses(c)[static_cast<size_t>(f)];
  const TrainingPools t = PoolTraining(g, c, f);
  AnalysisReport out;
  AddPoolNumbers(g, c, f, spec.suffix, t, out.numbers);
  const KOneMedians med = MediansAtKOne(g, c, f, spec.suffix, out.numbers);
  const ClaimContext x{spec.suffix, c.significance, g.R, g.I, g.K};
  const SignJudged more_dp = MoreWithDpClaim(g, f, x, t);
  const SignJudged more_k = MoreWithComponentsClaim(g, f, x, t, BigK(g));
  const SignJudged one_most = OneComponentMostClaim(g, f, x, med);
  const SignJudged one_dp = OneComponentMoreWithDpClaim(g, f, x, t);
  out.claims = {MostAboveClaim(x, t), more_dp.claim, more_k.claim, one_most.claim, one_dp.claim};
  for (const SignJudged* j : {&more_dp, &more_k, &one_most, &one_dp}) {
    out.sign_verdicts[j->claim.id] = j->verdict;
  }
  return out;
}

}  // namespace privbench::epsilon_star_gof
