// The array forms of add, sub, mul and fma (ops.h): one format row, one
// policy, one rounding mode for n elements. The row, the mode and whether
// the policy is plain are dispatched once per call; the loop body is the
// scalar operation with them as constants (the same inline code as add.cc,
// mul.cc and fma.cc: the same fast paths, the same generic fallbacks, the
// same apply_policy), so an array result is bit for bit the scalar one.
//
// On x86-64 hosts with FMA3 the binary32/binary64 .rn fma loops are also
// compiled for it (`target("fma")`), so that std::fma becomes the
// instruction instead of a call into libm; IEEE 754 fixes its result, and
// apply_policy canonicalises NaNs as on the portable path.
#include <cmath>

#include "fp/core.h"
#include "fp/fast_path.h"
#include "fp/ops.h"

namespace ptxfu::fp {
namespace {

enum class Kind { add, sub, mul, fma };

// One element of kind K on row g, mode m, policy p (the scalar operation).
template <Kind K>
[[gnu::always_inline]] inline uint64_t element(const Format& g, Rounding m, const Policy& p, uint64_t x, uint64_t y,
                                               uint64_t z) {
  if constexpr (K == Kind::fma) {
    return apply_policy(
        g, p,
        [&](uint64_t a, uint64_t b, uint64_t c) __attribute__((always_inline)) {
          uint64_t r;
          if (fast::try_fma(g, a, b, c, m, r)) return r;
          return generic::fma(g, a, b, c, m);
        },
        x, y, z);
  } else {
    return apply_policy(
        g, p,
        [&](uint64_t a, uint64_t b) __attribute__((always_inline)) {
          uint64_t r;
          if constexpr (K == Kind::mul) {
            if (fast::try_mul(g, a, b, m, r)) return r;
            return generic::mul(g, a, b, m);
          } else {
            if (K == Kind::sub) b ^= g.sign_mask();
            if (fast::try_add(g, a, b, m, r)) return r;
            return generic::add(g, a, b, m);
          }
        },
        x, y);
  }
}

template <Kind K>
[[gnu::always_inline]] inline void loop(const Format& g, Rounding m, const Policy& p, size_t n, const uint64_t* a,
                                        const uint64_t* b, const uint64_t* c, uint64_t* d) {
  for (size_t i = 0; i < n; ++i) d[i] = element<K>(g, m, p, a[i], b[i], K == Kind::fma ? c[i] : 0);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// binary32/binary64 fma .rn under the plain policy, with the FMA3 instruction.
__attribute__((target("fma"))) void host_fma_rn(const Format& g, size_t n, const uint64_t* a, const uint64_t* b,
                                                 const uint64_t* c, uint64_t* d) {
  const Policy plain{Rounding::rn};
  if (fast::host_binary32(g))
    for (size_t i = 0; i < n; ++i) d[i] = element<Kind::fma>(kF32, Rounding::rn, plain, a[i], b[i], c[i]);
  else
    for (size_t i = 0; i < n; ++i) d[i] = element<Kind::fma>(kF64, Rounding::rn, plain, a[i], b[i], c[i]);
}
bool have_fma3() {
  static const bool yes = __builtin_cpu_supports("fma");
  return yes;
}
#else
void host_fma_rn(const Format&, size_t, const uint64_t*, const uint64_t*, const uint64_t*, uint64_t*) {}
bool have_fma3() { return false; }
#endif

template <Kind K>
void run(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d,
         const Policy& p) {
  if (K == Kind::fma && p.plain() && p.rnd == Rounding::rn && fast::opted_in(f) &&
      (fast::same(f, kF32) || fast::same(f, kF64)) && have_fma3()) {
    host_fma_rn(f, n, a, b, c, d);
    return;
  }
  fast::by_format(f, [&](const Format& g) __attribute__((always_inline)) {
    return fast::by_rounding(p.rnd, [&](Rounding m) __attribute__((always_inline)) {
      if (p.plain()) {
        const Policy plain{m};  // a constant: the policy folds away
        loop<K>(g, m, plain, n, a, b, c, d);
      } else {
        loop<K>(g, m, p, n, a, b, c, d);
      }
      return uint64_t{0};
    });
  });
}

}  // namespace

void add_n(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, uint64_t* d, const Policy& p) {
  run<Kind::add>(f, n, a, b, nullptr, d, p);
}
void sub_n(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, uint64_t* d, const Policy& p) {
  run<Kind::sub>(f, n, a, b, nullptr, d, p);
}
void mul_n(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, uint64_t* d, const Policy& p) {
  run<Kind::mul>(f, n, a, b, nullptr, d, p);
}
void fma_n(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d,
           const Policy& p) {
  run<Kind::fma>(f, n, a, b, c, d, p);
}

}  // namespace ptxfu::fp
