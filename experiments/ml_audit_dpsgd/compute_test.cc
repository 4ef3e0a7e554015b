// Tests of study D2's computation and claims without training a model:
// summaries from probe vectors, the noise calibration, the unit plan, the
// audits on synthetic probe pools and the claim criteria.
#include "experiments/ml_audit_dpsgd/compute.h"

#include <cmath>
#include <random>
#include <set>

#include "experiments/ml_audit_dpsgd/config.h"
#include "experiments/ml_audit_dpsgd/models.h"
#include "experiments/ml_audit_dpsgd/report.h"
#include "gtest/gtest.h"

namespace privbench {
namespace ml_audit_dpsgd {
namespace {

Config Small() {
  Config c;
  c.eps = {1, 8};
  c.k = {1, 4};
  c.n = 50;
  c.n_train = 990;
  c.epochs = 6;
  c.test_probes = 2;
  c.models_per_unit = 30;
  c.replicates = 1;
  return c;
}

TEST(Summaries, Layout) {
  // Two models, probe vectors [P(x_c), P(0), P(t1), P(t2), P(x_s)].
  const std::vector<double> probes = {0.9, 0.2, 0.5, 0.6, 0.7, 0.4, 0.1, 0.3, 0.2, 0.8};
  int64_t dim = 0;
  EXPECT_EQ(Summaries("clipbkd", probes, 5, &dim), (std::vector<double>{0.9 - 0.2, 0.4 - 0.1}));
  EXPECT_EQ(dim, 1);
  EXPECT_EQ(Summaries("shadow", probes, 5, &dim), (std::vector<double>{0.7, 0.8}));
  EXPECT_EQ(dim, 1);
  EXPECT_EQ(Summaries("clipbkd_vec", probes, 5, &dim),
            (std::vector<double>{0.9, 0.2, 0.5, 0.6, 0.4, 0.1, 0.3, 0.2}));
  EXPECT_EQ(dim, 4);
}

TEST(Calibrate, SigmaReachesEachEps) {
  const Config c = Small();
  Result<std::vector<Calibration>> cal = Calibrate(c);
  ASSERT_TRUE(cal.ok()) << cal.message();
  ASSERT_EQ(cal->size(), 2u);
  EXPECT_EQ((*cal)[0].steps, 24);  // ceil(6 * 990 / 250)
  EXPECT_DOUBLE_EQ((*cal)[0].q, 250.0 / 990.0);
  for (const Calibration& x : *cal) EXPECT_NEAR(x.eps_rdp, x.eps_th, 1e-6 * x.eps_th);
  EXPECT_GT((*cal)[0].sigma, (*cal)[1].sigma);  // smaller eps, more noise
  EXPECT_EQ(Steps(c, 998), 24);                 // D' with 8 copies: same T
}

TEST(Units, CoverEveryModelOnce) {
  const Config c = Small();
  const std::vector<Side> sides = Sides(c);
  ASSERT_EQ(sides.size(), 8u);  // {D, D'} x {clipbkd, shadow} x {1, 4}
  EXPECT_EQ(sides[0].Name(), "D_clipbkd_k1");
  EXPECT_EQ(sides[3].Name(), "Dprime_clipbkd_k4");
  std::set<std::string> ids;
  std::vector<int64_t> covered(2 * 8, 0);
  for (const Unit& u : Units(c)) {
    EXPECT_TRUE(ids.insert(u.id).second) << u.id;
    covered[u.eps_index * 8 + u.side_index] += u.count;
  }
  for (int64_t n : covered) EXPECT_EQ(n, 2 * c.n);
  Config only_shadow = c;
  only_shadow.attacks = "shadow";
  EXPECT_EQ(Sides(only_shadow).size(), 4u);
}

TEST(Units, ReplicatesAreOwnUnits) {
  Config c = Small();
  c.replicates = 3;
  std::set<std::string> ids;
  std::vector<int64_t> covered(3 * 2 * 8, 0);
  for (const Unit& u : Units(c)) {
    EXPECT_TRUE(ids.insert(u.id).second) << u.id;
    covered[(u.replicate * 2 + u.eps_index) * 8 + u.side_index] += u.count;
  }
  for (int64_t n : covered) EXPECT_EQ(n, 2 * c.n);
  EXPECT_EQ(Units(c).size(), 3 * Units(Small()).size());
}

// Synthetic pools: D' shifts P(x*) of the clipbkd poison by `shift`.
Pools SyntheticPools(const Config& c, double shift, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0.5, 0.05);
  Pools pools;
  const int64_t dim = ProbeDim(c.test_probes);
  const std::vector<Side> sides = Sides(c);
  for (size_t r = 0; r < static_cast<size_t>(c.replicates); ++r) {
    for (size_t e = 0; e < c.eps.size(); ++e) {
      for (size_t s = 0; s < sides.size(); ++s) {
        std::vector<double>& v = pools[{r, e, s}];
        for (int64_t m = 0; m < 2 * c.n * dim; ++m) {
          const bool poisoned_probe =
              m % dim == 0 && !sides[s].clean && sides[s].poison == "clipbkd";
          v.push_back(g(rng) + (poisoned_probe ? shift : 0.0));
        }
      }
    }
  }
  return pools;
}

TEST(RunAudits, DetectsAShiftAndNotItsAbsence) {
  const Config c = Small();
  Result<std::vector<Calibration>> cal = Calibrate(c);
  ASSERT_TRUE(cal.ok());
  Result<std::vector<AuditRow>> shifted = RunAudits(c, *cal, SyntheticPools(c, 0.5, 1), 7);
  ASSERT_TRUE(shifted.ok()) << shifted.message();
  ASSERT_EQ(shifted->size(), 2u * 3u * 2u);
  for (const AuditRow& r : *shifted) {
    // Ten standard deviations apart: every fresh model is on its side, so
    // the bound is near the ceiling (1.97 at N = 50), divided by k.
    if (r.attack != "shadow") {
      EXPECT_GT(r.result.eps_lb * r.k, 1.0) << r.attack;
    }
  }
  Result<std::vector<AuditRow>> same = RunAudits(c, *cal, SyntheticPools(c, 0.0, 2), 7);
  ASSERT_TRUE(same.ok());
  // Identical distributions: 12 one-sided tests at alpha/2 = 0.025 each
  // (dependent); a fixed seed, so deterministic: all at 0 is what it gives.
  int positive = 0;
  for (const AuditRow& r : *same) positive += r.result.eps_lb > 0;
  EXPECT_LE(positive, 1);
}

TEST(RunAudits, ReplicatesAuditTheirOwnPools) {
  Config c = Small();
  c.replicates = 2;
  Result<std::vector<Calibration>> cal = Calibrate(c);
  ASSERT_TRUE(cal.ok());
  Pools pools = SyntheticPools(c, 0.5, 3);
  // Replicate 1 sees no shift: its pools are those of replicate 0's D side.
  for (auto& [key, v] : pools) {
    if (std::get<0>(key) == 1) v = pools.at({0, std::get<1>(key), 0});
  }
  Result<std::vector<AuditRow>> rows = RunAudits(c, *cal, pools, 7);
  ASSERT_TRUE(rows.ok()) << rows.message();
  ASSERT_EQ(rows->size(), 2u * 2u * 3u * 2u);
  for (const AuditRow& r : *rows) {
    if (r.attack == "shadow") continue;
    if (r.replicate == 0) {
      EXPECT_GT(r.result.eps_lb * r.k, 1.0) << r.attack;
    } else {
      EXPECT_EQ(r.result.eps_lb, 0.0) << r.attack;  // D and D' pools identical
    }
  }
}

// --clipbkd_pair=flip_replace: ClipBKD's D holds the k copies labelled
// 1 - y* in place of its last rows, D' the same copies labelled y*; both
// have n_train rows, so q and T are those calibrated; the shadow poison is
// still appended. Group sizes: 2k (flip) and k (append).
TEST(Neighbours, FlipReplacePairKeepsNAndT) {
  Config c = Small();
  c.clipbkd_pair = "flip_replace";
  Poisons p;
  p.clipbkd.x.assign(784, 0.5f);
  p.clipbkd.y = 0;  // the non-private label; the eps-specific ones below
  p.clipbkd_labels = {{1, 0.1}, {0, 0.2}};
  p.shadow.x.assign(784, 0.25f);
  p.shadow.y = 1;
  AuditData d;
  d.x.assign(990 * 784, 0.0f);
  for (int64_t r = 0; r < 990; ++r) d.y.push_back(r % 2);
  const std::vector<Side> sides = Sides(c);
  for (size_t e = 0; e < 2; ++e) {
    const int64_t y = p.clipbkd_labels[e].y;
    for (const Side& side : sides) {
      const Insertion ins = SideInsertion(c, side, p, e);
      Result<TrainingRows> rows = PoisonedRows(d, ins);
      ASSERT_TRUE(rows.ok()) << rows.message();
      if (side.poison == "clipbkd") {
        EXPECT_EQ(ins.poison, &p.clipbkd);
        EXPECT_EQ(ins.k, side.k);
        EXPECT_EQ(ins.placement, Placement::kReplaceLast);
        EXPECT_EQ(ins.label, side.clean ? 1 - y : y) << side.Name();
        EXPECT_EQ(rows->n(), c.n_train);  // D and D': the same n, q, T
        EXPECT_EQ(Steps(c, rows->n()), Steps(c, c.n_train));
        EXPECT_EQ(rows->y.back(), ins.label);
        EXPECT_EQ(rows->y[static_cast<size_t>(c.n_train - side.k - 1)],
                  (c.n_train - side.k - 1) % 2);  // untouched row
      } else {
        EXPECT_EQ(ins.placement, Placement::kAppend);
        EXPECT_EQ(rows->n(), c.n_train + (side.clean ? 0 : side.k)) << side.Name();
        if (!side.clean) {
          EXPECT_EQ(ins.label, 1);
        }
      }
    }
    EXPECT_EQ(p.ClipBkdAt(e).y, y);
  }
  EXPECT_EQ(GroupSize(c, "clipbkd", 4), 8);
  EXPECT_EQ(GroupSize(c, "clipbkd_vec", 4), 8);
  EXPECT_EQ(GroupSize(c, "shadow", 4), 4);
  // append (the default): D is the rows alone, D' the rows plus k copies.
  const Config a = Small();
  EXPECT_EQ(GroupSize(a, "clipbkd", 4), 4);
  const Insertion dside = SideInsertion(a, Sides(a)[0], p, 0);
  EXPECT_EQ(dside.poison, nullptr);
  const Insertion dprime = SideInsertion(a, Sides(a)[1], p, 0);
  EXPECT_EQ(dprime.k, 1);
  EXPECT_EQ(dprime.label, 1);
  EXPECT_EQ(dprime.placement, Placement::kAppend);
}

// Under the flip pair the audit divides by 2k and the rows say so; the
// validity claim compares that per-row bound with eps_th: a raw bound
// between k eps_th and 2k eps_th is no exceedance.
TEST(RunAudits, FlipReplaceDividesByTwoK) {
  Config c = Small();
  c.clipbkd_pair = "flip_replace";
  Result<std::vector<Calibration>> cal = Calibrate(c);
  ASSERT_TRUE(cal.ok());
  Result<std::vector<AuditRow>> rows = RunAudits(c, *cal, SyntheticPools(c, 0.5, 1), 7);
  ASSERT_TRUE(rows.ok()) << rows.message();
  for (const AuditRow& r : *rows) {
    const bool flip = r.attack != "shadow";
    EXPECT_EQ(r.group, flip ? 2 * r.k : r.k);
    EXPECT_EQ(r.pair, flip ? "flip_replace" : "append");
    EXPECT_NEAR(r.result.eps_lb * static_cast<double>(r.group), r.result.eps_lb_raw, 1e-12);
    if (flip) {
      EXPECT_GT(r.result.eps_lb_raw, 1.0) << r.attack;
    }
  }
  // The claims below need an audit that can exceed eps_th at all: with the
  // pair's group 2, 2 eps_th must be below the Katz-log ceiling at n trials
  // (1.97 at Small()'s 50).
  c.n = 100000;
  AuditRow r;
  r.eps_th = 1, r.attack = "clipbkd", r.k = 1, r.group = 2, r.pair = "flip_replace";
  r.result.eps_lb_raw = 1.5, r.result.eps_lb = 0.75;  // raw above k eps_th, below 2k eps_th
  std::vector<AuditRow> one(4, r);
  for (int i = 0; i < 4; ++i) one[i].replicate = i;
  EXPECT_TRUE(AuditClaims(c, one)[0].claim.holds);
  for (AuditRow& x : one) x.result.eps_lb = 1.5;  // had it been divided by k
  EXPECT_FALSE(AuditClaims(c, one)[0].claim.holds);
}

TEST(Claims, Criteria) {
  Config c = Small();
  c.n = 100000;  // every audit below could exceed eps_th (Katz-log ceiling above 8)
  auto row = [](double eps, const char* attack, int64_t k, double lb) {
    AuditRow r;
    r.eps_th = eps;
    r.attack = attack;
    r.k = k;
    r.result.eps_lb = lb;
    return r;
  };
  std::vector<AuditRow> rows = {row(1, "clipbkd", 1, 0.1),     row(1, "clipbkd_vec", 1, 0.2),
                                row(1, "shadow", 1, 0.3),      row(8, "clipbkd", 1, 0.5),
                                row(8, "clipbkd_vec", 1, 0.3), row(8, "shadow", 1, 1.5)};
  std::vector<JudgedClaim> claims = AuditClaims(c, rows);
  ASSERT_EQ(claims.size(), 4u);
  EXPECT_TRUE(claims[0].claim.holds) << claims[0].claim.evidence;  // validity
  EXPECT_FALSE(claims[0].inconclusive);
  // grows: 3 of 3 steps up (sign-test p 1/8); shadow > clipbkd in 2 of 2
  // cells (p 1/4); vec 1 of 2: no sign test on so few decides.
  for (int i : {1, 2, 3}) {
    EXPECT_TRUE(claims[i].inconclusive) << claims[i].claim.evidence;
    EXPECT_FALSE(claims[i].claim.holds);
  }
  EXPECT_DOUBLE_EQ(claims[1].holds_fraction, 1.0);
  EXPECT_DOUBLE_EQ(claims[3].holds_fraction, 0.5);
  // Four cells (eps_th x poison at k = 1), p = 2 x 0.025: allowed 2 of 4.
  EXPECT_EQ(AllowedExceedances(4, 0.05, 0.001), 2);
  rows[0].result.eps_lb = 1.2;  // cells (1, clipbkd), (1, shadow), (8, clipbkd) exceed
  rows[2].result.eps_lb = 1.2;
  rows[4].result.eps_lb = 9;
  claims = AuditClaims(c, rows);
  EXPECT_FALSE(claims[0].claim.holds) << claims[0].claim.evidence;
  EXPECT_EQ(AllowedExceedances(2, 0.15, 0.001), 2);
  EXPECT_EQ(AllowedExceedances(7, 0.15, 0.001), 5);
}

// Three replicates of a synthetic table: the comparisons read the medians,
// validity counts every replicate's cell.
TEST(Claims, ReplicatesMediansAndValidity) {
  Config c = Small();
  c.replicates = 3;
  c.n = 100000;  // a Katz-log ceiling above eps_th = 8: every audit could exceed
  auto row = [](double eps, const char* attack, int64_t rep, double lb) {
    AuditRow r;
    r.eps_th = eps, r.attack = attack, r.k = 1, r.replicate = rep;
    r.result.eps_lb = lb;
    return r;
  };
  std::vector<AuditRow> rows;
  // Medians: eps 1: clipbkd 0.1, shadow 0.2; eps 8: clipbkd 0.5, shadow 0.4
  // (one outlier replicate of shadow at 7.9 would win if maxima were read).
  const double lb[2][2][3] = {{{0.1, 0.0, 0.3}, {0.2, 0.1, 0.9}}, {{0.6, 0.5, 0.2}, {7.9, 0.4, 0}}};
  for (int e = 0; e < 2; ++e) {
    for (int a = 0; a < 2; ++a) {
      for (int r = 0; r < 3; ++r) {
        rows.push_back(row(e ? 8 : 1, a ? "shadow" : "clipbkd", r, lb[e][a][r]));
      }
    }
  }
  const std::vector<AuditRow> med = MedianRows(rows);
  ASSERT_EQ(med.size(), 4u);
  EXPECT_DOUBLE_EQ(med[0].result.eps_lb, 0.1);
  EXPECT_DOUBLE_EQ(med[3].result.eps_lb, 0.4);
  std::vector<JudgedClaim> claims = AuditClaims(c, rows);
  EXPECT_TRUE(claims[0].claim.holds) << claims[0].claim.evidence;  // 12 cells, none exceeds
  EXPECT_NE(claims[0].claim.evidence.find("12 independent"), std::string::npos)
      << claims[0].claim.evidence;
  // The comparisons read the medians: shadow vs clipbkd 0.2 > 0.1, 0.4 < 0.5.
  EXPECT_NE(claims[2].claim.evidence.find("1 of 2 replicates"), std::string::npos)
      << claims[2].claim.evidence;
  EXPECT_NE(claims[2].claim.evidence.find("sum of eps_lb 0.6 vs 0.6"), std::string::npos)
      << claims[2].claim.evidence;
  // Validity: 12 cells at p = 0.025 each (one audit per cell at k = 1):
  // allowed = AllowedExceedances(12, 0.025, 0.001) = 3. Four replicates'
  // cells exceeding fail it though every median stays below eps_th.
  ASSERT_EQ(AllowedExceedances(12, 0.025, 0.001), 3);
  for (int i : {0, 3, 6, 9}) rows[i].result.eps_lb = rows[i].eps_th + 0.5;
  claims = AuditClaims(c, rows);
  for (const AuditRow& m : MedianRows(rows)) EXPECT_LT(m.result.eps_lb, m.eps_th);
  EXPECT_FALSE(claims[0].claim.holds) << claims[0].claim.evidence;
  rows[9].result.eps_lb = 0;  // three exceed: allowed
  EXPECT_TRUE(AuditClaims(c, rows)[0].claim.holds);
}

// An audit whose bound cannot exceed eps_th at n trials (group x eps_th at
// or above the Katz-log ceiling) cannot fail validity: such audits are not
// judged, and with only such audits the claim is undecidable, never a
// pass; an exceedance counts wherever it is.
TEST(Claims, ValidityJudgesOnlyAuditsThatCouldFail) {
  Config c = Small();  // n = 50: ceiling 1.97
  auto row = [](double eps, int64_t group, double lb) {
    AuditRow r;
    r.eps_th = eps, r.attack = "clipbkd", r.k = group, r.group = group;
    r.result.eps_lb = lb;
    return r;
  };
  const std::vector<AuditRow> vacuous = {row(2, 1, 0.5), row(8, 1, 1.9), row(1, 2, 0.9)};
  std::vector<JudgedClaim> claims = AuditClaims(c, vacuous);
  EXPECT_FALSE(claims[0].claim.holds);
  EXPECT_NE(claims[0].claim.evidence.find("0 of 3 audits could have exceeded eps_th at all"),
            std::string::npos)
      << claims[0].claim.evidence;
  EXPECT_NE(claims[0].claim.evidence.find("undecidable"), std::string::npos);
  // One testable cell: Bin(1, 0.025)'s allowance at 1 - 0.001 is 1, so even
  // its exceedance would pass: still undecidable.
  claims = AuditClaims(c, {row(2, 1, 0.5), row(1, 1, 0.4)});
  EXPECT_FALSE(claims[0].claim.holds);
  EXPECT_NE(claims[0].claim.evidence.find("within the allowance 1 even if all exceed"),
            std::string::npos)
      << claims[0].claim.evidence;
  // Twelve testable cells (replicates) beside an untestable audit: judged.
  std::vector<AuditRow> mixed = {row(2, 1, 0.5)};
  for (int i = 0; i < 12; ++i) {
    mixed.push_back(row(1, 1, 0.4));
    mixed.back().replicate = i;
  }
  claims = AuditClaims(c, mixed);
  EXPECT_TRUE(claims[0].claim.holds) << claims[0].claim.evidence;
  EXPECT_NE(claims[0].claim.evidence.find("12 of 13 audits could have exceeded"), std::string::npos)
      << claims[0].claim.evidence;
}

// With enough cells the sign tests decide: six k values at two eps_th,
// shadow above clipbkd in all 12 (eps_th, k) cells (p = 1/4096) holds,
// every step to eps 8 rises (18 of 18); clipbkd_vec below clipbkd in all
// 12 does not hold.
TEST(Claims, SignTestsDecideWithEnoughCells) {
  const Config c = Small();
  std::vector<AuditRow> rows;
  for (int64_t k = 1; k <= 6; ++k) {
    for (double eps : {1.0, 8.0}) {
      const double scale = eps == 8 ? 2.0 : 1.0;
      for (const auto& [attack, lb] : std::vector<std::pair<const char*, double>>{
               {"clipbkd", 0.2}, {"clipbkd_vec", 0.1}, {"shadow", 0.3}}) {
        AuditRow r;
        r.eps_th = eps, r.attack = attack, r.k = k;
        r.result.eps_lb = lb * scale;
        rows.push_back(r);
      }
    }
  }
  const std::vector<JudgedClaim> claims = AuditClaims(c, rows);
  EXPECT_TRUE(claims[1].claim.holds) << claims[1].claim.evidence;
  EXPECT_FALSE(claims[1].inconclusive);
  EXPECT_TRUE(claims[2].claim.holds) << claims[2].claim.evidence;
  EXPECT_FALSE(claims[3].claim.holds);
  EXPECT_FALSE(claims[3].inconclusive) << claims[3].claim.evidence;
}

}  // namespace
}  // namespace ml_audit_dpsgd
}  // namespace privbench
