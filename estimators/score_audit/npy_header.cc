#include "estimators/score_audit/npy_header.h"

#include <limits>

#include "core/quote.h"

namespace privbench {
namespace {

// A cursor over the header text; every error names the position.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      ++at_;
    }
  }
  bool Take(char c) {
    SkipSpace();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool TakeWord(std::string_view word) {
    SkipSpace();
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }
  bool done() {
    SkipSpace();
    return at_ == text_.size();
  }
  Error Fail(const std::string& expected) const {
    return Error("the .npy header is not a dict numpy writes: expected " + expected + " at byte " +
                 std::to_string(at_) + " of " + QuoteText(text_));
  }

  Result<std::string> String() {
    SkipSpace();
    if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) {
      return Fail("a quoted string");
    }
    const char quote = text_[at_];
    const size_t end = text_.find(quote, at_ + 1);
    if (end == std::string_view::npos) return Fail("a closing quote");
    const std::string_view body = text_.substr(at_ + 1, end - at_ - 1);
    if (body.find('\\') != std::string_view::npos) return Fail("a string without escapes");
    at_ = end + 1;
    return std::string(body);
  }

  Result<uint64_t> Integer() {
    SkipSpace();
    const size_t start = at_;
    uint64_t v = 0;
    const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
      const uint64_t digit = static_cast<uint64_t>(text_[at_] - '0');
      if (v > (limit - digit) / 10) return Fail("a dimension below 2^63");
      v = v * 10 + digit;
      ++at_;
    }
    if (at_ == start) return Fail("a non-negative integer");
    return v;
  }

  // "()", "(n,)", "(a, b)", "(a, b,)"; "(n)" is an integer, not a tuple.
  Result<std::vector<uint64_t>> Tuple() {
    if (!Take('(')) return Fail("a tuple");
    std::vector<uint64_t> out;
    if (Take(')')) return out;
    bool comma = false;
    while (true) {
      PB_ASSIGN_OR_RETURN(const uint64_t v, Integer());
      out.push_back(v);
      comma = Take(',');
      if (Take(')')) break;
      if (!comma) return Fail("',' or ')'");
    }
    if (out.size() == 1 && !comma) return Fail("a tuple (a 1-D shape is written '(n,)')");
    return out;
  }

 private:
  std::string_view text_;
  size_t at_ = 0;
};

Status ParseValue(Cursor& c, const std::string& key, NpyHeader* h) {
  if (key == "descr") {
    PB_ASSIGN_OR_RETURN(h->descr, c.String());
  } else if (key == "fortran_order") {
    if (c.TakeWord("True")) {
      h->fortran_order = true;
    } else if (c.TakeWord("False")) {
      h->fortran_order = false;
    } else {
      return c.Fail("True or False");
    }
  } else {
    PB_ASSIGN_OR_RETURN(h->shape, c.Tuple());
  }
  return Status::Ok();
}

}  // namespace

Result<NpyHeader> ParseNpyHeader(std::string_view text) {
  Cursor c(text);
  NpyHeader h;
  const std::string keys[] = {"descr", "fortran_order", "shape"};
  bool seen[3] = {false, false, false};
  if (!c.Take('{')) return c.Fail("'{'");
  while (!c.Take('}')) {
    PB_ASSIGN_OR_RETURN(const std::string key, c.String());
    int k = 0;
    while (k < 3 && keys[k] != key) ++k;
    if (k == 3) {
      return Error("the .npy header has the key " + QuoteText(key) +
                   "; numpy writes only 'descr', 'fortran_order' and 'shape'");
    }
    if (seen[k]) return Error("the .npy header repeats the key '" + key + "'");
    seen[k] = true;
    if (!c.Take(':')) return c.Fail("':'");
    PB_RETURN_IF_ERROR(ParseValue(c, key, &h));
    if (!c.Take(',')) {
      if (!c.Take('}')) return c.Fail("',' or '}'");
      break;
    }
  }
  if (!c.done()) return c.Fail("only spaces after the dict");
  for (int k = 0; k < 3; ++k) {
    if (!seen[k]) return Error("the .npy header lacks the key '" + keys[k] + "'");
  }
  return h;
}

}  // namespace privbench
