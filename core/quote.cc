#include "core/quote.h"

#include <cstdio>

namespace privbench {
namespace {

// Length of the valid UTF-8 sequence starting at text[i] (1-4; shortest
// form, no surrogates, at most U+10FFFF), or 0 if there is none.
size_t Utf8Length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  size_t len = 0;
  unsigned lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return len;
}

std::string Escaped(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "\\x%02x", b);
  return buf;
}

}  // namespace

std::string QuoteText(std::string_view text, size_t max_chars) {
  std::string out = "'";
  size_t i = 0, chars = 0;
  while (i < text.size() && chars < max_chars) {
    const unsigned char b = static_cast<unsigned char>(text[i]);
    if (b == '\\' || b == '\'') {
      out += '\\';
      out += static_cast<char>(b);
      ++i;
    } else if (b >= 0x20 && b < 0x7f) {
      out += static_cast<char>(b);
      ++i;
    } else if (const size_t len = b >= 0x80 ? Utf8Length(text, i) : 0; len > 0) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out += Escaped(b);
      ++i;
    }
    ++chars;
  }
  out += "'";
  if (i < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace privbench
