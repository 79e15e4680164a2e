#include "mma/block_fma.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <stdexcept>

#include "fp/ops.h"

namespace ptxfu::mma {
namespace {

using fp::Class;
using fp::Format;

// The longest K one instruction deals to its blocks (k64 for 4-bit types),
// the widest block.
constexpr std::size_t kMaxDealt = 64;
constexpr int kMaxBlock = 64;

// One addend of a block: (-1)^neg * sig * 2^lsb.
struct Addend {
  uint64_t sig;
  int lsb;
  bool neg;
};

// A block's products and the largest exponent the nonzero ones align to (a
// product's is the sum of its factors' exponent fields, its significand
// lying in [0, 4); subnormals count at emin); c apart.
struct Block {
  Addend add[kMaxBlock + 1];  // the products, then c (at add[count], not counted)
  int count = 0;
  int emax = INT_MIN;
  bool nonzero = false;  // a nonzero product among them
  bool has_c = false;
  int c_exp = 0;
};

// A row's encoding constants, read once a block instead of once an element.
struct Fields {
  int frac_bits;
  int bias;
  unsigned all_ones;  // the exponent field's largest value
  uint64_t frac_mask, sign_bit;
  bool top_is_special;  // all-ones exponent: inf/NaN (ieee) or NaN at all-ones fraction (finite_nan)
  bool ieee;
  bool flush;  // subnormals read as zeros (rows without subnormals)
  Fields(const Format& f, bool subnormals)
      : frac_bits(f.frac_bits),
        bias(f.bias()),
        all_ones((1u << f.exp_bits) - 1),
        frac_mask(f.frac_mask()),
        sign_bit(f.sign_mask()),
        top_is_special(f.specials == fp::Specials::ieee || f.specials == fp::Specials::finite_nan),
        ieee(f.specials == fp::Specials::ieee),
        flush(!subnormals) {}
};

// A finite encoding as significand (implicit bit included) and exponent
// field value (subnormals at emin); false for inf and NaN. Branchless on
// the normal/subnormal split: random data mispredicts it.
[[gnu::always_inline]] inline bool decode(const Fields& f, uint64_t bits, uint64_t* sig, int* exp) {
  const unsigned field = static_cast<unsigned>(bits >> f.frac_bits) & f.all_ones;
  const uint64_t frac = bits & f.frac_mask;
  if (field == f.all_ones && f.top_is_special && (f.ieee || frac == f.frac_mask)) return false;
  const uint64_t normal = field != 0;
  const uint64_t keep = normal | static_cast<uint64_t>(!f.flush);  // 1: the significand stands
  *sig = (frac | normal << f.frac_bits) & (0 - keep);
  *exp = static_cast<int>(field | static_cast<unsigned>(!normal)) - f.bias;
  return true;
}

// What the specials of a block make of it: NaN operands and inf * 0 give
// the canonical NaN, infinities of both signs too, else the infinity.
uint64_t special_result(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c) {
  const Format& in = *format_of(row.datapath_in);
  const Format& out = *format_of(row.out);
  bool nan = false, pos_inf = false, neg_inf = false;
  const auto inf = [&](bool neg) { (neg ? neg_inf : pos_inf) = true; };
  for (std::size_t k = 0; k < n; ++k) {
    const fp::Unpacked x = fp::unpack(in, a[k]), y = fp::unpack(in, b[k]);
    if (x.cls == Class::nan || y.cls == Class::nan)
      nan = true;
    else if (x.cls != Class::inf && y.cls != Class::inf)
      continue;
    else if (x.cls == Class::zero || y.cls == Class::zero)
      nan = true;
    else
      inf(x.sign != y.sign);
  }
  const fp::Unpacked z = fp::unpack(out, c);
  if (z.cls == Class::nan) nan = true;
  if (z.cls == Class::inf) inf(z.sign);
  return nan || (pos_inf && neg_inf) ? out.nan() : out.inf(neg_inf);
}

// The row's input and output fields.
struct RowFields {
  Fields in, out;
  const Format& out_format;
  RowFields(const Format& in_format, const Format& out_format, bool subnormals)
      : in(in_format, subnormals), out(out_format, subnormals), out_format(out_format) {}
};

// The finite addends of one block, or false when an operand is
// inf or NaN.
bool gather(const RowFields& f, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c, Block* out) {
  const Fields& in = f.in;
  const Fields& of = f.out;
  bool special = false;
  for (std::size_t k = 0; k < n; ++k) {
    uint64_t sa = 0, sb = 0;
    int ea = 0, eb = 0;
    const bool a_finite = decode(in, a[k], &sa, &ea);
    const bool b_finite = decode(in, b[k], &sb, &eb);
    special |= !(a_finite && b_finite);
    // Zero products are kept (they add 0) but take no part in emax: no
    // data-dependent branch.
    const uint64_t sig = sa * sb;
    const bool neg = ((a[k] ^ b[k]) & in.sign_bit) != 0;
    out->add[out->count++] = {sig, ea + eb - 2 * in.frac_bits, neg};
    out->emax = std::max(out->emax, sig != 0 ? ea + eb : INT_MIN);
    out->nonzero |= sig != 0;
  }
  uint64_t sc = 0;
  special |= !decode(of, c, &sc, &out->c_exp);
  const bool c_neg = (c & of.sign_bit) != 0;
  out->has_c = sc != 0;
  out->add[out->count] = {sc, out->c_exp - of.frac_bits, c_neg};
  return !special;
}

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
Sum aligned_sum(const NumericsRow& row, const Addend* add, int count, int emax) {
  const int grid = emax - row.kept_bits;  // the exponent of the last kept bit
  int64_t sum = 0;
  for (int i = 0; i < count; ++i) {
    // Branchless alignment: the shift's direction and the sign depend on
    // the data. left < 2^62 (kept + carry bits), so >> 63 clears it; a
    // zero product's shift may be anything, hence the clamp.
    const int shift = add[i].lsb - grid;
    const uint64_t left = add[i].sig << std::clamp(shift, 0, 63);
    const uint64_t m = left >> std::min(std::max(-shift, 0), 63);
    const uint64_t flip = 0 - static_cast<uint64_t>(add[i].neg);
    sum += static_cast<int64_t>((m ^ flip) - flip);
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

// One block: c plus at most row.block_width products. A zero result is +0
// (H100 probe, docs/mma.md): the block sums as a signed fixed-point number,
// which has no -0 (all addends -0, tf32 m16n8k4), and a negative sum that
// rounds to zero leaves no sign behind (f16 m16n8k16 -> f16).
uint64_t block_result(const NumericsRow& row, const RowFields& f, std::size_t n, const uint64_t* a, const uint64_t* b,
                      uint64_t c) {
  const Format& of = f.out_format;
  Block blk;
  if (!gather(f, n, a, b, c, &blk)) return special_result(row, n, a, b, c);
  if (!blk.nonzero && !blk.has_c) return of.zero(false);
  if (blk.has_c) ++blk.count, blk.emax = std::max(blk.emax, blk.c_exp);
  const Sum p = aligned_sum(row, blk.add, blk.count, blk.emax);
  if (p.mag == 0) return of.zero(false);
  const uint64_t d = pack(of, p.neg, p.lsb, p.mag, false, row.out_rounding);
  return (d & ~of.sign_mask()) == 0 ? of.zero(false) : d;
}

// The block result, subnormals flushed to zero where the row has none.
uint64_t one_block(const NumericsRow& row, const RowFields& f, std::size_t n, const uint64_t* a, const uint64_t* b,
                   uint64_t c) {
  const uint64_t d = block_result(row, f, n, a, b, c);
  const Format& of = f.out_format;
  return !row.subnormals && fp::is_subnormal(of, d) ? of.zero(false) : d;
}

// The operands widened (exactly) to the row's datapath format where it
// differs from the input format; a and b then point into the buffers.
void widen(const NumericsRow& row, std::size_t n, const uint64_t*& a, const uint64_t*& b, uint64_t* a_buf,
           uint64_t* b_buf) {
  if (row.datapath_in == row.in) return;
  const Format& from = *format_of(row.in);
  const Format& to = *format_of(row.datapath_in);
  for (std::size_t k = 0; k < n; ++k) a_buf[k] = fp::convert(from, to, a[k]), b_buf[k] = fp::convert(from, to, b[k]);
  a = a_buf, b = b_buf;
}

// Deals the k of one instruction to row.k_split datapath instructions of
// n / k_split each, as row.k_group says (see numerics.h); a and b then point
// into the buffers, in instruction order. Returns the k of one datapath
// instruction (n when nothing is dealt).
std::size_t deal(const NumericsRow& row, std::size_t n, const uint64_t*& a, const uint64_t*& b, uint64_t* a_buf,
                 uint64_t* b_buf) {
  const auto split = static_cast<std::size_t>(row.k_split);
  const auto group = static_cast<std::size_t>(row.k_group);
  if (group == 0 || split < 2 || n % (split * group) != 0) return n;
  const std::size_t step = n / split;
  std::size_t filled[kMaxDealt] = {};
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t to = (k / group) % split;
    const std::size_t at = to * step + filled[to]++;
    a_buf[at] = a[k];
    b_buf[at] = b[k];
  }
  a = a_buf, b = b_buf;
  return step;
}

uint64_t float_chain(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c,
                     BlockObserver* observer) {
  if (row.block_width < 1 || row.block_width > kMaxBlock || row.kept_bits + row.carry_bits > 62)
    throw std::invalid_argument("numerics row: block width outside 1..64 or kept bits beyond the 64-bit sum");
  if ((row.datapath_in != row.in || row.k_group != 0) && n > kMaxDealt)
    throw std::invalid_argument("numerics row: one instruction's K is at most 64");
  uint64_t wide_a[kMaxDealt], wide_b[kMaxDealt], dealt_a[kMaxDealt], dealt_b[kMaxDealt];
  widen(row, n, a, b, wide_a, wide_b);
  const std::size_t step = deal(row, n, a, b, dealt_a, dealt_b);
  const Format& of = *format_of(row.out);
  const RowFields fields(*format_of(row.datapath_in), of, row.subnormals);
  const bool c_apart = row.c_align == CAlign::separate;
  const auto width = static_cast<std::size_t>(row.block_width);
  uint64_t acc = c_apart ? of.zero(false) : c;
  for (std::size_t s = 0; s < n; s += step) {  // each datapath instruction, in blocks of width
    for (std::size_t k = s; k < s + step; k += width) {
      const std::size_t len = std::min(width, s + step - k);
      const uint64_t d = one_block(row, fields, len, a + k, b + k, acc);
      if (observer) observer->block(row, len, a + k, b + k, acc, d);
      acc = d;
    }
  }
  return c_apart ? fp::add(of, acc, c, fp::Policy{row.c_rounding}) : acc;
}

// NaN operands propagate (fp::NanMode::propagate); a NaN made by an invalid
// operation is the row's invalid_nan.
uint64_t fma_chain(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c) {
  const Format& f = *format_of(row.out);
  fp::Policy ieee{};
  ieee.nan = fp::NanMode::propagate;
  for (std::size_t k = 0; k < n; ++k) {
    const bool nan_in = fp::is_nan(f, a[k]) || fp::is_nan(f, b[k]) || fp::is_nan(f, c);
    c = fp::fma(f, a[k], b[k], c, ieee);
    if (!nan_in && fp::is_nan(f, c)) c = row.invalid_nan;
  }
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
                   bool satfinite, BlockObserver* observer) {
  switch (row.method) {
    case Method::block_fma: return float_chain(row, n, a, b, c, observer);
    case Method::fma_chain: return fma_chain(row, n, a, b, c);
    case Method::integer: return int_chain(row, n, a, b, c, satfinite);
    case Method::block_scaled: throw std::invalid_argument("a block-scaled row needs its scale factors");
  }
  return 0;
}

}  // namespace ptxfu::mma
