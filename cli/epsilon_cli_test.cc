// Regression tests of the JSON-lines service against hostile input: every
// line gets exactly one valid JSON line back, errors name the user's field.
#include "cli/epsilon_cli.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace privbench {
namespace {

nlohmann::json Answer(const std::string& line) {
  const std::string out = ServeLine(line, 7);
  EXPECT_EQ(out.find('\n'), std::string::npos) << out;
  return nlohmann::json::parse(out);  // throws (fails the test) if not valid JSON/UTF-8
}

std::string ErrorOf(const std::string& line) {
  const nlohmann::json j = Answer(line);
  if (!j.contains("error")) return "(no error) " + j.dump();
  return j["error"].get<std::string>();
}

const char kKatz[] = R"("op":"katz","n1":10,"n0":1,"n":100,"alpha":0.05)";

TEST(EpsilonCli, InvalidUtf8IsAnErrorLineAndLaterLinesAreServed) {
  const nlohmann::json bad = Answer("{\"id\":\"\xff\"}");
  EXPECT_NE(bad["error"].get<std::string>().find("invalid JSON"), std::string::npos);
  std::istringstream in("{\"id\":\"\xff\xfe\"}\n{\"id\":2," + std::string(kKatz) + "}\n");
  char* buf = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&buf, &size);
  ASSERT_EQ(ServeBatch(in, out), 0);
  std::fclose(out);
  const std::string text(buf, size);
  free(buf);
  ASSERT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  EXPECT_EQ(nlohmann::json::parse(text.substr(text.find('\n') + 1))["id"], 2);
}

// {"n1":10,...,"n1":90} used to be answered for n1 = 90 (the last one won).
TEST(EpsilonCli, RepeatedKeyIsRefusedNamingIt) {
  const nlohmann::json a = Answer("{\"id\":3," + std::string(kKatz) + ",\"n1\":90}");
  EXPECT_EQ(a["id"], 3);  // the line does not parse, but its one id is readable
  EXPECT_EQ(a["error"],
            "line 7: invalid JSON: duplicate key \"n1\" in the object at '' (each key may "
            "appear once)");
  EXPECT_NE(ErrorOf("{\"id\":1,\"id\":2," + std::string(kKatz) + "}").find("duplicate key \"id\""),
            std::string::npos);
  EXPECT_TRUE(Answer("{\"id\":3," + std::string(kKatz) + "}").contains("lower"));
}

// pld at q = 1 once answered "interval must be finite and > 0, got inf".
TEST(EpsilonCli, PldAtFullBatchAnswersWithoutInternalNames) {
  for (const char* sigma : {"1e-6", "1e-5", "0.5"}) {
    const std::string op = std::string(R"({"id":1,"op":"accountant","method":"pld","q":1,)") +
                           R"("steps":10,"delta":1e-5,"sigma":)" + sigma + "}";
    const nlohmann::json a = Answer(op);
    EXPECT_TRUE(a.contains("epsilon")) << sigma << ": " << a.dump();
  }
  const std::string cal =
      R"({"id":1,"op":"calibrate","method":"pld","target_epsilon":1,"q":1,"steps":10,"delta":1e-5})";
  EXPECT_TRUE(Answer(cal).contains("sigma")) << Answer(cal).dump();
}

TEST(EpsilonCli, DeepNestingIsRefusedWithoutRecursion) {
  const std::string deep = "{\"id\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_EQ(ErrorOf(deep), "line 7: JSON nested deeper than 64 levels");
  // Brackets inside strings do not count; 64 levels are accepted.
  EXPECT_EQ(
      Answer("{\"id\":\"" + std::string(1000, '[') + "\"," + kKatz + "}")["lower"].is_number(),
      true);
  const std::string ok =
      "{\"id\":" + std::string(63, '[') + std::string(63, ']') + "," + kKatz + "}";
  EXPECT_TRUE(Answer(ok).contains("lower"));
}

TEST(EpsilonCli, WriteFailureExitsNonZero) {
  std::FILE* full = std::fopen("/dev/full", "w");
  ASSERT_NE(full, nullptr);
  std::istringstream in("{\"id\":1," + std::string(kKatz) + "}\n");
  EXPECT_EQ(ServeBatch(in, full), 1);
  std::fclose(full);
}

TEST(EpsilonCli, CountsThatDoNotFitAreRefusedNamingTheField) {
  const std::string tail = R"(,"fp":1,"tn":1,"delta":0,"alpha":0.05})";
  const std::string head = R"({"id":1,"op":"interval","method":"clopper_pearson",)";
  EXPECT_EQ(ErrorOf(head + R"("tp":9223372036854775807,"fn":1)" + tail),
            "tp + fn (positive trials) must be below 2^63, got tp=9223372036854775807 fn=1");
  EXPECT_EQ(ErrorOf(head + R"("tp":18446744073709551615,"fn":1)" + tail),
            "tp must be an integer below 2^63, got 18446744073709551615");
  EXPECT_EQ(ErrorOf(head + R"("tp":1,"fn":9223372036854775808)" + tail),
            "fn must be an integer below 2^63, got 9223372036854775808");
}

TEST(EpsilonCli, BlankLinesGetAnErrorLine) {
  EXPECT_EQ(ErrorOf(""), "line 7: blank line (expected a JSON object)");
  EXPECT_EQ(ErrorOf(" \t\r"), "line 7: blank line (expected a JSON object)");
  std::istringstream in("\n{\"id\":1," + std::string(kKatz) + "}\n\n");
  char* buf = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&buf, &size);
  ASSERT_EQ(ServeBatch(in, out), 0);
  std::fclose(out);
  const std::string text(buf, size);
  free(buf);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3) << text;
}

TEST(EpsilonCli, ErrorsNameTheFieldTheUserWrote) {
  EXPECT_EQ(ErrorOf(R"({"op":"epsilon_star","variant":"x","train":[1],"population":[1],"delta":0})")
                .rfind("variant must be a registered loss-sample estimator", 0),
            0u);
  EXPECT_EQ(ErrorOf(R"({"op":"accountant","method":"x","sigma":1,"q":0.1,"steps":1,"delta":1e-5})")
                .rfind("method must be a registered accountant", 0),
            0u);
  EXPECT_EQ(ErrorOf(R"({"op":"katz","n1":10,"n0":1,"n":100,"alpha":5e-324})"),
            "alpha must be >= 1e-300 (the normal quantiles overflow below it), got 5e-324");
  EXPECT_EQ(ErrorOf(R"({"op":"interval","method":"katz_log","tp":5,"fn":5,"fp":5,"tn":5,"delta":0,)"
                    R"("alpha":1e-310})"),
            "alpha must be >= 1e-300 (the normal quantiles overflow below it), got 1e-310");
  EXPECT_EQ(
      ErrorOf(
          R"({"op":"accountant","method":"rdp","sigma":1e-160,"q":0.1,"steps":1,"delta":1e-5})"),
      "sigma must be >= 1e-100 (the accountants' numerics overflow below it), got 1e-160");
  // The samples are the fields "train" and "population", not the library's
  // argument names; orders are refused where they mean nothing.
  EXPECT_EQ(ErrorOf(R"({"op":"epsilon_star","variant":"empirical","train":[],"population":[1],)"
                    R"("delta":0})"),
            "train must be non-empty");
  EXPECT_EQ(ErrorOf(R"({"op":"accountant","method":"pld","sigma":1,"q":0.1,"steps":1,)"
                    R"("delta":1e-5,"orders":[2]})")
                .rfind("orders apply to the RDP accountants only", 0),
            0u);
  EXPECT_EQ(ErrorOf(R"({"op":"accountant","method":"rdp","sigma":1,"q":0.1,"steps":1,)"
                    R"("delta":1e-5,"orders":[]})"),
            "orders must be a non-empty list (omit it for the default orders)");
}

// A line that is not valid JSON as a whole still gets its own id back when
// the id itself is readable (an overflowing number or a lone surrogate
// elsewhere); an integer id beyond 64 bits is refused, never echoed as a
// different number.
TEST(EpsilonCli, IdsAreEchoedExactlyOrRefused) {
  EXPECT_EQ(Answer(R"({"id":6,"op":"katz","n1":1e400,"n0":1,"n":2,"alpha":0.05})")["id"], 6);
  EXPECT_EQ(Answer(R"({"op":"katz","n1":1e400,"id":"x\"y"})")["id"], "x\"y");
  EXPECT_TRUE(Answer(R"({"id":1,"id":2,"x":1e400})")["id"].is_null());
  EXPECT_EQ(Answer(R"({"id" : -3 , "note":"\ud800"})")["id"], -3);
  EXPECT_TRUE(Answer(R"({"nested":{"id":5},"x":1e400})")["id"].is_null());
  const nlohmann::json big = Answer(R"({"id":18446744073709551616,)" + std::string(kKatz) + "}");
  EXPECT_TRUE(big["id"].is_null());
  EXPECT_EQ(big["error"],
            "line 7: id must be a string or an integer within 64 bits, got "
            "1.8446744073709552e+19");
  EXPECT_EQ(Answer(R"({"id":18446744073709551615,)" + std::string(kKatz) + "}")["id"],
            18446744073709551615ULL);
  EXPECT_EQ(Answer(R"({"id":1.5,)" + std::string(kKatz) + "}")["id"], 1.5);
}

// audit_scores: a known small audit, and errors naming the field.
TEST(EpsilonCli, AuditScoresAnswersAndNamesBadFields) {
  const nlohmann::json a = Answer(
      R"({"id":9,"op":"audit_scores","member_scores":[3,4,5,6],"nonmember_scores":[0,1,2,3.5],)"
      R"("alpha":0.1,"delta":0,"methods":["clopper_pearson"]})");
  ASSERT_FALSE(a.contains("error")) << a.dump();
  EXPECT_EQ(a["id"], 9);
  EXPECT_DOUBLE_EQ(a["auc"].get<double>(), 15.0 / 16.0);
  ASSERT_EQ(a["intervals"].size(), 3u);  // split, bonferroni, max_over_thresholds
  EXPECT_EQ(a["intervals"][2]["selection"], "max_over_thresholds");
  EXPECT_EQ(a["intervals"][2]["valid_confidence_statement"], false);
  EXPECT_EQ(a["intervals"][0]["valid_confidence_statement"], true);
  EXPECT_TRUE(a["gaussian_dp"][0]["eps_lower"].is_null());  // delta = 0: mu only
  EXPECT_EQ(ErrorOf(R"({"op":"audit_scores","member_scores":[],"nonmember_scores":[1],)"
                    R"("alpha":0.1,"delta":0})"),
            "member_scores must be non-empty");
  EXPECT_EQ(ErrorOf(R"({"op":"audit_scores","member_scores":[1,2],"nonmember_scores":[1,2],)"
                    R"("alpha":0.1,"delta":0,"selections":["best"]})"),
            "selections must name split, bonferroni, bonferroni_all, max_over_thresholds or "
            "multi_split, got 'best'");
}

// "bonferroni_all" by name: every score a threshold (K = 4 + 4 + 1), each
// interval at alpha / K on all the scores; jeffreys is skipped for it, with the reason.
TEST(EpsilonCli, AuditScoresBonferroniAll) {
  const nlohmann::json a =
      Answer(R"({"op":"audit_scores","member_scores":[3,4,5,6],"nonmember_scores":[0,1,2,3.5],)"
             R"("alpha":0.1,"delta":0,"methods":["clopper_pearson","jeffreys"],)"
             R"("selections":["bonferroni_all"]})");
  ASSERT_FALSE(a.contains("error")) << a.dump();
  ASSERT_EQ(a["intervals"].size(), 1u);
  const nlohmann::json& row = a["intervals"][0];
  EXPECT_EQ(row["selection"], "bonferroni_all");
  EXPECT_EQ(row["method"], "clopper_pearson");
  EXPECT_DOUBLE_EQ(row["level_alpha"].get<double>(), 0.1 / 9);
  EXPECT_EQ(row["valid_confidence_statement"], true);
  const nlohmann::json& c = row["counts"];  // of all the scores: no split
  EXPECT_EQ(c["tp"].get<int>() + c["fn"].get<int>() + c["fp"].get<int>() + c["tn"].get<int>(), 8);
  EXPECT_EQ(a["gaussian_dp"][0]["selection"], "bonferroni_all");
  ASSERT_EQ(a["skipped_methods"].size(), 1u);
  EXPECT_EQ(a["skipped_methods"][0]["method"], "jeffreys");
  EXPECT_NE(a["skipped_methods"][0]["reason"].get<std::string>().find("bonferroni_all only"),
            std::string::npos);
}

// A NUL byte in a path opened another file (the extension
// was checked on the whole string, the file opened up to the NUL).
TEST(EpsilonCli, APathWithANulByteIsRefusedNamingTheField) {
  const std::string e = ErrorOf(
      R"({"op":"audit_scores","alpha":0.05,"delta":0,"member_scores_path":"/etc/passwd\u0000.csv",)"
      R"("nonmember_scores":[0,1]})");
  EXPECT_EQ(e.find("member_scores_path must not contain a NUL byte"), 0u) << e;
  EXPECT_EQ(e.find("root:"), std::string::npos) << e;
}

// Messages quote bounded prefixes of what they
// echo; seeds take the whole uint64 range; methods: [] is refused as
// selections: [] is (it meant "every method").
TEST(EpsilonCli, AuditScoresFieldsAreConsistentAndMessagesBounded) {
  const std::string base =
      R"({"op":"audit_scores","member_scores":[3,4,5,6],"nonmember_scores":[0,1,2,3.5],)"
      R"("alpha":0.1,"delta":0,"methods":["clopper_pearson"],"selections":["split"],)";
  const nlohmann::json a = Answer(base + R"("seed":18446744073709551615})");
  EXPECT_FALSE(a.contains("error")) << a.dump();
  EXPECT_EQ(ErrorOf(base + R"("seed":-1})"), "seed must be an integer in [0, 2^64), got -1");
  EXPECT_EQ(ErrorOf(R"({"op":"audit_scores","member_scores":[3,4],"nonmember_scores":[0,1],)"
                    R"("alpha":0.1,"delta":0,"methods":[]})"),
            "methods must be non-empty (leave it out for every applicable method)");
  const std::string huge(1 << 20, 'x');
  EXPECT_LT(ErrorOf(base + "\"" + huge + "\":1}").size(), 300u);
  EXPECT_LT(ErrorOf(R"({"op":"audit_scores","member_scores":[3,4],"nonmember_scores":[0,1],)"
                    R"("alpha":0.1,"delta":0,"selections":[")" +
                    huge + R"("]})")
                .size(),
            300u);
  EXPECT_LT(ErrorOf(R"({"op":"audit_scores","member_scores":[")" + huge +
                    R"("],"nonmember_scores":[0,1],"alpha":0.1,"delta":0})")
                .size(),
            300u);
  EXPECT_LT(ErrorOf(R"({"op":"interval","method":")" + huge +
                    R"(","tp":1,"fn":1,"fp":1,"tn":1,"delta":0,"alpha":0.1})")
                .size(),
            2200u);
}

// The last-iterate heuristic is reached by its registry name like every
// accountant: eps, calibration back to the same sigma, and the fields that
// do not apply to it refused.
TEST(EpsilonCli, LastIterateHeuristicIsAnAccountantByName) {
  const nlohmann::json a = Answer(R"({"id":1,"op":"accountant","method":"last_iterate_heuristic",)"
                                  R"("sigma":1,"q":0.01,"steps":100,"delta":1e-6})");
  ASSERT_TRUE(a.contains("epsilon")) << a.dump();
  EXPECT_FALSE(a.contains("order"));
  const double eps = a["epsilon"].get<double>();
  EXPECT_NEAR(eps, 0.4921, 1e-4);  // last_iterate_heuristic_test's sweep
  const nlohmann::json c =
      Answer(R"({"id":2,"op":"calibrate","method":"last_iterate_heuristic","target_epsilon":)" +
             nlohmann::json(eps).dump() + R"(,"q":0.01,"steps":100,"delta":1e-6})");
  ASSERT_TRUE(c.contains("sigma")) << c.dump();
  EXPECT_NEAR(c["sigma"].get<double>(), 1.0, 1e-8);
  EXPECT_EQ(ErrorOf(R"({"op":"accountant","method":"last_iterate_heuristic","sigma":1,"q":0.1,)"
                    R"("steps":1,"delta":1e-5,"orders":[2]})"),
            "orders apply to the RDP accountants only; method last_iterate_heuristic does not "
            "use them");
  EXPECT_EQ(ErrorOf(R"({"op":"accountant","method":"last_iterate_heuristic","sigma":1,"q":0.1,)"
                    R"("steps":1,"delta":1e-5,"discretization":1e-3})"),
            "discretization applies to method pld only");
  EXPECT_EQ(
      ErrorOf(R"({"op":"accountant","method":"last_iterate_heuristic","sigma":1,"q":0.5,)"
              R"("steps":1000000000,"delta":1e-5})")
          .rfind("steps=1000000000 at q=0.5 is beyond last_iterate_heuristic's work bound", 0),
      0u);
}

// sequential_audit: the answer after two requests chained through "state"
// is the answer to one request with every round; rows and the lower bound.
// Members and non-members, overlapping, as JSON fields of the score ops.
const char kScores[] =
    R"("member_scores":[3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,2.5,1.5],)"
    R"("nonmember_scores":[0,1,2,3.5,1.5,2.5,0.5,-1,1,2,0,3,-0.5,-1.5,0.25,-2,-3,-4],)";

// audit_scores' "multi_split": the median row, each split at alpha / 2, the
// same median as the multi_split op; multi_split_count names itself.
TEST(EpsilonCli, AuditScoresMultiSplitIsTheMultiSplitOpsMedian) {
  const std::string audit = std::string(R"({"op":"audit_scores",)") + kScores +
                            R"("alpha":0.3,"delta":1e-5,"methods":["clopper_pearson_one_sided"],)"
                            R"("selections":["multi_split"],"seed":4,"multi_split_count":)";
  const nlohmann::json a = Answer(audit + "7}");
  ASSERT_FALSE(a.contains("error")) << a.dump();
  ASSERT_EQ(a["intervals"].size(), 1u);
  const nlohmann::json& row = a["intervals"][0];
  EXPECT_EQ(row["selection"], "multi_split");
  EXPECT_DOUBLE_EQ(row["level_alpha"].get<double>(), 0.15);
  EXPECT_EQ(row["valid_confidence_statement"], true);
  EXPECT_NE(row["note"].get<std::string>().find("representative split"), std::string::npos);
  const nlohmann::json& c = row["counts"];  // one split's audit half: 9 + 9 scores
  EXPECT_EQ(c["tp"].get<int>() + c["fn"].get<int>() + c["fp"].get<int>() + c["tn"].get<int>(), 18);
  const std::string split = std::string(R"({"op":"multi_split",)") + kScores +
                            R"("alpha":0.3,"delta":1e-5,"seed":4,"num_splits":7,"bound":)";
  const nlohmann::json m = Answer(split + R"("clopper_pearson_one_sided"})");
  ASSERT_EQ(m["split_bounds"].size(), 7u) << m.dump();
  EXPECT_EQ(m["bound"], row["lower"]);
  EXPECT_GT(m["bound"].get<double>(), 0.0);
  EXPECT_EQ(m["quantity"], "eps");
  EXPECT_EQ(m["level_alpha"], 0.15);
  const nlohmann::json g = Answer(split + R"("gaussian_dp"})");
  EXPECT_EQ(g["quantity"], "mu");
  EXPECT_EQ(g["bound"], a["gaussian_dp"][0]["mu_lower"]);
  EXPECT_EQ(g["eps_lower"], a["gaussian_dp"][0]["eps_lower"]);
  EXPECT_EQ(ErrorOf(audit + "0}"),
            "multi_split_count must be in [1, 100000] (the work bound: each split runs every "
            "method), got 0");
  EXPECT_EQ(ErrorOf(split + R"("clopper"})").rfind("bound must be a registered interval", 0), 0u);
  EXPECT_EQ(ErrorOf(std::string(R"({"op":"multi_split",)") + kScores +
                    R"("alpha":0.3,"delta":0,"bound":"one_run","num_splits":0})"),
            "num_splits must be in [1, 100000], got 0");
  EXPECT_EQ(ErrorOf(R"({"op":"multi_split","member_scores":[1],"nonmember_scores":[0],)"
                    R"("alpha":0.3,"delta":0})"),
            "missing field 'bound'");
}

// score_metrics on scores small enough to check by hand.
TEST(EpsilonCli, ScoreMetricsByHand) {
  const std::string base =
      R"({"op":"score_metrics","member_scores":[3,4,5,6,2.5],"nonmember_scores":[0,1,2,3.5,2.5],)";
  const nlohmann::json a = Answer(base + R"("alpha":0.1,"min_count":1,"fprs":[0,0.2,1]})");
  ASSERT_FALSE(a.contains("error")) << a.dump();
  // 22 of the 25 pairs ordered, one tie (2.5, 2.5) counted 1/2.
  EXPECT_DOUBLE_EQ(a["auc_mann_whitney"].get<double>(), 22.5 / 25);
  EXPECT_GE(a["auc_hull"].get<double>(), a["auc_mann_whitney"].get<double>());
  // Hull: (fp, tp) = (0, 0), (0, 3) at threshold 4, (2, 5) at 2.5, (5, 5).
  ASSERT_EQ(a["tpr_at_fpr"].size(), 3u);
  EXPECT_DOUBLE_EQ(a["tpr_at_fpr"][0]["tpr"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(a["tpr_at_fpr"][1]["tpr"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(a["tpr_at_fpr"][2]["tpr"].get<double>(), 1.0);
  // Threshold 4: tp = 3, tn = 5, accuracy (3 + 5) / 10.
  const nlohmann::json& acc = a["max_accuracy"];
  EXPECT_DOUBLE_EQ(acc["accuracy"].get<double>(), 0.8);
  EXPECT_EQ(acc["point"]["threshold"], 4.0);
  EXPECT_GT(acc["upper"].get<double>(), 0.8);
  // Raw count: log(TPR / FPR) at fp >= 1, largest at (1, 4): log(0.8 / 0.2).
  EXPECT_DOUBLE_EQ(a["raw_count_epsilon"].get<double>(), std::log(4.0));
  const nlohmann::json b = Answer(base + "\"prevalence\":0.5}");
  EXPECT_TRUE(b["max_accuracy"]["upper"].is_null());
  EXPECT_EQ(b["tpr_at_fpr"].size(), 3u);   // 0.001, 0.01, 0.1
  EXPECT_EQ(b["raw_count_epsilon"], 0.0);  // min_count 50 > N
  EXPECT_EQ(ErrorOf(base + R"("fprs":[0.1,2]})"), "fprs[1] must be in [0, 1], got 2");
  EXPECT_EQ(ErrorOf(base + R"("one_sided":1})"), "one_sided must be true or false, got 1");
  EXPECT_EQ(ErrorOf(base + R"("min_count":0})").rfind("min_count", 0), 0u);
  EXPECT_EQ(ErrorOf(base + R"("prevalence":2})").rfind("prevalence", 0), 0u);
  EXPECT_EQ(ErrorOf(base + R"("alpha":0})").rfind("alpha", 0), 0u);
  EXPECT_EQ(ErrorOf(base + R"("fpr":0.1})"), "unknown field 'fpr' for op 'score_metrics'");
  EXPECT_EQ(ErrorOf(R"({"op":"score_metrics","member_scores":[1]})"),
            "give exactly one of nonmember_scores and nonmember_scores_path");
}

// one_run_scores at a threshold fixed in advance is the one_run op at its
// counts; the search divides alpha by m.
TEST(EpsilonCli, OneRunScoresAtAFixedThresholdIsOneRunAtItsCounts) {
  const std::string base = std::string(R"({"op":"one_run_scores",)") + kScores;
  const nlohmann::json a = Answer(base + R"("alpha":0.05,"delta":0,"threshold":2.75})");
  ASSERT_FALSE(a.contains("error")) << a.dump();
  EXPECT_EQ(a["m"], 36);
  EXPECT_EQ(a["r"], 18);  // 16 members >= 2.75, 2 non-members (3.5, 3)
  EXPECT_EQ(a["v"], 16);
  EXPECT_EQ(a["bonferroni_k"], 1);
  const nlohmann::json want =
      Answer(R"({"op":"one_run","m":36,"r":18,"v":16,"delta":0,"beta":0.05})");
  EXPECT_EQ(a["eps_lower"], want["lower"]);
  EXPECT_TRUE(a["mu_lower"].is_null());
  const nlohmann::json best = Answer(base + R"("alpha":0.05,"delta":0})");
  EXPECT_EQ(best["bonferroni_k"], 36);
  EXPECT_DOUBLE_EQ(best["level_alpha"].get<double>(), 0.05 / 36);
  const nlohmann::json g =
      Answer(base + R"("alpha":0.05,"delta":0,"method":"one_run_gaussian_dp"})");
  EXPECT_TRUE(g["eps_lower"].is_null());  // delta = 0: mu only
  EXPECT_TRUE(g["mu_lower"].is_number()) << g.dump();
  EXPECT_EQ(ErrorOf(base + R"("alpha":0.05,"delta":0,"method":"steinke"})"),
            "method must be one_run, one_run_fdp or one_run_gaussian_dp, got 'steinke'");
  EXPECT_EQ(ErrorOf(base + R"("alpha":0.05})"), "missing field 'delta'");
}

// bootstrap: the same answer for the same seed, percentile levels as asked,
// and errors naming the field.
TEST(EpsilonCli, BootstrapIsSeededAndNamesBadFields) {
  const std::string base = std::string(R"({"op":"bootstrap",)") + kScores;
  const std::string hull = base + R"("metric":"auc_hull","num_samples":200,"seed":3)";
  const nlohmann::json a = Answer(hull + "}");
  ASSERT_FALSE(a.contains("error")) << a.dump();
  EXPECT_EQ(a, Answer(hull + R"(,"threads":3})"));
  EXPECT_EQ(a["quantiles"], nlohmann::json({(1 - 0.95) / 2, 1 - (1 - 0.95) / 2}));
  EXPECT_LE(a["lower"].get<double>(), a["upper"].get<double>());
  const nlohmann::json p = Answer(hull + R"(,"bias_correction":false,"quantiles":[0.1,0.5,0.9]})");
  EXPECT_EQ(p["levels"], nlohmann::json({0.1, 0.5, 0.9}));
  EXPECT_EQ(p["values"].size(), 3u);
  const nlohmann::json t = Answer(base + R"("metric":"tpr_at_fpr","fpr":0.1,"confidence":0.9})");
  EXPECT_DOUBLE_EQ(t["quantiles"][0].get<double>(), 0.05);
  EXPECT_EQ(ErrorOf(hull + R"(,"confidence":0.9,"quantiles":[0.1]})"),
            "give at most one of confidence and quantiles");
  EXPECT_EQ(ErrorOf(hull + R"(,"confidence":1})"), "confidence must be in (0, 1), got 1");
  EXPECT_EQ(ErrorOf(hull + R"(,"quantiles":[0.5,1]})"), "quantiles[1] must be in (0, 1), got 1");
  EXPECT_EQ(ErrorOf(base + R"("metric":"auc_hull","num_samples":0})"),
            "num_samples must be in [1, 1000000], got 0");
  EXPECT_EQ(ErrorOf(hull + R"(,"threads":0})"), "threads must be in [1, 1024], got 0");
  EXPECT_EQ(ErrorOf(hull + R"(,"bias_correction":false,"acceleration":true})")
                .rfind("acceleration needs bias_correction", 0),
            0u);
  EXPECT_EQ(ErrorOf(base + R"("metric":"auc"})").rfind("metric must be one of", 0), 0u);
  EXPECT_EQ(ErrorOf(base + R"("metric":"tpr_at_fpr","fpr":2})").rfind("fpr", 0), 0u);
}

TEST(EpsilonCli, SequentialAuditContinuesFromItsState) {
  const std::string all =
      R"({"id":1,"op":"sequential_audit","epsilons":[0,0.5],"mus":[0.5],)"
      R"("guesses":[1,1,1,1,1,1,1,1,1,1,0,1],"truths":[1,1,1,1,1,1,1,1,1,1,1,1]})";
  const nlohmann::json whole = Answer(all);
  ASSERT_FALSE(whole.contains("error")) << whole.dump();
  const nlohmann::json first =
      Answer(R"({"id":1,"op":"sequential_audit","epsilons":[0,0.5],"mus":[0.5],)"
             R"("guesses":[1,1,1,1,1],"truths":[1,1,1,1,1]})");
  ASSERT_TRUE(first.contains("state")) << first.dump();
  nlohmann::json next = {
      {"id", 1},       {"op", "sequential_audit"},         {"state", first["state"]},
      {"alpha", 0.05}, {"guesses", {1, 1, 1, 1, 1, 0, 1}}, {"truths", {1, 1, 1, 1, 1, 1, 1}}};
  const nlohmann::json second = Answer(next.dump());
  EXPECT_EQ(second, whole);
  EXPECT_EQ(whole["rounds"], 12);
  EXPECT_EQ(whole["correct_guesses"], 11);
  // eps = 0: wealth 1.5^(n-1) over the first 10 correct guesses, so the
  // null is rejected at round 9.
  EXPECT_EQ(whole["epsilons"][0]["rejected_at"], 9);
  EXPECT_EQ(whole["largest_rejected_epsilon"], 0.0);
  EXPECT_TRUE(whole["largest_rejected_mu"].is_null());
  EXPECT_DOUBLE_EQ(whole["epsilons"][1]["p0"].get<double>(), std::exp(0.5) / (1 + std::exp(0.5)));
  // The default grid: 0, 0.1, ..., 10.
  const nlohmann::json d = Answer(R"({"op":"sequential_audit"})");
  ASSERT_EQ(d["epsilons"].size(), 101u) << d.dump().substr(0, 300);
  EXPECT_EQ(d["epsilons"][100]["epsilon"], 10.0);
  EXPECT_EQ(d["alpha"], 0.05);
  next["alpha"] = 0.1;
  EXPECT_EQ(ErrorOf(next.dump()).rfind("alpha=0.1 differs from the state's 0.05", 0), 0u);
}

TEST(EpsilonCli, SequentialAuditNamesBadFields) {
  const std::string op = R"({"op":"sequential_audit",)";
  EXPECT_EQ(ErrorOf(op + R"("guesses":[1,0],"truths":[1,2]})"), "truths[1] must be 0 or 1, got 2");
  EXPECT_EQ(ErrorOf(op + R"("guesses":[1,0.5],"truths":[1,1]})"),
            "guesses[1] must be an integer, got 0.5");
  EXPECT_EQ(ErrorOf(op + R"("guesses":"1","truths":[1]})"), "guesses must be an array of integers");
  EXPECT_EQ(ErrorOf(op + R"("guesses":[18446744073709551615],"truths":[1]})"),
            "guesses[0] must be an integer, got 18446744073709551615");
  EXPECT_EQ(ErrorOf(op + R"("alpha":1})"), "alpha must be in (0, 1), got 1");
  EXPECT_EQ(ErrorOf(op + R"("delta":1})"), "delta must be in [0, 1), got 1");
  EXPECT_EQ(ErrorOf(op + R"("epsilons":[-0.5]})"), "epsilons[0] must be finite and >= 0, got -0.5");
  EXPECT_EQ(ErrorOf(op + R"("epsilons":[]})"),
            "epsilons must be non-empty (leave it out for the default grid)");
  EXPECT_EQ(ErrorOf(op + R"("mus":[1,0]})"), "mus[1] must be finite and > 0, got 0");
  EXPECT_EQ(ErrorOf(op + R"("scores":[1],"truths":[1]})"),
            "scores need the pre-registered threshold, set when the audit starts");
  EXPECT_EQ(ErrorOf(op + R"("state":"x"})"),
            "state: line 1: expected 'privbench sequential_audit state v1', got 'x'");
  EXPECT_EQ(ErrorOf(op + R"("state":7})"), "state must be a string, got 7");
  EXPECT_EQ(ErrorOf(op + R"("guesse":[1]})"), "unknown field 'guesse' for op 'sequential_audit'");
}

}  // namespace
}  // namespace privbench
