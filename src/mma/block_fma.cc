#include "mma/block_fma.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "fp/ops.h"

namespace ptxfu::mma {
namespace {

using fp::Class;
using fp::Format;

// The longest K one instruction deals to its blocks (k64 for 4-bit types),
// the widest block.
constexpr std::size_t kMaxDealt = 64;
constexpr int kMaxBlock = 64;

// A row's encoding constants, read once a matrix instead of once an element.
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

// The exponent of a zero (and of a flushed subnormal): so far below every
// finite element's that a product with a zero factor, or a zero c, never
// sets a block's largest exponent, and no maximum needs a test for zero.
constexpr int kZeroExp = -(1 << 24);
// Below it lie only blocks whose every addend is zero.
constexpr int kNoValue = kZeroExp / 2;

// One element, decoded once for every product it enters: (-1)^neg * sig *
// 2^(exp - frac_bits), the significand with its implicit bit (0 for a zero),
// subnormals at emin; `special`: inf or NaN (sig and exp then unread).
struct Operand {
  uint32_t sig;
  int32_t exp;
  uint32_t neg;
  uint32_t special;
};

// Branchless on the normal/subnormal/zero split: random data mispredicts it.
[[gnu::always_inline]] inline Operand decode(const Fields& f, uint64_t bits) {
  const unsigned field = static_cast<unsigned>(bits >> f.frac_bits) & f.all_ones;
  const uint64_t frac = bits & f.frac_mask;
  const bool special = field == f.all_ones && f.top_is_special && (f.ieee || frac == f.frac_mask);
  const uint64_t normal = field != 0;
  const uint64_t keep = (normal | static_cast<uint64_t>(!f.flush)) & !special;  // 1: the significand stands
  const auto sig = static_cast<uint32_t>((frac | normal << f.frac_bits) & (0 - keep));
  const int exp = static_cast<int>(field | static_cast<unsigned>(!normal)) - f.bias;
  return {sig, sig != 0 ? exp : kZeroExp, (bits & f.sign_bit) != 0, special};
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

// A block-FMA row made ready for the operands of instructions of `step`
// k each: its fields, and the shifts that align an addend (see term()).
struct Engine {
  const NumericsRow& row;
  const Format& out_format;
  Fields in, out;
  std::size_t step;   // the k of one instruction
  std::size_t dstep;  // the k of one datapath instruction (row.k_split of them an instruction, or one)
  bool transformed;   // the operands are widened or dealt: the blocks read copies
  // An addend with significand lsb at exponent e - frac_bits (products:
  // e = ea + eb, 2 * frac_bits fraction bits), aligned to the grid
  // emax - kept_bits: (sig << left) >> (emax - e + right), as left - right
  // is kept_bits minus its fraction bits.
  int p_left, p_right, c_left, c_right;
  Engine(const NumericsRow& r, std::size_t s);
};

std::size_t dealt_step(const NumericsRow& row, std::size_t n) {
  const auto split = static_cast<std::size_t>(row.k_split);
  const auto group = static_cast<std::size_t>(row.k_group);
  return group == 0 || split < 2 || n % (split * group) != 0 ? n : n / split;
}

Engine::Engine(const NumericsRow& r, std::size_t s)
    : row(r),
      out_format(*format_of(r.out)),
      in(*format_of(r.datapath_in), r.subnormals),
      out(out_format, r.subnormals),
      step(s),
      dstep(dealt_step(r, s)),
      transformed(r.datapath_in != r.in || dstep != s) {
  const int p_shift = r.kept_bits - 2 * in.frac_bits, c_shift = r.kept_bits - out.frac_bits;
  p_left = std::max(p_shift, 0), p_right = std::max(-p_shift, 0);
  c_left = std::max(c_shift, 0), c_right = std::max(-c_shift, 0);
}

// An aligned addend as a signed term: the magnitude truncated towards zero
// (sign and magnitude, no guard or sticky bit). sig << left < 2^62 (kept
// plus carry bits), so a shift of 63 clears it; a zero's shift may be
// anything, hence the clamp.
[[gnu::always_inline]] inline int64_t term(uint64_t sig, int left, int right, uint32_t neg) {
  const uint64_t m = (sig << left) >> std::min(right, 63);
  const uint64_t flip = 0 - static_cast<uint64_t>(neg);
  return static_cast<int64_t>((m ^ flip) - flip);
}

// Keeps the top `bits` + 1 significant bits of `mag` (truncation).
uint64_t truncate_to(uint64_t mag, int bits) {
  const int msb = 63 - __builtin_clzll(mag);
  if (msb <= bits) return mag;
  const int drop = msb - bits;
  return (mag >> drop) << drop;
}

// The output format: `Out` where the code is specialised on it (every
// block row's output is f32 or f16), else the row's.
template <const Format* Out>
[[gnu::always_inline]] inline const Format& out_format(const Engine& e) {
  if constexpr (Out != nullptr) {
    return *Out;
  } else {
    return e.out_format;
  }
}

// The block result: beyond the output's range it is the infinity, whatever
// the rounding (Khattak & Mikaitis' model: an all-ones exponent after
// rounding is infinity).
[[gnu::always_inline]] inline uint64_t pack(const Format& out, bool neg, int lsb, uint64_t mag, fp::Rounding rnd) {
  const uint64_t bits = fp::round_pack(out, neg, lsb, mag, false, rnd);
  return (bits & ~out.sign_mask()) == out.max_finite(false) && lsb + fp::detail::msb_index(mag) > out.emax()
             ? out.inf(neg)
             : bits;
}

// The exact block sum `sum` * 2^grid, normalised, truncated to
// row.sum_frac_bits and rounded as the row says. A zero result is +0
// (H100 probe, docs/mma.md): the block sums as a signed fixed-point number,
// which has no -0 (all addends -0, tf32 m16n8k4), and a negative sum that
// rounds to zero leaves no sign behind (f16 m16n8k16 -> f16); subnormals
// are flushed to it where the row has none.
template <const Format* Out>
uint64_t block_value(const Engine& e, int64_t sum, int grid) {
  const Format& of = out_format<Out>(e);
  if (sum == 0) return of.zero(false);
  const bool neg = sum < 0;
  const uint64_t mag =
      truncate_to(neg ? 0 - static_cast<uint64_t>(sum) : static_cast<uint64_t>(sum), e.row.sum_frac_bits);
  // RZ, the f32 rows' rounding, with its constants folded.
  const uint64_t d = e.row.out_rounding == fp::Rounding::rz ? pack(of, neg, grid, mag, fp::Rounding::rz)
                                                            : pack(of, neg, grid, mag, e.row.out_rounding);
  if ((d & ~of.sign_mask()) == 0) return of.zero(false);
  return !e.row.subnormals && fp::is_subnormal(of, d) ? of.zero(false) : d;
}

// A row of A or a column of B for the k of some instructions: the elements
// as the datapath reads them (`raw`: widened and dealt where the row says
// so) and decoded; `special`: an inf or NaN among them.
struct Operands {
  const uint64_t* raw;
  const Operand* dec;
  bool special;
};

// One block: c plus `len` <= row.block_width products (W of them where W is
// not 0: the loops unrolled). Each addend is aligned to the largest
// exponent among the nonzero ones (a product's is the sum of its factors'
// exponents, its significand lying in [0, 4); c's its own), truncated
// towards zero to row.kept_bits below it, and the aligned addends are
// summed exactly. `maybe_special`: the operands hold an inf or NaN
// somewhere (checked once a row and a column, not once a product).
template <std::size_t W, const Format* Out>
uint64_t block(const Engine& e, std::size_t len, const Operand* x, const Operand* y, bool maybe_special,
               const uint64_t* raw_a, const uint64_t* raw_b, uint64_t c) {
  const std::size_t n = W != 0 ? W : len;
  const Operand z = decode(e.out, c);
  bool special = z.special;
  if (maybe_special)
    for (std::size_t k = 0; k < n; ++k) special |= (x[k].special | y[k].special) != 0;
  if (special) return special_result(e.row, n, raw_a, raw_b, c);
  int exps[W != 0 ? W : kMaxBlock];
  int emax = z.exp;
  for (std::size_t k = 0; k < n; ++k) {
    exps[k] = x[k].exp + y[k].exp;
    emax = std::max(emax, exps[k]);
  }
  if (emax < kNoValue) return out_format<Out>(e).zero(false);  // every addend zero
  int64_t sum = term(z.sig, e.c_left, emax - z.exp + e.c_right, z.neg);
  for (std::size_t k = 0; k < n; ++k) {
    const uint64_t p = static_cast<uint64_t>(x[k].sig) * y[k].sig;
    sum += term(p, e.p_left, emax - exps[k] + e.p_right, x[k].neg ^ y[k].neg);
  }
  return block_value<Out>(e, sum, emax - e.row.kept_bits);
}

// One instruction (e.step k from x and y) for one element of D, from c: its
// datapath instructions in turn, each in blocks of row.block_width chained
// in ascending k (each block's d the next block's c), from c or, for a
// CAlign::separate row, from +0 with c added to the result apart.
template <std::size_t W, const Format* Out>
uint64_t instruction(const Engine& e, const Operands& x, const Operands& y, std::size_t k0, uint64_t c,
                     BlockObserver* observer) {
  const NumericsRow& row = e.row;
  const bool c_apart = row.c_align == CAlign::separate;
  const bool special = x.special || y.special;
  const auto width = static_cast<std::size_t>(row.block_width);
  uint64_t acc = c_apart ? out_format<Out>(e).zero(false) : c;
  for (std::size_t s = k0; s < k0 + e.step; s += e.dstep) {
    for (std::size_t k = s; k < s + e.dstep; k += width) {
      const std::size_t len = std::min(width, s + e.dstep - k);
      const uint64_t d = W != 0 && len == W
                             ? block<W, Out>(e, len, x.dec + k, y.dec + k, special, x.raw + k, y.raw + k, acc)
                             : block<0, Out>(e, len, x.dec + k, y.dec + k, special, x.raw + k, y.raw + k, acc);
      if (observer) observer->block(row, len, x.raw + k, y.raw + k, acc, d);
      acc = d;
    }
  }
  return c_apart ? fp::add(e.out_format, acc, c, fp::Policy{row.c_rounding}) : acc;
}

// The operands widened (exactly) to the row's datapath format where it
// differs from the input format, into `buf`.
const uint64_t* widen(const NumericsRow& row, std::size_t n, const uint64_t* x, uint64_t* buf) {
  if (row.datapath_in == row.in) return x;
  const Format& from = *format_of(row.in);
  const Format& to = *format_of(row.datapath_in);
  for (std::size_t k = 0; k < n; ++k) buf[k] = fp::convert(from, to, x[k]);
  return buf;
}

// Deals the k of one instruction to row.k_split datapath instructions of
// `dstep` each, as row.k_group says (see numerics.h), into `out` in
// datapath instruction order; copies them as they are when nothing is dealt.
void deal(const NumericsRow& row, std::size_t n, std::size_t dstep, const uint64_t* x, uint64_t* out) {
  if (dstep == n) {
    std::copy_n(x, n, out);
    return;
  }
  const auto split = static_cast<std::size_t>(row.k_split);
  const auto group = static_cast<std::size_t>(row.k_group);
  std::size_t filled[kMaxDealt] = {};
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t to = (k / group) % split;
    out[to * dstep + filled[to]++] = x[k];
  }
}

// Makes `count` k (whole instructions) of one row of A or column of B ready:
// widened and dealt into `raw` where the row says so, decoded into `dec`.
[[gnu::always_inline]] inline Operands prepare(const Engine& e, std::size_t count, const uint64_t* src, uint64_t* raw,
                                               Operand* dec) {
  const uint64_t* bits = src;
  if (e.transformed) {
    uint64_t wide[kMaxDealt];
    for (std::size_t s = 0; s < count; s += e.step)
      deal(e.row, e.step, e.dstep, widen(e.row, e.step, src + s, wide), raw + s);
    bits = raw;
  }
  uint32_t special = 0;
  for (std::size_t k = 0; k < count; ++k) {
    dec[k] = decode(e.in, bits[k]);
    special |= dec[k].special;
  }
  return {bits, dec, special != 0};
}

// Columns of B and k decoded at a time: the decoded columns stay in the
// first-level cache, and each row of A is decoded once for them all.
constexpr std::size_t kColsAtOnce = 16;
constexpr std::size_t kKAtOnce = 256;

// Scratch for one chunk of operands.
struct Chunk {
  std::vector<uint64_t> raw;
  std::vector<Operand> dec;
  Chunk(std::size_t n, bool transformed) : raw(transformed ? n : 0), dec(n) {}
};

// The operands of block_fma_matrix (block_fma.h).
struct MatrixArgs {
  std::size_t step, m, n, k;
  const uint64_t *a, *b_cols, *c;
  uint64_t* d;
  BlockObserver* observer;
};

// d for columns j0 .. j0 + cols and k0 .. k0 + count of the matrix (see
// block_fma_matrix), from c where k0 is 0, else from d.
template <std::size_t W, const Format* Out>
void float_columns(const Engine& e, const MatrixArgs& m, std::size_t j0, std::size_t cols, std::size_t k0,
                   std::size_t count, Chunk& a_buf, Chunk& b_buf) {
  Operands y[kColsAtOnce];
  for (std::size_t j = 0; j < cols; ++j) {
    const uint64_t* src = m.b_cols + (j0 + j) * m.k + k0;
    uint64_t* raw = e.transformed ? b_buf.raw.data() + j * count : nullptr;  // (empty when not transformed)
    y[j] = prepare(e, count, src, raw, b_buf.dec.data() + j * count);
  }
  for (std::size_t i = 0; i < m.m; ++i) {
    const Operands x = prepare(e, count, m.a + i * m.k + k0, a_buf.raw.data(), a_buf.dec.data());
    for (std::size_t j = 0; j < cols; ++j) {
      const std::size_t at = i * m.n + j0 + j;
      uint64_t acc = k0 == 0 ? m.c[at] : m.d[at];
      for (std::size_t s = 0; s < count; s += e.step) acc = instruction<W, Out>(e, x, y[j], s, acc, m.observer);
      m.d[at] = acc;
    }
  }
}

void check_row(const NumericsRow& row, std::size_t step) {
  if (row.block_width < 1 || row.block_width > kMaxBlock || row.kept_bits + row.carry_bits > 62)
    throw std::invalid_argument("numerics row: block width outside 1..64 or kept bits beyond the 64-bit sum");
  if ((row.datapath_in != row.in || row.k_group != 0) && step > kMaxDealt)
    throw std::invalid_argument("numerics row: one instruction's K is at most 64");
  if (format_of(row.datapath_in)->frac_bits > 30 || format_of(row.out)->frac_bits > 30)
    throw std::invalid_argument("numerics row: significands beyond the engine's 32-bit operands");
}

// The engine's code for one row, specialised on its block width and
// output format where they are common ones (the loops unrolled, the
// rounding's constants folded), generic otherwise: the same source.
struct Code {
  void (*columns)(const Engine&, const MatrixArgs&, std::size_t, std::size_t, std::size_t, std::size_t, Chunk&, Chunk&);
  uint64_t (*instruction)(const Engine&, const Operands&, const Operands&, std::size_t, uint64_t, BlockObserver*);
};
template <std::size_t W, const Format* Out>
constexpr Code kCode{&float_columns<W, Out>, &instruction<W, Out>};

template <const Format* Out>
Code code_for_width(int width) {
  switch (width) {
    case 4: return kCode<4, Out>;
    case 8: return kCode<8, Out>;
    case 16: return kCode<16, Out>;
    case 32: return kCode<32, Out>;
    default: return kCode<0, Out>;
  }
}

Code code_for(const NumericsRow& row) {
  const Format* out = format_of(row.out);
  if (out == &fp::kF32) return code_for_width<&fp::kF32>(row.block_width);
  if (out == &fp::kF16) return code_for_width<&fp::kF16>(row.block_width);
  return code_for_width<nullptr>(row.block_width);
}

void float_matrix(const NumericsRow& row, const MatrixArgs& m) {
  check_row(row, m.step);
  const Engine e(row, m.step);
  const Code code = code_for(row);
  const std::size_t chunk = std::max(m.step, kKAtOnce / m.step * m.step);
  const std::size_t count0 = std::min(chunk, m.k), cols0 = std::min(kColsAtOnce, m.n);
  Chunk a_buf(count0, e.transformed), b_buf(count0 * cols0, e.transformed);
  if (m.k == 0)  // no instruction: D is C
    for (std::size_t t = 0; t < m.m * m.n; ++t) m.d[t] = m.c[t];
  for (std::size_t k0 = 0; k0 < m.k; k0 += chunk) {
    for (std::size_t j0 = 0; j0 < m.n; j0 += kColsAtOnce) {
      code.columns(e, m, j0, std::min(kColsAtOnce, m.n - j0), k0, std::min(chunk, m.k - k0), a_buf, b_buf);
    }
  }
}

// One instruction of n k (block_fma), its operands on the stack.
uint64_t float_chain(const NumericsRow& row, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c,
                     BlockObserver* observer) {
  if (n > kMaxDealt) {  // a long K of a row that deals nothing: as a 1 x 1 matrix
    uint64_t d = 0;
    float_matrix(row, {n, 1, 1, n, a, b, &c, &d, observer});
    return d;
  }
  check_row(row, n);
  const Engine e(row, n);
  uint64_t raw_a[kMaxDealt], raw_b[kMaxDealt];
  Operand dec_a[kMaxDealt], dec_b[kMaxDealt];
  return code_for(row).instruction(e, prepare(e, n, a, raw_a, dec_a), prepare(e, n, b, raw_b, dec_b), 0, c, observer);
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

void block_fma_matrix(const NumericsRow& row, std::size_t step, std::size_t m, std::size_t n, std::size_t k,
                      const uint64_t* a, const uint64_t* b_cols, const uint64_t* c, uint64_t* d, bool satfinite,
                      BlockObserver* observer) {
  if (step == 0 || k % step != 0)
    throw std::invalid_argument("block_fma_matrix: K is not a multiple of the instruction's k");
  if (row.method == Method::block_fma) return float_matrix(row, {step, m, n, k, a, b_cols, c, d, observer});
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      uint64_t acc = c[i * n + j];
      for (std::size_t k0 = 0; k0 < k; k0 += step)
        acc = block_fma(row, step, a + i * k + k0, b_cols + j * k + k0, acc, satfinite, observer);
      d[i * n + j] = acc;
    }
  }
}

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
