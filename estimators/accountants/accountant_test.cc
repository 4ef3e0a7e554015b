#include "estimators/accountants/accountant.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "estimators/accountants/accountant_registry.h"
#include "estimators/accountants/factories.h"

namespace privbench {
namespace {

// True if `text` contains `part` (the message is printed otherwise).
::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// J&E Purchase-100 (docs/studies.md, Accounting reference).
DpSgdAccounting JE(double sigma) { return DpSgdAccounting{sigma, 0.02, 5000, 1e-5, {}}; }

TEST(RdpOrdersTest, TableOneListIsExactlyTheReferenceList) {
  const std::vector<double> orders = TableOneRdpOrders();
  ASSERT_EQ(orders.size(), 10u + 59u + 3u);
  const std::vector<double> head = {1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5};
  for (size_t k = 0; k < head.size(); ++k) EXPECT_EQ(orders[k], head[k]);
  for (int a = 5; a <= 63; ++a) EXPECT_EQ(orders[a + 5], a);
  EXPECT_EQ(orders[69], 128);
  EXPECT_EQ(orders[70], 256);
  EXPECT_EQ(orders[71], 512);
}

TEST(RdpOrdersTest, DefaultIsASortedSupersetReachingBelow125AndAbove512) {
  const std::vector<double> def = DefaultRdpOrders();
  EXPECT_TRUE(std::is_sorted(def.begin(), def.end()));
  EXPECT_EQ(std::adjacent_find(def.begin(), def.end()), def.end());  // no duplicates
  for (double a : TableOneRdpOrders()) {
    EXPECT_TRUE(std::binary_search(def.begin(), def.end(), a)) << a;
  }
  EXPECT_EQ(def.front(), 1.01);
  EXPECT_EQ(def.back(), 16384);
  EXPECT_GT(def.front(), 1.0);
}

TEST(ValidateTest, MessagesNameTheArgument) {
  DpSgdAccounting s = JE(1.0);
  EXPECT_TRUE(ValidateDpSgdAccounting(s).ok());
  s.sigma = 0.0;
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "sigma must be finite and > 0, got 0");
  s.sigma = kNan;
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "sigma must be finite and > 0, got nan");
  s.sigma = kInf;
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "sigma must be finite and > 0, got inf");
  s = JE(1.0);
  s.q = 0.0;
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "q must be in (0, 1], got 0");
  s.q = 1.5;
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "q must be in (0, 1], got 1.5");
  s.q = 1.0;
  EXPECT_TRUE(ValidateDpSgdAccounting(s).ok());
  s = JE(1.0);
  s.steps = 0;
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "steps must be >= 1, got 0");
  s = JE(1.0);
  s.delta = 0.0;
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "delta must be in (0, 1), got 0");
  s.delta = 1.0;
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "delta must be in (0, 1), got 1");
  s = JE(1.0);
  s.orders = {2.0, 3.0, 1.0};
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "orders[2] must be finite and > 1, got 1");
  s.orders = {kNan};
  EXPECT_EQ(ValidateDpSgdAccounting(s).message(), "orders[0] must be finite and > 1, got nan");
}

// An accountant whose EpsilonImpl misbehaves, to test the public wrapper.
class FakeAccountant final : public Accountant {
 public:
  explicit FakeAccountant(int mode) : mode_(mode) {}
  std::string_view name() const override { return "fake"; }
  std::string_view description() const override { return "test double"; }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    switch (mode_) {
      case 0:
        throw std::domain_error("boost said no");
      case 1:
        return AccountantResult{kNan, {}};
      case 2:
        return AccountantResult{-1.0, {}};
      case 3:
        return AccountantResult{kInf, {}};
      default:
        return AccountantResult{1.0 / s.sigma, {}};  // eps = 1/sigma
    }
  }

 private:
  int mode_;
};

TEST(AccountantTest, WrapperTurnsExceptionsNanAndNegativeIntoErrors) {
  auto thrown = FakeAccountant(0).Epsilon(JE(1.0));
  ASSERT_FALSE(thrown.ok());
  EXPECT_TRUE(Contains(thrown.message(), "internal error in fake at sigma=1 q=0.02 steps=5000"));
  EXPECT_TRUE(Contains(thrown.message(), "boost said no"));
  EXPECT_TRUE(Contains(FakeAccountant(1).Epsilon(JE(1.0)).message(), "internal error in fake"));
  EXPECT_TRUE(Contains(FakeAccountant(2).Epsilon(JE(1.0)).message(), "epsilon -1"));
  // +inf is a legitimate (vacuous) bound.
  EXPECT_EQ(FakeAccountant(3).Epsilon(JE(1.0))->epsilon, kInf);
  // Validation comes first.
  DpSgdAccounting bad = JE(1.0);
  bad.delta = 2.0;
  EXPECT_EQ(FakeAccountant(0).Epsilon(bad).message(), "delta must be in (0, 1), got 2");
}

TEST(CalibrateSigmaTest, SolvesAKnownInverse) {
  FakeAccountant inverse(4);  // eps = 1/sigma
  for (double target : {1e-3 * 1.5, 0.37, 1.0, 42.0, 999.0}) {
    auto sigma = CalibrateSigma(inverse, target, JE(kNan));  // setting.sigma is ignored
    ASSERT_TRUE(sigma.ok()) << sigma.message();
    EXPECT_NEAR(*sigma, 1.0 / target, 1e-12 / target) << target;
  }
}

TEST(CalibrateSigmaTest, MatchesTheZcdpClosedForm) {
  // eps = rho + 2 sqrt(rho L): sqrt(rho) = sqrt(L + eps) - sqrt(L), sigma = sqrt(E / (2 rho)).
  auto zcdp = MakeZcdpAccountant();
  const double l = -std::log(1e-5), epochs = 100.0;
  for (double target : {0.1, 1.0, 10.0, 1000.0}) {
    const double root_rho = std::sqrt(l + target) - std::sqrt(l);
    const double expected = std::sqrt(epochs / (2.0 * root_rho * root_rho));
    auto sigma = CalibrateSigma(*zcdp, target, JE(1.0));
    ASSERT_TRUE(sigma.ok()) << sigma.message();
    EXPECT_NEAR(*sigma / expected, 1.0, 1e-10) << target;
  }
}

TEST(CalibrateSigmaTest, RejectsBadTargetsNamingTargetEpsilon) {
  auto zcdp = MakeZcdpAccountant();
  for (double bad : {0.0, -1.0, kNan, kInf}) {
    auto r = CalibrateSigma(*zcdp, bad, JE(1.0));
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(Contains(r.message(), "target_epsilon must be finite and > 0")) << bad;
  }
  // Too small: even sigma = 1e4 gives eps ~ 0.0098 > 1e-6.
  auto small = CalibrateSigma(*zcdp, 1e-6, JE(1.0));
  ASSERT_FALSE(small.ok());
  EXPECT_TRUE(Contains(small.message(), "target_epsilon=1e-06 for zcdp"));
  EXPECT_TRUE(Contains(small.message(), "cannot be reached with sigma in [0.001, 10000]"));
  EXPECT_TRUE(Contains(small.message(), "target_epsilon too small"));
  // What was tried, and no sigma that was never asked for: the setting is
  // named without sigma (it used to read "for zcdp at sigma=1 q=0.02 ...").
  EXPECT_TRUE(Contains(small.message(), "for zcdp at q=0.02 steps=5000 delta=1e-05 cannot"))
      << small.message();
  EXPECT_FALSE(Contains(small.message(), "at sigma=1 ")) << small.message();
  EXPECT_TRUE(Contains(small.message(),
                       "searching from sigma=1 up by factors of e, eps at sigma=10000 (the end "
                       "of that range) is 0.00"))
      << small.message();
  // Beyond the work bound (1e4): refused before any search.
  auto huge = CalibrateSigma(*zcdp, 1e300, JE(1.0));
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(Contains(huge.message(), "target_epsilon must be <= 10000")) << huge.message();
  // Too large within the bound: one step at q = 1e-6 stays below it even at
  // sigma = 1e-3.
  DpSgdAccounting one_step = JE(1.0);
  one_step.q = 1e-6;
  one_step.steps = 1;
  auto large = CalibrateSigma(*zcdp, 9000.0, one_step);
  ASSERT_FALSE(large.ok());
  EXPECT_TRUE(Contains(large.message(), "target_epsilon=9000"));
  EXPECT_TRUE(Contains(large.message(), "target_epsilon too large")) << large.message();
  EXPECT_TRUE(Contains(large.message(),
                       "searching from sigma=1 down by factors of e, eps at "
                       "sigma=0.001 (the end of that range) is "))
      << large.message();
  EXPECT_FALSE(Contains(large.message(), "at sigma=1 ")) << large.message();
  // Errors in the rest of the setting are reported as such.
  DpSgdAccounting bad = JE(1.0);
  bad.q = 0.0;
  EXPECT_EQ(CalibrateSigma(*zcdp, 1.0, bad).message(), "q must be in (0, 1], got 0");
}

// The five accountants of that_which_we_call_private Table 1 (with zCDP)
// come first, in this order; an accountant added later follows them and
// needs no change here.
TEST(RegistryTest, RegistersThePapersAccountantsFirst) {
  const std::vector<std::string> names = AllAccountantNames();
  const std::vector<std::string> papers = {"naive", "advanced", "zcdp", "rdp", "rdp_improved"};
  ASSERT_GE(names.size(), papers.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + papers.size()), papers);
  std::string listed;
  for (const std::string& name : names) {
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
    auto acc = MakeAccountant(name);
    ASSERT_TRUE(acc.ok()) << acc.message();
    EXPECT_EQ((*acc)->name(), name);
    EXPECT_FALSE((*acc)->description().empty());
    listed += (listed.empty() ? "" : ", ") + name;
  }
  auto bad = MakeAccountant("moments");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(),
            "method must be a registered accountant (" + listed + "), got 'moments'");
  // Callers that read the name from another field say so.
  EXPECT_EQ(
      MakeAccountant("moments", "accountants[2]").message().rfind("accountants[2] must be ", 0),
      0u);
}

TEST(RegistryTest, FactoriesGiveTheSameAnswers) {
  auto direct = MakeRdpAccountant()->Epsilon(JE(6.99));
  auto via = (*MakeAccountant("rdp"))->Epsilon(JE(6.99));
  ASSERT_TRUE(direct.ok() && via.ok());
  EXPECT_EQ(direct->epsilon, via->epsilon);
}

}  // namespace
}  // namespace privbench

// Studies list UpperBoundAccountantNames() as "the upper bounds": every
// registered accountant except the last-iterate heuristic, in registry order.
TEST(RegistryTest, UpperBoundNamesAreAllButTheHeuristic) {
  const std::vector<std::string> all = privbench::AllAccountantNames();
  const std::vector<std::string> upper = privbench::UpperBoundAccountantNames();
  ASSERT_NE(std::find(all.begin(), all.end(), "last_iterate_heuristic"), all.end());
  EXPECT_EQ(std::find(upper.begin(), upper.end(), "last_iterate_heuristic"), upper.end());
  EXPECT_EQ(upper.size() + 1, all.size());
  std::vector<std::string> all_but_heuristic;
  for (const std::string& name : all) {
    if (name != "last_iterate_heuristic") all_but_heuristic.push_back(name);
  }
  EXPECT_EQ(upper, all_but_heuristic);
}
