// The corpus's tensor-core GEMM (tb/corpus/src/mma_gemm.cu: ldmatrix and
// mma.sync in inline PTX, compiled by nvcc) on several sizes, against a
// host reference written apart from the kernel executor: for each element
// of D, the numerics row of the architecture that runs it (mma::find_row)
// applied in the kernel's k order, one block-FMA step (mma::block_fma) per
// instruction's k: 16 from sm_80 on, 8 (two m16n8k8) before.
#include <algorithm>
#include <array>
#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <tuple>

#include "kernel_test_util.h"
#include "mma/block_fma.h"
#include "mma/numerics.h"
#include "ptxfu/ptxfu.hpp"
#ifdef PTXFU_KERNELS_ON_MODEL
#include <cmath>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "model_run.h"
#endif

namespace ptxfu::kernel::testing {
namespace {

// Finite f16 values of both signs in [2^-4, 2^4).
uint16_t random_f16(SplitMix64& r) {
  const uint64_t v = r.next();
  return static_cast<uint16_t>((v & 0x8000) | ((11 + (v >> 16) % 8) << 10) | (v >> 32 & 0x3ff));
}

std::vector<uint32_t> reference(int sm, int step, int m, int n, int k, const std::vector<uint16_t>& a,
                                const std::vector<uint16_t>& b, const std::vector<uint32_t>& c) {
  const mma::NumericsRow* row = mma::find_row(sm, mma::Family::mma_sync, mma::Elem::f16, mma::Elem::f32);
  EXPECT_NE(row, nullptr);
  std::vector<uint32_t> d(size_t(m) * n);
  if (!row) return d;
  uint64_t x[16], y[16];
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      uint64_t acc = c[size_t(i) * n + j];
      for (int k0 = 0; k0 < k; k0 += step) {
        for (int t = 0; t < step; ++t) x[t] = a[size_t(i) * k + k0 + t], y[t] = b[size_t(k0 + t) * n + j];
        acc = mma::block_fma(*row, size_t(step), x, y, acc);
      }
      d[size_t(i) * n + j] = static_cast<uint32_t>(acc);
    }
  return d;
}

struct Run {
  std::vector<uint32_t> d;
  bool ok;
  std::string error;
};

// The kernel's target decides the instruction's k; the SM it runs on (the
// model's config, or the target without one) the numerics.
class MmaGemm : public ::testing::TestWithParam<std::tuple<std::string, int, bool>> {};

TEST_P(MmaGemm, EveryElementIsTheRowAppliedInTheKernelsKOrder) {
  const auto& [arch, size, wide] = GetParam();
  const Kernel k = load_corpus("mma_gemm", arch, wide ? "mma_gemm_f16_f32_wide" : "mma_gemm_f16_f32");
  const int tile_n = wide ? 32 : 8;
  const int m = 16 * size, n = tile_n * size, kk = 16 * size * 2;
  SplitMix64 r{uint64_t(size) * 977};
  std::vector<uint16_t> a(size_t(m) * kk), b(size_t(kk) * n);
  std::vector<uint32_t> c(size_t(m) * n);
  for (auto& v : a) v = random_f16(r);
  for (auto& v : b) v = random_f16(r);
  for (auto& v : c) v = bits_of(r.uniform(-8, 8));
  Launch l;
  l.grid = {uint32_t(n / tile_n), uint32_t(m / 16)};
  l.block = {32};
  l.args = {Arg::buffer(bytes_of(a)),
            Arg::buffer(bytes_of(b)),
            Arg::buffer(bytes_of(c)),
            Arg::zeros(c.size() * 4),
            Arg::s32(m),
            Arg::s32(n),
            Arg::s32(kk)};
  int sm = std::atoi(arch.c_str() + 3);
#ifdef PTXFU_KERNELS_ON_MODEL
  const char* config = std::getenv("PTXFU_TEST_CONFIG");
  sm = std::atoi((config ? config : "sm_90") + 3);
#endif
  const RunResult run = run_ok(k, l);
  ASSERT_TRUE(run.ok) << run.error;
  const int step = std::atoi(arch.c_str() + 3) >= 80 ? 16 : 8;
  const std::vector<uint32_t> want = reference(sm, step, m, n, kk, a, b, c);
  const auto got = values_of<uint32_t>(run.memory, 3);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(got[i], want[i]) << arch << " on sm_" << sm << ", " << m << "x" << n << "x" << kk << ": element ("
                               << i / n << ", " << i % n << ")";
}

INSTANTIATE_TEST_SUITE_P(Corpus, MmaGemm,
                         ::testing::Combine(::testing::Values("sm_75", "sm_80", "sm_90"), ::testing::Values(1, 2, 4),
                                            ::testing::Bool()));

#ifdef PTXFU_KERNELS_ON_MODEL
// The same kernel on the sm_80 model and the sm_90 one: each SM computes
// with its own tensor core (sm_90's blocks are 16 products, sm_80's 8).
TEST(MmaGemmModel, TheConfigsArchitectureDecidesTheNumerics) {
  const Kernel k = load_corpus("mma_gemm", "sm_80", "mma_gemm_f16_f32");
  const int m = 32, n = 16, kk = 64;
  SplitMix64 r{5};
  std::vector<uint16_t> a(size_t(m) * kk), b(size_t(kk) * n);
  std::vector<uint32_t> c(size_t(m) * n);
  for (auto& v : a) v = random_f16(r);
  for (auto& v : b) v = random_f16(r);
  for (auto& v : c) v = bits_of(r.uniform(-8, 8));
  Launch l;
  l.grid = {uint32_t(n / 8), uint32_t(m / 16)};
  l.block = {32};
  l.args = {Arg::buffer(bytes_of(a)),
            Arg::buffer(bytes_of(b)),
            Arg::buffer(bytes_of(c)),
            Arg::zeros(c.size() * 4),
            Arg::s32(m),
            Arg::s32(n),
            Arg::s32(kk)};
  std::vector<uint32_t> results[2];
  int i = 0;
  for (int sm : {80, 90}) {
    const std::string yaml = read_file(std::string(PTXFU_SOURCE_DIR) + "/configs/sm_" + std::to_string(sm) + ".yaml");
    const ModelRun run = run_on_model(k, l, false, 0, yaml);
    ASSERT_TRUE(run.result.ok) << run.result.error;
    results[i] = values_of<uint32_t>(run.result.memory, 3);
    EXPECT_EQ(results[i], reference(sm, 16, m, n, kk, a, b, c)) << "sm_" << sm;
    ++i;
  }
  EXPECT_NE(results[0], results[1]) << "the data should tell sm_80's numerics from sm_90's";
}

// `count` m16n8k16 f16->f32 mma.sync on one warp: each accumulating into
// the previous one's D (a dependent chain), or each into its own D.
std::string mma_chain(int count, bool dependent) {
  std::string s =
      ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry chain()\n{\n  .reg .b32 %r<2>;\n"
      "  .reg .f32 %f<200>;\n  mov.b32 %r1, 0;\n  mov.f32 %f0, 0f00000000;\n";
  for (int i = 0; i < count; ++i) {
    const int d = dependent ? 4 : 4 + 4 * i, c = dependent ? 4 : 0;
    const auto four = [](int f) { return fmt::format("{{%f{}, %f{}, %f{}, %f{}}}", f, f + 1, f + 2, f + 3); };
    s += fmt::format(
        "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {}, {{%r1, %r1, %r1, %r1}}, {{%r1, %r1}}, {};\n", four(d),
        dependent && i == 0 ? "{%f0, %f0, %f0, %f0}" : four(c));
  }
  return s + "  ret;\n}\n";
}

// The tensor unit's timing as a config's YAML gives it, read here apart from
// the model: an f16 -> f32 m16n8k16 share holds its unit max(units.tensor.interval,
// ceil(16 8 16 / rate)) cycles (its occupancy); a dependent one waits
// max(latency, occupancy).
struct TensorTiming {
  uint64_t occupancy, latency;
};
TensorTiming yaml_tensor_timing(const std::string& yaml) {
  const YAML::Node y = YAML::Load(yaml);
  const double rate = y["tensor"]["rates"]["f16.f32"].as<double>();
  const uint64_t occupancy =
      std::max(y["units"]["tensor"]["interval"].as<uint64_t>(), uint64_t(std::ceil(16.0 * 8 * 16 / rate)));
  return {occupancy, std::max<uint64_t>(y["tensor"]["latency"].as<uint64_t>(), occupancy)};
}

// The model's cycles for chain(16) and chain(32), independent [0] and dependent [1].
using ChainCycles = std::array<std::array<uint64_t, 2>, 2>;
ChainCycles chain_cycles(std::string (*chain)(int, bool), uint32_t threads, const std::string& yaml) {
  ChainCycles cycles{};
  for (int dep = 0; dep < 2; ++dep)
    for (int n = 0; n < 2; ++n) {
      const Kernel k = load_kernel(chain(16 * (n + 1), dep == 1), "chain.ptx");
      Launch l;
      l.block = {threads};
      const ModelRun run = run_on_model(k, l, false, 0, yaml);
      EXPECT_TRUE(run.result.ok) << run.result.error;
      cycles[dep][n] = run.cycles;
    }
  return cycles;
}

TEST(MmaTiming, ChainsTakeTheConfigsLatencyAndIndependentMmasItsRate) {
  for (const std::string config : {"sm_80", "sm_90", "sm_75"}) {
    const std::string text = read_file(std::string(PTXFU_SOURCE_DIR) + "/configs/" + config + ".yaml");
    const TensorTiming want = yaml_tensor_timing(text);
    const ChainCycles cycles = chain_cycles(mma_chain, 32, text);
    EXPECT_EQ(cycles[1][1] - cycles[1][0], 16 * want.latency) << config << ": 16 more dependent mma";
    EXPECT_EQ(cycles[0][1] - cycles[0][0], 16 * want.occupancy) << config << ": 16 more independent mma";
  }
}
#endif

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// ---- the corpus's wmma GEMMs (tb/corpus/src/wmma_gemm.cu)

struct WmmaCase {
  std::string entry;
  mma::Elem in, out;
  int m, n, k;  // the instruction's tile
  int in_bytes, out_bytes;
};

const WmmaCase kWmmaCases[] = {
    {"wmma_gemm_f16_f32", mma::Elem::f16, mma::Elem::f32, 16, 16, 16, 2, 4},
    {"wmma_gemm_s8_s32", mma::Elem::s8, mma::Elem::s32, 16, 16, 16, 1, 4},
    {"wmma_gemm_bf16_f32", mma::Elem::bf16, mma::Elem::f32, 16, 16, 16, 2, 4},
    {"wmma_gemm_tf32_f32", mma::Elem::tf32, mma::Elem::f32, 16, 16, 8, 4, 4},
    {"wmma_gemm_f64", mma::Elem::f64, mma::Elem::f64, 8, 8, 4, 8, 8},
};

// Finite values of moderate size, as bit patterns.
uint64_t random_input(SplitMix64& r, mma::Elem e) {
  const uint64_t v = r.next();
  switch (e) {
    case mma::Elem::f16: return (v & 0x8000) | ((11 + (v >> 16) % 8) << 10) | (v >> 32 & 0x3ff);
    case mma::Elem::bf16: return (v & 0x8000) | ((123 + (v >> 16) % 8) << 7) | (v >> 32 & 0x7f);
    case mma::Elem::tf32: return (v & 0x80000000) | ((123 + (v >> 16) % 8) << 23) | (v >> 32 & 0x7fe000);
    case mma::Elem::f64: return (v & (1ull << 63)) | ((1019 + (v >> 16) % 8) << 52) | (v >> 12 & 0xfffffffffffff);
    default: return v & 0xff;
  }
}

uint64_t random_acc(SplitMix64& r, mma::Elem e) {
  switch (e) {
    case mma::Elem::f32: return bits_of(r.uniform(-8, 8));
    case mma::Elem::f64: {
      const double d = r.uniform(-8, 8);
      uint64_t b;
      std::memcpy(&b, &d, 8);
      return b;
    }
    default: return r.next() & 0xffffffff;
  }
}

std::vector<uint8_t> pack_bytes(const std::vector<uint64_t>& v, int bytes) {
  std::vector<uint8_t> out(v.size() * size_t(bytes));
  for (size_t i = 0; i < v.size(); ++i) std::memcpy(&out[i * size_t(bytes)], &v[i], size_t(bytes));
  return out;
}

class WmmaGemm : public ::testing::TestWithParam<std::tuple<std::string, int, int>> {};

TEST_P(WmmaGemm, EveryElementIsTheRowAppliedInTheKernelsKOrder) {
  const auto& [arch, which, size] = GetParam();
  const WmmaCase& w = kWmmaCases[which];
  if (arch == "sm_75" && which >= 2) GTEST_SKIP() << w.entry << " is empty before sm_80";
  const Kernel k = load_corpus("wmma_gemm", arch, w.entry);
  const int m = w.m * size, n = w.n * (size + 1), kk = w.k * 2 * size;
  SplitMix64 r{uint64_t(which * 31 + size)};
  std::vector<uint64_t> a(size_t(m) * kk), b(size_t(kk) * n), c(size_t(m) * n);
  for (auto& v : a) v = random_input(r, w.in);
  for (auto& v : b) v = random_input(r, w.in);
  for (auto& v : c) v = random_acc(r, w.out);
  Launch l;
  l.grid = {uint32_t(n / w.n), uint32_t(m / w.m)};
  l.block = {32};
  l.args = {Arg::buffer(pack_bytes(a, w.in_bytes)),
            Arg::buffer(pack_bytes(b, w.in_bytes)),
            Arg::buffer(pack_bytes(c, w.out_bytes)),
            Arg::zeros(c.size() * size_t(w.out_bytes)),
            Arg::s32(n),
            Arg::s32(kk)};
  int sm = std::atoi(arch.c_str() + 3);
#ifdef PTXFU_KERNELS_ON_MODEL
  const char* config = std::getenv("PTXFU_TEST_CONFIG");
  sm = std::atoi((config ? config : "sm_90") + 3);
#endif
  const mma::NumericsRow* row = mma::find_row(sm, mma::Family::wmma, w.in, w.out);
  if (!row) {  // the SM that runs it (the model's config) has no such tensor core: a fault
#ifdef PTXFU_KERNELS_ON_MODEL
    const ModelRun run = run_on_model(k, l, false);
    EXPECT_FALSE(run.result.ok);
    EXPECT_TRUE(Contains(run.result.error, "is not available on sm_" + std::to_string(sm)));
#endif
    GTEST_SKIP() << "sm_" << sm << " has no " << w.entry << " tensor core";
  }
  const RunResult run = run_ok(k, l);
  ASSERT_TRUE(run.ok) << run.error;
  const std::vector<uint8_t>& got = run.memory.arg_buffer(3)->bytes;
  std::vector<uint64_t> x(size_t(w.k)), y(size_t(w.k));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      uint64_t acc = c[size_t(i) * n + j];
      for (int k0 = 0; k0 < kk; k0 += w.k) {
        for (int t = 0; t < w.k; ++t) {
          x[size_t(t)] = a[size_t(i) * kk + k0 + t], y[size_t(t)] = b[size_t(k0 + t) * n + j];
          if (row->truncate_inputs) x[size_t(t)] >>= 13, y[size_t(t)] >>= 13;  // tf32: the f32 register's top 19 bits
        }
        acc = mma::block_fma(*row, size_t(w.k), x.data(), y.data(), acc);
      }
      uint64_t d = 0;
      std::memcpy(&d, &got[(size_t(i) * n + j) * size_t(w.out_bytes)], size_t(w.out_bytes));
      ASSERT_EQ(d, acc) << w.entry << " " << arch << " on sm_" << sm << ": element (" << i << ", " << j << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, WmmaGemm,
                         ::testing::Combine(::testing::Values("sm_75", "sm_80", "sm_90"), ::testing::Range(0, 5),
                                            ::testing::Values(1, 2)));

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// ---- the corpus's fp8 GEMM (tb/corpus/src/fp8_mma_gemm.cu: mma.sync
// m16n8k32 e4m3 -> f32, compiled for sm_89), against the numerics row of the
// SM that runs it applied in the kernel's k order: one block-FMA step of 32
// products per mma, ascending k.

// Finite e4m3 values of both signs in [2^-3, 2^5): exponent field 4..11
// (never 15, whose mantissa 7 is NaN).
uint64_t random_e4m3(SplitMix64& r) {
  const uint64_t v = r.next();
  return (v & 0x80) | ((4 + (v >> 8) % 8) << 3) | (v >> 16 & 7);
}

class Fp8MmaGemm : public ::testing::TestWithParam<int> {};

TEST_P(Fp8MmaGemm, EveryElementIsTheRowAppliedInTheKernelsKOrder) {
  const int size = GetParam();
  const Kernel k = load_corpus("fp8_mma_gemm", "sm_89", "fp8_mma_gemm_e4m3_f32");
  const int m = 16 * size, n = 8 * (size + 1), kk = 32 * 2 * size;
  SplitMix64 r{uint64_t(size) * 131};
  std::vector<uint64_t> a(size_t(m) * kk), bt(size_t(n) * kk);  // Bt: N x K, column j of B is row j
  std::vector<uint32_t> c(size_t(m) * n);
  for (auto& v : a) v = random_e4m3(r);
  for (auto& v : bt) v = random_e4m3(r);
  for (auto& v : c) v = bits_of(r.uniform(-8, 8));
  std::vector<uint8_t> a_bytes(a.begin(), a.end()), bt_bytes(bt.begin(), bt.end());
  Launch l;
  l.grid = {uint32_t(n / 8), uint32_t(m / 16)};
  l.block = {32};
  l.args = {
      Arg::buffer(a_bytes), Arg::buffer(bt_bytes), Arg::buffer(bytes_of(c)), Arg::zeros(c.size() * 4), Arg::s32(m),
      Arg::s32(n),          Arg::s32(kk)};
  int sm = 89;
#ifdef PTXFU_KERNELS_ON_MODEL
  const char* config = std::getenv("PTXFU_TEST_CONFIG");
  sm = std::atoi((config ? config : "sm_90") + 3);
#endif
  const mma::NumericsRow* row = mma::find_row(sm, mma::Family::mma_sync, mma::Elem::e4m3, mma::Elem::f32);
  if (!row) {  // the SM that runs it (the model's config) has no fp8 tensor core: a fault
#ifdef PTXFU_KERNELS_ON_MODEL
    const ModelRun run = run_on_model(k, l, false);
    EXPECT_FALSE(run.result.ok);
    EXPECT_TRUE(Contains(run.result.error, "is not available on sm_" + std::to_string(sm))) << run.result.error;
#endif
    GTEST_SKIP() << "sm_" << sm << " has no e4m3 mma";
  }
  const RunResult run = run_ok(k, l);
  ASSERT_TRUE(run.ok) << run.error;
  const auto got = values_of<uint32_t>(run.memory, 3);
  ASSERT_EQ(got.size(), c.size());
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      uint64_t acc = c[size_t(i) * n + j];
      for (int k0 = 0; k0 < kk; k0 += 32)
        acc = mma::block_fma(*row, 32, &a[size_t(i) * kk + k0], &bt[size_t(j) * kk + k0], acc);
      ASSERT_EQ(got[size_t(i) * n + j], acc)
          << "sm_" << sm << ", " << m << "x" << n << "x" << kk << ": element (" << i << ", " << j << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Fp8MmaGemm, ::testing::Values(1, 3));

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// ---- one mma.sync tile: the kernel model and the C++ API (ptxfu::MmaInstruction,
// which ptxfu.mma binds) give the same bits. The corpus GEMMs at exactly one
// instruction's shape run a single mma; the API computes the same product
// from the matrices. Two front ends of one engine, reached by different
// paths (fragments, ldmatrix and lane layouts in the kernel; whole matrices
// in the API): a layout slip on either side shows.
struct Tile {
  std::string file, arch, entry, instruction;
  int m, n, k;
  bool b_transposed;  // the kernel takes B as N x K (the fp8 GEMM)
  int in_bytes;
};

TEST(MmaTile, TheKernelModelAndTheApiGiveTheSameBits) {
  const Tile tiles[] = {
      {"mma_gemm", "sm_80", "mma_gemm_f16_f32", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, false,
       2},
      {"fp8_mma_gemm", "sm_89", "fp8_mma_gemm_e4m3_f32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 16, 8,
       32, true, 1},
  };
  for (const Tile& t : tiles) {
    int sm = std::atoi(t.arch.c_str() + 3);
#ifdef PTXFU_KERNELS_ON_MODEL
    const char* config = std::getenv("PTXFU_TEST_CONFIG");
    sm = std::atoi((config ? config : "sm_90") + 3);
#endif
    std::optional<ptxfu::MmaInstruction> api;
    try {
      api.emplace(t.instruction, "sm_" + std::to_string(sm));
    } catch (const ptxfu::Error&) {
      continue;  // not on the SM that runs it (Fp8MmaGemm and MmaGemm check the fault)
    }
    SplitMix64 r{uint64_t(t.k)};
    std::vector<uint64_t> a(size_t(t.m) * t.k), b(size_t(t.k) * t.n), c(size_t(t.m) * t.n);
    for (auto& v : a) v = t.in_bytes == 2 ? random_f16(r) : random_e4m3(r);
    for (auto& v : b) v = t.in_bytes == 2 ? random_f16(r) : random_e4m3(r);
    for (auto& v : c) v = bits_of(r.uniform(-8, 8));
    std::vector<uint64_t> b_arg = b;  // B as the kernel takes it
    if (t.b_transposed)
      for (int i = 0; i < t.k; ++i)
        for (int j = 0; j < t.n; ++j) b_arg[size_t(j) * t.k + i] = b[size_t(i) * t.n + j];
    Launch l;
    l.grid = {1, 1};
    l.block = {32};
    l.args = {Arg::buffer(pack_bytes(a, t.in_bytes)),
              Arg::buffer(pack_bytes(b_arg, t.in_bytes)),
              Arg::buffer(pack_bytes(c, 4)),
              Arg::zeros(c.size() * 4),
              Arg::s32(t.m),
              Arg::s32(t.n),
              Arg::s32(t.k)};
    const RunResult run = run_ok(load_corpus(t.file, t.arch, t.entry), l);
    ASSERT_TRUE(run.ok) << t.entry << ": " << run.error;
    const auto got = values_of<uint32_t>(run.memory, 3);
    const std::vector<uint64_t> want = api->mma(a, b, c);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_EQ(got[i], want[i]) << t.instruction << " on sm_" << sm << ": element (" << i / t.n << ", " << i % t.n
                                 << ")";
  }
}

}  // namespace
}  // namespace ptxfu::kernel::testing

namespace ptxfu::kernel::testing {
namespace {

// ---- the corpus's block-scaled fp4 GEMM (tb/corpus/src/fp4_mma_gemm.cu:
// mma.sync m16n8k64 .kind::mxf4nvf4 with ue4m3 scales and .kind::mxf4 with
// ue8m0 scales, compiled for sm_120a), against a host reference written
// apart from the engine: the rule of MMA-Sim (arXiv:2511.10909) in double
// arithmetic, each mma's four runs of 16 products summed exactly, scaled,
// aligned with c at 35 bits below the largest exponent (a run's is its
// scales' exponent sum), truncated, summed, and the sum rounded to f32 by
// the host's own conversion in round-towards-zero mode; the mma chained over
// K in ascending k as the kernel does.

double e2m1_value(unsigned nibble) {
  static const double magnitude[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (nibble & 8 ? -1 : 1) * magnitude[nibble & 7];
}

// A scale factor's value and its exponent (subnormal ue4m3 at -6); false
// for a zero scale.
bool scale_value(bool ue4m3, unsigned bits, double* value, int* exp) {
  if (!ue4m3) return *value = std::ldexp(1.0, int(bits) - 127), *exp = int(bits) - 127, true;
  const int field = (bits >> 3) & 15, mant = bits & 7;
  *exp = (field ? field : 1) - 7;
  *value = std::ldexp(field ? 8 + mant : mant, *exp - 3);
  return *value != 0;
}

float rz_float(double x) {
  const int old = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  volatile double in = x;
  volatile float out = static_cast<float>(in);
  std::fesetround(old);
  return out;
}

// One mma's element: a and b the row's and column's 64 nibbles, sa and sb
// their `vecs` scales.
float scaled_mma_reference(const uint8_t* a, const uint8_t* b, const uint8_t* sa, const uint8_t* sb, int vecs,
                           bool ue4m3, float c) {
  double term[5];
  int exp[5], count = 0;
  for (int run = 0; run < 4; ++run) {
    double p = 0;
    for (int k = 16 * run; k < 16 * run + 16; ++k) p += e2m1_value(a[k]) * e2m1_value(b[k]);
    const int v = run * vecs / 4;
    double x, y;
    int ex, ey;
    if (!scale_value(ue4m3, sa[v], &x, &ex) || !scale_value(ue4m3, sb[v], &y, &ey)) continue;
    term[count] = p * x * y, exp[count++] = ex + ey;
  }
  if (c != 0) term[count] = c, exp[count++] = std::max(std::ilogb(c), -126);
  if (count == 0) return 0.0f;
  const int emax = *std::max_element(exp, exp + count);
  double sum = 0;
  for (int i = 0; i < count; ++i) sum += std::trunc(std::ldexp(term[i], 35 - emax));
  return sum == 0 ? 0.0f : rz_float(std::ldexp(sum, emax - 35));
}

struct Fp4Case {
  const char* entry;
  bool ue4m3;
  int per_scale;  // elements one scale covers
  int size;
};

class Fp4MmaGemm : public ::testing::TestWithParam<Fp4Case> {};

TEST_P(Fp4MmaGemm, EveryElementIsTheHostReference) {
  const Fp4Case p = GetParam();
  const Kernel k = load_corpus("fp4_mma_gemm", "sm_120a", p.entry);
  const int m = 16 * p.size, n = 8 * (p.size + 1), kk = 64 * (p.size + 1), ks = kk / p.per_scale;
  SplitMix64 r{uint64_t(p.size) * 977 + (p.ue4m3 ? 1 : 0)};
  std::vector<uint8_t> a(size_t(m) * kk), bt(size_t(n) * kk), sfa(size_t(m) * ks), sfb(size_t(n) * ks);
  for (auto& v : a) v = static_cast<uint8_t>(r.next() & 15);
  for (auto& v : bt) v = static_cast<uint8_t>(r.next() & 15);
  // Scales and c spread wide, so that terms lie far apart and the
  // alignment truncates: ue4m3 every finite encoding (subnormals, zero),
  // ue8m0 2^-20 .. 2^19; c of 2^-30 .. 2^30.
  const auto scale = [&]() -> uint8_t {
    const uint64_t x = r.next();
    if (!p.ue4m3) return static_cast<uint8_t>(107 + x % 40);
    return static_cast<uint8_t>(x % 127);  // 0x00 .. 0x7e: 0x7f is the NaN
  };
  for (auto& v : sfa) v = scale();
  for (auto& v : sfb) v = scale();
  std::vector<uint32_t> c(size_t(m) * n);
  for (auto& v : c) v = bits_of(static_cast<float>(std::ldexp(r.uniform(-1, 1), static_cast<int>(r.next() % 61) - 30)));
  const auto pack = [](const std::vector<uint8_t>& nibbles) {
    std::vector<uint8_t> bytes(nibbles.size() / 2);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(nibbles[2 * i] | nibbles[2 * i + 1] << 4);
    return bytes;
  };
  Launch l;
  l.grid = {uint32_t(n / 8), uint32_t(m / 16)};
  l.block = {32};
  l.args = {
      Arg::buffer(pack(a)),     Arg::buffer(pack(bt)), Arg::buffer(sfa), Arg::buffer(sfb), Arg::buffer(bytes_of(c)),
      Arg::zeros(c.size() * 4), Arg::s32(m),           Arg::s32(n),      Arg::s32(kk)};
#ifdef PTXFU_KERNELS_ON_MODEL
  const char* config = std::getenv("PTXFU_TEST_CONFIG");
  const int sm = std::atoi((config ? config : "sm_90") + 3);
  if (!mma::find_block_scaled_row(sm, mma::Elem::e2m1, mma::Elem::f32)) {  // no such tensor core: a fault
    const ModelRun run = run_on_model(k, l, false);
    EXPECT_FALSE(run.result.ok);
    EXPECT_TRUE(Contains(run.result.error, "is not available on sm_" + std::to_string(sm))) << run.result.error;
    GTEST_SKIP() << "sm_" << sm << " has no block-scaled e2m1 mma";
  }
#endif
  const RunResult run = run_ok(k, l);
  ASSERT_TRUE(run.ok) << run.error;
  const auto got = values_of<uint32_t>(run.memory, 5);
  ASSERT_EQ(got.size(), c.size());
  const int vecs = 64 / p.per_scale;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc;
      std::memcpy(&acc, &c[size_t(i) * n + j], 4);
      for (int k0 = 0; k0 < kk; k0 += 64)
        acc = scaled_mma_reference(&a[size_t(i) * kk + k0], &bt[size_t(j) * kk + k0],
                                   &sfa[size_t(i) * ks + k0 / p.per_scale], &sfb[size_t(j) * ks + k0 / p.per_scale],
                                   vecs, p.ue4m3, acc);
      ASSERT_EQ(got[size_t(i) * n + j], bits_of(acc))
          << p.entry << ", " << m << "x" << n << "x" << kk << ": element (" << i << ", " << j << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Fp4MmaGemm,
                         ::testing::Values(Fp4Case{"fp4_mma_gemm_nvf4", true, 16, 1},
                                           Fp4Case{"fp4_mma_gemm_nvf4", true, 16, 3},
                                           Fp4Case{"fp4_mma_gemm_mxf4", false, 32, 1},
                                           Fp4Case{"fp4_mma_gemm_mxf4", false, 32, 2}));

// ---- the corpus's Hopper wgmma GEMMs (tb/corpus/src/wgmma_gemm.cu, sm_90a):
// tiles staged in shared memory, descriptors built in the kernel, against
// the numerics row of wgmma on the SM that runs it (mma::find_row, family
// wgmma) applied in the kernel's k order: one block-FMA step per
// instruction's k, ascending, from C (or from +0 where the first step's
// scale-d is 0), A negated where the kernel's imm-scale-a is -1.

struct WgmmaCase {
  std::string entry;
  mma::Elem in, out;
  int tile_n, k_step, k;  // the CTA's tile width, the K of one stage, the instruction's k
  bool has_c, neg_a;      // C an argument (else D = A B); imm-scale-a -1
  int in_bytes, out_bytes;
};

const WgmmaCase kWgmmaCases[] = {
    {"wgmma_gemm_f16_f32", mma::Elem::f16, mma::Elem::f32, 64, 64, 16, true, false, 2, 4},
    {"wgmma_gemm_f16_f32_regs", mma::Elem::f16, mma::Elem::f32, 32, 16, 16, true, true, 2, 4},
    {"wgmma_gemm_f16_f16", mma::Elem::f16, mma::Elem::f16, 16, 16, 16, false, false, 2, 2},
    {"wgmma_gemm_tf32_f32", mma::Elem::tf32, mma::Elem::f32, 32, 8, 8, true, false, 4, 4},
    {"wgmma_gemm_e4m3_f32", mma::Elem::e4m3, mma::Elem::f32, 32, 128, 32, true, false, 1, 4},
};

// A's element negated: its sign bit flipped.
uint64_t negated(uint64_t v, mma::Elem e) {
  switch (e) {
    case mma::Elem::tf32: return v ^ 0x80000000u;
    case mma::Elem::e4m3: return v ^ 0x80u;
    default: return v ^ 0x8000u;
  }
}

uint64_t wgmma_reference(const mma::NumericsRow& row, const WgmmaCase& w, int kk, const uint64_t* a_row,
                         const std::vector<uint64_t>& b, int n, int j, uint64_t c) {
  std::vector<uint64_t> x(size_t(w.k)), y(size_t(w.k));
  uint64_t acc = c;
  for (int k0 = 0; k0 < kk; k0 += w.k) {
    for (int t = 0; t < w.k; ++t) {
      x[size_t(t)] = w.neg_a ? negated(a_row[k0 + t], w.in) : a_row[k0 + t];
      y[size_t(t)] = b[size_t(k0 + t) * n + j];
      if (row.truncate_inputs) x[size_t(t)] >>= 13, y[size_t(t)] >>= 13;  // tf32: the f32 register's top 19 bits
    }
    acc = mma::block_fma(row, size_t(w.k), x.data(), y.data(), acc);
  }
  return acc;
}

class WgmmaGemm : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(WgmmaGemm, EveryElementIsTheRowAppliedInTheKernelsKOrder) {
  const auto& [which, size] = GetParam();
  const WgmmaCase& w = kWgmmaCases[which];
  const Kernel k = load_corpus("wgmma_gemm", "sm_90a", w.entry);
  const int m = 64 * size, n = w.tile_n * (size + 1), kk = w.k_step * (3 - size);
  SplitMix64 r{uint64_t(which * 17 + size)};
  std::vector<uint64_t> a(size_t(m) * kk), b(size_t(kk) * n), c(size_t(m) * n);
  for (auto& v : a) v = w.in == mma::Elem::e4m3 ? random_e4m3(r) : random_input(r, w.in);
  for (auto& v : b) v = w.in == mma::Elem::e4m3 ? random_e4m3(r) : random_input(r, w.in);
  for (auto& v : c) v = w.has_c ? random_acc(r, w.out) : 0;
  Launch l;
  l.grid = {uint32_t(n / w.tile_n), uint32_t(m / 64)};
  l.block = {128};
  l.args = {Arg::buffer(pack_bytes(a, w.in_bytes)), Arg::buffer(pack_bytes(b, w.in_bytes))};
  if (w.has_c) l.args.push_back(Arg::buffer(pack_bytes(c, w.out_bytes)));
  l.args.push_back(Arg::zeros(c.size() * size_t(w.out_bytes)));
  for (int v : {m, n, kk}) l.args.push_back(Arg::s32(v));
  const unsigned d_arg = w.has_c ? 3 : 2;
  int sm = 90;
#ifdef PTXFU_KERNELS_ON_MODEL
  const char* config = std::getenv("PTXFU_TEST_CONFIG");
  sm = std::atoi((config ? config : "sm_90") + 3);
#endif
  const mma::NumericsRow* row = mma::find_row(sm, mma::Family::wgmma, w.in, w.out);
  if (!row) {  // the SM that runs it (the model's config) has no wgmma: a fault
#ifdef PTXFU_KERNELS_ON_MODEL
    const ModelRun run = run_on_model(k, l, false);
    EXPECT_FALSE(run.result.ok);
    EXPECT_TRUE(Contains(run.result.error, "is not available on sm_" + std::to_string(sm))) << run.result.error;
#endif
    GTEST_SKIP() << "sm_" << sm << " has no wgmma";
  }
  const RunResult run = run_ok(k, l);
  ASSERT_TRUE(run.ok) << run.error;
  const std::vector<uint8_t>& got = run.memory.arg_buffer(d_arg)->bytes;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const uint64_t want = wgmma_reference(*row, w, kk, &a[size_t(i) * kk], b, n, j, c[size_t(i) * n + j]);
      uint64_t d = 0;
      std::memcpy(&d, &got[(size_t(i) * n + j) * size_t(w.out_bytes)], size_t(w.out_bytes));
      ASSERT_EQ(d, want) << w.entry << " on sm_" << sm << ", " << m << "x" << n << "x" << kk << ": element (" << i
                         << ", " << j << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, WgmmaGemm, ::testing::Combine(::testing::Range(0, 5), ::testing::Values(1, 2)));

#ifdef PTXFU_KERNELS_ON_MODEL
// `count` wgmma m64n8k16 f16->f32 on one warpgroup, each accumulating into
// the previous one's D (a dependent chain) or each into its own, then
// commit_group and wait_group 0.
std::string wgmma_chain(int count, bool dependent) {
  std::string s =
      ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry chain()\n{\n  .reg .b64 %rd<3>;\n"
      "  .reg .f32 %f<200>;\n  .shared .align 1024 .b8 s[2048];\n"
      "  mov.u64 %rd1, 68720001024;\n  mov.u64 %rd2, 68720001088;\n  wgmma.fence.sync.aligned;\n";
  // the descriptors: start 0 and 1024, LBO 128, SBO 256 (encoded 8 and 16; 16 << 32 | 8 << 16 | start / 16)
  for (int i = 0; i < count; ++i) {
    const int d = dependent ? 0 : 4 * i;
    s += fmt::format(
        "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f{}, %f{}, %f{}, %f{}}}, %rd1, %rd2, 1, 1, 1, 0, "
        "0;\n",
        d, d + 1, d + 2, d + 3);
  }
  return s + "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n  ret;\n}\n";
}

// The same for wgmma on sm_90: each warp's 16 x N x K share holds its
// sub-partition's unit as an mma.sync of that shape would; a wgmma that reads
// the previous one's accumulators waits max(latency, that) cycles.
TEST(WgmmaTiming, ChainsTakeTheConfigsLatencyAndIndependentWgmmasItsRate) {
  const std::string text = read_file(std::string(PTXFU_SOURCE_DIR) + "/configs/sm_90.yaml");
  const TensorTiming want = yaml_tensor_timing(text);
  const ChainCycles cycles = chain_cycles(wgmma_chain, 128, text);
  EXPECT_EQ(cycles[1][1] - cycles[1][0], 16 * want.latency) << "16 more dependent wgmma";
  EXPECT_EQ(cycles[0][1] - cycles[0][0], 16 * want.occupancy) << "16 more independent wgmma";
}
#endif

}  // namespace
}  // namespace ptxfu::kernel::testing
