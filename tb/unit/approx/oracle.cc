#include "oracle.h"

#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace ptxfu::test {
namespace {

struct Mp {
  mpfr_t v;
  Mp() { mpfr_init2(v, 128); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

}  // namespace

long double mpfr_ref(RefFn fn, long double x) {
  thread_local Mp a;
  thread_local Mp r;
  mpfr_set_ld(a.v, x, MPFR_RNDN);
  switch (fn) {
    case RefFn::rcp: mpfr_ui_div(r.v, 1, a.v, MPFR_RNDN); break;
    case RefFn::sqrt: mpfr_sqrt(r.v, a.v, MPFR_RNDN); break;
    case RefFn::rsqrt: mpfr_rec_sqrt(r.v, a.v, MPFR_RNDN); break;
    case RefFn::sin: mpfr_sin(r.v, a.v, MPFR_RNDN); break;
    case RefFn::cos: mpfr_cos(r.v, a.v, MPFR_RNDN); break;
    case RefFn::lg2: mpfr_log2(r.v, a.v, MPFR_RNDN); break;
    case RefFn::ex2: mpfr_exp2(r.v, a.v, MPFR_RNDN); break;
    case RefFn::tanh: mpfr_tanh(r.v, a.v, MPFR_RNDN); break;
  }
  return mpfr_get_ld(r.v, MPFR_RNDN);
}

long double mpfr_div_ref(long double a, long double b) {
  thread_local Mp x;
  thread_local Mp y;
  thread_local Mp r;
  mpfr_set_ld(x.v, a, MPFR_RNDN);
  mpfr_set_ld(y.v, b, MPFR_RNDN);
  mpfr_div(r.v, x.v, y.v, MPFR_RNDN);
  return mpfr_get_ld(r.v, MPFR_RNDN);
}

long double value_of(const fp::Format& f, uint64_t bits) {
  const fp::Unpacked u = fp::unpack(f, bits);
  long double v = 0;
  if (u.cls == fp::Class::inf)
    v = INFINITY;
  else if (u.cls == fp::Class::nan)
    v = NAN;
  else if (u.cls != fp::Class::zero)
    v = std::ldexp(static_cast<long double>(u.sig), u.exp);
  return u.sign ? -v : v;
}

long double ulp_of(const fp::Format& f, long double v) {
  int e = 0;
  std::frexp(std::fabs(v), &e);  // |v| in [2^(e-1), 2^e)
  int lead = e - 1;
  if (v == 0 || lead < f.emin()) lead = f.emin();
  if (lead > f.emax()) lead = f.emax();
  return std::ldexp(1.0L, lead - f.frac_bits);
}

std::string pow2_str(long double err) {
  if (err <= 0) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "2^%.2f", static_cast<double>(std::log2(err)));
  return buf;
}

std::vector<uint32_t> f32_inputs(uint64_t seed, size_t n, const std::vector<float>& dense,
                                 const std::vector<Interval>& intervals, bool (*keep)(uint32_t)) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> out;
  out.reserve(n);
  const auto push = [&out, keep](uint32_t b) {
    if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0) return;  // NaN
    if (keep && !keep(b)) return;
    out.push_back(b);
  };
  // Runs around the dense points: 2000 consecutive patterns on each side.
  for (float p : dense) {
    uint32_t b;
    std::memcpy(&b, &p, 4);
    for (uint32_t k = 0; k < 2000; ++k) {
      push(b + k);
      if (b - k - 1 < b) push(b - k - 1);
      // the same magnitude with the other sign
      push((b + k) ^ 0x80000000u);
    }
  }
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  while (out.size() < n) {
    if (rng() & 1) {
      push(static_cast<uint32_t>(rng()));
    } else {
      const Interval& iv = intervals[rng() % intervals.size()];
      const float v = static_cast<float>(iv.lo + (double{iv.hi} - iv.lo) * uni(rng));
      uint32_t b;
      std::memcpy(&b, &v, 4);
      push(b);
    }
  }
  return out;
}

}  // namespace ptxfu::test
