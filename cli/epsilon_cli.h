// epsilon_cli: the estimator library as a JSON-lines service.
//
//   epsilon_cli batch < requests.jsonl > responses.jsonl
//   epsilon_cli --help
//
// One JSON object per input line; one JSON object per output line, in the
// same order, echoing the input's "id". A bad line (blank, not JSON, nested
// deeper than kMaxJsonDepth, a bad field) yields
// {"id": ..., "error": "message naming the field"} and processing continues.
// Infinity is written as the string "inf"; one-sided methods return
// "upper": null. The full contract is EpsilonCliHelp().
#ifndef PRIVBENCH_CLI_EPSILON_CLI_H_
#define PRIVBENCH_CLI_EPSILON_CLI_H_

#include <cstdint>
#include <cstdio>
#include <istream>
#include <string>

namespace privbench {

// Deeper JSON is refused before parsing (the parser and the serializer
// recurse; 100,000 nested brackets overflowed the stack).
inline constexpr int kMaxJsonDepth = 64;

// The --help text: every op, its fields, and the registered names.
std::string EpsilonCliHelp();

// The response to one request line: a single line of valid UTF-8 JSON
// (no newline). Never throws; `line_number` (1-based) appears in messages.
std::string ServeLine(const std::string& line, int64_t line_number);

// Answers every line of `in` on `out`, flushing after each. Returns 0, or 1
// (with a message on stderr) as soon as writing to `out` fails.
int ServeBatch(std::istream& in, std::FILE* out);

}  // namespace privbench

#endif  // PRIVBENCH_CLI_EPSILON_CLI_H_
