#include "experiments/lib/framework/declared_claims.h"

#include <gtest/gtest.h>

#include <string>

namespace privbench {
namespace {

const char kTwoEntries[] = R"([
 {"id": "toy_number", "study": "toy", "quantity": "a number", "source": "Toy paper, Tab. 1",
  "kind": "number", "published": "1.5", "h5": "/numbers/x", "tolerance": 0.1},
 {"id": "toy_claim", "study": "toy", "quantity": "the claim as the paper makes it",
  "source": "Toy paper, Sec. 2", "kind": "claim", "h5": "/claims/toy_claim_group",
  "note": "criterion: x > 1"}
])";

const DeclaredClaimsRegistration kToy("toy_registered", "[]");

TEST(DeclaredClaims, ClaimsAreKeyedByTheirGroupAndCarryStatementSourceCriterion) {
  auto claims = ParseDeclaredClaims("toy", kTwoEntries);
  ASSERT_TRUE(claims.ok()) << claims.message();
  ASSERT_EQ(claims->size(), 1u);  // the number is not a claim
  const DeclaredClaim& c = claims->at("toy_claim_group");
  EXPECT_EQ(c.statement, "the claim as the paper makes it");
  EXPECT_EQ(c.source, "Toy paper, Sec. 2");
  EXPECT_EQ(c.criterion, "criterion: x > 1");
}

TEST(DeclaredClaims, AnEntryOfAnotherStudyIsAnErrorNamingIt) {
  auto claims = ParseDeclaredClaims("other", kTwoEntries);
  ASSERT_FALSE(claims.ok());
  EXPECT_NE(claims.message().find("toy_number"), std::string::npos) << claims.message();
}

TEST(DeclaredClaims, MalformedDeclarationsAreErrors) {
  EXPECT_FALSE(ParseDeclaredClaims("toy", "{").ok());
  EXPECT_FALSE(ParseDeclaredClaims("toy", R"({"id": "x"})").ok());
  EXPECT_FALSE(ParseDeclaredClaims("toy", R"([{"study": "toy"}])").ok());
  const std::string no_source =
      R"([{"id": "a", "study": "toy", "kind": "claim", "quantity": "q", "h5": "/claims/a"}])";
  auto r = ParseDeclaredClaims("toy", no_source);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("source"), std::string::npos) << r.message();
  const std::string not_a_claim_group =
      R"([{"id": "a", "study": "toy", "kind": "claim", "quantity": "q", "source": "s",
           "h5": "/numbers/a"}])";
  EXPECT_FALSE(ParseDeclaredClaims("toy", not_a_claim_group).ok());
  const std::string twice =
      R"([{"id": "a", "study": "toy", "kind": "claim", "quantity": "q", "source": "s",
           "h5": "/claims/a"},
          {"id": "b", "study": "toy", "kind": "claim", "quantity": "q", "source": "s",
           "h5": "/claims/a"}])";
  EXPECT_FALSE(ParseDeclaredClaims("toy", twice).ok());
}

TEST(DeclaredClaims, RegistrationIsFoundByStudyName) {
  ASSERT_TRUE(DeclaredClaimsJson("toy_registered").has_value());
  EXPECT_EQ(*DeclaredClaimsJson("toy_registered"), "[]");
  EXPECT_FALSE(DeclaredClaimsJson("no_such_study").has_value());
}

}  // namespace
}  // namespace privbench
