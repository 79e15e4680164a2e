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
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

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
bool have_avx2_f16c() {
  // F16C from CPUID (clang's __builtin_cpu_supports does not name it);
  // "avx2" includes the operating system's support for the AVX state.
  const auto f16c = [] {
    unsigned eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
  };
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c();
  return yes;
}

// ---- f16 and bf16 under the plain policy, four elements at a time (AVX2,
// F16C). The value is the exact one of fast_path.h's path 1 (operands
// exact in binary64; products exact; TwoSum where a sum may not be), then
// rounded to odd twice, to binary64 and to binary32, and once, in the
// mode, to the 16-bit format:
//  - round to odd (RO) keeps the sticky information in the last bit; for
//    precisions q >= p + 2, rounding RO_q(x) to p bits in any mode gives the
//    rounding of x (Boldo & Melquiond 2008), and RO_24(RO_53(x)) = RO_24(x).
//    binary32 has at least 2 more bits than f16 (11) and bf16 (8) at every
//    magnitude where their values lie, subnormals included (its quantum is
//    2^-149; theirs 2^-24 and 2^-133), and its range covers theirs; a value
//    beyond binary32's largest becomes FLT_MAX (odd), which rounds as the
//    value would (overflow in every mode).
//  - RO_53: s, or its neighbour towards s + t when t != 0 and s is even
//    (round_sum's step 1); RO_24: the host's conversion (round to nearest),
//    then, when inexact and even, one step back towards the double.
//  - to f16: VCVTPS2PH with the mode as its immediate (IEEE conversion,
//    subnormals and overflow included); to bf16: the increment of
//    round_pack on the top 16 bits of the binary32 pattern.
//  - special operands: the host arithmetic gives the IEEE special results
//    (NaN for inf * 0 and inf - inf; t is then NaN, and the ordered
//    compares below leave s alone); NaN results become the canonical NaN.
//  - exact zero sums: the host gives IEEE's sign for rn, rz, rp; rm gives
//    -0 unless both terms are +0 (round_sum's step 0). Products keep their
//    sign in every mode.
// The last n % 4 elements take the scalar path.
// Four 64-bit words to four doubles (the low 16 bits of each: the value).
template <bool kBrain>
[[gnu::always_inline]] inline __attribute__((target("avx2,fma,f16c"))) __m256d load4(const uint64_t* p) {
  const __m256i low32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  const __m128i w32 = _mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), low32));
  if constexpr (kBrain) return _mm256_cvtps_pd(_mm_castsi128_ps(_mm_slli_epi32(w32, 16)));
  return _mm256_cvtps_pd(_mm_cvtph_ps(_mm_packus_epi32(w32, w32)));
}

template <Kind K, Rounding M, bool kBrain>
__attribute__((target("avx2,fma,f16c"))) void half_kernel(size_t n, const uint64_t* a, const uint64_t* b,
                                                          const uint64_t* c, uint64_t* d) {
  const __m256i low32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  const __m256d zero = _mm256_setzero_pd();
  const __m256i one64 = _mm256_set1_epi64x(1);
  const __m256d abs_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
  const __m256d sign_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(static_cast<int64_t>(0x8000000000000000)));
  const Format& g = kBrain ? kBF16 : kF16;
  const Policy plain{M};
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d x = load4<kBrain>(a + i), y = load4<kBrain>(b + i);
    __m256d u, v;  // the exact value is u + v
    if constexpr (K == Kind::mul) {
      u = _mm256_mul_pd(x, y);
      v = zero;
    } else {
      __m256d p, q;
      if constexpr (K == Kind::fma) {
        p = _mm256_mul_pd(x, y);
        q = load4<kBrain>(c + i);
      } else {
        p = x;
        q = K == Kind::sub ? _mm256_xor_pd(y, sign_mask) : y;
      }
      u = _mm256_add_pd(p, q);
      if (kBrain || K == Kind::fma) {  // TwoSum; f16 sums of two operands are exact (pair_sum_exact)
        const __m256d yy = _mm256_sub_pd(u, p);
        v = _mm256_add_pd(_mm256_sub_pd(p, _mm256_sub_pd(u, yy)), _mm256_sub_pd(q, yy));
      } else {
        v = zero;
      }
      if constexpr (M == Rounding::rm) {  // an exact zero sum is -0 unless both terms are +0
        const __m256d z = _mm256_cmp_pd(u, zero, _CMP_EQ_OQ);
        const __m256i pq = _mm256_or_si256(_mm256_castpd_si256(p), _mm256_castpd_si256(q));
        const __m256d nonzero = _mm256_castsi256_pd(
            _mm256_xor_si256(_mm256_cmpeq_epi64(pq, _mm256_setzero_si256()), _mm256_set1_epi64x(-1)));
        u = _mm256_blendv_pd(u, _mm256_and_pd(nonzero, sign_mask), z);
      }
    }
    // RO_53: s, or its neighbour towards s + t when t != 0 and s is even.
    __m256i ub = _mm256_castpd_si256(u);
    {
      const __m256i inexact = _mm256_castpd_si256(_mm256_cmp_pd(v, zero, _CMP_NEQ_OQ));
      const __m256i even = _mm256_cmpeq_epi64(_mm256_and_si256(ub, one64), _mm256_setzero_si256());
      const __m256i same = _mm256_cmpgt_epi64(  // sign(t) == sign(s): +1, else -1
          _mm256_setzero_si256(),
          _mm256_xor_si256(_mm256_castpd_si256(v), _mm256_xor_si256(ub, _mm256_set1_epi64x(-1))));
      const __m256i step =
          _mm256_or_si256(_mm256_and_si256(same, one64), _mm256_andnot_si256(same, _mm256_set1_epi64x(-1)));
      ub = _mm256_add_epi64(ub, _mm256_and_si256(_mm256_and_si256(inexact, even), step));
    }
    const __m256d dd = _mm256_castsi256_pd(ub);
    // RO_24: the host's conversion, then one step back towards dd when
    // inexact and even.
    __m128 f = _mm256_cvtpd_ps(dd);
    {
      const __m256d back = _mm256_cvtps_pd(f);
      const __m256d inexact = _mm256_cmp_pd(back, dd, _CMP_NEQ_OQ);
      const __m256d above = _mm256_cmp_pd(_mm256_and_pd(dd, abs_mask), _mm256_and_pd(back, abs_mask), _CMP_GT_OQ);
      const __m128i inexact32 =
          _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(inexact), low32));
      const __m128i above32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(above), low32));
      const __m128i fb = _mm_castps_si128(f);
      const __m128i even = _mm_cmpeq_epi32(_mm_and_si128(fb, _mm_set1_epi32(1)), _mm_setzero_si128());
      const __m128i step =
          _mm_or_si128(_mm_and_si128(above32, _mm_set1_epi32(1)), _mm_andnot_si128(above32, _mm_set1_epi32(-1)));
      f = _mm_castsi128_ps(_mm_add_epi32(fb, _mm_and_si128(_mm_and_si128(inexact32, even), step)));
    }
    __m128i h;  // four results, 16 bits each in the low 64 bits
    if constexpr (kBrain) {
      const __m128i fb = _mm_castps_si128(f);
      __m128i inc = _mm_setzero_si128();
      const __m128i neg = _mm_srai_epi32(fb, 31);
      if constexpr (M == Rounding::rn)
        inc = _mm_add_epi32(_mm_set1_epi32(0x7fff), _mm_and_si128(_mm_srli_epi32(fb, 16), _mm_set1_epi32(1)));
      if constexpr (M == Rounding::rm) inc = _mm_and_si128(neg, _mm_set1_epi32(0xffff));
      if constexpr (M == Rounding::rp) inc = _mm_andnot_si128(neg, _mm_set1_epi32(0xffff));
      __m128i r = _mm_srli_epi32(_mm_add_epi32(_mm_and_si128(fb, _mm_set1_epi32(0x7fffffff)), inc), 16);
      r = _mm_or_si128(r, _mm_and_si128(_mm_srli_epi32(fb, 16), _mm_set1_epi32(0x8000)));
      const __m128i nan = _mm_cmpgt_epi32(_mm_and_si128(fb, _mm_set1_epi32(0x7fffffff)), _mm_set1_epi32(0x7f800000));
      r = _mm_blendv_epi8(r, _mm_set1_epi32(0x7fff), nan);
      h = _mm_packus_epi32(r, r);
    } else {
      constexpr int kImm = M == Rounding::rn   ? _MM_FROUND_TO_NEAREST_INT
                           : M == Rounding::rm ? _MM_FROUND_TO_NEG_INF
                           : M == Rounding::rp ? _MM_FROUND_TO_POS_INF
                                               : _MM_FROUND_TO_ZERO;
      h = _mm_cvtps_ph(f, kImm);
      const __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, _mm_set1_epi16(0x7fff)), _mm_set1_epi16(0x7c00));
      h = _mm_blendv_epi8(h, _mm_set1_epi16(0x7fff), nan);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm256_cvtepu16_epi64(h));
  }
  for (; i < n; ++i) d[i] = element<K>(g, M, plain, a[i], b[i], K == Kind::fma ? c[i] : 0);
}

template <Kind K, bool kBrain>
bool half_simd(Rounding m, size_t n, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d) {
  // The kernel reads four words before writing four: in place is fine,
  // other overlaps are not.
  const auto overlaps = [&](const uint64_t* s) { return s != d && s && s < d + n && d < s + n; };
  if (!have_avx2_f16c() || overlaps(a) || overlaps(b) || overlaps(c)) return false;
  switch (m) {
    case Rounding::rn: half_kernel<K, Rounding::rn, kBrain>(n, a, b, c, d); break;
    case Rounding::rz: half_kernel<K, Rounding::rz, kBrain>(n, a, b, c, d); break;
    case Rounding::rm: half_kernel<K, Rounding::rm, kBrain>(n, a, b, c, d); break;
    case Rounding::rp: half_kernel<K, Rounding::rp, kBrain>(n, a, b, c, d); break;
  }
  return true;
}
#else
void host_fma_rn(const Format&, size_t, const uint64_t*, const uint64_t*, const uint64_t*, uint64_t*) {}
bool have_fma3() { return false; }
template <Kind K, bool kBrain>
bool half_simd(Rounding, size_t, const uint64_t*, const uint64_t*, const uint64_t*, uint64_t*) {
  return false;
}
#endif

// Whether the SIMD kernels may be used (tests turn them off to check the
// portable loops against the same oracle).
bool simd_enabled = true;

template <Kind K>
void run(const Format& f, size_t n, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d,
         const Policy& p) {
  if (K == Kind::fma && simd_enabled && p.plain() && p.rnd == Rounding::rn && fast::opted_in(f) &&
      (fast::same(f, kF32) || fast::same(f, kF64)) && have_fma3()) {
    host_fma_rn(f, n, a, b, c, d);
    return;
  }
  if (simd_enabled && p.plain() && fast::opted_in(f)) {
    if (fast::same(f, kF16) && half_simd<K, false>(p.rnd, n, a, b, c, d)) return;
    if (fast::same(f, kBF16) && half_simd<K, true>(p.rnd, n, a, b, c, d)) return;
  }
  fast::by_format(
      f, [&](const Format& g) __attribute__((always_inline)) {
        return fast::by_rounding(
            p.rnd, [&](Rounding m) __attribute__((always_inline)) {
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

namespace detail {
bool use_array_simd(bool on) {
  const bool was = simd_enabled;
  simd_enabled = on;
  return was;
}
}  // namespace detail

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
