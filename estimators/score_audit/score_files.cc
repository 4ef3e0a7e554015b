#include "estimators/score_audit/score_files.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <system_error>

#include "core/quote.h"
#include "estimators/score_audit/h5_scores.h"
#include "estimators/score_audit/npy_header.h"
#include "estimators/score_audit/score_path.h"

namespace privbench {

namespace {

constexpr size_t kBlockBytes = size_t{1} << 16;
constexpr size_t kMaxNpyHeaderBytes = size_t{1} << 16;
const std::string kScoreCountBound = "2^27 (134217728)";

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string_view Trim(std::string_view s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

// ---- numbers in text ----

enum class NumberKind { kOk, kNotNumber, kOverflow };

// The power of ten of the leading digit of a decimal text that from_chars
// accepted ("-0.00123e5" -> 2); 0 for a text without a non-zero digit.
int64_t DecimalMagnitude(std::string_view t) {
  size_t i = (!t.empty() && t[0] == '-') ? 1 : 0;
  int64_t magnitude = 0, int_digits = 0, fraction_zeros = 0;
  bool nonzero = false, in_fraction = false;
  for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
    if (t[i] == '.') {
      in_fraction = true;
    } else if (!nonzero && t[i] == '0') {
      fraction_zeros += in_fraction ? 1 : 0;
    } else {
      nonzero = true;
      if (!in_fraction) ++int_digits;
    }
  }
  if (!nonzero) return 0;
  magnitude = int_digits > 0 ? int_digits - 1 : -fraction_zeros - 1;
  if (i < t.size()) {
    int64_t e = 0;
    const bool negative = i + 1 < t.size() && t[i + 1] == '-';
    for (size_t k = i + 1; k < t.size(); ++k) {
      if (t[k] >= '0' && t[k] <= '9' && e < 1000000000) e = e * 10 + (t[k] - '0');
    }
    magnitude += negative ? -e : e;
  }
  return magnitude;
}

// Decimal text as Python's float() reads it (no hexadecimal, no
// underscores); a value below the smallest subnormal reads as 0.
NumberKind ParseNumber(std::string_view t, double* v) {
  if (t.size() > 1 && t[0] == '+' && t[1] != '-' && t[1] != '+') t.remove_prefix(1);
  if (t.empty()) return NumberKind::kNotNumber;
  const char* end = t.data() + t.size();
  const std::from_chars_result r = std::from_chars(t.data(), end, *v, std::chars_format::general);
  if (r.ptr != end || r.ec == std::errc::invalid_argument) return NumberKind::kNotNumber;
  if (r.ec == std::errc::result_out_of_range) {
    if (DecimalMagnitude(t) > 0) return NumberKind::kOverflow;
    *v = t[0] == '-' ? -0.0 : 0.0;
  }
  return NumberKind::kOk;
}

// ---- text, streamed line by line ----

class LineReader {
 public:
  LineReader(ScoreFile* file, const std::string& what)
      : file_(file), what_(what), buffer_(kBlockBytes) {}

  // The next line (without its "\n", a trailing "\r" and, on line 1, a
  // UTF-8 byte-order mark); false at the end of the file.
  Result<bool> Next(std::string* line) {
    line->clear();
    while (true) {
      if (pos_ == len_) {
        PB_ASSIGN_OR_RETURN(len_, file_->Read(buffer_.data(), buffer_.size(), what_));
        pos_ = 0;
        if (len_ == 0) break;
      }
      const char* start = buffer_.data() + pos_;
      const char* newline = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_));
      const size_t take = newline != nullptr ? static_cast<size_t>(newline - start) : len_ - pos_;
      if (line->size() + take > kMaxScoreLineBytes) {
        const std::string_view begins = line->empty()
                                            ? std::string_view(start, std::min<size_t>(take, 40))
                                            : std::string_view(*line).substr(0, 40);
        return Error(what_ + " line " + std::to_string(number_ + 1) + " is longer than " +
                     std::to_string(kMaxScoreLineBytes) + " bytes (it starts " +
                     QuoteText(begins, 40) + ")");
      }
      line->append(start, take);
      pos_ += take;
      if (newline != nullptr) {
        ++pos_;
        return Finish(line);
      }
    }
    if (line->empty()) return false;
    return Finish(line);
  }
  int64_t number() const { return number_; }

 private:
  bool Finish(std::string* line) {
    ++number_;
    if (!line->empty() && line->back() == '\r') line->pop_back();
    if (number_ == 1 && line->compare(0, 3, "\xEF\xBB\xBF") == 0) line->erase(0, 3);
    return true;
  }

  ScoreFile* file_;
  const std::string& what_;
  std::vector<char> buffer_;
  size_t pos_ = 0, len_ = 0;
  int64_t number_ = 0;
};

std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    out.push_back(
        Trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

// Where the numbers are: the whole line, or field `column` of `fields`.
struct TextLayout {
  bool by_column = false;
  size_t column = 0, fields = 1;
  std::string column_name;
};

std::string At(const std::string& what, const LineReader& lines) {
  return what + " line " + std::to_string(lines.number());
}

// Scores collected in blocks of 2^20, joined once at the end, freeing each
// block as it is copied: the reader's peak is the scores' 8 bytes each plus
// one block (a growing vector's doubling would need up to 1.5 times more).
class ScoreSink {
 public:
  size_t size() const { return size_; }
  void push_back(double v) {
    if (blocks_.empty() || blocks_.back().size() == kBlock) {
      blocks_.emplace_back();
      blocks_.back().reserve(kBlock);
    }
    blocks_.back().push_back(v);
    ++size_;
  }
  std::vector<double> Take() {
    std::vector<double> out;
    out.reserve(size_);
    for (std::vector<double>& b : blocks_) {
      out.insert(out.end(), b.begin(), b.end());
      std::vector<double>().swap(b);
    }
    return out;
  }

 private:
  static constexpr size_t kBlock = size_t{1} << 20;
  std::vector<std::vector<double>> blocks_;
  size_t size_ = 0;
};

Status AppendNumber(std::string_view field, const std::string& where, ScoreSink* out) {
  double v = 0.0;
  switch (ParseNumber(field, &v)) {
    case NumberKind::kNotNumber:
      return Error(where + ": " + QuoteText(field) + " is not a number");
    case NumberKind::kOverflow:
      return Error(where + ": " + QuoteText(field) + " is beyond the range of a double");
    case NumberKind::kOk:
      break;
  }
  if (!std::isfinite(v)) return Error(where + ": " + QuoteText(field) + " is not finite");
  if (static_cast<int64_t>(out->size()) >= kMaxScoreValues) {
    return Error(where + ": more than " + kScoreCountBound + " scores, the most a file may hold");
  }
  out->push_back(v);
  return Status::Ok();
}

// One line without a named column: one number.
Status TakeWholeLine(std::string_view line, const std::string& where, int64_t number,
                     ScoreSink* out) {
  const std::string_view field = Trim(line);
  if (field.empty()) return Error(where + " is blank (a score text file has one number per line)");
  const size_t commas = static_cast<size_t>(std::count(field.begin(), field.end(), ','));
  if (commas > 0) {
    return Error(where + ": " + QuoteText(field) + " holds " + std::to_string(commas + 1) +
                 " comma-separated fields; a score text file has one number per line (for a "
                 "CSV with columns, name one: 'file.csv:<column>')");
  }
  if (number == 1 && field.compare(0, 6, "\x93NUMPY") == 0) {
    return Error(where + " starts a .npy file, not text (name it *.npy)");
  }
  double v = 0.0;
  if (number == 1 && ParseNumber(field, &v) == NumberKind::kNotNumber) {
    return Error(where + ": " + QuoteText(field) +
                 " is not a number (a header line? name the column: 'file.csv:<column>')");
  }
  return AppendNumber(field, where, out);
}

Result<TextLayout> ReadHeader(LineReader& lines, const std::string& column,
                              const std::string& what) {
  std::string header;
  PB_ASSIGN_OR_RETURN(const bool has, lines.Next(&header));
  if (!has) return Error(what + " is empty (it needs a header line naming the columns)");
  TextLayout layout;
  layout.by_column = true;
  layout.column_name = column;
  const std::vector<std::string_view> names = SplitFields(header);
  layout.fields = names.size();
  int found = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string_view name = names[i];
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    }
    if (name == column) {
      layout.column = i;
      ++found;
    }
  }
  if (found == 0) {
    return Error(what + ": the header (line 1) has no column " + QuoteText(column) + "; it reads " +
                 QuoteText(header));
  }
  if (found > 1) {
    return Error(what + ": the header (line 1) names the column " + QuoteText(column) + " " +
                 std::to_string(found) + " times");
  }
  return layout;
}

Result<std::vector<double>> ReadTextScores(ScoreFile& file, const std::string& column,
                                           const std::string& what) {
  LineReader lines(&file, what);
  TextLayout layout;
  if (!column.empty()) {
    PB_ASSIGN_OR_RETURN(layout, ReadHeader(lines, column, what));
  }
  ScoreSink out;
  std::string line;
  while (true) {
    PB_ASSIGN_OR_RETURN(const bool more, lines.Next(&line));
    if (!more) break;
    const std::string where = At(what, lines);
    if (!layout.by_column) {
      PB_RETURN_IF_ERROR(TakeWholeLine(line, where, lines.number(), &out));
      continue;
    }
    const std::vector<std::string_view> fields = SplitFields(line);
    if (fields.size() != layout.fields) {
      return Error(where + " has " + std::to_string(fields.size()) + " fields, the header " +
                   std::to_string(layout.fields) + ": " + QuoteText(line));
    }
    if (fields[layout.column].empty()) {
      return Error(where + ": the column " + QuoteText(layout.column_name) + " is empty");
    }
    PB_RETURN_IF_ERROR(AppendNumber(fields[layout.column], where, &out));
  }
  return out.Take();
}

// ---- .npy ----

Status ReadFully(ScoreFile& file, char* buffer, size_t n, const std::string& what) {
  size_t done = 0;
  while (done < n) {
    PB_ASSIGN_OR_RETURN(const size_t got, file.Read(buffer + done, n - done, what));
    if (got == 0) return Error(what + " is a truncated .npy file");
    done += got;
  }
  return Status::Ok();
}

// The header's text and where the data start.
Result<std::string> ReadNpyHeaderText(ScoreFile& file, const std::string& what) {
  char head[12];
  if (file.size() < 10) return Error(what + " is not a .npy file (no NUMPY magic)");
  PB_RETURN_IF_ERROR(ReadFully(file, head, 10, what));
  if (std::memcmp(head, "\x93NUMPY", 6) != 0) {
    return Error(what + " is not a .npy file (no NUMPY magic)");
  }
  const int major = static_cast<unsigned char>(head[6]);
  size_t header_len = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(head[8]) | (static_cast<unsigned char>(head[9]) << 8);
  } else if (major == 2 || major == 3) {
    PB_RETURN_IF_ERROR(ReadFully(file, head + 10, 2, what));
    for (int i = 0; i < 4; ++i) {
      header_len |= static_cast<size_t>(static_cast<unsigned char>(head[8 + i])) << (8 * i);
    }
  } else {
    return Error(what + " has .npy format version " + std::to_string(major) + " (1 to 3 are read)");
  }
  if (header_len > kMaxNpyHeaderBytes) {
    return Error(what + " has a .npy header of " + std::to_string(header_len) +
                 " bytes, more than the " + std::to_string(kMaxNpyHeaderBytes) + " read");
  }
  std::string header(header_len, '\0');
  PB_RETURN_IF_ERROR(ReadFully(file, header.data(), header_len, what));
  return header;
}

std::string ShapeText(const std::vector<uint64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// The number of values, checked against the bound and the file's size.
Result<size_t> NpyValueCount(const NpyHeader& h, size_t width, int64_t data_bytes,
                             const std::string& what) {
  if (h.shape.size() != 1) {
    return Error(what + " has shape " + ShapeText(h.shape) + "; scores must be a 1-D array");
  }
  const uint64_t n = h.shape[0];
  if (n > static_cast<uint64_t>(kMaxScoreValues)) {
    return Error(what + " declares " + std::to_string(n) + " values, more than the " +
                 kScoreCountBound + " a score file may hold");
  }
  if (static_cast<int64_t>(n * width) != data_bytes) {
    return Error(what + " declares " + std::to_string(n) + " values (" + std::to_string(n * width) +
                 " bytes) but holds " + std::to_string(data_bytes) + " bytes of data");
  }
  return static_cast<size_t>(n);
}

double DecodeValue(const char* p, size_t width, bool swap) {
  char b[8];
  for (size_t i = 0; i < width; ++i) b[i] = swap ? p[width - 1 - i] : p[i];
  if (width == 8) {
    double d;
    std::memcpy(&d, b, 8);
    return d;
  }
  float f;
  std::memcpy(&f, b, 4);
  return f;
}

Result<std::vector<double>> ReadNpyScores(ScoreFile& file, const std::string& what) {
  PB_ASSIGN_OR_RETURN(const std::string header_text, ReadNpyHeaderText(file, what));
  Result<NpyHeader> parsed = ParseNpyHeader(header_text);
  if (!parsed.ok()) return Error(what + ": " + parsed.message());
  const NpyHeader& h = *parsed;
  const bool f8 = h.descr == "<f8" || h.descr == ">f8", f4 = h.descr == "<f4" || h.descr == ">f4";
  if (!f8 && !f4) {
    return Error(what + " holds dtype " + QuoteText(h.descr) +
                 "; scores must be float64 or float32 ('<f8', '<f4', '>f8', '>f4')");
  }
  // A 1-D array has the same bytes in C and Fortran order.
  if (h.fortran_order && h.shape.size() > 1) {
    return Error(what + " is in Fortran order; save it in C order");
  }
  const size_t width = f8 ? 8 : 4;
  PB_ASSIGN_OR_RETURN(const size_t n, NpyValueCount(h, width, file.size() - file.position(), what));
  const bool swap = h.descr[0] == '>';
  std::vector<double> out(n);
  std::vector<char> block(kBlockBytes);
  for (size_t done = 0; done < n;) {
    const size_t count = std::min(n - done, kBlockBytes / width);
    PB_RETURN_IF_ERROR(ReadFully(file, block.data(), count * width, what));
    for (size_t i = 0; i < count; ++i) out[done + i] = DecodeValue(&block[i * width], width, swap);
    done += count;
  }
  return out;
}

// ---- dispatch ----

// "file<ext>:rest" split after the last "<ext>:" of `extensions`; false if
// there is none.
bool SplitAfter(const std::string& path, const std::vector<std::string>& extensions,
                std::string* file, std::string* rest) {
  for (const std::string& ext : extensions) {
    const size_t at = path.rfind(ext + ":");
    if (at == std::string::npos) continue;
    *file = path.substr(0, at + ext.size());
    *rest = path.substr(at + ext.size() + 1);
    return true;
  }
  return false;
}

Status CheckFileSize(const ScoreFile& f, const std::string& what) {
  if (f.size() > kMaxScoreFileBytes) {
    return Error(what + " has " + std::to_string(f.size()) +
                 " bytes, more than the 1 GiB a score file may have");
  }
  return Status::Ok();
}

Result<std::vector<double>> ReadAnyScores(const std::string& path, const std::string& argument,
                                          const std::string& what) {
  std::string file, rest;
  if (SplitAfter(path, {".h5", ".hdf5"}, &file, &rest)) {
    PB_ASSIGN_OR_RETURN(const ScoreFile f, OpenScoreFile(file, {".h5", ".hdf5"}, what));
    return ReadH5Scores(f, rest, what);
  }
  if (EndsWith(path, ".h5") || EndsWith(path, ".hdf5")) {
    return Error(what + " names no dataset; write 'file.h5:/group/dataset' (the HDF5 dataset " +
                 "holding the scores)");
  }
  const bool column = SplitAfter(path, {".csv"}, &file, &rest);
  if (column && rest.empty()) return Error(what + " names an empty column after '.csv:'");
  const bool npy = !column && EndsWith(path, ".npy");
  if (!column && !npy && !EndsWith(path, ".csv") && !EndsWith(path, ".txt")) {
    return Error(what + " must end in .npy, .csv or .txt, or be file.h5:/dataset or " +
                 "file.csv:column");
  }
  const std::vector<std::string> extensions = npy      ? std::vector<std::string>{".npy"}
                                              : column ? std::vector<std::string>{".csv"}
                                                       : std::vector<std::string>{".csv", ".txt"};
  PB_ASSIGN_OR_RETURN(ScoreFile f, OpenScoreFile(column ? file : path, extensions, what));
  PB_RETURN_IF_ERROR(CheckFileSize(f, what));
  if (npy) return ReadNpyScores(f, what);
  return ReadTextScores(f, rest, what);
}

}  // namespace

Result<std::vector<double>> ReadScoreFile(const std::string& path, const std::string& argument) {
  PB_RETURN_IF_ERROR(CheckScorePathText(path, argument));
  const std::string what = argument + " " + QuotePath(path);
  PB_ASSIGN_OR_RETURN(std::vector<double> scores, ReadAnyScores(path, argument, what));
  if (scores.empty()) return Error(what + " holds no scores");
  for (size_t i = 0; i < scores.size(); ++i) {
    if (!std::isfinite(scores[i])) {
      return Error(what + ": score " + std::to_string(i) + " is not finite");
    }
  }
  return scores;
}

}  // namespace privbench
