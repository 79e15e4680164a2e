// Single-thread throughput of the exact core (add, mul, fma on f16, bf16,
// f32, f64; .rn and .rz; the public API with the policy applied), measured
// two ways:
//   stream/DIST/...  10^7 fresh operand triples, results stored: the branch
//                    predictor cannot learn the data. DIST is `uniform`
//                    (every encoding equally likely: NaNs, infinities and
//                    subnormals included) or `near1` (finite, exponents within
//                    a few binades of 1, random signs and significands).
//   ws4096/...       the same 4096 triples again and again (a small working
//                    set, as microbenchmarks often use), reported apart.
// batch/stream/... and batch/ws4096/... run the same through the array API
// (fp::add_n, mul_n, fma_n: one call per pass over the operands).
// The host baseline `host/stream/fma/f32|f64` runs std::fma over the same
// kind of stream, independent elements stored to memory: throughput, not a
// dependent chain, and nothing the compiler can fold.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fp/ops.h"

namespace {

using ptxfu::fp::Format;
using ptxfu::fp::Policy;
using ptxfu::fp::Rounding;

constexpr size_t kStream = 10'000'000;
constexpr size_t kWorkingSet = 4096;

enum class Dist { uniform, near1 };

struct Operands {
  std::vector<uint64_t> a, b, c, d;  // d: the results
};

uint64_t one_operand(const Format& f, Dist dist, std::mt19937_64& rng) {
  const uint64_t width_mask = (f.sign_mask() << 1) - 1;
  if (dist == Dist::uniform) return rng() & width_mask;
  const uint64_t e = f.bias() - 4 + rng() % 8;  // 2^-4 .. 2^3
  return ((rng() & 1) ? f.sign_mask() : 0) | (e << f.frac_bits) | (rng() & f.frac_mask());
}

// The stream for one (format, distribution, size); the last one is kept so
// that the benchmarks of one format share it (10^7 triples are 320 MB).
const Operands& operands(const Format& f, Dist dist, size_t n) {
  struct Key {
    const Format* f;
    Dist dist;
    size_t n;
  };
  static Key key{nullptr, Dist::uniform, 0};
  static std::unique_ptr<Operands> cached;
  if (!cached || key.f != &f || key.dist != dist || key.n != n) {
    cached.reset();
    auto o = std::make_unique<Operands>();
    std::mt19937_64 rng(42);
    o->a.resize(n), o->b.resize(n), o->c.resize(n), o->d.resize(n);
    for (size_t i = 0; i < n; ++i) {
      o->a[i] = one_operand(f, dist, rng);
      o->b[i] = one_operand(f, dist, rng);
      o->c[i] = one_operand(f, dist, rng);
    }
    cached = std::move(o);
    key = {&f, dist, n};
  }
  return *cached;
}

enum class Kind { add, mul, fma };

void run(benchmark::State& st, const Format& f, Kind k, Rounding r, Dist dist, size_t n, bool batch) {
  Operands& o = const_cast<Operands&>(operands(f, dist, n));
  const Policy p{r};
  const uint64_t *a = o.a.data(), *b = o.b.data(), *c = o.c.data();
  uint64_t* d = o.d.data();
  for (auto _ : st) {
    if (batch) {  // the array API: one call for the whole stream
      switch (k) {
        case Kind::add: ptxfu::fp::add_n(f, n, a, b, d, p); break;
        case Kind::mul: ptxfu::fp::mul_n(f, n, a, b, d, p); break;
        case Kind::fma: ptxfu::fp::fma_n(f, n, a, b, c, d, p); break;
      }
      benchmark::ClobberMemory();
      continue;
    }
    switch (k) {
      case Kind::add:
        for (size_t i = 0; i < n; ++i) d[i] = ptxfu::fp::add(f, a[i], b[i], p);
        break;
      case Kind::mul:
        for (size_t i = 0; i < n; ++i) d[i] = ptxfu::fp::mul(f, a[i], b[i], p);
        break;
      case Kind::fma:
        for (size_t i = 0; i < n; ++i) d[i] = ptxfu::fp::fma(f, a[i], b[i], c[i], p);
        break;
    }
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * n));
}

// std::fma over a fresh stream of values near 1, each result stored.
template <class T>
void host_fma(benchmark::State& st) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<T> dist(-4, 4);
  std::vector<T> a(kStream), b(kStream), c(kStream), d(kStream);
  for (size_t i = 0; i < kStream; ++i) a[i] = dist(rng), b[i] = dist(rng), c[i] = dist(rng);
  for (auto _ : st) {
    for (size_t i = 0; i < kStream; ++i) d[i] = std::fma(a[i], b[i], c[i]);
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(d.data());
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * kStream));
}

int register_all() {
  const struct {
    const char* name;
    const Format* f;
  } formats[] = {
      {"f16", &ptxfu::fp::kF16}, {"bf16", &ptxfu::fp::kBF16}, {"f32", &ptxfu::fp::kF32}, {"f64", &ptxfu::fp::kF64}};
  const struct {
    const char* name;
    Kind k;
  } kinds[] = {{"add", Kind::add}, {"mul", Kind::mul}, {"fma", Kind::fma}};
  const struct {
    const char* prefix;
    Dist dist;
    size_t n;
  } layouts[] = {{"stream/uniform", Dist::uniform, kStream},
                 {"stream/near1", Dist::near1, kStream},
                 {"ws4096/near1", Dist::near1, kWorkingSet}};
  // Grouped by layout and format, so that one stream serves its benchmarks.
  // batch/...: the same streams through the array API (fp::add_n, mul_n,
  // fma_n), the row, mode and policy dispatched once per call.
  for (const bool batch : {false, true})
    for (const auto& lay : layouts)
      for (const auto& fm : formats)
        for (const auto& kd : kinds)
          for (Rounding r : {Rounding::rn, Rounding::rz}) {
            const std::string name = std::string(batch ? "batch/" : "") + lay.prefix + "/" + kd.name + "/" + fm.name +
                                     "/" + (r == Rounding::rn ? "rn" : "rz");
            const Format* f = fm.f;
            const Kind k = kd.k;
            const Dist dist = lay.dist;
            const size_t n = lay.n;
            benchmark::RegisterBenchmark(
                name.c_str(), [f, k, r, dist, n, batch](benchmark::State& st) { run(st, *f, k, r, dist, n, batch); });
          }
  benchmark::RegisterBenchmark("host/stream/fma/f32", host_fma<float>);
  benchmark::RegisterBenchmark("host/stream/fma/f64", host_fma<double>);
  return 0;
}
const int kRegistered = register_all();

}  // namespace

BENCHMARK_MAIN();
