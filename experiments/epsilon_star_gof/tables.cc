// The study's summary tables (report.h): the GOF p-values by n_eval and by
// number of components, and the models.
#include <cmath>
#include <string>
#include <vector>

#include "core/format.h"
#include "core/stats.h"
#include "experiments/epsilon_star_gof/report.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_gof {
namespace {

// Numbers in the table captions.
std::string Fmt(double x) { return FormatSignificant(x, 3); }

// What the 'analysis' and 'variance_floor' columns of both GOF tables mean.
std::string AnalysisColumnsText(const Config& c) {
  return "analysis: the loss transform (App. B 'epsilon_star_logit', or Carlini's logit without "
         "the App. B normalisation, an extra) and the EM variance floor (the EM lower bound on "
         "component variances; primary " +
         FormatDouble(c.variance_floors[0]) + ", scikit-learn's reg_covar; others: sensitivity)";
}

// One row of gof_by_n_eval: loss set s, model m, analysis f, n_eval index i.
void AddNEvalRow(const GofArrays& g, const Config& c, const AnalysisSpec& spec, int64_t s,
                 int64_t m, int64_t f, int64_t i, TableBuilder& t) {
  const double alpha = c.significance;
  const std::vector<double> p1 = g.P(m, s, f, 1, 1, "p_value", i);
  const std::vector<double> pb = g.P(m, s, f, BigK(g), g.K, "p_value", i);
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
  t.Row({kGofLossSets[s], kGofModels[m], spec.name, spec.floor, c.n_eval[static_cast<size_t>(i)],
         Median(p1), FractionAbove(p1, alpha), Median(pb), FractionAbove(pb, alpha),
         FractionAbove(g.P(m, s, f, 1, g.K, "p_value", i), alpha),
         Median(g.P(m, s, f, 1, 1, "p_one_sample", i)),
         static_cast<int64_t>(std::lround(Median(best))),
         converged / static_cast<double>(g.R * g.K), floored / static_cast<double>(g.R)});
}

std::string NEvalCaption(const GofArrays& g, const Config& c, const std::string& dataset_label) {
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

// One row of gof_by_components: loss set s, model m, analysis f, k.
void AddComponentRow(const GofArrays& g, double alpha, const AnalysisSpec& spec, int64_t s,
                     int64_t m, int64_t f, int64_t k, TableBuilder& t) {
  const std::vector<double> p = g.P(m, s, f, k, k);
  const std::vector<double> p1 = g.P(m, s, f, k, k, "p_one_sample");
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
  t.Row({kGofLossSets[s], kGofModels[m], spec.name, spec.floor, k, Median(p),
         FractionAbove(p, alpha), Median(p1), FractionAbove(p1, alpha),
         Mean(g.P(m, s, f, k, k, "heldout_log_likelihood")), it / cnt, cv / cnt, fl / cnt});
}

std::string ComponentsCaption(const GofArrays& g, const Config& c,
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

}  // namespace

std::string JoinInts(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

Result<SummaryTable> GofByNEvalTable(const Config& c, const Results& r) {
  const GofArrays& g = r.arrays;
  const std::vector<AnalysisSpec> an = Analyses(c);
  const std::string big = "k>=" + std::to_string(BigK(g));
  TableBuilder t("gof_by_n_eval",
                 "KS goodness of fit of Gaussian mixtures to transformed Adult losses, by "
                 "evaluation size (Epsilon* App. B.2, Fig. 6)",
                 NEvalCaption(g, c, r.dataset_label),
                 {{"loss_set", Column::Type::kString},
                  {"model", Column::Type::kString},
                  {"analysis", Column::Type::kString},
                  {"variance_floor", Column::Type::kDouble},
                  {"n_eval", Column::Type::kInt},
                  {"median_p_k1", Column::Type::kDouble},
                  {"frac_above_k1", Column::Type::kDouble},
                  {"median_p_" + big, Column::Type::kDouble},
                  {"frac_above_" + big, Column::Type::kDouble},
                  {"frac_above_all_k", Column::Type::kDouble},
                  {"one_sample_p_k1", Column::Type::kDouble},
                  {"bic_best_k", Column::Type::kInt},
                  {"converged", Column::Type::kDouble},
                  {"floored_at_k_max", Column::Type::kDouble}});
  for (int64_t s = 0; s < g.S; ++s) {
    for (int64_t m = 0; m < g.M; ++m) {
      for (int64_t f = 0; f < g.A; ++f) {
        for (int64_t i = 0; i < g.I; ++i) {
          AddNEvalRow(g, c, an[static_cast<size_t>(f)], s, m, f, i, t);
        }
      }
    }
  }
  return t.Build();
}

Result<SummaryTable> GofByComponentsTable(const Config& c, const Results& r) {
  const GofArrays& g = r.arrays;
  const std::vector<AnalysisSpec> an = Analyses(c);
  TableBuilder t("gof_by_components",
                 "KS goodness of fit by number of mixture components (Epsilon* App. B.2, Fig. 6)",
                 ComponentsCaption(g, c, r.dataset_label),
                 {{"loss_set", Column::Type::kString},
                  {"model", Column::Type::kString},
                  {"analysis", Column::Type::kString},
                  {"variance_floor", Column::Type::kDouble},
                  {"k", Column::Type::kInt},
                  {"median_p", Column::Type::kDouble},
                  {"frac_above", Column::Type::kDouble},
                  {"median_p_one_sample", Column::Type::kDouble},
                  {"frac_above_one_sample", Column::Type::kDouble},
                  {"heldout_ll", Column::Type::kDouble},
                  {"iterations", Column::Type::kDouble},
                  {"converged", Column::Type::kDouble},
                  {"floored", Column::Type::kDouble}});
  for (int64_t s = 0; s < g.S; ++s) {
    for (int64_t m = 0; m < g.M; ++m) {
      for (int64_t f = 0; f < g.A; ++f) {
        for (int64_t k = 1; k <= g.K; ++k) {
          AddComponentRow(g, c.significance, an[static_cast<size_t>(f)], s, m, f, k, t);
        }
      }
    }
  }
  return t.Build();
}

Result<SummaryTable> ModelsTable(const Results& r) {
  const GofArrays& g = r.arrays;
  TableBuilder t(
      "models", "The Adult models behind the goodness-of-fit tests",
      "Data: " + r.dataset_label +
          ". One row per model (type, repetition). eps: RDP accountant "
          "(DefaultRdpOrders, Poisson sampling) at delta of the run's q, steps and accounting "
          "noise multiplier; NaN = non-private. AUROC: population set, logit difference "
          "against the income label. membership_auc: loss-threshold attack, training vs "
          "population losses. max_loss: the joint maximum loss that the App. B transform maps "
          "to its lower end (a large maximum squeezes the typical losses into a narrow "
          "spike). seconds: training + goodness-of-fit wall time of the unit.",
      {{"model", Column::Type::kString},
       {"repetition", Column::Type::kInt},
       {"epochs", Column::Type::kInt},
       {"eps", Column::Type::kDouble},
       {"noise_multiplier", Column::Type::kDouble},
       {"train_accuracy", Column::Type::kDouble},
       {"population_accuracy", Column::Type::kDouble},
       {"auroc", Column::Type::kDouble},
       {"membership_auc", Column::Type::kDouble},
       {"max_loss", Column::Type::kDouble},
       {"seconds", Column::Type::kDouble}});
  for (int64_t m = 0; m < g.M; ++m) {
    for (int64_t rep = 0; rep < g.R; ++rep) {
      const size_t u = static_cast<size_t>(m * g.R + rep);
      const auto at = [&g, u](const char* name) { return g.unit.at(name)[u]; };
      t.Row({kGofModels[m], rep, static_cast<int64_t>(at("epochs")), at("eps"),
             at("noise_multiplier"), at("train_accuracy"), at("population_accuracy"), at("auroc"),
             at("membership_auc"), at("transform_max"), at("train_seconds") + at("gof_seconds")});
    }
  }
  return t.Build();
}

}  // namespace privbench::epsilon_star_gof
