// The C API's array entry point against the core's array form, side by side:
// the same operands, once as the C API takes them (interleaved, one call) and
// once as Form::eval_many takes them (one contiguous array per operand), on
// a batch that stays in the caches (2^16 vectors) and one that does not (2^20).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "capi/ptxfu.h"
#include "ptxfu/ptxfu.hpp"

namespace {

struct Operands {
  std::vector<uint64_t> interleaved;           // what ptxfu_eval_array takes
  std::vector<std::vector<uint64_t>> columns;  // what Form::eval_many takes
};

Operands make_operands(uint32_t n, unsigned num_src, unsigned bits) {
  std::mt19937_64 rng(7);
  const uint64_t mask = bits < 64 ? (uint64_t{1} << bits) - 1 : ~uint64_t{0};
  Operands o;
  o.interleaved.resize(static_cast<size_t>(n) * num_src);
  o.columns.assign(num_src, std::vector<uint64_t>(n));
  for (uint32_t i = 0; i < n; ++i)
    for (unsigned k = 0; k < num_src; ++k) o.interleaved[i * num_src + k] = o.columns[k][i] = rng() & mask;
  return o;
}

void core_array(benchmark::State& st, const char* op, unsigned num_src, unsigned bits) {
  const auto n = static_cast<uint32_t>(st.range(0));
  const Operands o = make_operands(n, num_src, bits);
  const ptxfu::Form form(op, num_src);
  std::vector<uint64_t> d(n);
  const uint64_t* sources[4] = {};
  ptrdiff_t strides[4] = {};
  for (unsigned k = 0; k < num_src; ++k) sources[k] = o.columns[k].data(), strides[k] = 1;
  for (auto _ : st) {
    form.eval_many(n, sources, strides, nullptr, 0, d.data(), nullptr, nullptr);
    benchmark::DoNotOptimize(d.data());
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * n);
}

void c_api_array(benchmark::State& st, const char* op, unsigned num_src, unsigned bits) {
  const auto n = static_cast<uint32_t>(st.range(0));
  const Operands o = make_operands(n, num_src, bits);
  std::vector<uint64_t> d(n);
  for (auto _ : st) {
    if (ptxfu_eval_array(op, num_src, n, o.interleaved.data(), nullptr, d.data(), nullptr) != PTXFU_OK)
      st.SkipWithError(ptxfu_last_error());
    benchmark::DoNotOptimize(d.data());
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * n);
}

}  // namespace

BENCHMARK_CAPTURE(core_array, fma_rn_f16, "fma.rn.f16", 3, 16)
    ->Arg(1 << 16)
    ->Arg(1 << 20)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(c_api_array, fma_rn_f16, "fma.rn.f16", 3, 16)
    ->Arg(1 << 16)
    ->Arg(1 << 20)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(core_array, fma_rn_f32, "fma.rn.f32", 3, 32)
    ->Arg(1 << 16)
    ->Arg(1 << 20)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(c_api_array, fma_rn_f32, "fma.rn.f32", 3, 32)
    ->Arg(1 << 16)
    ->Arg(1 << 20)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(core_array, add_u32, "add.u32", 2, 32)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(c_api_array, add_u32, "add.u32", 2, 32)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
