// sequential_audit's report on hand-built results: each claim's verdict on
// both sides of its criterion, the summary tables' numbers, and the result
// file's layout (report.h) read back after WriteReport.
#include "experiments/sequential_audit/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "experiments/sequential_audit/compute.h"
#include "experiments/sequential_audit/config.h"
#include "experiments/sequential_audit/dpsgd_case.h"
#include "results/h5_file.h"
#include "results/report_file_testing.h"

namespace privbench {
namespace sequential_audit {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// P(Bin(100, 0.05) >= 13) (math.comb): above kFalseFailure; >= 14 is 4.6e-4.
constexpr double kTail13Of100 = 0.001464348008034452;

Config SmallConfig() {
  Config c;  // alpha 0.05, noise multiplier 1
  c.batch_sizes = {1000, 1500};
  c.batch_replications = 10;
  c.dpsgd_runs = 20;
  c.dpsgd_steps = 4;
  return c;
}

CaseResults Case(const std::string& name, std::vector<int64_t> rejected_at,
                 std::vector<BatchRuns> batch) {
  CaseResults cr;
  for (const MechanismCase& m : MechanismCases(Config{})) {
    if (m.name == name) cr.mechanism = m;
  }
  EXPECT_EQ(cr.mechanism.name, name);
  cr.rates = {0.75, 0.25};
  cr.tau = 0.5;
  cr.sequential.rejected_at = std::move(rejected_at);
  cr.sequential.trace = {0.5, -0.25, 1.0};
  cr.sequential.max_rounds = 1000;
  cr.batch = std::move(batch);
  return cr;
}

DpsgdRun DpsgdRunAt(int64_t rejected_at, std::optional<double> mu, double accuracy) {
  DpsgdRun run;
  run.steps = 4;
  run.canary_steps = 2;
  run.correct_guesses = 3;
  run.rejected_at = rejected_at;
  run.largest_rejected_mu = mu;
  run.final_train_accuracy = accuracy;
  run.trace = {0.0, 0.5, 1.0, static_cast<double>(rejected_at)};
  return run;
}

// Every claim holds, each at (or next to) its boundary: rr_correct 13 of 100
// rejected; laplace_half_scale at median round 150 (300 outputs) vs batch
// 3000 outputs (n = 1500, the first size rejecting in half its audits);
// the bug's 2 runs reject at steps 3 and 4 of 4; 5 of 20 correct runs reject.
Results Boundary() {
  Results r;
  std::vector<int64_t> null(100, 0);
  for (int i = 0; i < 13; ++i) null[i] = 10 * (i + 1);
  r.cases.push_back(Case("rr_correct", null, {{1000, 1, 10}}));
  r.cases.push_back(Case("gaussian_correct", std::vector<int64_t>(50, 0), {}));
  r.cases.push_back(Case("laplace_half_scale", {100, 150, 0}, {{1000, 4, 10}, {1500, 5, 10}}));
  for (int i = 0; i < 20; ++i)
    r.dpsgd_correct.push_back(DpsgdRunAt(i < 5 ? 2 : 0, std::nullopt, 0.9));
  r.dpsgd_bug = {DpsgdRunAt(3, 1.5, 0.6), DpsgdRunAt(4, 2.5, 0.8)};
  return r;
}

CaseResults& Violation(Results& r) { return r.cases[2]; }

const Column& Col(const SummaryTable& t, const std::string& name) {
  for (const Column& c : t.columns) {
    if (c.name == name) return c;
  }
  ADD_FAILURE() << "no column " << name << " in " << t.name;
  return t.columns.front();
}

// Type I: 13 of 100 rejections pass the binomial test, 14 fail; without a correct case it fails.
TEST(Claims, Type1HoldsUpToTheBinomialBound) {
  const Config c = SmallConfig();
  Results r = Boundary();
  EXPECT_TRUE(Type1ControlledClaim(c, r).holds) << Type1ControlledClaim(c, r).evidence;
  r.cases[0].sequential.rejected_at[13] = 500;
  EXPECT_FALSE(Type1ControlledClaim(c, r).holds);
  r = Boundary();
  r.cases = {Violation(r)};  // a violation's rejections are not judged, but nothing is left
  EXPECT_FALSE(Type1ControlledClaim(c, r).holds);
}

// Few hundred: a median of exactly 1000 outputs holds, 1002 or a majority never rejecting fails.
TEST(Claims, DetectsFewHundredAtMostAThousandOutputs) {
  Results r = Boundary();
  Violation(r).sequential.rejected_at = {500, 500, 0};
  EXPECT_TRUE(DetectsFewHundredClaim(r).holds) << DetectsFewHundredClaim(r).evidence;
  Violation(r).sequential.rejected_at = {501, 501, 0};
  EXPECT_FALSE(DetectsFewHundredClaim(r).holds);
  Violation(r).sequential.rejected_at = {100, 0, 0};
  EXPECT_FALSE(DetectsFewHundredClaim(r).holds);
}

// Orders below batch: batch = 10x the sequential median holds; a smaller batch size fails.
TEST(Claims, OrdersBelowBatchNeedsTenTimesFewerOutputs) {
  Results r = Boundary();
  EXPECT_TRUE(OrdersBelowBatchClaim(r).holds) << OrdersBelowBatchClaim(r).evidence;
  Violation(r).batch[1].n = 1499;  // 2998 outputs < 10 x 300
  EXPECT_FALSE(OrdersBelowBatchClaim(r).holds);
  r = Boundary();
  Violation(r).batch[0].rejections = 5;  // half of 10: n = 1000 now detects, 2000 outputs
  EXPECT_FALSE(OrdersBelowBatchClaim(r).holds);
  r = Boundary();
  Violation(r).sequential.rejected_at = {100, 0, 0};  // sequential never detects: inf
  Violation(r).batch.clear();                         // batch neither
  EXPECT_FALSE(OrdersBelowBatchClaim(r).holds);
}

// DP-SGD: every bug run must reject within the run's steps, and 6 of 20 false alarms fail.
TEST(Claims, DpsgdBugNeedsEveryRunWithinTheStepsAndFewFalseAlarms) {
  const Config c = SmallConfig();
  Results r = Boundary();
  EXPECT_TRUE(DpsgdBugWithinOneRunClaim(c, r).holds) << DpsgdBugWithinOneRunClaim(c, r).evidence;
  r.dpsgd_bug[0].rejected_at = 0;  // one run never rejects
  EXPECT_FALSE(DpsgdBugWithinOneRunClaim(c, r).holds);
  r = Boundary();
  r.dpsgd_bug = {DpsgdRunAt(5, 1.5, 0.6), DpsgdRunAt(6, 2.5, 0.8)};  // median step 5.5 > 4
  EXPECT_FALSE(DpsgdBugWithinOneRunClaim(c, r).holds);
  r = Boundary();
  r.dpsgd_correct[5].rejected_at = 1;  // P(Bin(20, 0.05) >= 6) = 3.3e-4
  EXPECT_FALSE(DpsgdBugWithinOneRunClaim(c, r).holds);
  r = Boundary();
  r.dpsgd_bug.clear();
  EXPECT_FALSE(DpsgdBugWithinOneRunClaim(c, r).holds);
}

// Type I and detection tables: rows of correct / violating cases with counts, rates and medians.
TEST(Tables, Type1AndDetectionRows) {
  const Config c = SmallConfig();
  const Results r = Boundary();
  const auto type1 = Type1Table(c, r);
  ASSERT_TRUE(type1.ok()) << type1.message();
  EXPECT_EQ(Col(*type1, "mechanism").strings,
            (std::vector<std::string>{"rr_correct", "gaussian_correct"}));
  EXPECT_EQ(Col(*type1, "rejected").ints, (std::vector<int64_t>{13, 0}));
  EXPECT_EQ(Col(*type1, "rejection_rate").doubles, (std::vector<double>{0.13, 0.0}));
  EXPECT_NEAR(Col(*type1, "binomial_p").doubles[0], kTail13Of100, 1e-12);
  EXPECT_EQ(Col(*type1, "binomial_p").doubles[1], 1.0);
  EXPECT_EQ(Col(*type1, "tpr_minus_fpr").doubles[0], 0.5);

  const auto detection = DetectionTable(c, r);
  ASSERT_TRUE(detection.ok()) << detection.message();
  EXPECT_EQ(Col(*detection, "mechanism").strings, (std::vector<std::string>{"laplace_half_scale"}));
  EXPECT_EQ(Col(*detection, "detected").ints, (std::vector<int64_t>{2}));
  EXPECT_EQ(Col(*detection, "max_outputs").ints, (std::vector<int64_t>{2000}));
  EXPECT_EQ(Col(*detection, "sequential_median_outputs").doubles, (std::vector<double>{300}));
  EXPECT_EQ(Col(*detection, "batch_outputs_to_detect").doubles, (std::vector<double>{3000}));
  EXPECT_EQ(Col(*detection, "batch_over_sequential").doubles, (std::vector<double>{10}));
}

// Batch power and DP-SGD tables: one row per (case, size); per variant counts, medians, means.
TEST(Tables, BatchPowerAndDpsgdRows) {
  const Config c = SmallConfig();
  const Results r = Boundary();
  const auto batch = BatchPowerTable(c, r);
  ASSERT_TRUE(batch.ok()) << batch.message();
  EXPECT_EQ(Col(*batch, "correct").strings, (std::vector<std::string>{"yes", "no", "no"}));
  EXPECT_EQ(Col(*batch, "outputs").ints, (std::vector<int64_t>{2000, 2000, 3000}));
  EXPECT_EQ(Col(*batch, "rejection_rate").doubles, (std::vector<double>{0.1, 0.4, 0.5}));

  const auto dpsgd = DpsgdTable(c, r);
  ASSERT_TRUE(dpsgd.ok()) << dpsgd.message();
  EXPECT_EQ(Col(*dpsgd, "variant").strings, (std::vector<std::string>{"correct", "noise_on_mean"}));
  EXPECT_EQ(Col(*dpsgd, "runs_rejected").ints, (std::vector<int64_t>{5, 2}));
  // 15 of 20 correct runs never reject: median +inf; the bug's steps 3, 4: 3.5.
  EXPECT_EQ(Col(*dpsgd, "median_rejection_step").doubles, (std::vector<double>{kInf, 3.5}));
  // No rejected mu counts as 0; the bug's 1.5 and 2.5: 2.
  EXPECT_EQ(Col(*dpsgd, "median_largest_rejected_mu").doubles, (std::vector<double>{0.0, 2.0}));
  EXPECT_NEAR(Col(*dpsgd, "mean_train_accuracy").doubles[0], 0.9, 1e-12);
  EXPECT_NEAR(Col(*dpsgd, "mean_train_accuracy").doubles[1], 0.7, 1e-12);
}

// The file: per-case datasets and attributes, DP-SGD [D, T] traces, numbers and verdicts.
TEST(Report, WritesTheDocumentedLayout) {
  const Config c = SmallConfig();
  const Results r = Boundary();
  auto f = testing::WriteAndReadBack("sequential_audit", "layout",
                                     [&](ResultWriter& out) { return WriteReport(c, r, out); });
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(*f->ReadInts("/cases/rr_correct/rejected_at"), r.cases[0].sequential.rejected_at);
  EXPECT_EQ(*f->ReadDoubles("/cases/laplace_half_scale/trace"),
            (std::vector<double>{0.5, -0.25, 1.0}));
  EXPECT_EQ(*f->ReadInts("/cases/laplace_half_scale/batch/n"), (std::vector<int64_t>{1000, 1500}));
  EXPECT_EQ(*f->ReadInts("/cases/laplace_half_scale/batch/rejections"),
            (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(*f->ReadIntAttribute("/cases/laplace_half_scale", "correct"), 0);
  EXPECT_EQ(*f->ReadStringAttribute("/cases/laplace_half_scale", "claim"), "eps-DP");
  EXPECT_EQ(*f->ReadStringAttribute("/cases/gaussian_correct", "claim"), "mu-GDP");
  EXPECT_EQ(*f->ReadIntAttribute("/cases/rr_correct", "replications"), 100);

  EXPECT_EQ(*f->Shape("/dpsgd/noise_on_mean/trace"), (std::vector<uint64_t>{2, 4}));
  EXPECT_EQ(*f->ReadDoubles("/dpsgd/noise_on_mean/trace"),
            (std::vector<double>{0, 0.5, 1, 3, 0, 0.5, 1, 4}));
  EXPECT_EQ(*f->Shape("/dpsgd/correct/trace"), (std::vector<uint64_t>{20, 4}));
  const std::vector<double> mu = *f->ReadDoubles("/dpsgd/correct/largest_rejected_mu");
  ASSERT_EQ(mu.size(), 20u);
  EXPECT_TRUE(std::isnan(mu[0]));  // none rejected: NaN in the file (0 in the table)
  EXPECT_EQ(*f->ReadDoubles("/dpsgd/noise_on_mean/largest_rejected_mu"),
            (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(*f->ReadDoubleAttribute("/dpsgd/noise_on_mean", "claimed_mu"), 1.0);

  EXPECT_EQ(*f->ReadDoubles("/numbers/type1_rate_rr_correct"), (std::vector<double>{0.13}));
  EXPECT_EQ(*f->ReadDoubles("/numbers/median_outputs_laplace_half_scale"),
            (std::vector<double>{300}));
  EXPECT_EQ(*f->ReadDoubles("/numbers/batch_outputs_laplace_half_scale"),
            (std::vector<double>{3000}));
  EXPECT_EQ(*f->ReadDoubles("/numbers/dpsgd_bug_median_detection_step"),
            (std::vector<double>{3.5}));
  EXPECT_FALSE(f->Exists("/numbers/median_outputs_rr_correct"));

  for (const char* table : {"type1", "detection", "batch_power", "dpsgd"}) {
    EXPECT_TRUE(f->ReadTable(table).ok()) << table;
  }
  for (const char* id : {"type1_controlled", "detects_few_hundred", "orders_below_batch",
                         "dpsgd_bug_within_one_run"}) {
    const auto holds = f->ReadClaimHolds(std::string("/claims/sequential_audit_") + id);
    ASSERT_TRUE(holds.ok()) << holds.message();
    EXPECT_TRUE(*holds) << id;
  }
}

}  // namespace
}  // namespace sequential_audit
}  // namespace privbench
