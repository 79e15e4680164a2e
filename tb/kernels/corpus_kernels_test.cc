// The corpus kernels (tb/corpus/src/*.cu, the PTX nvcc made of them) on the
// functional executor, against host references written here in C++.
#include <algorithm>
#include <cmath>

#include "kernel_test_util.h"

namespace ptxfu::kernel::testing {
namespace {

// ---- int_hash.cu

uint32_t rotl(uint32_t x, unsigned r) { return (x << r) | (x >> (32 - r)); }
uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

class IntHash : public ::testing::TestWithParam<std::string> {};

TEST_P(IntHash, Murmur3MatchesHost) {
  const Kernel k = load_corpus("int_hash", GetParam(), "murmur3_keys");
  for (const auto& [grid, block, n, seed] :
       {std::tuple{1u, 32u, 32u, 1u}, {3u, 64u, 1000u, 7u}, {2u, 96u, 100u, 99u}}) {
    SplitMix64 rng{seed};
    std::vector<uint32_t> keys(n);
    for (auto& v : keys) v = static_cast<uint32_t>(rng.next());
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(keys)), Arg::zeros(n * 4), Arg::u64(n), Arg::u32(seed * 31)};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<uint32_t>(r.memory, 1);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t kk = keys[i] * 0xcc9e2d51u;
      kk = rotl(kk, 15) * 0x1b873593u;
      uint32_t h = (seed * 31) ^ kk;
      h = rotl(h, 13) * 5u + 0xe6546b64u;
      ASSERT_EQ(out[i], fmix32(h ^ 4u)) << "i=" << i << " grid " << grid << " block " << block;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, IntHash, ::testing::Values("sm_75", "sm_90", "sm_100"));

}  // namespace
}  // namespace ptxfu::kernel::testing
