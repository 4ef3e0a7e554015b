#include "experiments/bayes_coverage/report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "core/format.h"
#include "estimators/eps_from_rates.h"
#include "experiments/bayes_coverage/diagonal_limit.h"
#include "experiments/lib/coverage/coverage_class.h"

namespace privbench::bayes_coverage {
namespace {

// The claims of the Bayesian paper about coverage and width, each judged
// against the 3 se0 band of coverage_class.h.
class Claims {
 public:
  Claims(const BayesCoverageConfig& c, const std::vector<CoverageSetting>& settings,
         const std::vector<CoverageMethod>& methods, const std::vector<MethodData>& data)
      : c_(c), settings_(settings), methods_(methods), data_(data) {
    for (size_t m = 0; m < methods.size(); ++m) index_[methods[m].name] = m;
  }

  // "Over-covers": no setting under, and over in more than half.
  Claim OverCovers(const std::string& id, const std::string& method, const std::string& statement,
                   const std::string& source) const;
  // "Near nominal" in every setting whose true eps is > 0.
  Claim NearNominal(const std::string& id, const std::string& method, const std::string& statement,
                    const std::string& source) const;
  // Bayesian narrower than Clopper-Pearson and Jeffreys in every setting
  // (paired: no more infinite intervals, smaller mean width over the trials
  // where both are finite).
  Claim Narrowest() const;
  // At true eps = 0 the equal-tailed interval's lower end is > 0.
  Claim ChancePoint() const;

 private:
  const MethodData* Find(const std::string& name) const {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : &data_[it->second];
  }
  double nominal() const { return 1.0 - c_.alpha; }
  double se0() const { return NominalSe(nominal(), c_.trials); }
  std::string CoverageList(const MethodData& d, const std::vector<size_t>& which) const;
  std::vector<size_t> AllSettings() const;
  std::string Band() const;
  // One setting of Narrowest(): appends its text to *per and the other
  // methods narrower than bayesian to *others; returns whether bayesian is
  // narrower than both clopper_pearson (cp) and jeffreys (j) there.
  bool NarrowestAt(size_t s, const MethodData& b, const MethodData& cp, const MethodData& j,
                   std::string* per, std::string* others) const;

  const BayesCoverageConfig& c_;
  const std::vector<CoverageSetting>& settings_;
  const std::vector<CoverageMethod>& methods_;
  const std::vector<MethodData>& data_;
  std::map<std::string, size_t> index_;
};

std::string Claims::CoverageList(const MethodData& d, const std::vector<size_t>& which) const {
  std::string out;
  for (size_t s : which) {
    out += (out.empty() ? "" : "; ") + settings_[s].Label() + " " +
           FormatFixed(d.stats[s].coverage, 3) + " (" + CoverageClassName(d.classes[s]) + ")";
  }
  return out;
}

std::vector<size_t> Claims::AllSettings() const {
  std::vector<size_t> v(settings_.size());
  for (size_t s = 0; s < v.size(); ++s) v[s] = s;
  return v;
}

std::string Claims::Band() const {
  return "nominal " + FormatFixed(nominal(), 2) + ", 3 se0 = " + FormatFixed(3 * se0(), 4) +
         " with se0 = sqrt(nominal(1-nominal)/" + std::to_string(c_.trials) + ")";
}

Claim Claims::OverCovers(const std::string& id, const std::string& method,
                         const std::string& statement, const std::string& source) const {
  Claim cl{id, statement, source, false, ""};
  const MethodData* d = Find(method);
  if (!d) {
    cl.evidence = "method '" + method + "' is not registered";
    return cl;
  }
  int under = 0, over = 0;
  size_t argmin = 0;
  for (size_t s = 0; s < settings_.size(); ++s) {
    under += d->classes[s] == CoverageClass::kUnder;
    over += d->classes[s] == CoverageClass::kOver;
    if (d->stats[s].coverage < d->stats[argmin].coverage) argmin = s;
  }
  const int total = static_cast<int>(settings_.size());
  cl.holds = under == 0 && 2 * over > total;
  cl.evidence =
      "criterion: coverage never below nominal - 3 se0 and above nominal + 3 se0 in "
      "more than half of the settings (" +
      Band() + "). " + method + ": over in " + std::to_string(over) + " of " +
      std::to_string(total) + ", under in " + std::to_string(under) + "; minimum " +
      FormatFixed(d->stats[argmin].coverage, 3) + " at " + settings_[argmin].Label() +
      ". Per setting: " + CoverageList(*d, AllSettings());
  return cl;
}

Claim Claims::NearNominal(const std::string& id, const std::string& method,
                          const std::string& statement, const std::string& source) const {
  Claim cl{id, statement, source, false, ""};
  const MethodData* d = Find(method);
  if (!d) {
    cl.evidence = "method '" + method + "' is not registered";
    return cl;
  }
  std::vector<size_t> positive, misses;
  int under = 0, over = 0;
  for (size_t s = 0; s < settings_.size(); ++s) {
    if (!(d->truth[s] > 0.0)) continue;
    positive.push_back(s);
    if (d->classes[s] != CoverageClass::kNear) misses.push_back(s);
    under += d->classes[s] == CoverageClass::kUnder;
    over += d->classes[s] == CoverageClass::kOver;
  }
  const size_t near = positive.size() - misses.size();
  cl.holds = !positive.empty() && misses.empty();
  cl.evidence = "criterion: |coverage - nominal| <= 3 se0 in every setting with true eps > 0 (" +
                Band() + "). " + method + ": within in " + std::to_string(near) + " of " +
                std::to_string(positive.size()) + " settings (under in " + std::to_string(under) +
                ", over in " + std::to_string(over) + ")" +
                (misses.empty() ? "" : "; outside: " + CoverageList(*d, misses)) +
                ". Per setting: " + CoverageList(*d, positive);
  return cl;
}

bool Claims::NarrowestAt(size_t s, const MethodData& b, const MethodData& cp, const MethodData& j,
                         std::string* per, std::string* others) const {
  const int64_t t = c_.trials;
  const auto bl = Row(b.lower, s, t), bu = Row(b.upper, s, t);
  const PairedWidths vs_cp = ComparePairedWidths(bl, bu, Row(cp.lower, s, t), Row(cp.upper, s, t));
  const PairedWidths vs_j = ComparePairedWidths(bl, bu, Row(j.lower, s, t), Row(j.upper, s, t));
  auto narrower = [](const PairedWidths& p) {
    return p.both_finite > 0 && p.frac_infinite_a <= p.frac_infinite_b && p.mean_a < p.mean_b;
  };
  const bool win = narrower(vs_cp) && narrower(vs_j);
  *per += (per->empty() ? "" : "; ") + settings_[s].Label() + ": bayesian " +
          FormatFixed(vs_cp.mean_a, 3) + " vs CP " + FormatFixed(vs_cp.mean_b, 3) +
          " (paired over " + std::to_string(vs_cp.both_finite) + "), bayesian " +
          FormatFixed(vs_j.mean_a, 3) + " vs Jeffreys " + FormatFixed(vs_j.mean_b, 3) +
          ", infinite " + FormatFixed(100 * vs_cp.frac_infinite_a, 0) + "/" +
          FormatFixed(100 * vs_cp.frac_infinite_b, 0) + "/" +
          FormatFixed(100 * vs_j.frac_infinite_b, 0) + "%" + (win ? "" : " [NOT narrower]");
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
      *others += (others->empty() ? "" : "; ") + methods_[m].label + " at " + settings_[s].Label() +
                 " (" + FormatFixed(p.mean_b, 3) + " vs " + FormatFixed(p.mean_a, 3) +
                 ", coverage " + FormatFixed(data_[m].stats[s].coverage, 3) + ")";
    }
  }
  return win;
}

Claim Claims::Narrowest() const {
  Claim cl{"bayes_coverage_bayes_narrowest",
           "The Bayesian (joint-posterior) interval is narrower than the Clopper-Pearson and "
           "Jeffreys intervals for every combination of FPR and FNR",
           "Bayesian paper Sec. 3.4 (Fig. 5: 'the narrowest interval for all combinations of "
           "FPR and FNR')",
           false, ""};
  const MethodData* b = Find("bayesian");
  const MethodData* cp = Find("clopper_pearson");
  const MethodData* j = Find("jeffreys");
  if (!b || !cp || !j) {
    cl.evidence = "bayesian, clopper_pearson or jeffreys is not registered";
    return cl;
  }
  int wins = 0;
  std::string per, others;
  for (size_t s = 0; s < settings_.size(); ++s) wins += NarrowestAt(s, *b, *cp, *j, &per, &others);
  cl.holds = wins == static_cast<int>(settings_.size());
  cl.evidence =
      "criterion: in every setting the Bayesian interval has no larger a fraction of "
      "infinite intervals and a smaller mean width over the trials where both are "
      "finite, against both clopper_pearson and jeffreys. Narrower in " +
      std::to_string(wins) + " of " + std::to_string(settings_.size()) +
      " settings. Mean widths (infinite % bayesian/CP/Jeffreys): " + per +
      ". Other registered two-sided methods narrower than bayesian: " +
      (others.empty() ? "none" : others);
  return cl;
}

Claim Claims::ChancePoint() const {
  Claim cl{"bayes_coverage_bayes_eps0_miss",
           "At the chance point (true eps = 0) the equal-tailed Bayesian interval cannot cover "
           "eps = 0 at the nominal rate: its lower end F^-1(alpha/2) is 0 only if the posterior "
           "atom at eps = 0 (the mass of the band 1-delta <= FNR+FPR <= 1+delta) is at least "
           "alpha/2",
           "Consequence of the Bayesian paper's Eq. 4 (privbench B6 brief); a property of "
           "equal-tailed credible intervals at the boundary eps >= 0, not a claim of the paper",
           false, ""};
  const MethodData* b = Find("bayesian");
  if (!b) {
    cl.evidence = "bayesian is not registered";
    return cl;
  }
  std::vector<size_t> zero;
  int under = 0;
  std::string per;
  for (size_t s = 0; s < settings_.size(); ++s) {
    if (b->truth[s] != 0.0) continue;
    zero.push_back(s);
    under += b->classes[s] == CoverageClass::kUnder;
    per += (per.empty() ? "" : "; ") + settings_[s].Label() + ": coverage " +
           FormatFixed(b->stats[s].coverage, 3) + ", median lower end " +
           FormatFixed(b->stats[s].median_lower, 4);
    if (const MethodData* o = Find("bayesian_one_sided")) {
      per += ", one-sided coverage " + FormatFixed(o->stats[s].coverage, 3) + " (median bound " +
             FormatFixed(o->stats[s].median_lower, 4) + ")";
    }
    if (const MethodData* cp = Find("clopper_pearson")) {
      per += ", clopper_pearson coverage " + FormatFixed(cp->stats[s].coverage, 3);
    }
  }
  if (zero.empty()) {
    cl.evidence = "not evaluated: no setting has true eps = 0 (add the pair FPR = FNR = 0.5)";
    return cl;
  }
  cl.holds = under == static_cast<int>(zero.size());
  cl.evidence =
      "criterion: Bayesian two-sided coverage below nominal - 3 se0 in every setting "
      "with true eps = 0 (" +
      Band() + "); under in " + std::to_string(under) + " of " + std::to_string(zero.size()) +
      ". " + per;
  return cl;
}

// The words every table caption starts with.
std::string CommonCaption(const BayesCoverageConfig& c) {
  const std::string level = FormatFixed(100 * (1.0 - c.alpha), 0) + "%";
  return std::to_string(c.trials) +
         " Monte-Carlo trials per setting; n = total membership trials "
         "(n/2 members, n/2 non-members); nominal " +
         level + " (alpha = " + FormatDouble(c.alpha) + "), delta = " + FormatDouble(c.delta) +
         " (methods that require delta = 0 run at 0, "
         "against the truth at delta = 0). ";
}

// Long table: one row per (setting, method).
SummaryTable LongCoverageTable(const BayesCoverageConfig& c,
                               const std::vector<CoverageSetting>& settings,
                               const std::vector<CoverageMethod>& methods,
                               const std::vector<MethodData>& data) {
  std::vector<int64_t> col_n;
  std::vector<double> col_fpr, col_fnr, col_truth, col_cov, col_se, col_lo, col_hi, col_width,
      col_inf, col_med;
  std::vector<std::string> col_method, col_kind, col_class;
  for (size_t s = 0; s < settings.size(); ++s) {
    for (size_t m = 0; m < methods.size(); ++m) {
      const IntervalCoverageStats& st = data[m].stats[s];
      col_fpr.push_back(settings[s].fpr);
      col_fnr.push_back(settings[s].fnr);
      col_n.push_back(settings[s].n);
      col_method.push_back(methods[m].label);
      col_kind.push_back(methods[m].one_sided ? "one-sided" : "two-sided");
      col_truth.push_back(data[m].truth[s]);
      col_cov.push_back(st.coverage);
      col_se.push_back(st.se);
      col_class.push_back(CoverageClassName(data[m].classes[s]));
      col_lo.push_back(st.miss_low);
      col_hi.push_back(st.miss_high);
      col_width.push_back(st.mean_width);
      col_inf.push_back(st.frac_infinite);
      col_med.push_back(st.median_lower);
    }
  }
  return {"coverage",
          "Empirical coverage of the true eps, every registered estimator",
          CommonCaption(c) +
              "coverage = fraction of trials with lower <= true eps <= upper (one-sided: lower <= "
              "true eps); se = sqrt(c(1-c)/trials); class: under/over if coverage is below/above "
              "nominal by more than 3 sqrt(nominal(1-nominal)/trials), else near. miss_low = "
              "fraction with the interval entirely above the truth, miss_high = entirely below "
              "(an equal-tailed interval aims at alpha/2 each). mean_width = mean of upper - "
              "lower over the FINITE intervals (NaN for one-sided methods or when all are "
              "infinite); frac_infinite = fraction with upper = +inf. Widths and eps in nats.",
          {Column::Doubles("fpr", col_fpr), Column::Doubles("fnr", col_fnr),
           Column::Ints("n", col_n), Column::Strings("method", col_method),
           Column::Strings("kind", col_kind), Column::Doubles("true_eps", col_truth),
           Column::Doubles("coverage", col_cov), Column::Doubles("se", col_se),
           Column::Strings("class", col_class), Column::Doubles("miss_low", col_lo),
           Column::Doubles("miss_high", col_hi), Column::Doubles("mean_width", col_width),
           Column::Doubles("frac_infinite", col_inf), Column::Doubles("median_lower", col_med)}};
}

// Wide tables: coverage and width per setting, one column per method.
std::pair<SummaryTable, SummaryTable> WideTables(const BayesCoverageConfig& c,
                                                 const std::vector<CoverageSetting>& settings,
                                                 const std::vector<CoverageMethod>& methods,
                                                 const std::vector<MethodData>& data) {
  const size_t S = settings.size();
  std::vector<double> fpr, fnr, truth;
  std::vector<int64_t> n;
  for (size_t s = 0; s < S; ++s) {
    fpr.push_back(settings[s].fpr);
    fnr.push_back(settings[s].fnr);
    n.push_back(settings[s].n);
    truth.push_back(EpsFromRatesUnchecked(settings[s].fnr, settings[s].fpr, c.delta));
  }
  std::vector<Column> cov_cols = {Column::Doubles("fpr", fpr), Column::Doubles("fnr", fnr),
                                  Column::Ints("n", n), Column::Doubles("true_eps", truth)};
  std::vector<Column> width_cols = cov_cols;
  for (size_t m = 0; m < methods.size(); ++m) {
    std::vector<double> cov, width, inf;
    for (size_t s = 0; s < S; ++s) {
      cov.push_back(data[m].stats[s].coverage);
      width.push_back(data[m].stats[s].mean_width);
      inf.push_back(data[m].stats[s].frac_infinite);
    }
    cov_cols.push_back(Column::Doubles(methods[m].label, cov));
    if (!methods[m].one_sided) {
      width_cols.push_back(Column::Doubles(methods[m].label, width));
      width_cols.push_back(Column::Doubles(methods[m].label + " inf", inf));
    }
  }
  const double nominal = 1.0 - c.alpha;
  const std::string level = FormatFixed(100 * nominal, 0) + "%";
  SummaryTable coverage{
      "coverage_by_method", "Coverage per setting and method (nominal " + level + ")",
      CommonCaption(c) +
          "Monte-Carlo se at the nominal level: " + FormatFixed(NominalSe(nominal, c.trials), 4) +
          ". true_eps is at the study's delta; katz_log-like methods are scored at delta = 0 "
          "(identical to 4 decimals unless delta is large).",
      cov_cols};
  SummaryTable width{"width_by_method", "Mean width of the two-sided intervals (nats)",
                     CommonCaption(c) +
                         "<method> = mean of upper - lower over the finite intervals (NaN if "
                         "none); '<method> inf' = fraction of intervals with upper = +inf.",
                     width_cols};
  return {coverage, width};
}

// Classes per method.
SummaryTable ClassTable(const std::vector<CoverageSetting>& settings,
                        const std::vector<CoverageMethod>& methods,
                        const std::vector<MethodData>& data, const std::string& common) {
  std::vector<std::string> names, kinds;
  std::vector<int64_t> under, near, over;
  std::vector<double> min_cov, max_cov;
  for (size_t m = 0; m < methods.size(); ++m) {
    int64_t u = 0, nr = 0, o = 0;
    double lo = 1.0, hi = 0.0;
    for (size_t s = 0; s < settings.size(); ++s) {
      const CoverageClass k = data[m].classes[s];
      u += k == CoverageClass::kUnder;
      nr += k == CoverageClass::kNear;
      o += k == CoverageClass::kOver;
      lo = std::min(lo, data[m].stats[s].coverage);
      hi = std::max(hi, data[m].stats[s].coverage);
    }
    names.push_back(methods[m].label);
    kinds.push_back(methods[m].one_sided ? "one-sided" : "two-sided");
    under.push_back(u);
    near.push_back(nr);
    over.push_back(o);
    min_cov.push_back(lo);
    max_cov.push_back(hi);
  }
  return {"coverage_classes",
          "How often each method under-, near- or over-covers",
          common + "Counts of the " + std::to_string(settings.size()) +
              " settings per class (threshold 3 nominal se, see 'coverage'); min/max coverage "
              "over settings. The chance-point settings (true eps = 0) are included.",
          {Column::Strings("method", names), Column::Strings("kind", kinds),
           Column::Ints("under", under), Column::Ints("near", near), Column::Ints("over", over),
           Column::Doubles("min_coverage", min_cov), Column::Doubles("max_coverage", max_cov)}};
}

Status WriteSettings(ResultWriter& out, const BayesCoverageConfig& c,
                     const std::vector<CoverageSetting>& settings) {
  std::vector<int64_t> pair, n, pos, neg;
  std::vector<double> fpr, fnr, truth, truth0;
  for (const CoverageSetting& st : settings) {
    pair.push_back(st.pair);
    fpr.push_back(st.fpr);
    fnr.push_back(st.fnr);
    n.push_back(st.n);
    pos.push_back(st.positives());
    neg.push_back(st.negatives());
    truth.push_back(EpsFromRatesUnchecked(st.fnr, st.fpr, c.delta));
    truth0.push_back(EpsFromRatesUnchecked(st.fnr, st.fpr, 0.0));
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/pair_index", pair));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/fpr", fpr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/fnr", fnr));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/n", n));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/positives", pos));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/negatives", neg));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/true_eps", truth));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/true_eps_delta0", truth0));
  return out.SetAttribute(
      "/settings", "description",
      "one row per (pair, n) setting, pair-major; true_eps = docs/studies.md A1 at the true rates "
      "and the study's delta, true_eps_delta0 at delta = 0; positives = members = n/2");
}

// /estimates/<method>/...: the intervals [S, T] and the per-setting statistics.
Status WriteMethodEstimates(ResultWriter& out, const CoverageMethod& method, const MethodData& d,
                            const std::vector<uint64_t>& shape) {
  const std::string g = "/estimates/" + method.name;
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/eps_lo", d.lower, shape));
  if (!method.one_sided) PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/eps_hi", d.upper, shape));
  std::vector<double> cov, se, lo, hi, width, inf, mean_lower, med;
  std::vector<std::string> cls;
  for (size_t s = 0; s < d.stats.size(); ++s) {
    const IntervalCoverageStats& st = d.stats[s];
    cov.push_back(st.coverage);
    se.push_back(st.se);
    lo.push_back(st.miss_low);
    hi.push_back(st.miss_high);
    width.push_back(st.mean_width);
    inf.push_back(st.frac_infinite);
    mean_lower.push_back(st.mean_lower);
    med.push_back(st.median_lower);
    cls.push_back(CoverageClassName(d.classes[s]));
  }
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/true_eps", d.truth));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/coverage", cov));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/coverage_se", se));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/miss_low", lo));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/miss_high", hi));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/mean_width", width));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/frac_infinite", inf));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/mean_lower", mean_lower));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/median_lower", med));
  PB_RETURN_IF_ERROR(out.WriteStrings(g + "/coverage_class", cls));
  PB_RETURN_IF_ERROR(out.SetAttribute(g, "label", method.label));
  PB_RETURN_IF_ERROR(out.SetAttribute(g, "one_sided", static_cast<int64_t>(method.one_sided)));
  PB_RETURN_IF_ERROR(out.SetAttribute(g, "delta", method.delta));
  return out.SetAttribute(g, "description", std::string(method.estimator->description()));
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

std::vector<DiagonalRow> DiagonalRows(const BayesCoverageConfig& c,
                                      const std::vector<CoverageSetting>& settings,
                                      const std::vector<CoverageMethod>& methods,
                                      const std::vector<MethodData>& data) {
  std::map<std::string, size_t> index;
  for (size_t m = 0; m < methods.size(); ++m) index[methods[m].name] = m;
  std::map<int64_t, int64_t> largest_n;  // pair -> n
  for (const CoverageSetting& st : settings) {
    largest_n[st.pair] = std::max(largest_n[st.pair], st.n);
  }
  std::map<double, CoverageLimit> limits;  // by rho
  std::vector<DiagonalRow> rows;
  for (size_t s = 0; s < settings.size(); ++s) {
    const CoverageSetting& st = settings[s];
    if (st.fpr != st.fnr || !(st.fpr + st.fnr < 1.0)) continue;
    const double rho = DiagonalTermCorrelation(st.fpr);
    if (!limits.count(rho)) limits[rho] = DiagonalCoverageLimit(c.alpha, rho);
    for (const char* name : {"bayesian", "bayesian_one_sided"}) {
      if (!index.count(name)) continue;
      const bool one = std::string(name) == "bayesian_one_sided";
      const IntervalCoverageStats& stats = data[index[name]].stats[s];
      DiagonalRow r;
      r.setting = s;
      r.method = name;
      r.rho = rho;
      r.coverage = stats.coverage;
      r.se = stats.se;
      r.limit_independent =
          one ? IndependentOneSidedLimit(c.alpha) : IndependentTwoSidedLimit(c.alpha);
      r.limit = one ? limits[rho].one_sided : limits[rho].two_sided;
      r.limit_se = std::sqrt(r.limit * (1 - r.limit) / static_cast<double>(c.trials));
      r.largest_n = st.n == largest_n[st.pair];
      rows.push_back(r);
    }
  }
  return rows;
}

SummaryTable DiagonalLimitTable(const BayesCoverageConfig& c,
                                const std::vector<CoverageSetting>& settings,
                                const std::vector<DiagonalRow>& rows) {
  std::vector<double> fpr, rho, cov, se, ind, lim, z;
  std::vector<int64_t> n;
  std::vector<std::string> method;
  for (const DiagonalRow& r : rows) {
    fpr.push_back(settings[r.setting].fpr);
    n.push_back(settings[r.setting].n);
    method.push_back(r.method);
    rho.push_back(r.rho);
    cov.push_back(r.coverage);
    se.push_back(r.se);
    ind.push_back(r.limit_independent);
    lim.push_back(r.limit);
    z.push_back((r.coverage - r.limit) / r.limit_se);
  }
  return {"diagonal_limit",
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
          {Column::Doubles("fpr_equals_fnr", fpr), Column::Ints("n", n),
           Column::Strings("method", method), Column::Doubles("rho", rho),
           Column::Doubles("coverage", cov), Column::Doubles("se", se),
           Column::Doubles("limit_rho0", ind), Column::Doubles("limit_at_rho", lim),
           Column::Doubles("z", z)}};
}

Claim DiagonalLimitClaim(const BayesCoverageConfig& c, const std::vector<CoverageSetting>& settings,
                         const std::vector<DiagonalRow>& rows) {
  int64_t judged = 0, agree = 0;
  std::string per;
  for (const DiagonalRow& r : rows) {
    if (!r.largest_n) continue;
    ++judged;
    const bool ok = std::abs(r.coverage - r.limit) <= 3 * r.limit_se;
    agree += ok;
    per += (per.empty() ? "" : "; ") + r.method + " " + settings[r.setting].Label() +
           ": measured " + FormatFixed(r.coverage, 3) + " (se " + FormatFixed(r.se, 3) +
           ") vs limit " + FormatFixed(r.limit, 3) + " at rho " + FormatFixed(r.rho, 3) +
           " (rho = 0: " + FormatFixed(r.limit_independent, 3) + ")" + (ok ? "" : " DISAGREES");
  }
  return {"bayes_coverage_bayes_diagonal_limit",
          "On the diagonal FPR = FNR the Bayesian interval's coverage is the large-n limit of "
          "the maximum of two estimates (1 - alpha + alpha ln(alpha) one-sided, G(1 - alpha/2) "
          "- G(alpha/2) two-sided, for independent terms), below the nominal 1 - alpha: the "
          "paper's nominal coverage is posterior mass, not frequentist coverage",
          "experiments/bayes_coverage/README.md (derivation); Bayesian paper Sec. 3.2-3.3",
          judged > 0 && agree == judged,
          judged == 0 ? "not evaluated: no diagonal setting with true eps > 0"
                      : "criterion: at the largest n of every diagonal pair, |coverage - limit at "
                        "the terms' correlation rho| <= 3 sqrt(limit (1 - limit) / trials) for "
                        "both the two-sided interval and the one-sided bound; " +
                            std::to_string(agree) + " of " + std::to_string(judged) + " agree (" +
                            std::to_string(c.trials) + " trials): " + per};
}

}  // namespace

std::vector<Claim> CoverageClaims(const BayesCoverageConfig& c,
                                  const std::vector<CoverageSetting>& settings,
                                  const std::vector<CoverageMethod>& methods,
                                  const std::vector<MethodData>& data) {
  const Claims claims(c, settings, methods, data);
  return {
      claims.OverCovers("bayes_coverage_cp_overcovers", "clopper_pearson",
                        "Eps intervals from Clopper-Pearson rectangles reach nominal "
                        "coverage and typically exceed it (overly conservative)",
                        "Bayesian paper Sec. 2.6; Sec. 1 (contribution 1)"),
      claims.OverCovers("bayes_coverage_jeffreys_overcovers", "jeffreys",
                        "An interval from the rectangle of Jeffreys intervals has larger "
                        "than nominal coverage (the posterior mass between R(eps-) and "
                        "R(eps+) outside the rectangle is unaccounted for)",
                        "Bayesian paper Sec. 3.2 (Intuition, Fig. 3)"),
      claims.NearNominal("bayes_coverage_bayes_near_nominal", "bayesian",
                         "The equal-tailed credible interval from the joint posterior "
                         "has nominal coverage",
                         "Bayesian paper Sec. 3.2 ('derive a credible interval for eps with "
                         "nominal coverage')"),
      claims.NearNominal("bayes_coverage_bayes_lower_near_nominal", "bayesian_one_sided",
                         "The Bayesian one-sided lower bound F^-1(alpha) has nominal "
                         "coverage",
                         "Bayesian paper Sec. 3.3 (method 3, eps- = F^-1(alpha))"),
      claims.Narrowest(),
      claims.ChancePoint(),
      DiagonalLimitClaim(c, settings, DiagonalRows(c, settings, methods, data)),
  };
}

std::vector<SummaryTable> CoverageTables(const BayesCoverageConfig& c,
                                         const std::vector<CoverageSetting>& settings,
                                         const std::vector<CoverageMethod>& methods,
                                         const std::vector<MethodData>& data) {
  auto [coverage, width] = WideTables(c, settings, methods, data);
  return {LongCoverageTable(c, settings, methods, data), std::move(coverage), std::move(width),
          ClassTable(settings, methods, data, CommonCaption(c)),
          DiagonalLimitTable(c, settings, DiagonalRows(c, settings, methods, data))};
}

MethodNumbers CountMethodNumbers(const MethodData& d) {
  MethodNumbers n;
  for (size_t s = 0; s < d.stats.size(); ++s) {
    n.min_coverage = std::min(n.min_coverage, d.stats[s].coverage);
    n.settings_under += d.classes[s] == CoverageClass::kUnder;
  }
  return n;
}

Status WriteCoverageRawData(ResultWriter& out, const BayesCoverageConfig& c,
                            const std::vector<CoverageSetting>& settings,
                            const std::vector<CoverageMethod>& methods, const CoverageRun& run) {
  PB_RETURN_IF_ERROR(WriteSettings(out, c, settings));
  const std::vector<uint64_t> shape = {static_cast<uint64_t>(settings.size()),
                                       static_cast<uint64_t>(c.trials)};
  PB_RETURN_IF_ERROR(out.WriteInts("/trials/fn", run.fn, shape));
  PB_RETURN_IF_ERROR(out.WriteInts("/trials/fp", run.fp, shape));
  PB_RETURN_IF_ERROR(out.SetAttribute(
      "/trials", "description",
      "[setting, trial] counts: FN ~ Bin(positives, fnr), FP ~ Bin(negatives, fpr), drawn in "
      "that order with boost::random::binomial_distribution from std::mt19937_64 seeded with "
      "DeriveSeed(seed, {setting, trial}); TP = positives - FN, TN = negatives - FP"));
  std::vector<std::string> names, labels;
  std::vector<int64_t> one_sided;
  std::vector<double> deltas;
  for (size_t m = 0; m < methods.size(); ++m) {
    names.push_back(methods[m].name);
    labels.push_back(methods[m].label);
    one_sided.push_back(methods[m].one_sided);
    deltas.push_back(methods[m].delta);
    PB_RETURN_IF_ERROR(WriteMethodEstimates(out, methods[m], run.data[m], shape));
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/name", names));
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/label", labels));
  PB_RETURN_IF_ERROR(out.WriteInts("/methods/one_sided", one_sided));
  return out.WriteDoubles("/methods/delta", deltas);
}

Status WriteCoverageReport(ResultWriter& out, const BayesCoverageConfig& c,
                           const std::vector<CoverageSetting>& settings,
                           const std::vector<CoverageMethod>& methods,
                           const std::vector<MethodData>& data) {
  for (const SummaryTable& t : CoverageTables(c, settings, methods, data)) {
    PB_RETURN_IF_ERROR(out.WriteTable(t));
  }
  for (size_t m = 0; m < methods.size(); ++m) {
    const MethodNumbers n = CountMethodNumbers(data[m]);
    const std::string prefix = "/numbers/bayes_coverage_" + methods[m].name;
    PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "_min_coverage", n.min_coverage));
    PB_RETURN_IF_ERROR(
        out.WriteScalar(prefix + "_settings_under", static_cast<double>(n.settings_under)));
  }
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/bayes_coverage_diagonal_limit_one_sided",
                                     IndependentOneSidedLimit(c.alpha)));
  PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/bayes_coverage_diagonal_limit_two_sided",
                                     IndependentTwoSidedLimit(c.alpha)));
  for (const Claim& cl : CoverageClaims(c, settings, methods, data)) {
    PB_RETURN_IF_ERROR(out.WriteClaim(cl));
  }
  return out.SetAttribute("/meta", "lost_parameters", kLostParameters);
}

}  // namespace privbench::bayes_coverage
