#include "core/progress.h"

#include <cstdio>

namespace privbench {

namespace {
std::string FormatSeconds(double s) {
  if (!(s >= 0) || s > 1e7) return "?";
  char buf[32];
  long total = static_cast<long>(s + 0.5);
  if (total >= 3600) {
    std::snprintf(buf, sizeof(buf), "%ldh%02ldm", total / 3600, (total / 60) % 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%ldm%02lds", total / 60, total % 60);
  }
  return buf;
}
}  // namespace

ProgressReporter::ProgressReporter(std::string label, int64_t total, bool quiet,
                                   double interval_seconds)
    : label_(std::move(label)),
      total_(total),
      quiet_(quiet),
      interval_(interval_seconds),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {}

ProgressReporter::~ProgressReporter() { Finish(); }

std::string ProgressReporter::Line() const {
  const int64_t done = done_.load();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? done / elapsed : 0.0;
  const double eta = rate > 0 ? (total_ - done) / rate : -1.0;
  char buf[256];
  std::snprintf(buf, sizeof(buf), "%s: %lld/%lld (%.1f%%) %.3g/s elapsed %s ETA %s", label_.c_str(),
                static_cast<long long>(done), static_cast<long long>(total_),
                total_ > 0 ? 100.0 * done / total_ : 100.0, rate, FormatSeconds(elapsed).c_str(),
                FormatSeconds(eta).c_str());
  return buf;
}

void ProgressReporter::Advance(int64_t n) {
  done_.fetch_add(n);
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mu_);
  if (std::chrono::duration<double>(now - last_print_).count() < interval_) return;
  last_print_ = now;
  std::fprintf(stderr, "%s\n", Line().c_str());
}

void ProgressReporter::Finish() {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  finished_ = true;
  if (!quiet_) std::fprintf(stderr, "%s done\n", Line().c_str());
}

}  // namespace privbench
