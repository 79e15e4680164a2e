// Exhaustive loops in the tests: whole in a normal build, a seeded sample
// under the sanitizers.
//
// The sanitizer build (preset asan, which defines PTXFU_SANITIZE) looks for
// memory and undefined-behaviour errors, not for wrong values: the Release
// build runs every value. Under ASan + UBSan an exhaustive loop takes ten
// times as long, so it visits one value in kSanitizeStride, chosen by a
// seeded hash (the same values on every run, spread over the whole space),
// and no test's verdict depends on how fast the machine is.
#pragma once

#include <cstdint>
#include <vector>

namespace ptxfu::test {

#ifdef PTXFU_SANITIZE
inline constexpr bool kSampled = true;
inline constexpr uint64_t kSanitizeStride = 16;
#else
inline constexpr bool kSampled = false;
inline constexpr uint64_t kSanitizeStride = 1;
#endif

// splitmix64's finaliser: a fixed hash that spreads neighbouring values.
inline uint64_t sample_hash(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Whether an exhaustive loop (identified by `seed`) visits value `i`: always
// in a normal build; one value in kSanitizeStride under the sanitizers.
inline bool sampled(uint64_t i, uint64_t seed) {
  return !kSampled || sample_hash(i ^ (seed * 0x2545f4914f6cdd1dull)) % kSanitizeStride == 0;
}

// The values 0 .. n-1 an exhaustive loop visits: all of them in a normal
// build; under the sanitizers the first and the last and the sample.
inline std::vector<uint64_t> every_value(uint64_t n, uint64_t seed) {
  std::vector<uint64_t> v;
  v.reserve(kSampled ? n / kSanitizeStride + 2 : n);
  for (uint64_t i = 0; i < n; ++i)
    if (i == 0 || i + 1 == n || sampled(i, seed)) v.push_back(i);
  return v;
}

}  // namespace ptxfu::test
