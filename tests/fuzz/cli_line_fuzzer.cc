// libFuzzer target for the JSON-lines service's line handler
// (//cli:epsilon_cli_lib). The oracle, beyond "no crash, no
// sanitizer report": every input line gets exactly one line back that is
// valid UTF-8 JSON, an object with an "id", and either an "error" string or
// an answer. Seed corpus: tests/fuzz/corpus/cli_line (one file per request,
// including every defect of the hostile-input review as a regression case).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/epsilon_cli.h"
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string line(reinterpret_cast<const char*>(data), size);
  const std::string out = privbench::ServeLine(line, 1);
  if (out.find('\n') != std::string::npos) std::abort();  // one line per line
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(out);  // also rejects invalid UTF-8
  } catch (const std::exception&) {
    std::abort();
  }
  if (!j.is_object() || !j.contains("id")) std::abort();
  if (j.contains("error") && !j["error"].is_string()) std::abort();
  if (!j.contains("error") && j.size() < 2) std::abort();  // an answer besides the id
  return 0;
}
