// Deterministic seeding: one base seed per study, per-unit seeds derived
// with SplitMix64 so that the same (seed, config index, trial) always gives
// the same stream, independent of thread scheduling or sharding.
#ifndef PRIVBENCH_CORE_SEEDING_H_
#define PRIVBENCH_CORE_SEEDING_H_

#include <cstdint>
#include <initializer_list>
#include <random>
#include <string_view>

namespace privbench {

// One SplitMix64 step (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
constexpr uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Seed for the unit at `path` (e.g. {config_index, trial}) under `base`.
inline uint64_t DeriveSeed(uint64_t base, std::initializer_list<uint64_t> path) {
  uint64_t x = SplitMix64(base);
  for (uint64_t p : path) x = SplitMix64(x ^ SplitMix64(p + 0x632BE59BD9B4E019ULL));
  return x;
}

// FNV-1a hash of a text: stable across runs, machines and compilers (unlike
// std::hash), for seeds and directory keys derived from names or configs.
constexpr uint64_t StableHash(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV offset basis
  for (char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;  // FNV prime
  }
  return h;
}

// The engine every study uses. std::mt19937_64's output sequence is fixed by
// the C++ standard; draw from it with Boost.Random distributions (whose
// algorithms are fixed by Boost, unlike std:: distributions) for bytes that
// do not depend on the standard library.
using Rng = std::mt19937_64;

inline Rng MakeRng(uint64_t base, std::initializer_list<uint64_t> path) {
  return Rng(DeriveSeed(base, path));
}

}  // namespace privbench

#endif  // PRIVBENCH_CORE_SEEDING_H_
