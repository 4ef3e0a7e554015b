#include "experiments/epsilon_star_gof/report.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/format.h"
#include "core/stats.h"

namespace privbench::epsilon_star_gof {
namespace {

constexpr char kSource[] = "Epsilon* paper App. B.2, Fig. 6";

std::string Fmt(double x) { return FormatSignificant(x, 3); }

// What the 'analysis' and 'variance_floor' columns of both GOF tables mean.
std::string AnalysisColumnsText(const GofStudyConfig& c) {
  return "analysis: the loss transform (App. B 'epsilon_star_logit', or Carlini's logit without "
         "the App. B normalisation, an extra) and the EM variance floor (the EM lower bound on "
         "component variances; primary " +
         FormatDouble(c.variance_floors[0]) + ", scikit-learn's reg_covar; others: sensitivity)";
}

struct NEvalColumns {
  std::vector<std::string> set, model, analysis;
  std::vector<int64_t> n_eval, bic_best_k;
  std::vector<double> floor, median_k1, frac_k1, median_big, frac_big, frac_all, one_sample_k1,
      converged, floored;
};

// One row of gof_by_n_eval: loss set s, model m, analysis f, n_eval index i.
void AddNEvalRow(const GofArrays& g, const GofStudyConfig& c, const AnalysisSpec& spec, int64_t s,
                 int64_t m, int64_t f, int64_t i, NEvalColumns& t) {
  const double alpha = c.significance;
  const int64_t k_big = BigK(g);
  t.set.push_back(kGofLossSets[s]);
  t.model.push_back(kGofModels[m]);
  t.analysis.push_back(spec.name);
  t.floor.push_back(spec.floor);
  t.n_eval.push_back(c.n_eval[static_cast<size_t>(i)]);
  const std::vector<double> p1 = g.P(m, s, f, 1, 1, "p_value", i);
  const std::vector<double> pb = g.P(m, s, f, k_big, g.K, "p_value", i);
  t.median_k1.push_back(Median(p1));
  t.frac_k1.push_back(FractionAbove(p1, alpha));
  t.median_big.push_back(Median(pb));
  t.frac_big.push_back(FractionAbove(pb, alpha));
  t.frac_all.push_back(FractionAbove(g.P(m, s, f, 1, g.K, "p_value", i), alpha));
  t.one_sample_k1.push_back(Median(g.P(m, s, f, 1, 1, "p_one_sample", i)));
  // BIC-best k per repetition; the median over repetitions.
  std::vector<double> best;
  double converged = 0.0, floored = 0.0;
  for (int64_t r = 0; r < g.R; ++r) {
    for (int64_t k = 1; k <= g.K; ++k) {
      converged += static_cast<double>(g.n.at("converged")[g.At(m, r, s, f, i, k)]);
    }
    floored += static_cast<double>(g.n.at("floored_components")[g.At(m, r, s, f, i, g.K)]);
    best.push_back(static_cast<double>(BicBestK(g, m, r, s, f, i)));
  }
  t.bic_best_k.push_back(static_cast<int64_t>(std::lround(Median(best))));
  t.converged.push_back(converged / static_cast<double>(g.R * g.K));
  t.floored.push_back(floored / static_cast<double>(g.R));
}

std::string NEvalCaption(const GofArrays& g, const GofStudyConfig& c,
                         const std::string& dataset_label) {
  const double alpha = c.significance;
  const std::string big = "k>=" + std::to_string(BigK(g));
  return "Data: " + dataset_label +
         ". Rows: loss set (train = Fig. 6; population = extra), model "
         "type, " +
         AnalysisColumnsText(c) + ", evaluation size n_eval. p = two-sample KS p-value (" +
         c.ks_method +
         ") of n_eval draws from the k-component EM fit against the held-out evaluation set; "
         "medians and fractions above " +
         Fmt(alpha) + " are over the " + std::to_string(g.R) + " repetitions (models) and, for '" +
         big + "' and 'all k', over k. Under a perfect fit p is uniform, so about " +
         Fmt(100 * (1 - alpha)) + "% of p-values exceed " + Fmt(alpha) +
         ". one_sample_p_k1: extra, KS of the evaluation set against the fitted Normal's "
         "CDF (no sampling noise). bic_best_k: median over repetitions of the k minimising "
         "BIC on the fitting set. converged: fraction of fits meeting the EM tolerance "
         "within max_iterations. floored_at_k_max: mean number of components at the floor "
         "in the k = " +
         std::to_string(g.K) + " fit.";
}

struct ComponentColumns {
  std::vector<std::string> set, model, analysis;
  std::vector<int64_t> k;
  std::vector<double> floor, median, frac, median_one, frac_one, heldout, iterations, converged,
      floored;
};

// One row of gof_by_components: loss set s, model m, analysis f, k.
void AddComponentRow(const GofArrays& g, double alpha, const AnalysisSpec& spec, int64_t s,
                     int64_t m, int64_t f, int64_t k, ComponentColumns& t) {
  t.set.push_back(kGofLossSets[s]);
  t.model.push_back(kGofModels[m]);
  t.analysis.push_back(spec.name);
  t.floor.push_back(spec.floor);
  t.k.push_back(k);
  const std::vector<double> p = g.P(m, s, f, k, k);
  t.median.push_back(Median(p));
  t.frac.push_back(FractionAbove(p, alpha));
  const std::vector<double> p1 = g.P(m, s, f, k, k, "p_one_sample");
  t.median_one.push_back(Median(p1));
  t.frac_one.push_back(FractionAbove(p1, alpha));
  t.heldout.push_back(Mean(g.P(m, s, f, k, k, "heldout_log_likelihood")));
  double it = 0.0, cv = 0.0, fl = 0.0;
  for (int64_t r = 0; r < g.R; ++r) {
    for (int64_t i = 0; i < g.I; ++i) {
      const size_t a = g.At(m, r, s, f, i, k);
      it += static_cast<double>(g.n.at("iterations")[a]);
      cv += static_cast<double>(g.n.at("converged")[a]);
      fl += static_cast<double>(g.n.at("floored_components")[a]);
    }
  }
  const double cnt = static_cast<double>(g.R * g.I);
  t.iterations.push_back(it / cnt);
  t.converged.push_back(cv / cnt);
  t.floored.push_back(fl / cnt);
}

std::string ComponentsCaption(const GofArrays& g, const GofStudyConfig& c,
                              const std::string& dataset_label) {
  return "Data: " + dataset_label + ". Rows: loss set, model type, " + AnalysisColumnsText(c) +
         ", components k. Medians and fractions above " + Fmt(c.significance) +
         " over every (repetition, n_eval) pair (" + std::to_string(g.R * g.I) +
         " p-values per row; n_eval = " + JoinInts(c.n_eval) + "). p: two-sample KS (" +
         c.ks_method +
         ", the paper's procedure); one_sample: extra, evaluation set against the fitted "
         "CDF. heldout_ll: mean log-density of the evaluation set under the fit (nats per "
         "point). iterations / converged / floored: mean EM iterations, fraction converged, "
         "mean number of components at the variance floor.";
}

// The p-values of the training losses (s = 0, the paper's Fig. 6) of one
// analysis, pooled as the claims need them, and their fractions above alpha.
struct TrainingPools {
  std::vector<double> no_dp, dp, all, k1_no, k1_dp, big, k1;
  double f_all, f_no, f_dp, f_k1, f_big, f_k1_no, f_k1_dp;
  double f_all_other, f_all_one;  // the other p-value method; one-sample KS
};

TrainingPools PoolTraining(const GofArrays& g, const GofStudyConfig& c, int64_t f) {
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

KOneMedians MediansAtKOne(const GofArrays& g, const GofStudyConfig& c, int64_t f,
                          const std::string& sfx, std::vector<GofNumber>& numbers) {
  const double alpha = c.significance;
  KOneMedians out;
  for (int64_t m = 0; m < g.M; ++m) {
    out.text += std::string(m ? "; " : "") + kGofModelLabels[m] + ":";
    for (int64_t i = 0; i < g.I; ++i) {
      const int64_t n = c.n_eval[static_cast<size_t>(i)];
      const double med = Median(g.P(m, 0, f, 1, 1, "p_value", i));
      AddNumber(numbers, "median_p_k1_" + kGofModels[m] + "_n" + std::to_string(n) + sfx, med);
      if (med > alpha) ++out.most[static_cast<size_t>(m)];
      out.text += " n=" + std::to_string(n) + " " + Fmt(med) + (med > alpha ? "" : "*");
    }
  }
  out.text += " (* = not above " + Fmt(alpha) + ")";
  return out;
}

// The numbers of analysis f before the k = 1 medians.
void AddPoolNumbers(const GofArrays& g, const GofStudyConfig& c, int64_t f, const std::string& sfx,
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

// What every claim of one analysis shares.
struct ClaimContext {
  std::string a;       // alpha as printed
  std::string sfx;     // id suffix of the analysis
  std::string scope;   // " [training losses, exact p-values; <analysis label>]"
  std::string pooled;  // "N p-values (R repetitions x I n_eval x K k x 2 model types)"
  std::string h0;      // what a perfect fit would give
};

ClaimContext MakeClaimContext(const GofArrays& g, const GofStudyConfig& c, const AnalysisSpec& s,
                              size_t pooled_size) {
  ClaimContext x;
  x.a = Fmt(c.significance);
  x.sfx = s.suffix;
  x.scope = " [training losses, " + c.ks_method + " p-values; " + s.label + "]";
  x.pooled = std::to_string(pooled_size) + " p-values (" + std::to_string(g.R) + " repetitions x " +
             std::to_string(g.I) + " n_eval x " + std::to_string(g.K) + " k x 2 model types)";
  x.h0 = "; under a perfect fit about " + Fmt(100 * (1 - c.significance)) + "% would exceed " + x.a;
  return x;
}

Claim MostAboveClaim(const ClaimContext& x, const TrainingPools& t) {
  return {"epsilon_star_gof_most_above" + x.sfx,
          "Most p-values of the KS tests go above 0.05" + x.scope, kSource, t.f_all > 0.5,
          "criterion: fraction of p > " + x.a + " over all " + x.pooled + " is > 0.5; got " +
              Fmt(t.f_all) + " (no DP " + Fmt(t.f_no) + ", DP " + Fmt(t.f_dp) + "; median p " +
              Fmt(Median(t.all)) + ")" + x.h0 + "; with the other p-value method " +
              Fmt(t.f_all_other) + ", one-sample KS against the fitted CDF (extra) " +
              Fmt(t.f_all_one)};
}

Claim MoreWithDpClaim(const ClaimContext& x, const TrainingPools& t) {
  return {"epsilon_star_gof_more_with_dp" + x.sfx,
          "P-values go above 0.05 more often when DP is used in training" + x.scope, kSource,
          t.f_dp > t.f_no,
          "criterion: fraction of p > " + x.a +
              " over every (repetition, n_eval, k) is larger for "
              "the DP-SGD models than for the non-private ones; DP " +
              Fmt(t.f_dp) + " vs no DP " + Fmt(t.f_no) + " (" + std::to_string(t.dp.size()) +
              " p-values each; medians " + Fmt(Median(t.dp)) + " vs " + Fmt(Median(t.no_dp)) + ")"};
}

Claim MoreWithComponentsClaim(const ClaimContext& x, const TrainingPools& t, int64_t k_big) {
  return {
      "epsilon_star_gof_more_with_components" + x.sfx,
      "P-values go above 0.05 more often as the number of mixture components increases" + x.scope,
      kSource, t.f_big > t.f_k1,
      "criterion: fraction of p > " + x.a + " at k >= " + std::to_string(k_big) +
          " (both model types, all repetitions and n_eval) is larger than at k = 1; " +
          Fmt(t.f_big) + " vs " + Fmt(t.f_k1) + " (medians " + Fmt(Median(t.big)) + " vs " +
          Fmt(Median(t.k1)) + ")"};
}

Claim OneComponentMostClaim(const ClaimContext& x, const KOneMedians& med, int64_t R, int64_t I) {
  const bool most_both = 2 * med.most[0] > I && 2 * med.most[1] > I;
  return {
      "epsilon_star_gof_one_component_most_n_eval" + x.sfx,
      "For most evaluation sizes even one component (a Normal) gives p-values above 0.05" + x.scope,
      kSource, most_both,
      "criterion: for EACH model type, more than half of the n_eval values have median p "
      "(over " +
          std::to_string(R) + " repetitions) at k = 1 above " + x.a + "; no DP " +
          std::to_string(med.most[0]) + " of " + std::to_string(I) + ", DP " +
          std::to_string(med.most[1]) + " of " + std::to_string(I) + "; medians: " + med.text};
}

Claim OneComponentMoreWithDpClaim(const ClaimContext& x, const TrainingPools& t) {
  return {"epsilon_star_gof_one_component_more_with_dp" + x.sfx,
          "One component gives p-values above 0.05 especially when training with DP-SGD" + x.scope,
          kSource, t.f_k1_dp > t.f_k1_no,
          "criterion: fraction of k = 1 p-values > " + x.a +
              " (all repetitions and n_eval) is larger "
              "for DP than for no DP; DP " +
              Fmt(t.f_k1_dp) + " vs no DP " + Fmt(t.f_k1_no) + " (" +
              std::to_string(t.k1_dp.size()) + " p-values each; medians " + Fmt(Median(t.k1_dp)) +
              " vs " + Fmt(Median(t.k1_no)) + ")"};
}

}  // namespace

std::string JoinInts(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

SummaryTable GofByNEvalTable(const GofArrays& g, const GofStudyConfig& c,
                             const std::string& dataset_label) {
  const std::vector<AnalysisSpec> an = Analyses(c);
  NEvalColumns t;
  for (int64_t s = 0; s < g.S; ++s) {
    for (int64_t m = 0; m < g.M; ++m) {
      for (int64_t f = 0; f < g.A; ++f) {
        for (int64_t i = 0; i < g.I; ++i) {
          AddNEvalRow(g, c, an[static_cast<size_t>(f)], s, m, f, i, t);
        }
      }
    }
  }
  const std::string big = "k>=" + std::to_string(BigK(g));
  return {"gof_by_n_eval",
          "KS goodness of fit of Gaussian mixtures to transformed Adult losses, by evaluation size "
          "(Epsilon* App. B.2, Fig. 6)",
          NEvalCaption(g, c, dataset_label),
          {Column::Strings("loss_set", t.set), Column::Strings("model", t.model),
           Column::Strings("analysis", t.analysis), Column::Doubles("variance_floor", t.floor),
           Column::Ints("n_eval", t.n_eval), Column::Doubles("median_p_k1", t.median_k1),
           Column::Doubles("frac_above_k1", t.frac_k1),
           Column::Doubles("median_p_" + big, t.median_big),
           Column::Doubles("frac_above_" + big, t.frac_big),
           Column::Doubles("frac_above_all_k", t.frac_all),
           Column::Doubles("one_sample_p_k1", t.one_sample_k1),
           Column::Ints("bic_best_k", t.bic_best_k), Column::Doubles("converged", t.converged),
           Column::Doubles("floored_at_k_max", t.floored)}};
}

SummaryTable GofByComponentsTable(const GofArrays& g, const GofStudyConfig& c,
                                  const std::string& dataset_label) {
  const std::vector<AnalysisSpec> an = Analyses(c);
  ComponentColumns t;
  for (int64_t s = 0; s < g.S; ++s) {
    for (int64_t m = 0; m < g.M; ++m) {
      for (int64_t f = 0; f < g.A; ++f) {
        for (int64_t k = 1; k <= g.K; ++k) {
          AddComponentRow(g, c.significance, an[static_cast<size_t>(f)], s, m, f, k, t);
        }
      }
    }
  }
  return {
      "gof_by_components",
      "KS goodness of fit by number of mixture components (Epsilon* App. B.2, Fig. 6)",
      ComponentsCaption(g, c, dataset_label),
      {Column::Strings("loss_set", t.set), Column::Strings("model", t.model),
       Column::Strings("analysis", t.analysis), Column::Doubles("variance_floor", t.floor),
       Column::Ints("k", t.k), Column::Doubles("median_p", t.median),
       Column::Doubles("frac_above", t.frac), Column::Doubles("median_p_one_sample", t.median_one),
       Column::Doubles("frac_above_one_sample", t.frac_one),
       Column::Doubles("heldout_ll", t.heldout), Column::Doubles("iterations", t.iterations),
       Column::Doubles("converged", t.converged), Column::Doubles("floored", t.floored)}};
}

SummaryTable ModelsTable(const GofArrays& g, const std::string& dataset_label) {
  std::vector<std::string> model;
  std::vector<int64_t> rep, epochs;
  std::vector<double> eps, sigma, tacc, pacc, auroc, mia, tmax, secs;
  for (int64_t m = 0; m < g.M; ++m) {
    for (int64_t r = 0; r < g.R; ++r) {
      const size_t u = static_cast<size_t>(m * g.R + r);
      const auto at = [&g, u](const char* name) { return g.unit.at(name)[u]; };
      model.push_back(kGofModels[m]);
      rep.push_back(r);
      epochs.push_back(static_cast<int64_t>(at("epochs")));
      eps.push_back(at("eps"));
      sigma.push_back(at("noise_multiplier"));
      tacc.push_back(at("train_accuracy"));
      pacc.push_back(at("population_accuracy"));
      auroc.push_back(at("auroc"));
      mia.push_back(at("membership_auc"));
      tmax.push_back(at("transform_max"));
      secs.push_back(at("train_seconds") + at("gof_seconds"));
    }
  }
  return {"models",
          "The Adult models behind the goodness-of-fit tests",
          "Data: " + dataset_label +
              ". One row per model (type, repetition). eps: RDP accountant "
              "(DefaultRdpOrders, Poisson sampling) at delta of the run's q, steps and accounting "
              "noise multiplier; NaN = non-private. AUROC: population set, logit difference "
              "against the income label. membership_auc: loss-threshold attack, training vs "
              "population losses. max_loss: the joint maximum loss that the App. B transform maps "
              "to its lower end (a large maximum squeezes the typical losses into a narrow "
              "spike). seconds: training + goodness-of-fit wall time of the unit.",
          {Column::Strings("model", model), Column::Ints("repetition", rep),
           Column::Ints("epochs", epochs), Column::Doubles("eps", eps),
           Column::Doubles("noise_multiplier", sigma), Column::Doubles("train_accuracy", tacc),
           Column::Doubles("population_accuracy", pacc), Column::Doubles("auroc", auroc),
           Column::Doubles("membership_auc", mia), Column::Doubles("max_loss", tmax),
           Column::Doubles("seconds", secs)}};
}

AnalysisReport ReportAnalysis(const GofArrays& g, const GofStudyConfig& c, int64_t f) {
  const AnalysisSpec spec = Analyses(c)[static_cast<size_t>(f)];
  const TrainingPools t = PoolTraining(g, c, f);
  AnalysisReport out;
  AddPoolNumbers(g, c, f, spec.suffix, t, out.numbers);
  const KOneMedians med = MediansAtKOne(g, c, f, spec.suffix, out.numbers);
  const ClaimContext x = MakeClaimContext(g, c, spec, t.all.size());
  out.claims = {MostAboveClaim(x, t), MoreWithDpClaim(x, t), MoreWithComponentsClaim(x, t, BigK(g)),
                OneComponentMostClaim(x, med, g.R, g.I), OneComponentMoreWithDpClaim(x, t)};
  return out;
}

Status WriteReport(const GofArrays& g, const GofStudyConfig& c, const std::string& dataset_label,
                   ResultWriter& out) {
  PB_RETURN_IF_ERROR(out.WriteTable(GofByNEvalTable(g, c, dataset_label)));
  PB_RETURN_IF_ERROR(out.WriteTable(GofByComponentsTable(g, c, dataset_label)));
  PB_RETURN_IF_ERROR(out.WriteTable(ModelsTable(g, dataset_label)));
  for (int64_t f = 0; f < g.A; ++f) {
    const AnalysisReport r = ReportAnalysis(g, c, f);
    for (const GofNumber& n : r.numbers) {
      PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/" + n.id, n.value));
    }
    for (const Claim& claim : r.claims) PB_RETURN_IF_ERROR(out.WriteClaim(claim));
  }
  return Status::Ok();
}

}  // namespace privbench::epsilon_star_gof
