// Single-thread throughput of the exact core: add, mul, fma for f16, bf16,
// f32, f64 in .rn and .rz (public API with the policy applied), the generic
// path without fast paths, and the host's std::fma for comparison.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fp/ops.h"

namespace {

using ptxfu::fp::Format;
using ptxfu::fp::Policy;
using ptxfu::fp::Rounding;

constexpr size_t kN = 4096;

struct Operands {
  std::vector<uint64_t> a, b, c;
};

// Finite operands with exponents within bias +- 1/8 of the exponent range
// (products and sums stay normal, as in typical workloads), random signs and
// significands.
Operands make_operands(const Format& f, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Operands o;
  const uint64_t top = (uint64_t{1} << f.exp_bits) - 2;
  auto one = [&] {
    const uint64_t e = f.bias() - top / 8 + rng() % (top / 4);
    return ((rng() & 1) ? f.sign_mask() : 0) | (e << f.frac_bits) | (rng() & f.frac_mask());
  };
  for (size_t i = 0; i < kN; ++i) {
    o.a.push_back(one());
    o.b.push_back(one());
    o.c.push_back(one());
  }
  return o;
}

enum class Kind { add, mul, fma, fma_generic, fma_ieee, abs };

void run(benchmark::State& st, const Format& f, Kind k, Rounding r) {
  const Operands o = make_operands(f, 42);
  const Policy p{r};
  uint64_t sink = 0;
  for (auto _ : st) {
    for (size_t i = 0; i < kN; ++i) {
      switch (k) {
        case Kind::add: sink += ptxfu::fp::add(f, o.a[i], o.b[i], p); break;
        case Kind::mul: sink += ptxfu::fp::mul(f, o.a[i], o.b[i], p); break;
        case Kind::fma: sink += ptxfu::fp::fma(f, o.a[i], o.b[i], o.c[i], p); break;
        case Kind::fma_ieee:
          sink += ptxfu::fp::ieee::fma(f, o.a[i], o.b[i], o.c[i], r);
          break;
        case Kind::abs: sink += ptxfu::fp::abs(f, o.a[i], p); break;
        case Kind::fma_generic:
          sink += ptxfu::fp::generic::fma(f, o.a[i], o.b[i], o.c[i], r);
          break;
      }
    }
    benchmark::DoNotOptimize(sink);
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * kN));
}

template <class T>
void host_fma(benchmark::State& st) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<T> d(-4, 4);
  std::vector<T> a(kN), b(kN), c(kN);
  for (size_t i = 0; i < kN; ++i) a[i] = d(rng), b[i] = d(rng), c[i] = d(rng);
  T sink = 0;
  for (auto _ : st) {
    for (size_t i = 0; i < kN; ++i) {
      T r = std::fma(a[i], b[i], c[i]);
      benchmark::DoNotOptimize(r);
      sink += r;
    }
    benchmark::DoNotOptimize(sink);
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * kN));
}

const struct {
  const char* name;
  const Format* f;
} kFormats[] = {{"f16", &ptxfu::fp::kF16},
                {"bf16", &ptxfu::fp::kBF16},
                {"f32", &ptxfu::fp::kF32},
                {"f64", &ptxfu::fp::kF64}};

int register_all() {
  const struct {
    const char* name;
    Kind k;
  } kinds[] = {{"add", Kind::add}, {"mul", Kind::mul}, {"fma", Kind::fma},
               {"fma_generic", Kind::fma_generic}, {"fma_ieee", Kind::fma_ieee},
               {"abs", Kind::abs}};
  for (const auto& fm : kFormats)
    for (const auto& kd : kinds)
      for (Rounding r : {Rounding::rn, Rounding::rz}) {
        const std::string name =
            std::string(kd.name) + "/" + fm.name + "/" + (r == Rounding::rn ? "rn" : "rz");
        const Format* f = fm.f;
        const Kind k = kd.k;
        benchmark::RegisterBenchmark(name.c_str(),
                                     [f, k, r](benchmark::State& st) { run(st, *f, k, r); });
      }
  benchmark::RegisterBenchmark("host_std_fma/f32", host_fma<float>);
  benchmark::RegisterBenchmark("host_std_fma/f64", host_fma<double>);
  return 0;
}
const int kRegistered = register_all();

}  // namespace

BENCHMARK_MAIN();
