// `ptxfu eval` end to end, single thread: lines parsed, checked, executed and
// printed per second, for one-form streams (f16 fma and add, conversions) and
// for a mix of forms.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "cli/eval_cmd.h"

namespace {

enum Stream { fma_f16, mix_of_six, add_f16, cvt_f16_f32, cvt_f16x2_f32, cvt_e4m3x2_f32, cvt_s32_f32 };

std::string make_input(Stream stream, size_t lines) {
  std::mt19937 rng(1);
  std::string s;
  char buf[128];
  for (size_t i = 0; i < lines; ++i) {
    if (stream >= add_f16) {
      const unsigned a = rng(), b = rng();
      switch (stream) {
        case add_f16: std::snprintf(buf, sizeof buf, "add.f16 0x%04x 0x%04x\n", a & 0xffff, b & 0xffff); break;
        case cvt_f16_f32: std::snprintf(buf, sizeof buf, "cvt.rn.f16.f32 0x%08x\n", a); break;
        case cvt_f16x2_f32: std::snprintf(buf, sizeof buf, "cvt.rn.f16x2.f32 0x%08x 0x%08x\n", a, b); break;
        case cvt_e4m3x2_f32: std::snprintf(buf, sizeof buf, "cvt.rn.satfinite.e4m3x2.f32 0x%08x 0x%08x\n", a, b); break;
        default: std::snprintf(buf, sizeof buf, "cvt.rni.s32.f32 0x%08x\n", a); break;
      }
      s += buf;
      continue;
    }
    const int f = stream == mix_of_six ? static_cast<int>(rng() % 6) : 0;
    const unsigned m = f == 0 ? 0xffff : 0xffffffffu;
    const unsigned a = rng() & m, b = rng() & m, c = rng() & m;
    switch (f) {
      case 0: std::snprintf(buf, sizeof buf, "fma.rn.f16 0x%04x 0x%04x 0x%04x\n", a, b, c); break;
      case 1: std::snprintf(buf, sizeof buf, "fma.rn.f32 0x%08x 0x%08x 0x%08x\n", a, b, c); break;
      case 2: std::snprintf(buf, sizeof buf, "add.rz.bf16x2 0x%08x 0x%08x\n", a, b); break;
      case 3: std::snprintf(buf, sizeof buf, "mad.lo.s32 0x%08x 0x%08x 0x%08x\n", a, b, c); break;
      case 4: std::snprintf(buf, sizeof buf, "ex2.approx.ftz.f32 0x%08x\n", a); break;
      default: std::snprintf(buf, sizeof buf, "min.NaN.xorsign.abs.f16x2 0x%08x 0x%08x\n", a, b); break;
    }
    s += buf;
  }
  return s;
}

void eval_stream(benchmark::State& st, Stream stream) {
  constexpr size_t kLines = 100000;
  const std::string input = make_input(stream, kLines);
  std::FILE* out = std::fopen("/dev/null", "wb");
  for (auto _ : st) {
    std::FILE* in = fmemopen(const_cast<char*>(input.data()), input.size(), "rb");
    std::ostringstream err;
    benchmark::DoNotOptimize(ptxfu::cli::run_eval(in, out, err, {}));
    std::fclose(in);
  }
  std::fclose(out);
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * kLines));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * input.size()));
}

BENCHMARK_CAPTURE(eval_stream, fma_f16, fma_f16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eval_stream, mix_of_six_forms, mix_of_six)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eval_stream, add_f16, add_f16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eval_stream, cvt_rn_f16_f32, cvt_f16_f32)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eval_stream, cvt_rn_f16x2_f32, cvt_f16x2_f32)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eval_stream, cvt_rn_satfinite_e4m3x2_f32, cvt_e4m3x2_f32)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eval_stream, cvt_rni_s32_f32, cvt_s32_f32)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
