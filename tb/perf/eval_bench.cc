// `ptxfu eval` end to end, single thread: lines parsed, checked, executed and
// printed per second, for one f16 fma stream and for a mix of forms.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "cli/eval_cmd.h"

namespace {

std::string make_input(bool mix, size_t lines) {
  std::mt19937 rng(1);
  std::string s;
  char buf[128];
  for (size_t i = 0; i < lines; ++i) {
    const int f = mix ? static_cast<int>(rng() % 6) : 0;
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

void eval_stream(benchmark::State& st, bool mix) {
  constexpr size_t kLines = 100000;
  const std::string input = make_input(mix, kLines);
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

BENCHMARK_CAPTURE(eval_stream, fma_f16, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(eval_stream, mix_of_six_forms, true)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
