// Tensor-core numerics throughput: exact products a second for
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 on sm_80 (goal: 200 M
// a second on one core), through the matrix API and the engine alone.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "kernel/kernel.h"
#include "models/config.h"
#include "models/simulator.h"

#include "mma/block_fma.h"
#include "mma/matrix.h"
#include "ptxfu/ptxfu.hpp"

namespace {

using ptxfu::mma::Instruction;

std::vector<uint64_t> random_f16(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng() & 0xbbff;  // finite, |x| < 1
  return v;
}

void BM_Mma_m16n8k16_f16_f32_sm80(benchmark::State& state) {
  const Instruction inst = ptxfu::mma::parse_instruction("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_80");
  const std::vector<uint64_t> a = random_f16(16 * 16, 1), b = random_f16(16 * 8, 2);
  const std::vector<uint64_t> c(16 * 8, 0x3f800000);
  for (auto _ : state) benchmark::DoNotOptimize(ptxfu::mma::mma(inst, a, b, c));
  state.counters["products/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 16 * 8 * 16, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Mma_m16n8k16_f16_f32_sm80);

// One D element (k16, two blocks of 8) at a time: the engine alone.
void BM_BlockFma_k16_f16_f32_sm80(benchmark::State& state) {
  const Instruction inst = ptxfu::mma::parse_instruction("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_80");
  const std::vector<uint64_t> a = random_f16(16 * 64, 3), b = random_f16(16 * 64, 4);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ptxfu::mma::block_fma(*inst.row, 16, &a[i * 16], &b[i * 16], 0x3f800000));
    i = (i + 1) % 64;
  }
  state.counters["products/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 16, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BlockFma_k16_f16_f32_sm80);

// 10,000 different tiles in turn, as ptxfu.mma's benchmark (python -m
// ptxfu.bench_mma) draws them: the tile above, repeated, lets the branch
// predictor learn its data (2.3x faster on the AMD EPYC measured).
constexpr std::size_t kTiles = 10000;

void BM_Mma_m16n8k16_f16_f32_sm80_10000_tiles(benchmark::State& state) {
  const Instruction inst = ptxfu::mma::parse_instruction("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_80");
  const std::vector<uint64_t> a = random_f16(kTiles * 16 * 16, 5), b = random_f16(kTiles * 16 * 8, 6);
  const std::vector<uint64_t> c(16 * 8, 0x3f800000);
  std::vector<uint64_t> ta(16 * 16), tb(16 * 8);
  std::size_t t = 0;
  for (auto _ : state) {
    std::copy_n(&a[t * 256], 256, ta.begin());
    std::copy_n(&b[t * 128], 128, tb.begin());
    benchmark::DoNotOptimize(ptxfu::mma::mma(inst, ta, tb, c));
    t = (t + 1) % kTiles;
  }
  state.counters["products/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 16 * 8 * 16, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Mma_m16n8k16_f16_f32_sm80_10000_tiles);

// The same through the C++ API's buffer entry point (what ptxfu.mma calls a tile).
void BM_ApiMatmul_m16n8k16_f16_f32_sm80_10000_tiles(benchmark::State& state) {
  const ptxfu::MmaInstruction inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_80");
  const std::vector<uint64_t> a = random_f16(kTiles * 16 * 16, 5), b = random_f16(kTiles * 16 * 8, 6);
  const std::vector<uint64_t> c(16 * 8, 0x3f800000);
  std::vector<uint64_t> d(16 * 8);
  std::size_t t = 0;
  for (auto _ : state) {
    inst.matmul(16, 8, 16, &a[t * 256], &b[t * 128], c.data(), d.data());
    benchmark::DoNotOptimize(d.data());
    t = (t + 1) % kTiles;
  }
  state.counters["products/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 16 * 8 * 16, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ApiMatmul_m16n8k16_f16_f32_sm80_10000_tiles);

// The corpus GEMM (tb/corpus/src/mma_gemm.cu, mma_gemm_f16_f32_wide:
// ldmatrix + mma.sync m16n8k16 f16->f32, a 16 x 32 tile a warp) of
// M = N = 128, K = 256 run by the kernel executor
// alone and on the sm_80 SM model: exact products a second, to set beside
// the engine's above (goal: at least half of BM_Mma_..._10000_tiles).
constexpr int kM = 128, kN = 128, kK = 256;

ptxfu::kernel::Launch gemm_launch() {
  const std::vector<uint64_t> a = random_f16(std::size_t(kM) * kK, 7), b = random_f16(std::size_t(kK) * kN, 8);
  std::vector<uint8_t> ab(a.size() * 2), bb(b.size() * 2);
  for (std::size_t i = 0; i < a.size(); ++i) std::memcpy(&ab[2 * i], &a[i], 2);
  for (std::size_t i = 0; i < b.size(); ++i) std::memcpy(&bb[2 * i], &b[i], 2);
  ptxfu::kernel::Launch l;
  l.grid = {kN / 32, kM / 16};
  l.block = {32};
  using ptxfu::kernel::Arg;
  l.args = {Arg::buffer(ab),
            Arg::buffer(bb),
            Arg::zeros(std::size_t(kM) * kN * 4),
            Arg::zeros(std::size_t(kM) * kN * 4),
            Arg::s32(kM),
            Arg::s32(kN),
            Arg::s32(kK)};
  return l;
}

ptxfu::kernel::Kernel gemm_kernel() {
  const std::string path = std::string(PTXFU_CORPUS_DIR) + "/mma_gemm.sm_80.ptx";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return ptxfu::kernel::load_kernel(text.str(), path, {"mma_gemm_f16_f32_wide", {}});
}

void BM_KernelMmaGemm_sm80_executor(benchmark::State& state) {
  const ptxfu::kernel::Kernel k = gemm_kernel();
  const ptxfu::kernel::Launch l = gemm_launch();
  for (auto _ : state) {
    const ptxfu::kernel::RunResult r = ptxfu::kernel::run_functional(k, l);
    if (!r.ok) state.SkipWithError(r.error.c_str());
  }
  state.counters["products/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kM * kN * kK, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_KernelMmaGemm_sm80_executor)->Unit(benchmark::kMillisecond);

void BM_KernelMmaGemm_sm80_model(benchmark::State& state) {
  const ptxfu::kernel::Kernel k = gemm_kernel();
  const ptxfu::models::ArchConfig config = ptxfu::models::load_config("sm_80");
  ptxfu::models::SimJob job;
  job.config = &config;
  job.kernel = &k;
  job.launch = gemm_launch();
  for (auto _ : state) {
    const ptxfu::models::SimResult r = ptxfu::models::simulate({job}).front();
    if (!r.ok) state.SkipWithError(r.error.c_str());
  }
  state.counters["products/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kM * kN * kK, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_KernelMmaGemm_sm80_model)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
