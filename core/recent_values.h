// A small direct-mapped memo of a pure function's recent values, for a
// caller that asks for the same arguments again soon after: the score
// auditor's exact search (estimators/score_audit/score_audit.h) bounds a run
// of thresholds, then each of its halves, and a half shares one end with the
// run it came from, so most of the rate limits it needs were computed a
// moment before.
//
// The memo returns what `compute` returned for the same key, so a caller's
// results are the same with it or without it, bit for bit, provided the key
// holds every input of the function. A slot holds the latest key that maps
// to it (a later key evicts an earlier one): memory is fixed, kSlots values.
//
// Not thread-safe: give each thread its own (thread_local).
#ifndef PRIVBENCH_CORE_RECENT_VALUES_H_
#define PRIVBENCH_CORE_RECENT_VALUES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace privbench {

// A key word holding a double's bits (distinct doubles, distinct words).
inline uint64_t KeyBits(double x) {
  uint64_t w = 0;
  std::memcpy(&w, &x, sizeof w);
  return w;
}

template <size_t kWords, typename Value, size_t kSlots = 256>
class RecentValues {
 public:
  using Key = std::array<uint64_t, kWords>;

  // The value of `compute()` for `key`: stored, or computed and stored.
  template <typename Compute>
  Value Get(const Key& key, Compute&& compute) {
    Slot& slot = slots_[SlotOf(key)];
    if (!slot.filled || slot.key != key) {
      slot.value = compute();
      slot.key = key;
      slot.filled = true;
    }
    return slot.value;
  }

 private:
  struct Slot {
    bool filled = false;
    Key key{};
    Value value{};
  };

  // A multiply-xorshift mix of the words (SplitMix64's finaliser).
  static size_t SlotOf(const Key& key) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (uint64_t w : key) {
      h ^= w;
      h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
      h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
      h ^= h >> 31;
    }
    return static_cast<size_t>(h % kSlots);
  }

  std::array<Slot, kSlots> slots_;
};

}  // namespace privbench

#endif  // PRIVBENCH_CORE_RECENT_VALUES_H_
