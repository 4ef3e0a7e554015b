#include "estimators/registry.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace privbench {
namespace {

class Thing {
 public:
  explicit Thing(std::string_view name) : name_(name) {}
  std::string_view name() const { return name_; }

 private:
  std::string_view name_;
};

std::unique_ptr<Thing> MakeAlpha() { return std::make_unique<Thing>("alpha"); }
std::unique_ptr<Thing> MakeBeta() { return std::make_unique<Thing>("beta"); }
std::unique_ptr<Thing> MakeMisnamed() { return std::make_unique<Thing>("gamma"); }

constexpr RegistryRow<Thing> kRows[] = {
    {"alpha", &MakeAlpha},
    {"beta", &MakeBeta},
    {"delta", &MakeMisnamed},
};
constexpr Registry<Thing> kRegistry("thing", kRows);

TEST(RegistryTest, NamesInTableOrder) {
  EXPECT_EQ(kRegistry.AllNames(), (std::vector<std::string>{"alpha", "beta", "delta"}));
}

TEST(RegistryTest, MakesTheNamedRow) {
  auto beta = kRegistry.Make("beta", "method");
  ASSERT_TRUE(beta.ok()) << beta.message();
  EXPECT_EQ((*beta)->name(), "beta");
}

TEST(RegistryTest, UnknownNameNamesTheFieldAndListsValidNames) {
  auto bad = kRegistry.Make("omega", "variant");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "variant must be a registered thing (alpha, beta, delta), got 'omega'");
}

TEST(RegistryTest, RowWhoseInstanceHasAnotherNameIsAnInternalError) {
  auto bad = kRegistry.Make("delta", "method");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(),
            "internal error: the thing registered as 'delta' reports the name 'gamma'");
}

}  // namespace
}  // namespace privbench
