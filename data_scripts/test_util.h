// Helpers shared by data_scripts tests: scratch directories and files.
#ifndef PRIVBENCH_DATA_SCRIPTS_TEST_UTIL_H_
#define PRIVBENCH_DATA_SCRIPTS_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace privbench::testing {

// A fresh directory under $TEST_TMPDIR (or /tmp).
inline std::string MakeScratchDir(const std::string& tag) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/" + tag + "_XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + templ);
  return templ;
}

inline void WriteFile(const std::string& path, std::string_view bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot write " + path);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

// Text of line `line_number` (1-based) replaced by `replacement`.
inline std::string ReplaceLine(const std::string& text, int line_number,
                               const std::string& replacement) {
  size_t start = 0;
  for (int i = 1; i < line_number; ++i) start = text.find('\n', start) + 1;
  const size_t end = text.find('\n', start);
  return text.substr(0, start) + replacement + text.substr(end);
}

// EXPECT_TRUE(HasSubstr(message, "...")): gtest-only (no gmock library).
inline ::testing::AssertionResult HasSubstr(const std::string& text, const std::string& sub) {
  if (text.find(sub) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "'\n    does not contain '" << sub << "'";
}

}  // namespace privbench::testing

#endif  // PRIVBENCH_DATA_SCRIPTS_TEST_UTIL_H_
