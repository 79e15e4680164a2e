#include "mma/block_fma.h"

#include <algorithm>
#include <cstdlib>

#include "fp/ops.h"

namespace ptxfu::mma {
namespace {

using fp::Class;
using fp::Format;

// One addend of a block: (-1)^neg * sig * 2^lsb, whose exponent for the
// alignment is `align` (the sum of the exponent fields for a product, whose
// significand lies in [0, 4); subnormals count at emin).
struct Addend {
  bool neg;
  int lsb;
  int align;
  uint64_t sig;
};

// The exponent field's value, subnormals at emin.
int field_exp(const Format& f, const fp::Unpacked& u) {
  return u.cls == Class::subnormal ? f.emin() : u.exp + f.frac_bits;
}

// What the specials of a block make of it, if any: NaN operands and
// inf * 0 give NaN, infinities of both signs NaN, else the infinity.
struct Special {
  bool any = false;
  bool nan = false;
  bool pos_inf = false;
  bool neg_inf = false;
  void add_inf(bool neg) { (neg ? neg_inf : pos_inf) = true, any = true; }
  void add_nan() { nan = true, any = true; }
  uint64_t result(const Format& out) const {
    if (nan || (pos_inf && neg_inf)) return out.nan();
    return out.inf(neg_inf);
  }
};

// Gathers the nonzero addends of one block and notes the specials. Returns
// the addend count.
int gather(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c, Addend* out,
           Special* sp, bool* all_zero_negative) {
  const Format& in = *format_of(row.in);
  const Format& of = *format_of(row.out);
  int count = 0;
  bool zero_neg = true;
  for (std::size_t k = 0; k < n; ++k) {
    const fp::Unpacked x = fp::unpack(in, a[k]);
    const fp::Unpacked y = fp::unpack(in, b[k]);
    const bool neg = x.sign != y.sign;
    if (x.cls == Class::nan || y.cls == Class::nan) {
      sp->add_nan();
    } else if (x.cls == Class::inf || y.cls == Class::inf) {
      if (x.cls == Class::zero || y.cls == Class::zero)
        sp->add_nan();
      else
        sp->add_inf(neg);
    } else if (x.cls == Class::zero || y.cls == Class::zero) {
      zero_neg = zero_neg && neg;
    } else {
      out[count++] = {neg, x.exp + y.exp, field_exp(in, x) + field_exp(in, y), x.sig * y.sig};
    }
  }
  const fp::Unpacked z = fp::unpack(of, c);
  if (z.cls == Class::nan)
    sp->add_nan();
  else if (z.cls == Class::inf)
    sp->add_inf(z.sign);
  else if (z.cls == Class::zero)
    zero_neg = zero_neg && z.sign;
  else
    out[count++] = {z.sign, z.exp, field_exp(of, z), z.sig};
  *all_zero_negative = zero_neg && count == 0;
  return count;
}

// The longest K one instruction deals to its blocks (k64 for 4-bit types),
// the widest block.
constexpr std::size_t kMaxDealt = 64;
constexpr int kMaxBlock = 64;

// Keeps the top `bits` + 1 significant bits of `mag` (truncation).
uint64_t truncate_to(uint64_t mag, int bits) {
  const int msb = 63 - __builtin_clzll(mag);
  if (msb <= bits) return mag;
  const int drop = msb - bits;
  return (mag >> drop) << drop;
}

// A block sum: (-1)^neg * mag * 2^lsb.
struct Sum {
  bool neg;
  int lsb;
  uint64_t mag;
};

// The exact sum of the addends, each aligned to the largest exponent among
// them and truncated (towards zero) to row.kept_bits below it, normalised
// and truncated to row.sum_frac_bits. mag == 0: exact cancellation.
Sum aligned_sum(const NumericsRow& row, const Addend* add, int count) {
  int emax = add[0].align;
  for (int i = 1; i < count; ++i) emax = std::max(emax, add[i].align);
  const int grid = emax - row.kept_bits;  // the exponent of the last kept bit
  int64_t sum = 0;
  for (int i = 0; i < count; ++i) {
    const int shift = add[i].lsb - grid;
    const uint64_t m = shift >= 0 ? add[i].sig << shift : (-shift >= 64 ? 0 : add[i].sig >> -shift);
    sum += add[i].neg ? -static_cast<int64_t>(m) : static_cast<int64_t>(m);
  }
  const bool neg = sum < 0;
  const uint64_t mag = neg ? 0 - static_cast<uint64_t>(sum) : static_cast<uint64_t>(sum);
  return {neg, grid, mag == 0 ? 0 : truncate_to(mag, row.sum_frac_bits)};
}

// The block result: beyond the output's range it is the infinity, whatever
// the rounding (Khattak & Mikaitis' model: an all-ones exponent after
// rounding is infinity).
template <typename Sig>
uint64_t pack(const Format& out, bool neg, int lsb, Sig mag, bool sticky, fp::Rounding rnd) {
  const uint64_t bits = fp::round_pack(out, neg, lsb, mag, sticky, rnd);
  return (bits & ~out.sign_mask()) == out.max_finite(false) && lsb + fp::detail::msb_index(mag) > out.emax()
             ? out.inf(neg)
             : bits;
}

// x + y rounded once to `out` (CAlign::separate: the products' sum meets c
// in one IEEE addition). Both nonzero.
uint64_t add_rounded(const Format& out, Sum x, Sum y, fp::Rounding rnd) {
  if (x.lsb + 63 - __builtin_clzll(x.mag) < y.lsb + 63 - __builtin_clzll(y.mag)) std::swap(x, y);
  // x is the larger in exponent: x's bits go to the top of 128, y's below
  // the bottom (more than 56 bits below x's leading bit) become a sticky bit.
  const int lsb = std::max(std::min(x.lsb, y.lsb), x.lsb + (63 - __builtin_clzll(x.mag)) - 120);
  const fp::u128 big = static_cast<fp::u128>(x.mag) << (x.lsb - lsb);
  const int drop = lsb - y.lsb;
  const fp::u128 small = drop <= 0 ? static_cast<fp::u128>(y.mag) << -drop : drop >= 64 ? 0 : y.mag >> drop;
  const bool sticky = drop > 0 && (drop >= 64 || (y.mag & ((uint64_t{1} << drop) - 1)) != 0);
  if (x.neg == y.neg) return pack(out, x.neg, lsb, big + small, sticky, rnd);
  if (big == small && !sticky) return out.zero(rnd == fp::Rounding::rm);
  // The dropped bits of y lower the difference: big - small - 1 plus a fraction.
  return pack(out, x.neg, lsb, big - small - (sticky ? 1 : 0), sticky, rnd);
}

// One block: c plus at most row.block_width products.
uint64_t one_block(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c) {
  const Format& of = *format_of(row.out);
  Addend add[kMaxBlock + 1];
  Special sp;
  bool zero_neg = false;
  const bool c_apart = row.c_align == CAlign::separate;
  int count = gather(row, n, a, b, c, add, &sp, &zero_neg);
  if (sp.any) return sp.result(of);
  if (count == 0) return of.zero(zero_neg);
  const fp::Unpacked cu = fp::unpack(of, c);
  const bool c_last = cu.cls != Class::zero;  // gather put c last
  if (c_apart && c_last) --count;
  if (count == 0) return c;
  const Sum p = aligned_sum(row, add, count);
  if (c_apart && c_last && p.mag != 0) return add_rounded(of, p, {cu.sign, cu.exp, cu.sig}, row.out_rounding);
  if (c_apart && c_last) return c;
  if (p.mag == 0) return of.zero(false);  // exact cancellation: +0, as IEEE addition in RN and RZ
  return pack(of, p.neg, p.lsb, p.mag, false, row.out_rounding);
}

// Deals the k of one instruction to its blocks as row.k_group says (see
// numerics.h): on return a and b are in block order.
void deal(const NumericsRow& row, std::size_t n, const uint64_t*& a, const uint64_t*& b, uint64_t* a_buf,
          uint64_t* b_buf) {
  const auto width = static_cast<std::size_t>(row.block_width);
  const auto group = static_cast<std::size_t>(row.k_group);
  if (group == 0 || n <= width || n > kMaxDealt || n % width != 0 || width % group != 0) return;
  const std::size_t blocks = n / width;
  std::size_t filled[kMaxDealt] = {};
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t blk = (k / group) % blocks;
    const std::size_t at = blk * width + filled[blk]++;
    a_buf[at] = a[k];
    b_buf[at] = b[k];
  }
  a = a_buf;
  b = b_buf;
}

uint64_t float_chain(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c) {
  const auto width = static_cast<std::size_t>(row.block_width);
  uint64_t a_buf[kMaxDealt], b_buf[kMaxDealt];
  deal(row, n, a, b, a_buf, b_buf);
  for (std::size_t k = 0; k < n; k += width) c = one_block(row, std::min(width, n - k), a + k, b + k, c);
  return c;
}

uint64_t fma_chain(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c) {
  const Format& f = *format_of(row.out);
  const fp::Policy ieee{};
  for (std::size_t k = 0; k < n; ++k) c = fp::fma(f, a[k], b[k], c, ieee);
  return c;
}

// An integer element's value from its zero-extended bits.
int64_t int_value(Elem e, uint64_t bits) {
  switch (e) {
    case Elem::s8: return static_cast<int8_t>(bits & 0xff);
    case Elem::u8: return static_cast<int64_t>(bits & 0xff);
    case Elem::s4: return static_cast<int64_t>((bits & 0xf) ^ 0x8) - 8;
    case Elem::u4: return static_cast<int64_t>(bits & 0xf);
    default: return static_cast<int32_t>(bits & 0xffffffff);
  }
}

uint64_t int_chain(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c,
                   bool satfinite) {
  int64_t sum = int_value(Elem::s32, c);  // |sum| < 2^31 + n * 2^16: no int64 overflow
  for (std::size_t k = 0; k < n; ++k) sum += int_value(row.in, a[k]) * int_value(row.in, b[k]);
  if (satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
  return static_cast<uint32_t>(sum);
}

}  // namespace

uint64_t block_fma(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c,
                   bool satfinite) {
  switch (row.method) {
    case Method::block_fma: return float_chain(row, n, a, b, c);
    case Method::fma_chain: return fma_chain(row, n, a, b, c);
    case Method::integer: return int_chain(row, n, a, b, c, satfinite);
  }
  return 0;
}

}  // namespace ptxfu::mma
