#include "estimators/score_audit/score_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "estimators/score_audit/h5_scores.h"

namespace privbench {

namespace {

constexpr int64_t kMaxScoreFileBytes = int64_t{1} << 30;

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Result<std::string> ReadWholeFile(const std::string& path, const std::string& argument) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return Error(argument + ": cannot read '" + path + "': " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) return Error(argument + ": '" + path + "' is not a regular file");
  if (st.st_size > kMaxScoreFileBytes) {
    return Error(argument + ": '" + path + "' has " + std::to_string(st.st_size) +
                 " bytes, more than the 1 GiB a score file may have");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(argument + ": cannot open '" + path + "'");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The value of key `key` in a .npy header dict ("'descr': '<f8', ...").
std::string HeaderValue(const std::string& header, const std::string& key) {
  const size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return "";
  size_t v = header.find(':', at);
  if (v == std::string::npos) return "";
  v = header.find_first_not_of(' ', v + 1);
  if (v == std::string::npos) return "";
  const char open = header[v];
  const char close = open == '(' ? ')' : open == '\'' ? '\'' : ',';
  const size_t end = header.find(close, v + 1);
  if (end == std::string::npos) return "";
  return header.substr(v, end - v + 1);
}

Result<std::vector<double>> ParseNpy(const std::string& bytes, const std::string& what) {
  const std::string magic = "\x93NUMPY";
  if (bytes.size() < 10 || bytes.compare(0, magic.size(), magic) != 0) {
    return Error(what + " is not a .npy file (no NUMPY magic)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return Error(what + " is a truncated .npy file");
    for (int i = 0; i < 4; ++i)
      header_len |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    start = 12;
  } else {
    return Error(what + " has .npy format version " + std::to_string(major) + " (1 to 3 are read)");
  }
  if (start + header_len > bytes.size()) return Error(what + " is a truncated .npy file");
  const std::string header = bytes.substr(start, header_len);
  const std::string descr = HeaderValue(header, "descr");
  const std::string order = HeaderValue(header, "fortran_order");
  const std::string shape = HeaderValue(header, "shape");
  const bool f8 = descr == "'<f8'", f4 = descr == "'<f4'";
  if (!f8 && !f4) {
    return Error(what + " holds dtype " + descr +
                 "; scores must be float64 or float32 ('<f8', '<f4')");
  }
  if (order.rfind("True", 0) == 0) return Error(what + " is in Fortran order; save it in C order");
  // A 1-D shape reads "(n,)".
  if (shape.size() < 4 || shape.front() != '(' || shape.find(',') == std::string::npos ||
      shape.find_first_not_of("0123456789 ", 1) != shape.find(',') ||
      shape.find_first_not_of(", )", shape.find(',')) != std::string::npos) {
    return Error(what + " has shape " + shape + "; scores must be a 1-D array");
  }
  const size_t n = std::strtoull(shape.c_str() + 1, nullptr, 10);
  const size_t width = f8 ? 8 : 4, data = start + header_len;
  if (bytes.size() - data != n * width) {
    return Error(what + " declares " + std::to_string(n) + " values but holds " +
                 std::to_string((bytes.size() - data) / width));
  }
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (f8) {
      std::memcpy(&out[i], bytes.data() + data + 8 * i, 8);
    } else {
      float v;
      std::memcpy(&v, bytes.data() + data + 4 * i, 4);
      out[i] = v;
    }
  }
  return out;
}

Result<std::vector<double>> ParseText(const std::string& bytes, const std::string& what) {
  std::vector<double> out;
  std::string token;
  int64_t line = 1;
  const auto take = [&]() -> Status {
    const size_t a = token.find_first_not_of(" \t\r"), b = token.find_last_not_of(" \t\r");
    const std::string t = a == std::string::npos ? "" : token.substr(a, b - a + 1);
    token.clear();
    if (t.empty()) return Error(what + " line " + std::to_string(line) + ": an empty field");
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || errno == ERANGE) {
      return Error(what + " line " + std::to_string(line) + ": '" + t + "' is not a number");
    }
    out.push_back(v);
    return Status::Ok();
  };
  for (size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (c == ',' || c == '\n') {
      if (!(c == '\n' && token.find_first_not_of(" \t\r") == std::string::npos &&
            i + 1 == bytes.size())) {
        PB_RETURN_IF_ERROR(take());
      }
      if (c == '\n') ++line;
      continue;
    }
    token += c;
  }
  if (token.find_first_not_of(" \t\r") != std::string::npos) PB_RETURN_IF_ERROR(take());
  return out;
}

// "file.h5:/group/name" (or .hdf5): the file and the dataset, split after
// the last ".h5:" / ".hdf5:"; false if `path` names no HDF5 dataset.
bool SplitH5Path(const std::string& path, std::string* file, std::string* dataset) {
  for (const std::string ext : {".h5:", ".hdf5:"}) {
    const size_t at = path.rfind(ext);
    if (at == std::string::npos) continue;
    *file = path.substr(0, at + ext.size() - 1);
    *dataset = path.substr(at + ext.size());
    return true;
  }
  return false;
}

Result<std::vector<double>> ReadAnyScores(const std::string& path, const std::string& argument,
                                          const std::string& what) {
  std::string h5_file, dataset;
  if (SplitH5Path(path, &h5_file, &dataset)) return ReadH5Scores(h5_file, dataset, what);
  if (EndsWith(path, ".h5") || EndsWith(path, ".hdf5")) {
    return Error(argument + ": '" + path + "' names no dataset; write '" + path +
                 ":/group/dataset' (the HDF5 dataset holding the scores)");
  }
  const bool npy = EndsWith(path, ".npy");
  if (!npy && !EndsWith(path, ".csv") && !EndsWith(path, ".txt")) {
    return Error(argument + ": '" + path +
                 "' must end in .npy, .csv or .txt, or be file.h5:/dataset");
  }
  PB_ASSIGN_OR_RETURN(const std::string bytes, ReadWholeFile(path, argument));
  if (npy) return ParseNpy(bytes, what);
  if (bytes.compare(0, 6, "\x93NUMPY") == 0) return Error(what + " is a .npy file, not text");
  return ParseText(bytes, what);
}

}  // namespace

Result<std::vector<double>> ReadScoreFile(const std::string& path, const std::string& argument) {
  const std::string what = argument + " '" + path + "'";
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
