// Quoting untrusted text (a line of a user's file, a path, a JSON value) in
// an error message: bounded in length and always valid, printable UTF-8, so
// that a message can never grow with its input or carry control bytes.
#ifndef PRIVBENCH_CORE_QUOTE_H_
#define PRIVBENCH_CORE_QUOTE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace privbench {

// The longest prefix of untrusted text a message quotes by default.
inline constexpr size_t kQuotedTextMax = 80;

// 'text' in single quotes, at most `max_chars` characters of it: valid UTF-8
// sequences are kept; a byte that is not part of one, a control byte (below
// 0x20, or 0x7f), a backslash and a quote are written as \xNN (\\, \' for the
// last two). Longer text is cut at a character boundary and followed by
// "... (N bytes)", N the text's full length. QuoteText("a\0b") is 'a\x00b'.
std::string QuoteText(std::string_view text, size_t max_chars = kQuotedTextMax);

}  // namespace privbench

#endif  // PRIVBENCH_CORE_QUOTE_H_
