// The C API's array entry point against the core's array form, side by side:
// the same operands, once as the C API takes them (interleaved, one call) and
// once as Form::eval_many takes them (one contiguous array per operand), on
// a batch that stays in the caches (2^16 vectors) and one that does not (2^20).
// `side_by_side` runs both on the same operands in turns within each
// iteration, timed on this thread's CPU clock, and reports their rates and
// ratio: on a shared machine the two then see the same load.
#include <benchmark/benchmark.h>
#include <time.h>

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

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void side_by_side(benchmark::State& st, const char* op, unsigned num_src, unsigned bits) {
  const auto n = static_cast<uint32_t>(st.range(0));
  const Operands o = make_operands(n, num_src, bits);
  const ptxfu::Form form(op, num_src);
  std::vector<uint64_t> d_core(n), d_c(n);
  const uint64_t* sources[4] = {};
  ptrdiff_t strides[4] = {};
  for (unsigned k = 0; k < num_src; ++k) sources[k] = o.columns[k].data(), strides[k] = 1;
  double core_s = 0, c_s = 0;
  bool core_first = true;
  for (auto _ : st) {
    for (int turn = 0; turn < 2; ++turn) {
      const double t0 = thread_seconds();
      if (core_first == (turn == 0)) {
        form.eval_many(n, sources, strides, nullptr, 0, d_core.data(), nullptr, nullptr);
        core_s += thread_seconds() - t0;
      } else {
        if (ptxfu_eval_array(op, num_src, n, o.interleaved.data(), nullptr, d_c.data(), nullptr) != PTXFU_OK)
          st.SkipWithError(ptxfu_last_error());
        c_s += thread_seconds() - t0;
      }
    }
    core_first = !core_first;
    benchmark::DoNotOptimize(d_core.data());
    benchmark::DoNotOptimize(d_c.data());
  }
  if (d_core != d_c) st.SkipWithError("the C API and the core disagree");
  const double vectors = static_cast<double>(st.iterations()) * n;
  st.counters["core_M/s"] = vectors / core_s / 1e6;
  st.counters["c_api_M/s"] = vectors / c_s / 1e6;
  st.counters["ratio"] = c_s / core_s;
}

}  // namespace

BENCHMARK_CAPTURE(side_by_side, fma_rn_f16, "fma.rn.f16", 3, 16)
    ->Arg(1 << 16)
    ->Arg(1 << 20)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(side_by_side, fma_rn_f32, "fma.rn.f32", 3, 32)
    ->Arg(1 << 16)
    ->Arg(1 << 20)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(side_by_side, add_u32, "add.u32", 2, 32)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);
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
