// mma with block scaling (.kind::mxf4, .kind::mxf4nvf4): the engine of
// Method::block_scaled rows (numerics.h). The model is MMA-Sim's
// (arXiv:2511.10909) for RTX Blackwell, written here in fixed point: each run
// of row.block_width products is summed exactly and multiplied by its two
// scale factors; a run's exponent is the sum of its scales' exponents (its
// sum may lie above or below it), c's its own. Every term is aligned to the
// largest of those exponents, truncated towards zero to row.kept_bits below
// it, the terms summed exactly and the sum rounded once (RZ) to the output.
#include <algorithm>
#include <climits>
#include <stdexcept>

#include "fp/round_pack.h"
#include "mma/block_fma.h"

namespace ptxfu::mma {
namespace {

using fp::Format;

// A finite encoding of `f` as sig * 2^(exp - f.frac_bits), subnormals at
// emin; false for NaN (and inf).
bool decode(const Format& f, uint64_t bits, uint64_t* sig, int* exp) {
  if (fp::is_nan(f, bits) || (f.has_inf() && (bits & ~f.sign_mask()) == f.exp_mask())) return false;
  const int field = static_cast<int>((bits & f.exp_mask()) >> f.frac_bits);
  const uint64_t frac = bits & f.frac_mask();
  const bool implicit = field != 0 || f.specials == fp::Specials::unsigned_exp_only;
  *sig = implicit ? frac | (uint64_t{1} << f.frac_bits) : frac;
  *exp = std::max(field, f.min_biased()) - f.bias();
  return true;
}

// ue4m3 is e4m3 with the sign bit unread (choice: MMA-Sim takes |scale|).
const Format& scale_format(ScaleType t) { return t == ScaleType::ue8m0 ? fp::kUE8M0 : fp::kE4M3; }
uint64_t scale_bits(ScaleType t, uint64_t bits) { return t == ScaleType::ue8m0 ? bits & 0xff : bits & 0x7f; }

// One term: (-1)^neg * mag * 2^lsb, aligned at exponent `exp`.
struct Term {
  int64_t value;  // signed magnitude in units of 2^lsb
  int lsb, exp;
};

// The exact sum of one run's products in units of 2^(2 emin - 2 frac) of
// the input format (e2m1: quarters).
int64_t run_sum(const Format& in, std::size_t n, const uint64_t* a, const uint64_t* b) {
  int64_t sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    uint64_t sa = 0, sb = 0;
    int ea = 0, eb = 0;
    decode(in, a[k], &sa, &ea);  // e2m1 has no NaN or infinity
    decode(in, b[k], &sb, &eb);
    const int64_t p = static_cast<int64_t>((sa * sb) << (ea + eb - 2 * in.emin()));
    sum += ((a[k] ^ b[k]) & in.sign_mask()) ? -p : p;
  }
  return sum;
}

}  // namespace

uint64_t block_scaled_fma(const NumericsRow& row, ScaleType type, std::size_t n, const uint64_t* a, const uint64_t* b,
                          const uint64_t* scale_a, const uint64_t* scale_b, std::size_t scales, uint64_t c) {
  const auto run = static_cast<std::size_t>(row.block_width);
  if (row.method != Method::block_scaled || n > 64 || run == 0 || n % run != 0 || scales == 0 || n % scales != 0 ||
      row.kept_bits > 40)
    throw std::invalid_argument(
        "block_scaled_fma: not a block-scaled row (kept bits at most 40: the terms sum in 64 bits), or K and the "
        "scales do not fit it");
  const Format& in = *format_of(row.in);
  const Format& out = *format_of(row.out);
  const Format& sf = scale_format(type);
  Term terms[64 + 1];  // the runs, then c
  int count = 0, emax = INT_MIN;
  for (std::size_t k0 = 0; k0 < n; k0 += run) {
    const std::size_t v = k0 / (n / scales);
    uint64_t ma = 0, mb = 0;
    int xa = 0, xb = 0;
    if (!decode(sf, scale_bits(type, scale_a[v]), &ma, &xa) || !decode(sf, scale_bits(type, scale_b[v]), &mb, &xb))
      return out.nan();
    if (ma == 0 || mb == 0) continue;  // a zero scale (ue4m3): the run takes no part
    const int64_t p = run_sum(in, run, a + k0, b + k0) * static_cast<int64_t>(ma * mb);
    terms[count++] = {p, xa + xb + 2 * (in.emin() - in.frac_bits) - 2 * sf.frac_bits, xa + xb};
    emax = std::max(emax, xa + xb);
  }
  uint64_t sc = 0;
  int ec = 0;
  if (!decode(out, c, &sc, &ec)) return fp::is_nan(out, c) ? out.nan() : c;  // c = +-inf passes through
  if (sc != 0) {
    const bool neg = (c & out.sign_mask()) != 0;
    terms[count++] = {neg ? -static_cast<int64_t>(sc) : static_cast<int64_t>(sc), ec - out.frac_bits, ec};
    emax = std::max(emax, ec);
  }
  if (count == 0) return out.zero(false);
  const int grid = emax - row.kept_bits;
  int64_t sum = 0;
  for (int i = 0; i < count; ++i) {
    const int shift = terms[i].lsb - grid;
    const uint64_t mag = terms[i].value < 0 ? 0 - static_cast<uint64_t>(terms[i].value) : terms[i].value;
    const uint64_t m = shift >= 0 ? mag << shift : (-shift >= 64 ? 0 : mag >> -shift);
    sum += terms[i].value < 0 ? -static_cast<int64_t>(m) : static_cast<int64_t>(m);
  }
  if (sum == 0) return out.zero(false);
  const bool neg = sum < 0;
  const uint64_t mag = neg ? 0 - static_cast<uint64_t>(sum) : static_cast<uint64_t>(sum);
  const uint64_t d = fp::round_pack(out, neg, grid, mag, false, row.out_rounding);
  // beyond the output's range: the infinity, as the block rows (block_fma.cc)
  if ((d & ~out.sign_mask()) == out.max_finite(false) && grid + 63 - __builtin_clzll(mag) > out.emax())
    return out.inf(neg);
  return (d & ~out.sign_mask()) == 0 ? out.zero(false) : d;
}

}  // namespace ptxfu::mma
