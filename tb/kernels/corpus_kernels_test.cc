// The corpus kernels (tb/corpus/src/*.cu, the PTX nvcc made of them) on the
// functional executor, against host references written here in C++.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

#include "kernel_test_util.h"
#include "oracle/mpfr_oracle.h"

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

TEST_P(IntHash, Xorshift64StarMatchesHost) {
  const Kernel k = load_corpus("int_hash", GetParam(), "xorshift64star");
  for (const auto& [grid, block, n] : {std::tuple{1u, 32u, 100u}, {4u, 64u, 1000u}, {2u, 48u, 50u}}) {
    const uint32_t threads = grid * block;
    SplitMix64 rng{n};
    std::vector<uint64_t> state(threads);
    for (auto& v : state) v = rng.next() | 1;
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(state)), Arg::zeros(n * 8), Arg::u64(n)};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<uint64_t>(r.memory, 1);
    const auto final_state = values_of<uint64_t>(r.memory, 0);
    for (uint32_t t = 0; t < threads; ++t) {
      uint64_t x = state[t];
      for (uint32_t i = t; i < n; i += threads) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        ASSERT_EQ(out[i], x * 0x2545F4914F6CDD1Dull) << "i=" << i;
      }
      ASSERT_EQ(final_state[t], x) << "thread " << t;
    }
  }
}

TEST_P(IntHash, BitFeaturesMatchHost) {
  const Kernel k = load_corpus("int_hash", GetParam(), "bit_features");
  const uint32_t n = 777;
  SplitMix64 rng{5};
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = static_cast<uint32_t>(rng.next()) >> (rng.next() % 32);
  in[0] = 0;
  in[1] = 0xffffffffu;
  Launch l;
  l.grid = {3};
  l.block = {128};
  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(n * 4), Arg::u64(n)};
  const RunResult r = run_ok(k, l);
  const auto out = values_of<uint32_t>(r.memory, 1);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t v = in[i];
    const uint32_t swapped = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
    const uint32_t bucket = 31 - static_cast<uint32_t>(__builtin_clz(v | 1));
    const uint32_t hi = static_cast<uint32_t>((uint64_t{v} * 0x9e3779b9u) >> 32);
    const uint32_t want =
        (static_cast<uint32_t>(__builtin_popcount(v)) << 24) ^ (bucket << 16) ^ (swapped & 0xffffu) ^ (hi & 0xff00u);
    ASSERT_EQ(out[i], want) << "i=" << i << " v=" << v;
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, IntHash, ::testing::Values("sm_75", "sm_90", "sm_100"));

// ---- branches.cu

class Branches : public ::testing::TestWithParam<std::string> {};

TEST_P(Branches, CollatzStepsDivergeAndReconverge) {
  const Kernel k = load_corpus("branches", GetParam(), "collatz_steps");
  for (const auto& [grid, block, n] : {std::tuple{1u, 32u, 32u}, {3u, 64u, 150u}, {2u, 100u, 199u}}) {
    std::vector<uint32_t> start(n);
    SplitMix64 rng{n};
    for (uint32_t i = 0; i < n; ++i) start[i] = i < 40 ? i : static_cast<uint32_t>(rng.next() % 100000);
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(start)), Arg::zeros(n * 4), Arg::s32(static_cast<int32_t>(n))};
    const RunResult r = run_ok(k, l);
    const auto steps = values_of<uint32_t>(r.memory, 1);
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t x = start[i];
      uint32_t count = 0;
      while (x > 1 && count < 1000) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++count;
      }
      ASSERT_EQ(steps[i], count) << "start " << start[i];
    }
  }
}

TEST_P(Branches, PiecewiseAndItsAtomicCount) {
  const Kernel k = load_corpus("branches", GetParam(), "piecewise");
  for (const auto& [grid, block, n] : {std::tuple{1u, 64u, 64u}, {4u, 96u, 333u}}) {
    SplitMix64 rng{n * 3};
    std::vector<float> in(n);
    for (auto& v : in) v = rng.uniform(-3.0f, 3.0f);
    const float lo = -2.0f, hi = 2.5f;
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(in)),        Arg::zeros(n * 4), Arg::zeros(4), Arg::f32(lo), Arg::f32(hi),
              Arg::s32(static_cast<int32_t>(n))};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<float>(r.memory, 1);
    int negatives = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const float v = in[i];
      float want;
      if (v < lo) {
        want = lo;
        ++negatives;
      } else if (v > hi) {
        want = hi;
      } else if (v < 0.0f) {
        want = v * v;
      } else {
        want = std::sqrt(v);  // IEEE sqrt, as sqrt.rn.f32
      }
      ASSERT_EQ(bits_of(out[i]), bits_of(want)) << "v=" << v;
    }
    EXPECT_EQ(values_of<int32_t>(r.memory, 2)[0], negatives);
  }
}

TEST_P(Branches, FirstAtLeastLeavesTheLoopByBreak) {
  const Kernel k = load_corpus("branches", GetParam(), "first_at_least");
  const uint32_t n = 70, cols = 13;
  SplitMix64 rng{11};
  std::vector<int32_t> rows(n * cols), keys(n);
  for (uint32_t i = 0; i < n; ++i) {
    int32_t v = static_cast<int32_t>(rng.next() % 10) - 5;
    for (uint32_t c = 0; c < cols; ++c) rows[i * cols + c] = v += static_cast<int32_t>(rng.next() % 4);
    keys[i] = static_cast<int32_t>(rng.next() % 50) - 8;
  }
  Launch l;
  l.grid = {3};
  l.block = {32};
  l.args = {Arg::buffer(bytes_of(rows)), Arg::buffer(bytes_of(keys)), Arg::zeros(n * 4), Arg::s32(cols),
            Arg::s32(static_cast<int32_t>(n))};
  const RunResult r = run_ok(k, l);
  const auto pos = values_of<int32_t>(r.memory, 2);
  for (uint32_t i = 0; i < n; ++i) {
    int32_t want = cols;
    for (uint32_t c = 0; c < cols; ++c)
      if (rows[i * cols + c] >= keys[i]) {
        want = static_cast<int32_t>(c);
        break;
      }
    ASSERT_EQ(pos[i], want) << "row " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, Branches, ::testing::Values("sm_75", "sm_90", "sm_100"));

// ---- matmul_tiled.cu: fmaf in k order over zero-padded tiles, exactly

std::vector<float> matmul_reference(const std::vector<float>& A, const std::vector<float>& B, int M, int N, int K,
                                    int tile) {
  std::vector<float> C(static_cast<size_t>(M) * N);
  for (int row = 0; row < M; ++row)
    for (int col = 0; col < N; ++col) {
      float acc = 0.0f;
      for (int t = 0; t < K; t += tile)
        for (int kk = 0; kk < tile; ++kk) {
          const float a = t + kk < K ? A[row * K + t + kk] : 0.0f;
          const float b = t + kk < K ? B[(t + kk) * N + col] : 0.0f;
          acc = std::fma(a, b, acc);
        }
      C[static_cast<size_t>(row) * N + col] = acc;
    }
  return C;
}

class Matmul : public ::testing::TestWithParam<std::string> {};

TEST_P(Matmul, StaticAndDynamicTilesAreExact) {
  for (const bool dynamic : {false, true})
    for (const auto& [M, N, K, tile] : {std::tuple{16, 16, 16, 16}, {33, 20, 40, 16}, {9, 31, 17, 8}}) {
      if (!dynamic && tile != 16) continue;
      const Kernel k =
          load_corpus("matmul_tiled", GetParam(), dynamic ? "matmul_tiled_dynamic" : "matmul_tiled_static");
      SplitMix64 rng{static_cast<uint64_t>(M * 1000 + N * 10 + K)};
      std::vector<float> A(static_cast<size_t>(M) * K), B(static_cast<size_t>(K) * N);
      for (auto& v : A) v = rng.uniform(-1.0f, 1.0f);
      for (auto& v : B) v = rng.uniform(-1.0f, 1.0f);
      Launch l;
      l.grid = {static_cast<uint32_t>((N + tile - 1) / tile), static_cast<uint32_t>((M + tile - 1) / tile)};
      l.block = {static_cast<uint32_t>(tile), static_cast<uint32_t>(tile)};
      l.args = {Arg::buffer(bytes_of(A)),
                Arg::buffer(bytes_of(B)),
                Arg::zeros(4ull * M * N),
                Arg::s32(M),
                Arg::s32(N),
                Arg::s32(K)};
      if (dynamic) {
        l.args.push_back(Arg::s32(tile));
        l.shared_bytes = 2u * tile * tile * 4;
      }
      const RunResult r = run_ok(k, l);
      const auto C = values_of<float>(r.memory, 2);
      const auto want = matmul_reference(A, B, M, N, K, tile);
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(bits_of(C[i]), bits_of(want[i]))
            << (dynamic ? "dynamic" : "static") << " M=" << M << " N=" << N << " K=" << K << " i=" << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Archs, Matmul, ::testing::Values("sm_75", "sm_90", "sm_100"));

// ---- warp_reduce.cu: the butterfly and down shuffles, replayed on the host

// What warp_sum_xor leaves in every lane: v[l] += v[l ^ o] for o = 16 .. 1.
std::vector<float> butterfly_sum(std::vector<float> v) {
  for (unsigned o = 16; o > 0; o >>= 1) {
    std::vector<float> next(32);
    for (unsigned l = 0; l < 32; ++l) next[l] = v[l] + v[l ^ o];
    v = next;
  }
  return v;
}

class WarpReduce : public ::testing::TestWithParam<std::string> {};

TEST_P(WarpReduce, WarpSumAndMax) {
  for (const auto& [grid, block, n] : {std::tuple{1u, 32u, 32u}, {3u, 64u, 170u}, {2u, 128u, 256u}}) {
    SplitMix64 rng{n};
    std::vector<float> in(n);
    std::vector<uint32_t> inu(n);
    for (auto& v : in) v = rng.uniform(-10.0f, 10.0f);
    for (auto& v : inu) v = static_cast<uint32_t>(rng.next());
    const uint32_t warps = grid * block / 32;
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(warps * 4), Arg::s32(static_cast<int32_t>(n))};
    const RunResult r = run_ok(load_corpus("warp_reduce", GetParam(), "warp_sum"), l);
    const auto sums = values_of<float>(r.memory, 1);
    l.args[0] = Arg::buffer(bytes_of(inu));
    const RunResult r2 = run_ok(load_corpus("warp_reduce", GetParam(), "warp_max_u32"), l);
    const auto maxes = values_of<uint32_t>(r2.memory, 1);
    for (uint32_t w = 0; w < warps; ++w) {
      std::vector<float> v(32);
      std::vector<uint32_t> u(32);
      for (unsigned lane = 0; lane < 32; ++lane) {
        const uint32_t i = w * 32 + lane;
        v[lane] = i < n ? in[i] : 0.0f;
        u[lane] = i < n ? inu[i] : 0u;
      }
      ASSERT_EQ(bits_of(sums[w]), bits_of(butterfly_sum(v)[0])) << "warp " << w;
      for (unsigned o = 16; o > 0; o >>= 1) {  // shfl.down: lanes past the end keep their own value
        std::vector<uint32_t> next(32);
        for (unsigned lane = 0; lane < 32; ++lane)
          next[lane] = std::max(u[lane], lane + o < 32 ? u[lane + o] : u[lane]);
        u = next;
      }
      ASSERT_EQ(maxes[w], u[0]) << "warp " << w;
    }
  }
}

TEST_P(WarpReduce, BlockSumThroughSharedMemoryAndAnAtomic) {
  for (const auto& [grid, block, n] : {std::tuple{1u, 64u, 64u}, {3u, 256u, 700u}, {2u, 96u, 150u}}) {
    SplitMix64 rng{n + 1};
    std::vector<float> in(n);
    for (auto& v : in) v = rng.uniform(0.0f, 4.0f);
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(4), Arg::s32(static_cast<int32_t>(n))};
    const RunResult r = run_ok(load_corpus("warp_reduce", GetParam(), "block_sum"), l);
    float total = 0.0f;  // blocks run in order, so their atomic adds arrive in order
    for (uint32_t b = 0; b < grid; ++b) {
      const unsigned warps = (block + 31) / 32;
      std::vector<float> partial(32, 0.0f);
      for (unsigned w = 0; w < warps; ++w) {
        std::vector<float> v(32);
        for (unsigned lane = 0; lane < 32; ++lane) {
          const uint32_t i = b * block + w * 32 + lane;
          v[lane] = i < n ? in[i] : 0.0f;
        }
        partial[w] = butterfly_sum(v)[0];
      }
      std::vector<float> v(32);
      for (unsigned lane = 0; lane < 32; ++lane) v[lane] = lane < warps ? partial[lane] : 0.0f;
      total += butterfly_sum(v)[0];
    }
    EXPECT_EQ(bits_of(values_of<float>(r.memory, 1)[0]), bits_of(total)) << "grid " << grid << " block " << block;
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, WarpReduce, ::testing::Values("sm_75", "sm_90", "sm_100"));

// ---- device_call.cu: .func calls with .param arguments, an indirect call
// through a local table of function pointers, .const and .global data

float eval_poly(float x, int degree, uint64_t tag, uint32_t& slow) {
  static const float c[4] = {0.5f, -1.25f, 2.0f, 0.125f};
  float r = c[degree];
  for (int k = degree - 1; k >= 0; --k) r = std::fma(r, x, c[k]);
  if (std::fabs(x) > 8.0f) {
    ++slow;
    r = std::fma(static_cast<float>(tag & 0xff), 1e-6f, r);  // nvcc contracts r += t * 1e-6f
  }
  return r;
}

uint32_t slow_path_count(const Memory& m) {
  for (const Buffer& b : m.buffers)
    if (b.name == "slow_path_count") return values_of_bytes<uint32_t>(b.bytes)[0];
  ADD_FAILURE() << "no slow_path_count variable";
  return 0;
}

class DeviceCall : public ::testing::TestWithParam<std::string> {};

TEST_P(DeviceCall, PolyEvalAndCompose) {
  for (const auto& [grid, block, n] : {std::tuple{1u, 32u, 32u}, {3u, 64u, 180u}}) {
    SplitMix64 rng{n};
    std::vector<float> in(n);
    for (auto& v : in) v = rng.uniform(-12.0f, 12.0f);
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(n * 4), Arg::s32(static_cast<int32_t>(n))};
    const RunResult r = run_ok(load_corpus("device_call", GetParam(), "poly_eval"), l);
    const RunResult r2 = run_ok(load_corpus("device_call", GetParam(), "poly_compose"), l);
    const auto out = values_of<float>(r.memory, 1);
    const auto out2 = values_of<float>(r2.memory, 1);
    uint32_t slow = 0, slow2 = 0;
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(bits_of(out[i]), bits_of(eval_poly(in[i], 3, i, slow))) << "poly_eval x=" << in[i];
      const float inner = eval_poly(in[i], 3, 0, slow2);
      ASSERT_EQ(bits_of(out2[i]), bits_of(eval_poly(inner, 2, 1, slow2))) << "poly_compose x=" << in[i];
    }
    EXPECT_EQ(slow_path_count(r.memory), slow);
    EXPECT_EQ(slow_path_count(r2.memory), slow2);
  }
}

TEST_P(DeviceCall, ApplyOpThroughFunctionPointers) {
  const uint32_t n = 200;
  SplitMix64 rng{3};
  std::vector<float> in(n);
  std::vector<int32_t> op(n);
  for (uint32_t i = 0; i < n; ++i) {
    in[i] = rng.uniform(-4.0f, 4.0f);
    op[i] = static_cast<int32_t>(rng.next() % 1000);  // lanes of a warp call different functions
  }
  Launch l;
  l.grid = {4};
  l.block = {64};
  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(n * 4), Arg::buffer(bytes_of(op)), Arg::s32(static_cast<int32_t>(n))};
  const RunResult r = run_ok(load_corpus("device_call", GetParam(), "apply_op"), l);
  const auto out = values_of<float>(r.memory, 1);
  for (uint32_t i = 0; i < n; ++i) {
    const float x = in[i];
    const float want = op[i] % 3 == 0 ? std::fmax(x, 0.0f) : op[i] % 3 == 1 ? x * x : -x;
    ASSERT_EQ(bits_of(out[i]), bits_of(want)) << "op " << op[i] << " x " << x;
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, DeviceCall, ::testing::Values("sm_75", "sm_90", "sm_90.debug", "sm_100"));

// ---- elementwise_half.cu: the packed f16/bf16 arithmetic against the MPFR
// oracle (tb/oracle, which shares no code with src/fp): each f16/bf16
// operation one correctly rounded result; the approximate steps within the
// PTX ISA's bounds; the f32-math GELU within the bounds of ex2.approx

// A random f16 (or bf16) of moderate magnitude: 2^-5 .. 2^5.
uint16_t random_half(SplitMix64& rng, bool bf16) {
  const uint64_t r = rng.next();
  const unsigned exp = bf16 ? 122 + r % 11 : 10 + r % 11;
  const unsigned frac_bits = bf16 ? 7 : 10;
  return static_cast<uint16_t>(((r >> 20) & 1) << 15 | exp << frac_bits | ((r >> 32) & ((1u << frac_bits) - 1)));
}

uint16_t lane(uint32_t pair, unsigned h) { return pair >> (16 * h) & 0xffff; }

// One correctly rounded f16 operation (round to nearest even), by MPFR.
using oracle::Rnd;
uint16_t f16_add(uint16_t a, uint16_t b) { return oracle::add_bits(oracle::kF16, Rnd::rn, a, b); }
uint16_t f16_sub(uint16_t a, uint16_t b) { return oracle::sub_bits(oracle::kF16, Rnd::rn, a, b); }
uint16_t f16_mul(uint16_t a, uint16_t b) { return oracle::mul_bits(oracle::kF16, Rnd::rn, a, b); }
uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c) { return oracle::fma_bits(oracle::kF16, Rnd::rn, a, b, c); }
// A double rounded to f16 or bf16 (x + 0 is x, rounded once).
uint16_t to_f16(double x) { return oracle::add(oracle::kF16, Rnd::rn, x, 0.0); }
uint16_t to_bf16(double x) { return oracle::add(oracle::kBF16, Rnd::rn, x, 0.0); }
double f16_value(uint16_t h) { return oracle::decode(oracle::kF16, h); }

class ElementwiseHalf : public ::testing::TestWithParam<std::string> {};

TEST_P(ElementwiseHalf, ScaleBiasHalf2IsOneFmaPerLane) {
  const Kernel k = load_corpus("elementwise_half", GetParam(), "scale_bias_half2");
  for (const auto& [grid, block, n2] : {std::tuple{1u, 32u, 32u}, {3u, 64u, 150u}}) {
    SplitMix64 rng{n2};
    std::vector<uint32_t> x(n2), bias(n2);
    for (uint32_t i = 0; i < n2; ++i) {
      x[i] = random_half(rng, false) | uint32_t{random_half(rng, false)} << 16;
      bias[i] = random_half(rng, false) | uint32_t{random_half(rng, false)} << 16;
    }
    const uint16_t alpha = random_half(rng, false);
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(x)), Arg::buffer(bytes_of(bias)), Arg::zeros(n2 * 4), Arg::u16(alpha),
              Arg::s32(static_cast<int32_t>(n2))};
    const RunResult r = run_ok(k, l);
    const auto y = values_of<uint32_t>(r.memory, 2);
    for (uint32_t i = 0; i < n2; ++i)
      for (unsigned h = 0; h < 2; ++h)
        ASSERT_EQ(lane(y[i], h), f16_fma(alpha, lane(x[i], h), lane(bias[i], h))) << "i=" << i << " half " << h;
  }
}

TEST_P(ElementwiseHalf, ResidualAddBf16x2IsOneFmaPerLane) {
  if (GetParam() == "sm_75") GTEST_SKIP() << "sm_75 emulates the bf16 fma with a multiply and an add";
  const Kernel k = load_corpus("elementwise_half", GetParam(), "residual_add_bf16x2");
  const uint32_t n2 = 200;
  SplitMix64 rng{17};
  std::vector<uint32_t> x(n2), res(n2);
  for (uint32_t i = 0; i < n2; ++i) {
    x[i] = random_half(rng, true) | uint32_t{random_half(rng, true)} << 16;
    res[i] = random_half(rng, true) | uint32_t{random_half(rng, true)} << 16;
  }
  const float scale = 0.7071f;
  Launch l;
  l.grid = {2};
  l.block = {128};
  l.args = {Arg::buffer(bytes_of(x)), Arg::buffer(bytes_of(res)), Arg::zeros(n2 * 4), Arg::f32(scale),
            Arg::s32(static_cast<int32_t>(n2))};
  const RunResult r = run_ok(k, l);
  const auto out = values_of<uint32_t>(r.memory, 2);
  const uint16_t s = to_bf16(scale);  // __float2bfloat162_rn
  for (uint32_t i = 0; i < n2; ++i)
    for (unsigned h = 0; h < 2; ++h)
      ASSERT_EQ(lane(out[i], h), oracle::fma_bits(oracle::kBF16, Rnd::rn, s, lane(x[i], h), lane(res[i], h)))
          << "i=" << i;
}

// Every f16 between the f16 nearest x (1 - rel) and the one nearest
// x (1 + rel): where an approximate step's f32 result, within `rel` of the
// exact x > 0, may round to (positive f16 patterns are in value order).
std::vector<uint16_t> f16_within(double x, double rel) {
  std::vector<uint16_t> v;
  for (uint32_t h = to_f16(x * (1 - rel)); h <= to_f16(x * (1 + rel)); ++h) v.push_back(static_cast<uint16_t>(h));
  return v;
}

// nvcc's h2exp(a): ex2.approx.ftz.f32 (PTX ISA: at most 2 ulp, 2^-22) of the
// f32 product a * log2(e) (the constant's and the product's roundings: |a|
// 2^-23 relative in the result, |a| < 17.4 where the f16 result is neither 0
// nor infinite), rounded to f16: within 2^-18 of exp(a). For four arguments
// it then moves the result by one f16 ulp (its fix-up table).
std::vector<uint16_t> h2exp_results(uint16_t a) {
  std::vector<uint16_t> v = f16_within(std::exp(f16_value(a)), std::ldexp(1.0, -18));
  for (const uint16_t fixed : {0x1f79, 0x25cf, 0xc13b, 0xc1ef})
    if (a == fixed) {
      if (v.front() > 0) v.insert(v.begin(), v.front() - 1);
      v.push_back(v.back() + 1);
    }
  return v;
}

// nvcc's __h2div(n, d) for d >= 1: rcp.approx.ftz.f32 (PTX ISA: at most 1
// ulp) times n, rounded to f32, then to f16: within 2^-22 of n / d.
std::vector<uint16_t> h2div_results(double n, uint16_t d) { return f16_within(n / f16_value(d), std::ldexp(1.0, -22)); }

// gelu_tanh_half2 on one lane: every f16 result it may give, each f16
// operation correctly rounded, the two approximate steps branching. The
// first is the result of the correctly rounded path.
std::vector<uint16_t> gelu_half2_results(uint16_t v) {
  const uint16_t k0 = to_f16(0.7978845608f), k1 = to_f16(0.044715f);  // __float2half2_rn of the f32 literals
  const uint16_t one = 0x3c00, two = 0x4000, half = 0x3800;
  const uint16_t cube = f16_mul(f16_mul(v, v), v);
  const uint16_t two_u = f16_mul(two, f16_mul(k0, f16_fma(k1, cube, v)));
  auto gelu = [&](uint16_t q) { return f16_mul(f16_mul(half, v), f16_add(one, f16_sub(one, q))); };
  std::vector<uint16_t> out = {gelu(to_f16(2.0 / f16_value(f16_add(to_f16(std::exp(f16_value(two_u))), one))))};
  for (const uint16_t e : h2exp_results(two_u))
    for (const uint16_t q : h2div_results(2.0, f16_add(e, one))) out.push_back(gelu(q));
  return out;
}

// GELU(x) with tanh(u) = 1 - 2 / (exp(2u) + 1), in f16x2.
TEST_P(ElementwiseHalf, GeluTanhHalf2IsItsF16StepsWithinTheApproxBounds) {
  const Kernel k = load_corpus("elementwise_half", GetParam(), "gelu_tanh_half2");
  const uint32_t n2 = 2048;  // enough lanes to see one double rounding in the polynomial
  SplitMix64 rng{29};
  std::vector<uint32_t> x(n2);
  for (auto& v : x) v = random_half(rng, false) | uint32_t{random_half(rng, false)} << 16;
  Launch l;
  l.grid = {16};
  l.block = {128};
  l.args = {Arg::buffer(bytes_of(x)), Arg::zeros(n2 * 4), Arg::s32(static_cast<int32_t>(n2))};
  const RunResult r = run_ok(k, l);
  const auto y = values_of<uint32_t>(r.memory, 1);
  for (uint32_t i = 0; i < n2; ++i)
    for (unsigned h = 0; h < 2; ++h) {
      const std::vector<uint16_t> allowed = gelu_half2_results(lane(x[i], h));
      ASSERT_NE(std::find(allowed.begin(), allowed.end(), lane(y[i], h)), allowed.end())
          << "i=" << i << " half " << h << " x=" << f16_value(lane(x[i], h)) << " got " << f16_value(lane(y[i], h))
          << " nearest path " << f16_value(allowed[0]);
    }
}

// y = 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))) in f32 with __expf,
// stored as f16. The f32 part errs by a few 2^-22 (ex2.approx: 2 ulp; the
// other operations: 1/2 ulp each), far below an f16 ulp (2^-11): the result
// is the f16 nearest the true value or, where that value is that close to a
// rounding boundary, its neighbour.
TEST_P(ElementwiseHalf, GeluF32MathWithinTheBoundsOfEx2Approx) {
  const Kernel k = load_corpus("elementwise_half", GetParam(), "gelu_tanh_half_f32math");
  const uint32_t n = 500;
  SplitMix64 rng{23};
  std::vector<uint16_t> x(n);
  for (auto& v : x) v = random_half(rng, false);
  Launch l;
  l.grid = {4};
  l.block = {128};
  l.args = {Arg::buffer(bytes_of(x)), Arg::zeros(n * 2), Arg::s32(static_cast<int32_t>(n))};
  const RunResult r = run_ok(k, l);
  const auto y = values_of<uint16_t>(r.memory, 1);
  for (uint32_t i = 0; i < n; ++i) {
    const double v = f16_value(x[i]);
    const double want = 0.5 * v * (1.0 + std::tanh(0.7978845608 * (v + 0.044715 * v * v * v)));
    const double got = f16_value(y[i]);
    const double ulp16 =
        std::ldexp(1.0, std::max(-24, static_cast<int>(std::floor(std::log2(std::fabs(want) + 1e-30))) - 10));
    const double f32_error = std::ldexp(std::fabs(v) + std::fabs(want), -19);  // 8 f32 operations, ex2 at 2 ulp
    ASSERT_LE(std::fabs(got - want), 0.5 * ulp16 + f32_error) << "x=" << v << " got " << got << " want " << want;
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, ElementwiseHalf, ::testing::Values("sm_75", "sm_90", "sm_100"));

// ---- fp8_quant.cu: an independent host encoder (round to nearest even,
// saturating to the largest finite value) against the kernels, which use
// cvt.rn.satfinite on sm_89+ and nvcc's integer emulation before

uint8_t encode_fp8(float x, int exp_bits, int man_bits, double max_finite) {
  const int bias = (1 << (exp_bits - 1)) - 1;
  if (std::isnan(x)) return 0x7f;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  double a = std::fabs(static_cast<double>(x));
  if (a > max_finite) a = max_finite;
  const int emin = 1 - bias;
  int e = a == 0 ? emin : std::max(emin, static_cast<int>(std::floor(std::log2(a))));
  double m = std::nearbyint(std::ldexp(a, man_bits - e));  // ties to even (the default rounding mode)
  if (m >= std::ldexp(1.0, man_bits + 1)) {
    m /= 2;
    ++e;
  }
  if (m < std::ldexp(1.0, man_bits)) return sign | static_cast<uint8_t>(m);  // subnormal (or the smallest normal)
  uint32_t code = static_cast<uint32_t>(e + bias) << man_bits | (static_cast<uint32_t>(m) - (1u << man_bits));
  return sign | static_cast<uint8_t>(code);
}

float decode_fp8(uint8_t c, int exp_bits, int man_bits) {
  const int bias = (1 << (exp_bits - 1)) - 1;
  const int e = c >> man_bits & ((1 << exp_bits) - 1), m = c & ((1 << man_bits) - 1);
  const double v = e ? std::ldexp((1 << man_bits) + m, e - bias - man_bits) : std::ldexp(m, 1 - bias - man_bits);
  return static_cast<float>(c & 0x80 ? -v : v);
}

class Fp8Quant : public ::testing::TestWithParam<std::string> {};

TEST_P(Fp8Quant, E4m3QuantiseAndRoundTrip) {
  const uint32_t n = 600;
  SplitMix64 rng{29};
  std::vector<float> in(n);
  for (uint32_t i = 0; i < n; ++i)
    in[i] = i < 8 ? std::ldexp(1.0f, -12 + 3 * static_cast<int>(i))
                  : rng.uniform(-600.0f, 600.0f) / (1 + static_cast<float>(rng.next() % 512));
  const float scale = 1.5f, inv_scale = 1.0f / 1.5f;
  Launch l;
  l.grid = {5};
  l.block = {128};
  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(n), Arg::f32(scale), Arg::s32(static_cast<int32_t>(n))};
  const RunResult r = run_ok(load_corpus("fp8_quant", GetParam(), "quantize_e4m3"), l);
  const auto q = values_of<uint8_t>(r.memory, 1);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(q[i], encode_fp8(in[i] * scale, 4, 3, 448.0)) << "x=" << in[i] * scale;

  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(n * 4), Arg::f32(scale), Arg::f32(inv_scale),
            Arg::s32(static_cast<int32_t>(n / 2))};
  const RunResult r2 = run_ok(load_corpus("fp8_quant", GetParam(), "roundtrip_e4m3x2"), l);
  const auto back = values_of<float>(r2.memory, 1);
  for (uint32_t i = 0; i < n; ++i) {
    const float want = decode_fp8(encode_fp8(in[i] * scale, 4, 3, 448.0), 4, 3) * inv_scale;
    ASSERT_EQ(bits_of(back[i]), bits_of(want)) << "x=" << in[i];
  }
}

TEST_P(Fp8Quant, E5m2QuantiseDequantise) {
  const uint32_t n = 600;
  SplitMix64 rng{31};
  std::vector<float> in(n);
  for (auto& v : in) v = rng.uniform(-70000.0f, 70000.0f) / (1 + static_cast<float>(rng.next() % 100000));
  const float scale = 0.75f;
  Launch l;
  l.grid = {5};
  l.block = {128};
  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(n), Arg::zeros(n * 4), Arg::f32(scale),
            Arg::s32(static_cast<int32_t>(n))};
  const RunResult r = run_ok(load_corpus("fp8_quant", GetParam(), "quantize_dequantize_e5m2"), l);
  const auto q = values_of<uint8_t>(r.memory, 1);
  const auto out = values_of<float>(r.memory, 2);
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t want = encode_fp8(in[i] * scale, 5, 2, 57344.0);
    ASSERT_EQ(q[i], want) << "x=" << in[i] * scale;
    ASSERT_EQ(bits_of(out[i]), bits_of(decode_fp8(want, 5, 2) / scale)) << "x=" << in[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, Fp8Quant, ::testing::Values("sm_75", "sm_86", "sm_89", "sm_90", "sm_100"));

// ---- softmax.cu: within the bounds the PTX ISA gives ex2.approx (2 ulp)
// and div.approx (2 ulp). Per element, with D = max |x - max| of the row:
// x - m and the multiply by log2(e) (a constant within 1/2 ulp) err by
// 3 * 2^-24 relative, so __expf's argument by 3 D 2^-24 absolute (log2(e) D
// before the ln 2 of the derivative) and its result by e_exp = 3 D 2^-24 +
// 2^-22 relative; the sum of `cols` positive terms adds (cols - 1) 2^-24,
// the reciprocal and the last multiply 2^-24 each (div.approx: 2^-22).

void check_softmax_row(const float* x, const float* y, int cols, bool approx_div, const std::string& what) {
  double m = -std::numeric_limits<double>::infinity();
  for (int c = 0; c < cols; ++c) m = std::max(m, static_cast<double>(x[c]));
  double s = 0, D = 0;
  for (int c = 0; c < cols; ++c) {
    s += std::exp(x[c] - m);
    D = std::max(D, std::fabs(x[c] - m));
  }
  const double e_exp = 3 * D * std::ldexp(1.0, -24) + std::ldexp(1.0, -22);
  const double rel = 2 * e_exp + (cols + 1) * std::ldexp(1.0, -24) + (approx_div ? std::ldexp(1.0, -22) : 0.0);
  for (int c = 0; c < cols; ++c) {
    const double want = std::exp(x[c] - m) / s;
    ASSERT_LE(std::fabs(y[c] - want), rel * want * 1.01 + 1e-38)
        << what << " col " << c << " got " << y[c] << " want " << want;
  }
}

class Softmax : public ::testing::TestWithParam<std::string> {};

TEST_P(Softmax, WarpPerRowWithinTheApproximationBounds) {
  const Kernel k = load_corpus("softmax", GetParam(), "softmax_warp_per_row");
  for (const auto& [block, rows, cols] : {std::tuple{32u, 3, 32}, {64u, 7, 100}, {128u, 9, 257}}) {
    SplitMix64 rng{static_cast<uint64_t>(rows * cols)};
    std::vector<float> in(static_cast<size_t>(rows) * cols);
    for (auto& v : in) v = rng.uniform(-8.0f, 8.0f);
    Launch l;
    l.block = {block};
    l.grid = {static_cast<uint32_t>((rows + block / 32 - 1) / (block / 32))};
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(in.size() * 4), Arg::s32(rows), Arg::s32(cols)};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<float>(r.memory, 1);
    for (int row = 0; row < rows; ++row)
      check_softmax_row(&in[row * cols], &out[row * cols], cols, false, "row " + std::to_string(row));
  }
}

TEST_P(Softmax, Row128Float4WithinTheApproximationBounds) {
  const Kernel k = load_corpus("softmax", GetParam(), "softmax_row128_float4");
  const int rows = 10;
  SplitMix64 rng{41};
  std::vector<float> in(static_cast<size_t>(rows) * 128);
  for (auto& v : in) v = rng.uniform(-6.0f, 6.0f);
  Launch l;
  l.block = {64};
  l.grid = {5};
  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(in.size() * 4), Arg::s32(rows)};
  const RunResult r = run_ok(k, l);
  const auto out = values_of<float>(r.memory, 1);
  for (int row = 0; row < rows; ++row)
    check_softmax_row(&in[row * 128], &out[row * 128], 128, true, "row " + std::to_string(row));
}

INSTANTIATE_TEST_SUITE_P(Archs, Softmax, ::testing::Values("sm_75", "sm_90", "sm_100"));

// ---- layernorm.cu: the sums are replayed in the kernel's order (each
// thread's strided partial sum, the butterfly, the per-warp partials, the
// butterfly again), so mean and variance are bit-exact; only rsqrt.approx
// (2^-22.9 relative, the PTX bound) and the roundings after it differ.

float block_sum_host(const std::vector<float>& per_thread) {
  const unsigned threads = static_cast<unsigned>(per_thread.size()), warps = (threads + 31) / 32;
  std::vector<float> partial(32, 0.0f);
  for (unsigned w = 0; w < warps; ++w)
    partial[w] = butterfly_sum(std::vector<float>(per_thread.begin() + 32 * w, per_thread.begin() + 32 * w + 32))[0];
  std::vector<float> v(32);
  for (unsigned lane = 0; lane < 32; ++lane) v[lane] = lane < warps ? partial[lane] : 0.0f;
  return butterfly_sum(v)[0];
}

class Layernorm : public ::testing::TestWithParam<std::string> {};

TEST_P(Layernorm, LayernormAndRmsnormWithinTheRsqrtBound) {
  const double rsqrt_bound = std::ldexp(1.0, -22) / std::pow(2.0, 0.9);
  for (const auto& [block, rows, cols] : {std::tuple{32u, 2, 32}, {64u, 3, 200}, {256u, 2, 1000}}) {
    SplitMix64 rng{static_cast<uint64_t>(cols)};
    std::vector<float> in(static_cast<size_t>(rows) * cols), gamma(cols), beta(cols);
    for (auto& v : in) v = rng.uniform(-3.0f, 5.0f);
    for (auto& v : gamma) v = rng.uniform(0.5f, 1.5f);
    for (auto& v : beta) v = rng.uniform(-1.0f, 1.0f);
    const float eps = 1e-5f;
    Launch l;
    l.block = {block};
    l.grid = {static_cast<uint32_t>(rows)};
    l.args = {Arg::buffer(bytes_of(in)),
              Arg::zeros(in.size() * 4),
              Arg::buffer(bytes_of(gamma)),
              Arg::buffer(bytes_of(beta)),
              Arg::s32(cols),
              Arg::f32(eps)};
    const auto ln = values_of<float>(run_ok(load_corpus("layernorm", GetParam(), "layernorm_rows"), l).memory, 1);
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(in.size() * 4), Arg::buffer(bytes_of(gamma)), Arg::s32(cols),
              Arg::f32(eps)};
    const auto rms = values_of<float>(run_ok(load_corpus("layernorm", GetParam(), "rmsnorm_rows"), l).memory, 1);
    for (int row = 0; row < rows; ++row) {
      const float* x = &in[static_cast<size_t>(row) * cols];
      std::vector<float> s(block, 0.0f), sq(block, 0.0f), sq2(block, 0.0f);
      for (unsigned t = 0; t < block; ++t)
        for (int c = static_cast<int>(t); c < cols; c += static_cast<int>(block)) s[t] += x[c];
      const float mean = block_sum_host(s) / static_cast<float>(cols);
      for (unsigned t = 0; t < block; ++t)
        for (int c = static_cast<int>(t); c < cols; c += static_cast<int>(block)) {
          const float d = x[c] - mean;
          sq[t] = std::fma(d, d, sq[t]);
          sq2[t] = std::fma(x[c], x[c], sq2[t]);
        }
      const float var = block_sum_host(sq) / static_cast<float>(cols) + eps;
      const float ms = block_sum_host(sq2) / static_cast<float>(cols) + eps;
      const double rstd = 1 / std::sqrt(static_cast<double>(var)), r = 1 / std::sqrt(static_cast<double>(ms));
      for (int c = 0; c < cols; ++c) {
        const float d = x[c] - mean;
        const double t = gamma[c] * (rstd * d), want = t + beta[c];
        const double tol =
            std::fabs(t) * (rsqrt_bound + std::ldexp(1.0, -24)) * 1.01 + std::fabs(want) * std::ldexp(1.0, -24);
        ASSERT_LE(std::fabs(ln[static_cast<size_t>(row) * cols + c] - want), tol)
            << "layernorm row " << row << " col " << c;
        const double want2 = x[c] * r * gamma[c];
        ASSERT_LE(std::fabs(rms[static_cast<size_t>(row) * cols + c] - want2),
                  std::fabs(want2) * (rsqrt_bound + 2 * std::ldexp(1.0, -24)) * 1.01)
            << "rmsnorm row " << row << " col " << c;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, Layernorm, ::testing::Values("sm_75", "sm_90", "sm_100"));

// ---- printf_const.cu: printf's text against the C library's snprintf with
// the same formats and arguments, computed here; __constant__ memory filled
// before the launch (Launch::variables) against a host evaluation.

const char* const kNames[3] = {"alpha", "beta", "gamma"};
const int kTable[4] = {1, 2, 3, 4};

// What thread i of the kernel prints, formatted by the host's C library.
std::string printf_formats_reference(int i, int block, float v, int n) {
  char a[512], b[512];
  const long long big = static_cast<long long>(i) * -1000000007LL;
  std::snprintf(a, sizeof a, "t%03d b%d: %-6s|%5.2f|%e|%g|%c|%x|%#X|%o|%+i|%u\n", i, block, kNames[i % 3],
                static_cast<double>(v), static_cast<double>(v * 1e10f), static_cast<double>(v) / 3.0, 'a' + i % 26,
                static_cast<unsigned>(i) * 2654435761u, i, i, i - 5, static_cast<unsigned>(i));
  std::snprintf(b, sizeof b, "  %lld %llu %ld %lu %% %08.3f %-8d| %.3s %*d\n", big,
                static_cast<unsigned long long>(big), static_cast<long>(i), static_cast<unsigned long>(n),
                static_cast<double>(-v), i, kNames[(i + 1) % 3], 4, kTable[(i & 1) * 2]);
  return std::string(a) + b;
}

class PrintfConst : public ::testing::TestWithParam<std::string> {};

TEST_P(PrintfConst, PrintfTextMatchesTheHostsFormatter) {
  const Kernel k = load_corpus("printf_const", GetParam(), "_Z14printf_formatsPKfi");
  // Two CTAs of 40 threads: a full warp and a partial one each; threads at n and above print nothing.
  const int n = 70;
  SplitMix64 rng{11};
  std::vector<float> x(80);
  for (float& v : x) v = rng.uniform(-1000.0f, 1000.0f);
  x[1] = 0.0f, x[2] = -0.0f, x[3] = 1e-30f, x[4] = 3.0e7f, x[5] = 0.5f, x[6] = -2.5e-5f;
  Launch l;
  l.grid = {2};
  l.block = {40};
  l.args = {Arg::buffer(bytes_of(x)), Arg::s32(n)};
  const RunResult r = run_ok(k, l);
  std::string want;
  for (int i = 0; i < n; ++i) want += printf_formats_reference(i, i / 40, x[i], n);
  EXPECT_EQ(printf_output(r.memory), want);
  EXPECT_EQ(r.memory.printf.size(), 2u * n);
}

// The module's initialisers that take addresses: the string table and
// generic(kTable)+8.
TEST_P(PrintfConst, AddressInitialisersHoldTheVariablesAddresses) {
  const Kernel k = load_corpus("printf_const", GetParam(), "_Z14printf_formatsPKfi");
  auto find = [&](std::string_view name) -> const GlobalVariable& {
    for (const GlobalVariable& v : k.globals)
      if (v.name == name) return v;
    ADD_FAILURE() << "no variable " << name;
    return k.globals.front();
  };
  auto word = [](const GlobalVariable& v, size_t i) {
    uint64_t w = 0;
    std::memcpy(&w, v.init.data() + 8 * i, 8);
    return w;
  };
  const GlobalVariable& ptrs = find("kTablePtrs");
  EXPECT_EQ(word(ptrs, 0), find("kTable").address);
  EXPECT_EQ(word(ptrs, 1), find("kTable").address + 8);
  const GlobalVariable& names = find("kNames");
  for (size_t i = 0; i < 3; ++i) {
    const uint64_t a = word(names, i);
    const GlobalVariable* str = nullptr;
    for (const GlobalVariable& v : k.globals)
      if (v.address == a) str = &v;
    ASSERT_NE(str, nullptr) << i;
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(str->init.data())), kNames[i]);
  }
}

TEST_P(PrintfConst, ConstantMemoryFilledBeforeTheLaunch) {
  const Kernel k = load_corpus("printf_const", GetParam(), "_Z10const_polyPKfPfPji");
  const uint32_t n = 100;
  SplitMix64 rng{3};
  std::vector<float> x(n), coeffs(8);
  std::vector<uint32_t> mask(4);
  for (float& v : x) v = rng.uniform(-2.0f, 2.0f);
  for (float& c : coeffs) c = rng.uniform(-3.0f, 3.0f);
  for (uint32_t& m : mask) m = static_cast<uint32_t>(rng.next());
  Launch l;
  l.grid = {2};
  l.block = {64};
  l.args = {Arg::buffer(bytes_of(x)), Arg::zeros(n * 4), Arg::zeros(n * 4), Arg::s32(n)};
  l.variables = {{"kCoeffs", bytes_of(coeffs)}, {"kMask", bytes_of(mask)}};
  const RunResult r = run_ok(k, l);
  const auto y = values_of<float>(r.memory, 1);
  const auto bits = values_of<uint32_t>(r.memory, 2);
  for (uint32_t i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int c = 7; c >= 0; --c) acc = std::fma(acc, x[i], coeffs[c]);  // nvcc contracts acc * x + c
    ASSERT_EQ(bits_of(y[i]), bits_of(acc)) << "i=" << i;
    ASSERT_EQ(bits[i], bits_of(x[i]) ^ mask[i & 3]) << "i=" << i;
  }
}

TEST_P(PrintfConst, ConstantFillsNameTheVariable) {
  const Kernel k = load_corpus("printf_const", GetParam(), "_Z10const_polyPKfPfPji");
  Launch l;
  l.args = {Arg::zeros(4), Arg::zeros(4), Arg::zeros(4), Arg::s32(1)};
  l.variables = {{"kCoeffs", std::vector<uint8_t>(31)}};
  try {
    make_memory(k, l);
    ADD_FAILURE() << "a 31-byte fill of a 32-byte variable was taken";
  } catch (const KernelError& e) {
    EXPECT_TRUE(Contains(e.what(), "variable 'kCoeffs' holds 32 bytes; 31 given"));
  }
  l.variables = {{"kCoef", std::vector<uint8_t>(32)}};
  try {
    make_memory(k, l);
    ADD_FAILURE() << "an unknown variable was taken";
  } catch (const KernelError& e) {
    EXPECT_TRUE(Contains(e.what(), "no .const or .global variable named 'kCoef'"));
    EXPECT_TRUE(Contains(e.what(), "kCoeffs"));
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, PrintfConst, ::testing::Values("sm_75", "sm_90", "sm_100"));
// ---- cluster_dsmem.cu: thread-block clusters and distributed shared memory (sm_90+)

class ClusterDsmem : public ::testing::TestWithParam<std::string> {};

TEST_P(ClusterDsmem, HistogramInPeersSharedMemoryMatchesHost) {
  const Kernel k = load_corpus("cluster_dsmem", GetParam(), "cluster_histogram");
  // (grid, cluster, block, keys, bins): the bins split across the cluster's CTAs
  for (const auto& [grid, cluster, block, n, bins] :
       {std::tuple{4u, 2u, 64u, 700u, 37u}, {8u, 4u, 32u, 1000u, 64u}, {3u, 3u, 96u, 513u, 100u}}) {
    SplitMix64 rng{n * bins};
    std::vector<uint32_t> keys(n);
    for (auto& v : keys) v = static_cast<uint32_t>(rng.next());
    std::vector<uint32_t> want(bins, 0);
    for (uint32_t key : keys) ++want[key % bins];
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.cluster = {cluster};
    l.shared_bytes = (bins + cluster - 1) / cluster * 4;
    l.args = {Arg::zeros(bins * 4), Arg::buffer(bytes_of(keys)), Arg::u32(n), Arg::u32(bins)};
    const RunResult r = run_ok(k, l);
    // every cluster counts the keys its CTAs stride over; together, each key once
    EXPECT_EQ(values_of<uint32_t>(r.memory, 0), want) << "grid " << grid << " cluster " << cluster;
  }
}

TEST_P(ClusterDsmem, NeighbourReadsTheNextCtasTileAndItsPlace) {
  const Kernel k = load_corpus("cluster_dsmem", GetParam(), "cluster_neighbour");
  for (const auto& [grid, cluster] :
       {std::pair{Dim3{4, 1, 1}, Dim3{2, 1, 1}}, {Dim3{4, 2, 1}, Dim3{2, 2, 1}}, {Dim3{2, 3, 1}, Dim3{1, 3, 1}}}) {
    const uint32_t block = 64, ctas = static_cast<uint32_t>(grid.count()), n = ctas * block;
    const float scale = 0.375f;
    SplitMix64 rng{n + cluster.x};
    std::vector<float> x(n);
    for (auto& v : x) v = rng.uniform(-3.0f, 3.0f);
    Launch l;
    l.grid = grid;
    l.block = {block};
    l.cluster = cluster;
    l.args = {Arg::zeros(n * 4), Arg::zeros(ctas * 16), Arg::buffer(bytes_of(x)), Arg::f32(scale)};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<float>(r.memory, 0);
    const auto where = values_of<uint32_t>(r.memory, 1);
    const uint32_t per = static_cast<uint32_t>(cluster.count());
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx) {
        const uint32_t b = by * grid.x + bx;
        // the rank of a CTA in its cluster: x fastest (the PTX ISA's %cluster_ctarank)
        const uint32_t cx = bx % cluster.x, cy = by % cluster.y, rank = cy * cluster.x + cx;
        const uint32_t next = (rank + 1) % per;
        const uint32_t nb = (by - cy + next / cluster.x) * grid.x + (bx - cx + next % cluster.x);
        for (uint32_t t = 0; t < block; ++t) {
          const float want = std::fma(x[b * block + t], scale, x[nb * block + t]);
          ASSERT_EQ(bits_of(out[b * block + t]), bits_of(want)) << "block " << b << " thread " << t;
        }
        EXPECT_EQ(where[4 * b], rank);
        EXPECT_EQ(where[4 * b + 1], per);
        EXPECT_EQ(where[4 * b + 2], cx + 16 * cy);
        EXPECT_EQ(where[4 * b + 3], cluster.x + 16 * cluster.y);
      }
  }
}

TEST_P(ClusterDsmem, ReqnctaperclusterGivesTheShape) {
  const Kernel k = load_corpus("cluster_dsmem", GetParam(), "cluster_rank_sum");
  EXPECT_EQ(k.cluster_dims[0], 4u);
  Launch l;
  l.grid = {8};
  l.block = {32};
  l.args = {Arg::zeros(8 * 4)};
  const RunResult r = run_ok(k, l);
  // each CTA adds every rank's value rank * 10 + 1 of its cluster of 4
  EXPECT_EQ(values_of<uint32_t>(r.memory, 0), std::vector<uint32_t>(8, 1 + 11 + 21 + 31));
  l.cluster = {2};
  EXPECT_THROW(cluster_shape(k, l), KernelError);
}

INSTANTIATE_TEST_SUITE_P(Archs, ClusterDsmem, ::testing::Values("sm_90", "sm_100"));

}  // namespace
}  // namespace ptxfu::kernel::testing
