// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast generator whose
// stream is the same on every platform, for reproducible seeded data.
#pragma once
#include <cstdint>

namespace ptxfu::util {

// The next value of the stream whose state is `state`.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The same as a UniformRandomBitGenerator, for the <random> distributions.
class SplitMix64 {
 public:
  using result_type = uint64_t;
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() { return splitmix64(state_); }

 private:
  uint64_t state_;
};

}  // namespace ptxfu::util
