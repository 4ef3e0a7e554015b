// How the score auditor opens a user's score file (score_files.h,
// h5_scores.h): only the named file is read, and only as much of it as its
// size says.
//
// POLICY.
//  - The path is text the request gave: one containing a NUL byte is
//    refused (the extension is checked on the whole string, so a path cut at
//    its NUL would name another file), as is one longer than 4096 bytes.
//  - The path is resolved (realpath: symbolic links anywhere in it are
//    followed) and the resolved name must still end in one of the format's
//    extensions: a link "scores.csv -> /etc/passwd" (or to /proc/self/status)
//    is refused, naming both; a link to another score file of the same
//    format is read.
//  - The resolved file is opened once (O_NOFOLLOW, O_NONBLOCK: neither a
//    link swapped in after resolving nor a FIFO can redirect or block it)
//    and must be a regular file by fstat of that descriptor; every byte
//    read comes from that descriptor, and never more than the size fstat
//    reported (a kernel pseudo-file, whose size is 0, reads as empty).
//  - Messages quote the path (and any content) through QuoteText
//    (core/quote.h): at most a short escaped prefix, never the whole.
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_PATH_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_PATH_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

// The longest path a request may name (Linux's PATH_MAX).
inline constexpr size_t kMaxScorePathBytes = 4096;

// The path's text is acceptable: no NUL byte, at most kMaxScorePathBytes.
// Errors name `argument`.
Status CheckScorePathText(const std::string& path, const std::string& argument);

// `path`, quoted for messages (QuoteText, at most 160 characters).
std::string QuotePath(const std::string& path);

// An open score file (closed on destruction).
class ScoreFile {
 public:
  ScoreFile() = default;
  ~ScoreFile();
  ScoreFile(ScoreFile&& other) noexcept;
  ScoreFile& operator=(ScoreFile&& other) noexcept;
  ScoreFile(const ScoreFile&) = delete;
  ScoreFile& operator=(const ScoreFile&) = delete;

  int fd() const { return fd_; }
  const std::string& resolved() const { return resolved_; }  // realpath of the named path
  int64_t size() const { return size_; }                     // fstat's size when opened
  dev_t device() const { return device_; }
  ino_t inode() const { return inode_; }

  // Reads up to `n` bytes at the current position, never past size();
  // returns the count (0 at the end).
  Result<size_t> Read(char* buffer, size_t n, const std::string& what);
  int64_t position() const { return position_; }

 private:
  friend Result<ScoreFile> OpenScoreFile(const std::string&, const std::vector<std::string>&,
                                         const std::string&);
  int fd_ = -1;
  std::string resolved_;
  int64_t size_ = 0, position_ = 0;
  dev_t device_ = 0;
  ino_t inode_ = 0;
};

// Opens `path` by the policy above. `extensions` (e.g. {".csv", ".txt"})
// are those the resolved name may end in; errors start with `what` (e.g.
// "member_scores_path 'scores.csv'").
Result<ScoreFile> OpenScoreFile(const std::string& path, const std::vector<std::string>& extensions,
                                const std::string& what);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_SCORE_PATH_H_
