// Study B2 epsilon_star_identical: Epsilon* when the train and population
// loss distributions are identical (true Epsilon* = 0). Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models" (PPAI-24), App. B.1
// "Identical Loss Distributions", Fig. 4; STUDIES.md B2.
//
//   bazel run //experiments:epsilon_star_identical [-- --scale=paper]
//
// For each sample size n and each of `repetitions` independent draws of n
// train and n population losses from the same Gamma(shape, scale), every
// registered loss-sample estimator (empirical, parametric, and any added
// later) is evaluated in two analyses:
//   primary:       each estimator on its own window (empirical (0.001,
//                  0.999) from the paper; parametric [clip_lo, clip_hi],
//                  lost in the paper, default [1e-6, 1 - 1e-6]);
//   common_window: every estimator on [common_lo, common_hi] (default
//                  [0.001, 0.999]), to show how the verdict depends on the
//                  lost parametric window.
// The exact Epsilon* (known CDFs) is computed on each window (it is 0: for
// identical distributions FPR = 1 - FNR and both ratio terms are <= 1).
//
// Output results/raw/epsilon_star_identical.h5:
//   /settings/n [N], /estimators [E]
//   /<analysis>/<estimator>/values [N x R], mean [N], sd [N] (attr window)
//   /exact/{rate_window, clip_window, common_window} scalars
//   /numbers/<...>_mean_n<n>, /summary tables, /claims (see below).
// Claims (App. B.1 on Fig. 4): (1) "the parametric implementation shows
// values closer to the true value of 0 than the empirical CDF
// implementation" - checked as: mean parametric < mean empirical at EVERY
// n; (2) "the larger the loss sample size, the closer both implementations
// get to the true value of 0" - checked as: each mean strictly decreases
// from each n to the next. Both for the primary analysis and, as separate
// claims, for the common window.
#include <cmath>
#include <string>
#include <vector>

#include "core/progress.h"
#include "core/seeding.h"
#include "core/validate.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "experiments/epsilon_star_sim.h"
#include "experiments/framework/study.h"

namespace privbench {
namespace {

// Seed stream of this study (B3 uses another, so that its d = 0 samples are
// not this study's samples).
constexpr uint64_t kSeedStream = 2;

struct Config {
  double shape = 1.0;  // lost in the paper; our default Gamma(1, 1)
  double scale = 1.0;
  EstimationConfig est;
};

Config Defaults(Scale scale) {
  Config c;
  c.est = DefaultEstimationConfig(scale);
  return c;
}

Status Validate(const Config& c) {
  PB_RETURN_IF_ERROR(CheckPositive("gamma_shape", c.shape));
  PB_RETURN_IF_ERROR(CheckPositive("gamma_scale", c.scale));
  return ValidateEstimationConfig(c.est);
}

int IndexOf(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

Status Run(const Config& c, StudyContext& ctx) {
  ResultWriter& out = ctx.out();
  const GammaLoss dist{c.shape, c.scale, 0.0};
  const std::vector<std::string> names = AllLossSampleEstimatorNames();
  const int emp = IndexOf(names, "empirical"), par = IndexOf(names, "parametric");
  if (emp < 0 || par < 0) {
    return Error("the claims compare the registered estimators 'empirical' and 'parametric'");
  }
  const std::vector<SimAnalysis> analyses = {{"primary", PrimaryOptions(c.est)},
                                             {"common_window", CommonWindowOptions(c.est)}};
  const size_t N = c.est.n.size(), E = names.size(), A = analyses.size();
  const int64_t R = c.est.repetitions;

  // Exact values on the three windows.
  const EpsilonStarOptions& prim = analyses[0].options;
  const std::vector<std::pair<std::string, EpsilonStarOptions>> exact_jobs = {
      {"rate_window", ExactOptionsForWindow(prim, EpsilonStarWindow::kRate)},
      {"clip_window", ExactOptionsForWindow(prim, EpsilonStarWindow::kClip)},
      {"common_window", ExactOptionsForWindow(analyses[1].options, EpsilonStarWindow::kRate)}};
  // Windows equal to an earlier one (by default common = rate) are
  // computed once.
  std::vector<size_t> source(exact_jobs.size());
  std::vector<size_t> todo;
  for (size_t w = 0; w < exact_jobs.size(); ++w) {
    source[w] = w;
    for (size_t u = 0; u < w; ++u) {
      if (exact_jobs[u].second.rate_floor == exact_jobs[w].second.rate_floor &&
          exact_jobs[u].second.rate_ceiling == exact_jobs[w].second.rate_ceiling) {
        source[w] = source[u];
        break;
      }
    }
    if (source[w] == w) todo.push_back(w);
  }
  std::vector<double> exact(exact_jobs.size(), 0.0);
  {
    ProgressReporter progress("exact Epsilon*", static_cast<int64_t>(todo.size()), ctx.quiet());
    PB_RETURN_IF_ERROR(
        ParallelFor(static_cast<int64_t>(todo.size()), ctx.threads(), [&](int64_t j) -> Status {
          const size_t w = todo[static_cast<size_t>(j)];
          PB_ASSIGN_OR_RETURN(exact[w], ExactGammaEpsilonStar(dist, dist, exact_jobs[w].second));
          progress.Advance();
          return Status::Ok();
        }));
  }
  for (size_t w = 0; w < exact_jobs.size(); ++w) exact[w] = exact[source[w]];
  // exact[] index of each analysis' reference for estimator e.
  auto exact_index = [&](size_t a, size_t e) -> size_t {
    if (a == 1) return 2;
    return WindowOfEstimator(names[e]) == EpsilonStarWindow::kClip ? 1 : 0;
  };

  std::vector<SimSetting> settings;
  for (int64_t n : c.est.n) settings.push_back({dist, dist, n});
  PB_ASSIGN_OR_RETURN(
      ReplicateValues v,
      RunReplicates(settings, R, DeriveSeed(ctx.seed(), {kSeedStream}), names, analyses,
                    ctx.threads(), ctx.quiet(), "samples (n x repetition)"));

  // mean/sd[a][e][n]
  std::vector<std::vector<std::vector<double>>> mean(A, std::vector<std::vector<double>>(E)),
      sd = mean;
  for (size_t a = 0; a < A; ++a) {
    for (size_t e = 0; e < E; ++e) {
      std::vector<double> flat;
      for (size_t i = 0; i < N; ++i) {
        const std::vector<double>& x = v[i][a][e];
        flat.insert(flat.end(), x.begin(), x.end());
        mean[a][e].push_back(Mean(x));
        sd[a][e].push_back(SampleSd(x));
      }
      const std::string g = "/" + analyses[a].name + "/" + names[e];
      PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/values", flat, {N, static_cast<uint64_t>(R)}));
      PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/mean", mean[a][e]));
      PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/sd", sd[a][e]));
      const EpsilonStarWindow w = a == 1 ? EpsilonStarWindow::kRate : WindowOfEstimator(names[e]);
      PB_RETURN_IF_ERROR(out.SetAttribute(g, "window", WindowText(analyses[a].options, w)));
      PB_RETURN_IF_ERROR(out.SetAttribute(g, "exact", exact[exact_index(a, e)]));
      PB_RETURN_IF_ERROR(
          out.SetAttribute(g, "options", EpsilonStarOptionsText(analyses[a].options)));
      for (size_t i = 0; i < N; ++i) {
        PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/identical_" + analyses[a].name + "_" +
                                               names[e] + "_mean_n" + std::to_string(c.est.n[i]),
                                           mean[a][e][i]));
      }
    }
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/n", c.est.n));
  PB_RETURN_IF_ERROR(out.WriteStrings("/estimators", names));
  PB_RETURN_IF_ERROR(
      out.WriteStrings("/analyses", std::vector<std::string>{analyses[0].name, analyses[1].name}));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "distribution", GammaLossText(dist)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/settings", "repetitions", R));
  for (size_t j = 0; j < exact_jobs.size(); ++j) {
    const std::string p = "/exact/" + exact_jobs[j].first;
    PB_RETURN_IF_ERROR(out.WriteScalar(p, exact[j]));
    PB_RETURN_IF_ERROR(
        out.SetAttribute(p, "window", WindowText(exact_jobs[j].second, EpsilonStarWindow::kRate)));
    PB_RETURN_IF_ERROR(
        out.WriteScalar("/numbers/identical_exact_" + exact_jobs[j].first, exact[j]));
  }

  // Tables and claims per analysis.
  for (size_t a = 0; a < A; ++a) {
    const std::string& an = analyses[a].name;
    std::vector<int64_t> col_n;
    std::vector<std::string> col_est, col_win;
    std::vector<double> col_exact, col_mean, col_sd;
    for (size_t i = 0; i < N; ++i) {
      for (size_t e = 0; e < E; ++e) {
        col_n.push_back(c.est.n[i]);
        col_est.push_back(names[e]);
        col_win.push_back(WindowText(
            analyses[a].options, a == 1 ? EpsilonStarWindow::kRate : WindowOfEstimator(names[e])));
        col_exact.push_back(exact[exact_index(a, e)]);
        col_mean.push_back(mean[a][e][i]);
        col_sd.push_back(sd[a][e][i]);
      }
      col_n.push_back(c.est.n[i]);
      col_est.push_back("exact");
      col_win.push_back("any");
      col_exact.push_back(exact[0]);
      col_mean.push_back(exact[0]);
      col_sd.push_back(0.0);
    }
    const bool primary = a == 0;
    PB_RETURN_IF_ERROR(out.WriteTable(
        {"identical_" + an,
         std::string("Epsilon* for identical loss distributions (Fig. 4), ") +
             (primary ? "each estimator on its own window" : "every estimator on a common window"),
         "Train and population losses both " + GammaLossText(dist) + "; mean and sample sd of " +
             std::to_string(R) +
             " repetitions per n (n losses in each sample); true Epsilon* = 0 "
             "(exact column, computed from the known CDFs on the row's window). " +
             (primary ? "Empirical on the paper's (rate_floor, rate_ceiling); parametric on "
                        "[clip_lo, clip_hi], whose value the paper lost (our default)."
                      : "Secondary analysis: rate and clip windows both [common_lo, common_hi].") +
             " Options: " + EpsilonStarOptionsText(analyses[a].options) + ".",
         {Column::Ints("n", col_n), Column::Strings("estimator", col_est),
          Column::Strings("window", col_win), Column::Doubles("exact", col_exact),
          Column::Doubles("mean", col_mean), Column::Doubles("sd", col_sd)}}));

    // Claim 1: parametric closer to 0 at every n.
    bool closer = true;
    std::string ev1;
    int resolved = 0;
    for (size_t i = 0; i < N; ++i) {
      const bool ok = mean[a][par][i] < mean[a][emp][i];
      closer = closer && ok;
      const PairedDifference pd = Paired(v[i][a][emp], v[i][a][par]);
      if (std::abs(pd.t) >= 2.0) ++resolved;
      ev1 += (i ? "; " : "") + std::string("n=") + std::to_string(c.est.n[i]) + ": empirical " +
             Fmt(mean[a][emp][i]) + " +- " + Fmt(sd[a][emp][i], 2) + " vs parametric " +
             Fmt(mean[a][par][i]) + " +- " + Fmt(sd[a][par][i], 2) +
             (ok ? " (parametric closer" : " (parametric NOT closer") + "; paired difference " +
             Fmt(pd.mean) + ", t = " + Fmt(pd.t, 2) + ")";
    }
    ev1 += "; " + std::to_string(resolved) + " of " + std::to_string(N) +
           " differences resolved (|t| >= 2) by " + std::to_string(R) + " repetitions";
    const std::string suffix = primary ? "" : "_common_window";
    const std::string win_note =
        primary
            ? " [primary: empirical " + WindowText(analyses[a].options, EpsilonStarWindow::kRate) +
                  ", parametric " + WindowText(analyses[a].options, EpsilonStarWindow::kClip) + "]"
            : " [secondary: both on " + WindowText(analyses[a].options, EpsilonStarWindow::kClip) +
                  "]";
    PB_RETURN_IF_ERROR(out.WriteClaim(
        {"epsilon_star_identical_parametric_closer" + suffix,
         "With identical loss distributions the parametric implementation gives values closer "
         "to the true value 0 than the empirical-CDF implementation" +
             win_note,
         "Epsilon* paper App. B.1, Fig. 4, observation 1", closer,
         "criterion: mean over " + std::to_string(R) +
             " repetitions, parametric < empirical at every n (mean +- sd); " + ev1}));

    // Claim 2: both shrink with n.
    bool shrink = true;
    std::string ev2;
    for (int e : {emp, par}) {
      std::string seq;
      bool mono = true;
      for (size_t i = 0; i < N; ++i) {
        seq += (i ? " -> " : "") + Fmt(mean[a][static_cast<size_t>(e)][i]);
        if (i > 0 &&
            !(mean[a][static_cast<size_t>(e)][i] < mean[a][static_cast<size_t>(e)][i - 1])) {
          mono = false;
        }
      }
      shrink = shrink && mono;
      ev2 += (e == emp ? "" : "; ") + names[static_cast<size_t>(e)] + " " + seq +
             (mono ? " (decreasing)" : " (NOT strictly decreasing)");
    }
    std::string ns;
    for (size_t i = 0; i < N; ++i) ns += (i ? "," : "") + std::to_string(c.est.n[i]);
    PB_RETURN_IF_ERROR(out.WriteClaim(
        {"epsilon_star_identical_both_shrink" + suffix,
         "The larger the loss sample size, the closer both implementations get to the true "
         "value 0" +
             win_note,
         "Epsilon* paper App. B.1, Fig. 4, observation 2", shrink,
         "criterion: the mean of empirical and of parametric strictly decreases from each n to "
         "the next (n = " +
             ns + "); means: " + ev2}));
  }

  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "epsilon_star_options_primary",
                                      EpsilonStarOptionsText(analyses[0].options)));
  PB_RETURN_IF_ERROR(out.SetAttribute("/meta", "epsilon_star_options_common_window",
                                      EpsilonStarOptionsText(analyses[1].options)));
  return out.SetAttribute(
      "/meta", "lost_parameters",
      "Gamma parameters of the identical distributions (lost): " + GammaLossText(dist) +
          "; parametric rate window (lost): [clip_lo, clip_hi] = " +
          WindowText(prim, EpsilonStarWindow::kClip) +
          " (library default; the empirical and exact variants use the paper's " +
          WindowText(prim, EpsilonStarWindow::kRate) + "); secondary analysis on a common window " +
          WindowText(analyses[1].options, EpsilonStarWindow::kClip) + "; " +
          EstimationSizesText(c.est, ctx.scale()));
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  Study<Config> study;
  study.info = {"epsilon_star_identical",
                "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
                "App. B.1 (Identical Loss Distributions), Fig. 4; STUDIES.md B2",
                "Empirical vs parametric Epsilon* when train and population losses share one "
                "Gamma distribution (true value 0), against the sample size"};
  study.defaults = Defaults;
  study.register_flags = [](FlagSet& flags, Config& c) {
    // Not "scale": that name is the common --scale (quick / paper / test).
    flags.AddDouble("gamma_shape", &c.shape,
                    "Gamma shape of both loss distributions (lost; ours 1)");
    flags.AddDouble("gamma_scale", &c.scale,
                    "Gamma scale of both loss distributions (lost; ours 1)");
    RegisterEstimationFlags(flags, c.est);
  };
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
