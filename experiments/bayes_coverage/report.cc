#include "experiments/bayes_coverage/report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "core/format.h"
#include "experiments/bayes_coverage/diagonal_limit.h"
#include "experiments/lib/coverage/coverage_report.h"
#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench::bayes_coverage {
namespace {

// The claims of the Bayesian paper about coverage and width, each judged
// against the 3 se0 band of experiments/lib/coverage/coverage_run.h.
class Claims {
 public:
  Claims(const Config& c, const Results& r)
      : c_(c),
        settings_(r.settings),
        methods_(r.methods),
        data_(r.run.data),
        index_(IndexByName(methods_)) {}

  // "Over-covers": no setting under, and over in more than half.
  Claim OverCovers(const std::string& id, const std::string& method) const;
  // "Near nominal" in every setting whose true eps is > 0.
  Claim NearNominal(const std::string& id, const std::string& method) const;
  // Bayesian narrower than Clopper-Pearson and Jeffreys in every setting
  // (paired: no more infinite intervals, smaller mean width over the trials
  // where both are finite).
  Claim Narrowest() const;
  // At true eps = 0 the equal-tailed interval's lower end is > 0.
  Claim ChancePoint() const;

 private:
  const MethodRun* Find(const std::string& name) const {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : &data_[it->second];
  }
  double nominal() const { return 1.0 - c_.alpha; }
  double se0() const { return NominalSe(nominal(), c_.trials); }
  std::string Band() const;
  // One setting of Narrowest(): appends its text to *per and the other
  // methods narrower than bayesian to *others; returns whether bayesian is
  // narrower than both clopper_pearson (cp) and jeffreys (j) there.
  bool NarrowestAt(size_t s, const MethodRun& b, const MethodRun& cp, const MethodRun& j,
                   Evidence* per, Evidence* others) const;
  // The chance-point text of setting s: the Bayesian coverage and median
  // lower end, and those of the one-sided bound and Clopper-Pearson.
  Evidence ChancePointAt(size_t s, const MethodRun& b) const;

  const Config& c_;
  const std::vector<CoverageSetting>& settings_;
  const std::vector<CoverageMethod>& methods_;
  const std::vector<MethodRun>& data_;
  std::map<std::string, size_t> index_;
};

std::string Claims::Band() const {
  return Evidence() << "nominal " << nominal() << ", 3 se0 = " << 3 * se0()
                    << " with se0 = sqrt(nominal(1-nominal)/" << c_.trials << ")";
}

Claim Claims::OverCovers(const std::string& id, const std::string& method) const {
  const MethodRun* d = Find(method);
  if (!d) return ClaimEvidence(id, false, "method '" + method + "' is not registered");
  const ClassCounts counts = CountClasses(d->classes);
  size_t argmin = 0;
  for (size_t s = 0; s < settings_.size(); ++s) {
    if (d->stats[s].coverage < d->stats[argmin].coverage) argmin = s;
  }
  return ClaimEvidence(
      id, OverCoversMost(counts),
      Evidence() << "criterion: coverage never below nominal - 3 se0 and above nominal + 3 se0 in "
                    "more than half of the settings ("
                 << Band() << "). " << method << ": over in " << counts.over << " of "
                 << counts.total() << ", under in " << counts.under << "; minimum "
                 << d->stats[argmin].coverage << " at " << settings_[argmin].label
                 << ". Per setting: " << CoverageList(settings_, *d));
}

Claim Claims::NearNominal(const std::string& id, const std::string& method) const {
  const MethodRun* d = Find(method);
  if (!d) return ClaimEvidence(id, false, "method '" + method + "' is not registered");
  std::vector<size_t> positive, misses;
  int under = 0, over = 0;
  for (size_t s = 0; s < settings_.size(); ++s) {
    if (!(d->stats[s].truth > 0.0)) continue;
    positive.push_back(s);
    if (d->classes[s] != CoverageClass::kNear) misses.push_back(s);
    under += d->classes[s] == CoverageClass::kUnder;
    over += d->classes[s] == CoverageClass::kOver;
  }
  Evidence e;
  e << "criterion: |coverage - nominal| <= 3 se0 in every setting with true eps > 0 (" << Band()
    << "). " << method << ": within in " << positive.size() - misses.size() << " of "
    << positive.size() << " settings (under in " << under << ", over in " << over << ")";
  if (!misses.empty()) e << "; outside: " << CoverageList(settings_, *d, misses);
  e << ". Per setting: " << CoverageList(settings_, *d, positive);
  return ClaimEvidence(id, !positive.empty() && misses.empty(), e);
}

bool Claims::NarrowestAt(size_t s, const MethodRun& b, const MethodRun& cp, const MethodRun& j,
                         Evidence* per, Evidence* others) const {
  const int64_t t = c_.trials;
  const auto bl = Row(b.lower, s, t), bu = Row(b.upper, s, t);
  const PairedWidths vs_cp = ComparePairedWidths(bl, bu, Row(cp.lower, s, t), Row(cp.upper, s, t));
  const PairedWidths vs_j = ComparePairedWidths(bl, bu, Row(j.lower, s, t), Row(j.upper, s, t));
  auto narrower = [](const PairedWidths& p) {
    return p.both_finite > 0 && p.frac_infinite_a <= p.frac_infinite_b && p.mean_a < p.mean_b;
  };
  const bool win = narrower(vs_cp) && narrower(vs_j);
  Separate(*per);
  *per << settings_[s].label << ": bayesian " << vs_cp.mean_a << " vs CP " << vs_cp.mean_b
       << " (paired over " << vs_cp.both_finite << "), bayesian " << vs_j.mean_a << " vs Jeffreys "
       << vs_j.mean_b << ", infinite " << 100 * vs_cp.frac_infinite_a << "/"
       << 100 * vs_cp.frac_infinite_b << "/" << 100 * vs_j.frac_infinite_b << "%"
       << (win ? "" : " [NOT narrower]");
  // Other registered two-sided methods narrower than the Bayesian one.
  for (size_t m = 0; m < methods_.size(); ++m) {
    const std::string& name = methods_[m].name;
    if (methods_[m].one_sided || name == "bayesian" || name == "clopper_pearson" ||
        name == "jeffreys") {
      continue;
    }
    const PairedWidths p =
        ComparePairedWidths(bl, bu, Row(data_[m].lower, s, t), Row(data_[m].upper, s, t));
    if (p.both_finite > 0 && p.mean_b < p.mean_a) {
      Separate(*others);
      *others << methods_[m].label << " at " << settings_[s].label << " (" << p.mean_b << " vs "
              << p.mean_a << ", coverage " << data_[m].stats[s].coverage << ")";
    }
  }
  return win;
}

Claim Claims::Narrowest() const {
  const std::string id = "bayes_coverage_bayes_narrowest";
  const MethodRun* b = Find("bayesian");
  const MethodRun* cp = Find("clopper_pearson");
  const MethodRun* j = Find("jeffreys");
  if (!b || !cp || !j) {
    return ClaimEvidence(id, false, "bayesian, clopper_pearson or jeffreys is not registered");
  }
  size_t wins = 0;
  Evidence per, others;
  for (size_t s = 0; s < settings_.size(); ++s) wins += NarrowestAt(s, *b, *cp, *j, &per, &others);
  return ClaimEvidence(
      id, wins == settings_.size(),
      Evidence() << "criterion: in every setting the Bayesian interval has no larger a fraction of "
                    "infinite intervals and a smaller mean width over the trials where both are "
                    "finite, against both clopper_pearson and jeffreys. Narrower in "
                 << wins << " of " << settings_.size()
                 << " settings. Mean widths (infinite % bayesian/CP/Jeffreys): " << per.str()
                 << ". Other registered two-sided methods narrower than bayesian: "
                 << (others.str().empty() ? "none" : others.str()));
}

Evidence Claims::ChancePointAt(size_t s, const MethodRun& b) const {
  Evidence e;
  e << settings_[s].label << ": coverage " << b.stats[s].coverage << ", median lower end "
    << b.stats[s].median_lower;
  if (const MethodRun* o = Find("bayesian_one_sided")) {
    e << ", one-sided coverage " << o->stats[s].coverage << " (median bound "
      << o->stats[s].median_lower << ")";
  }
  if (const MethodRun* cp = Find("clopper_pearson")) {
    e << ", clopper_pearson coverage " << cp->stats[s].coverage;
  }
  return e;
}

Claim Claims::ChancePoint() const {
  const std::string id = "bayes_coverage_bayes_eps0_miss";
  const MethodRun* b = Find("bayesian");
  if (!b) return ClaimEvidence(id, false, "bayesian is not registered");
  size_t zero = 0, under = 0;
  Evidence per;
  for (size_t s = 0; s < settings_.size(); ++s) {
    if (b->stats[s].truth != 0.0) continue;
    ++zero;
    under += b->classes[s] == CoverageClass::kUnder;
    Separate(per);
    per << ChancePointAt(s, *b).str();
  }
  if (zero == 0) {
    return ClaimEvidence(
        id, false, "not evaluated: no setting has true eps = 0 (add the pair FPR = FNR = 0.5)");
  }
  return ClaimEvidence(id, under == zero,
                       Evidence() << "criterion: Bayesian two-sided coverage below nominal - 3 "
                                     "se0 in every setting with true eps = 0 ("
                                  << Band() << "); under in " << under << " of " << zero << ". "
                                  << per.str());
}

// The words every table caption starts with.
std::string CommonCaption(const Config& c) {
  const std::string level = FormatFixed(100 * (1.0 - c.alpha), 0) + "%";
  return std::to_string(c.trials) +
         " Monte-Carlo trials per setting; n = total membership trials "
         "(n/2 members, n/2 non-members); nominal " +
         level + " (alpha = " + FormatDouble(c.alpha) + "), delta = " + FormatDouble(c.delta) +
         " (methods that require delta = 0 run at 0, "
         "against the truth at delta = 0). ";
}

const char* Kind(const CoverageMethod& m) { return m.one_sided ? "one-sided" : "two-sided"; }

// Long table: one row per (setting, method).
Result<SummaryTable> LongTable(const Config& c, const Results& r) {
  const CoverageColumn kind = {
      {"kind", Column::Type::kString},
      [](const CoverageMethod& m, const IntervalStats&) { return Cell(Kind(m)); }};
  return LongCoverageTable(
      r,
      {"coverage", "Empirical coverage of the true eps, every registered estimator",
       CommonCaption(c) +
           "coverage = fraction of trials with lower <= true eps <= upper (one-sided: lower <= "
           "true eps); se = sqrt(c(1-c)/trials); class: under/over if coverage is below/above "
           "nominal by more than 3 sqrt(nominal(1-nominal)/trials), else near. miss_low = "
           "fraction with the interval entirely above the truth, miss_high = entirely below "
           "(an equal-tailed interval aims at alpha/2 each). mean_width = mean of upper - "
           "lower over the FINITE intervals (NaN for one-sided methods or when all are "
           "infinite); frac_infinite = fraction with upper = +inf. Widths and eps in nats."},
      {LabelColumn(), kind, StatColumn("true_eps", &IntervalStats::truth)},
      StatColumns({{"miss_low", &IntervalStats::miss_low},
                   {"miss_high", &IntervalStats::miss_high},
                   {"mean_width", &IntervalStats::mean_width},
                   {"frac_infinite", &IntervalStats::frac_infinite},
                   {"median_lower", &IntervalStats::median_lower}}));
}

// The true eps of every setting at the study's delta: the wide tables' column.
std::vector<double> TrueEpsAtDelta(const Config& c, const Results& r) {
  std::vector<double> truth;
  for (const CoverageSetting& st : r.settings) truth.push_back(TrueEps(st, c.delta));
  return truth;
}

// Wide table: coverage per setting, one column per method.
Result<SummaryTable> CoverageByMethodTable(const Config& c, const Results& r) {
  const double nominal = 1.0 - c.alpha;
  return WideCoverageTable(
      r,
      {"coverage_by_method",
       "Coverage per setting and method (nominal " + FormatFixed(100 * nominal, 0) + "%)",
       CommonCaption(c) +
           "Monte-Carlo se at the nominal level: " + FormatFixed(NominalSe(nominal, c.trials), 4) +
           ". true_eps is at the study's delta; katz_log-like methods are scored "
           "at delta = 0 (identical to 4 decimals unless delta is large)."},
      "true_eps", TrueEpsAtDelta(c, r), {{"", &IntervalStats::coverage}},
      /*two_sided_only=*/false);
}

// Wide table: mean width and fraction infinite per setting, two columns per
// two-sided method.
Result<SummaryTable> WidthByMethodTable(const Config& c, const Results& r) {
  return WideCoverageTable(
      r,
      {"width_by_method", "Mean width of the two-sided intervals (nats)",
       CommonCaption(c) + "<method> = mean of upper - lower over the finite intervals (NaN if "
                          "none); '<method> inf' = fraction of intervals with upper = +inf."},
      "true_eps", TrueEpsAtDelta(c, r),
      {{"", &IntervalStats::mean_width}, {" inf", &IntervalStats::frac_infinite}},
      /*two_sided_only=*/true);
}

// Classes per method.
Result<SummaryTable> ClassTable(const Config& c, const Results& r) {
  TableBuilder t("coverage_classes", "How often each method under-, near- or over-covers",
                 CommonCaption(c) + "Counts of the " + std::to_string(r.settings.size()) +
                     " settings per class (threshold 3 nominal se, see 'coverage'); min/max "
                     "coverage over settings. The chance-point settings (true eps = 0) are "
                     "included.",
                 {{"method", Column::Type::kString},
                  {"kind", Column::Type::kString},
                  {"under", Column::Type::kInt},
                  {"near", Column::Type::kInt},
                  {"over", Column::Type::kInt},
                  {"min_coverage", Column::Type::kDouble},
                  {"max_coverage", Column::Type::kDouble}});
  for (size_t m = 0; m < r.methods.size(); ++m) {
    const MethodRun& d = r.run.data[m];
    const ClassCounts k = CountClasses(d.classes);
    double lo = 1.0, hi = 0.0;
    for (const IntervalStats& st : d.stats) {
      lo = std::min(lo, st.coverage);
      hi = std::max(hi, st.coverage);
    }
    t.Row({r.methods[m].label, Kind(r.methods[m]), k.under, k.near, k.over, lo, hi});
  }
  return t.Build();
}

// The diagonal settings (FPR = FNR, true eps > 0) against the large-n limit
// of diagonal_limit.h: one row per (setting, Bayesian method).
struct DiagonalRow {
  size_t setting = 0;
  std::string method;  // "bayesian" (two-sided) or "bayesian_one_sided"
  double rho = 0.0, coverage = 0.0, se = 0.0;
  double limit_independent = 0.0;  // the closed form (rho = 0)
  double limit = 0.0;              // at the setting's rho
  double limit_se = 0.0;           // sqrt(limit (1 - limit) / trials)
  bool largest_n = false;          // the largest n of its (FPR, FNR) pair
};

std::vector<DiagonalRow> DiagonalRows(const Config& c, const Results& r) {
  std::map<std::string, size_t> index = IndexByName(r.methods);
  std::map<int64_t, int64_t> largest_n;  // pair -> n
  for (const CoverageSetting& st : r.settings) {
    largest_n[st.pair] = std::max(largest_n[st.pair], st.n);
  }
  std::map<double, CoverageLimit> limits;  // by rho
  std::vector<DiagonalRow> rows;
  for (size_t s = 0; s < r.settings.size(); ++s) {
    const CoverageSetting& st = r.settings[s];
    const double fpr = st.x, fnr = st.y;
    if (fpr != fnr || !(fpr + fnr < 1.0)) continue;
    const double rho = DiagonalTermCorrelation(fpr);
    if (!limits.count(rho)) limits[rho] = DiagonalCoverageLimit(c.alpha, rho);
    for (const char* name : {"bayesian", "bayesian_one_sided"}) {
      if (!index.count(name)) continue;
      const bool one = std::string(name) == "bayesian_one_sided";
      const IntervalStats& stats = r.run.data[index[name]].stats[s];
      DiagonalRow row;
      row.setting = s;
      row.method = name;
      row.rho = rho;
      row.coverage = stats.coverage;
      row.se = stats.se;
      row.limit_independent =
          one ? IndependentOneSidedLimit(c.alpha) : IndependentTwoSidedLimit(c.alpha);
      row.limit = one ? limits[rho].one_sided : limits[rho].two_sided;
      row.limit_se = std::sqrt(row.limit * (1 - row.limit) / static_cast<double>(c.trials));
      row.largest_n = st.n == largest_n[st.pair];
      rows.push_back(row);
    }
  }
  return rows;
}

Result<SummaryTable> DiagonalLimitTable(const Config& c, const Results& r) {
  TableBuilder t(
      "diagonal_limit",
      "Bayesian interval on the diagonal FPR = FNR: measured coverage vs the large-n limit",
      CommonCaption(c) +
          "Where the two terms of eps are equal at the truth, the posterior of eps is the "
          "maximum of two estimates and the equal-tailed interval's coverage tends to "
          "G(1 - alpha/2) - G(alpha/2), G(w) = w - w ln w, and the one-sided bound's to "
          "1 - alpha + alpha ln(alpha), for independent terms (limit_rho0); with the "
          "terms' correlation rho = 2r(1-r)/(r^2+(1-r)^2) at FPR = FNR = r, by quadrature "
          "(limit_at_rho; experiments/bayes_coverage/README.md). The paper's nominal coverage "
          "is posterior "
          "mass, not frequentist coverage. se = Monte-Carlo standard error of the measured "
          "coverage; z = (coverage - limit_at_rho) / sqrt(limit (1 - limit) / trials).",
      {{"fpr_equals_fnr", Column::Type::kDouble},
       {"n", Column::Type::kInt},
       {"method", Column::Type::kString},
       {"rho", Column::Type::kDouble},
       {"coverage", Column::Type::kDouble},
       {"se", Column::Type::kDouble},
       {"limit_rho0", Column::Type::kDouble},
       {"limit_at_rho", Column::Type::kDouble},
       {"z", Column::Type::kDouble}});
  for (const DiagonalRow& row : DiagonalRows(c, r)) {
    const CoverageSetting& st = r.settings[row.setting];
    t.Row({/*fpr_equals_fnr=*/st.x, st.n, row.method, row.rho, row.coverage, row.se,
           row.limit_independent, row.limit, (row.coverage - row.limit) / row.limit_se});
  }
  return t.Build();
}

Claim DiagonalLimitClaim(const Config& c, const Results& r) {
  const std::string id = "bayes_coverage_bayes_diagonal_limit";
  int64_t judged = 0, agree = 0;
  Evidence per;
  for (const DiagonalRow& row : DiagonalRows(c, r)) {
    if (!row.largest_n) continue;
    ++judged;
    const bool ok = std::abs(row.coverage - row.limit) <= 3 * row.limit_se;
    agree += ok;
    Separate(per);
    per << row.method << " " << r.settings[row.setting].label << ": measured " << row.coverage
        << " (se " << row.se << ") vs limit " << row.limit << " at rho " << row.rho
        << " (rho = 0: " << row.limit_independent << ")" << (ok ? "" : " DISAGREES");
  }
  if (judged == 0) {
    return ClaimEvidence(id, false, "not evaluated: no diagonal setting with true eps > 0");
  }
  return ClaimEvidence(id, agree == judged,
                       Evidence() << "criterion: at the largest n of every diagonal pair, "
                                     "|coverage - limit at the terms' correlation rho| <= 3 "
                                     "sqrt(limit (1 - limit) / trials) for both the two-sided "
                                     "interval and the one-sided bound; "
                                  << agree << " of " << judged << " agree (" << c.trials
                                  << " trials): " << per.str());
}

// /settings, /trials, /methods and /estimates (layout in report.h).
Status WriteRawData(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteCoverageRun(
      out, r,
      "[setting, trial] counts: FN ~ Bin(positives, fnr), FP ~ Bin(negatives, fpr), drawn in "
      "that order with boost::random::binomial_distribution from std::mt19937_64 seeded with "
      "DeriveSeed(seed, {setting, trial}); TP = positives - FN, TN = negatives - FP",
      {{"true_eps", &IntervalStats::truth},
       {"miss_low", &IntervalStats::miss_low},
       {"miss_high", &IntervalStats::miss_high},
       {"mean_width", &IntervalStats::mean_width},
       {"frac_infinite", &IntervalStats::frac_infinite},
       {"mean_lower", &IntervalStats::mean_lower},
       {"median_lower", &IntervalStats::median_lower}}));
  std::vector<int64_t> pos, neg, one_sided;
  std::vector<double> truth0, deltas;
  std::vector<std::string> labels;
  for (const CoverageSetting& st : r.settings) {
    pos.push_back(Positives(st));
    neg.push_back(Negatives(st));
    truth0.push_back(TrueEps(st, 0.0));
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/positives", pos));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/negatives", neg));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/true_eps", TrueEpsAtDelta(c, r)));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/true_eps_delta0", truth0));
  PB_RETURN_IF_ERROR(SetAttributes(
      out, "/settings",
      {{"description",
        "one row per (pair, n) setting, pair-major; true_eps = docs/studies.md A1 at the true "
        "rates and the study's delta, true_eps_delta0 at delta = 0; positives = members = n/2"}}));
  for (const CoverageMethod& m : r.methods) {
    labels.push_back(m.label);
    one_sided.push_back(m.one_sided);
    deltas.push_back(m.delta);
    PB_RETURN_IF_ERROR(SetAttributes(out, "/estimates/" + m.name,
                                     {{"label", m.label},
                                      {"one_sided", int64_t{m.one_sided}},
                                      {"delta", m.delta},
                                      {"description", m.description}}));
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/label", labels));
  PB_RETURN_IF_ERROR(out.WriteInts("/methods/one_sided", one_sided));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/methods/delta", deltas));
  // The diagonal limits at independent terms.
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/bayes_coverage_diagonal_limit_one_sided",
                                     IndependentOneSidedLimit(c.alpha)));
  return out.WriteScalar("/numbers/bayes_coverage_diagonal_limit_two_sided",
                         IndependentTwoSidedLimit(c.alpha));
}

constexpr const char* kLostParameters =
    "The Bayesian paper reports no coverage simulation (Sec. 3.2 asserts nominal coverage by "
    "construction; Sec. 2.6 and 3.2 assert over-coverage of CP and the Jeffreys rectangle). "
    "Chosen by privbench: (FPR, FNR) pairs (0.001, 0.5), (0.01, 0.3) [low-FPR corners], "
    "(0.4, 0.4) [mid-range, as Fig. 4], (0.05, 0.05) [strong attack on the diagonal], "
    "(0.02, 0.2) [strong attack off the diagonal], (0.5, 0.5) [chance, eps = 0]; n = 200, 1000, "
    "5000 total trials, half members; 500 (quick) / 10000 (paper) "
    "Monte-Carlo trials per setting; alpha = 0.1 (90%, the paper's level in Sec. 3.1/3.4); "
    "delta = 1e-5 (Sec. 3.1). The values actually used are in /meta config.";

}  // namespace

std::vector<Claim> CoverageClaims(const Config& c, const Results& r) {
  const Claims claims(c, r);
  return {
      claims.OverCovers("bayes_coverage_cp_overcovers", "clopper_pearson"),
      claims.OverCovers("bayes_coverage_jeffreys_overcovers", "jeffreys"),
      claims.NearNominal("bayes_coverage_bayes_near_nominal", "bayesian"),
      claims.NearNominal("bayes_coverage_bayes_lower_near_nominal", "bayesian_one_sided"),
      claims.Narrowest(),
      claims.ChancePoint(),
      DiagonalLimitClaim(c, r),
  };
}

Result<std::vector<SummaryTable>> CoverageTables(const Config& c, const Results& r) {
  std::vector<SummaryTable> tables;
  for (auto make :
       {LongTable, CoverageByMethodTable, WidthByMethodTable, ClassTable, DiagonalLimitTable}) {
    PB_ASSIGN_OR_RETURN(SummaryTable t, make(c, r));
    tables.push_back(std::move(t));
  }
  return tables;
}

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteRawData(c, r, out));
  PB_ASSIGN_OR_RETURN(const std::vector<SummaryTable> tables, CoverageTables(c, r));
  for (const SummaryTable& t : tables) PB_RETURN_IF_ERROR(out.WriteTable(t));
  for (const Claim& cl : CoverageClaims(c, r)) PB_RETURN_IF_ERROR(out.WriteClaim(cl));
  return SetAttributes(out, "/meta", {{"lost_parameters", kLostParameters}});
}

}  // namespace privbench::bayes_coverage
