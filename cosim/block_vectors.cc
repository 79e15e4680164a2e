#include "cosim/block_vectors.h"

#include <algorithm>

#include "fp/ops.h"

namespace ptxfu::cosim {
namespace {

const fp::Format& in_format(const BlockParams& p) { return *mma::format_of(p.in); }
const fp::Format& out_format(const BlockParams& p) { return *mma::format_of(p.out); }

// The encoding of sign, exponent field and fraction, kept finite: the field
// clamped to the format's range, e4m3's NaN pattern moved one below.
uint64_t finite(const fp::Format& f, bool neg, int field, uint64_t frac) {
  field = std::clamp(field, 0, f.max_biased());
  uint64_t bits = (static_cast<uint64_t>(field) << f.frac_bits) | (frac & f.frac_mask());
  if (f.specials == fp::Specials::finite_nan && field == f.max_biased() && (frac & f.frac_mask()) == f.frac_mask())
    bits -= 1;
  return f.zero(neg) | bits;
}

// 2^e (unbiased) in f, as a subnormal below emin, clamped at the ends.
uint64_t pow2(const fp::Format& f, int e, bool neg = false) {
  const int field = e + f.bias();
  if (field >= 1) return finite(f, neg, field, 0);
  const int shift = f.frac_bits - 1 + field;  // subnormal: frac bit frac_bits-1+field
  return shift < 0 ? f.zero(neg) : f.zero(neg) | (uint64_t{1} << shift);
}

// The specials of a format: NaN, +inf, -inf where it has them.
std::vector<uint64_t> specials(const fp::Format& f) {
  std::vector<uint64_t> s;
  if (f.has_nan()) s.push_back(f.nan());
  if (f.has_inf()) s.push_back(f.inf(false)), s.push_back(f.inf(true));
  return s;
}

// Unbiased exponent halfway up the format's normal range.
int mid_exp(const fp::Format& f) { return f.emax() / 2; }

struct Builder {
  const BlockParams& p;
  std::vector<BlockVector>& out;
  BlockVector v{};
  void clear() { v = BlockVector{}; }
  void fill_ones() {
    for (int k = 0; k < p.width; ++k) v.a[k] = v.b[k] = in_format(p).one(false);
  }
  void push() { out.push_back(v); }
};

void special_cases(Builder& bl) {
  const fp::Format& in = in_format(bl.p);
  const fp::Format& of = out_format(bl.p);
  const int last = bl.p.width - 1;
  const std::vector<uint64_t> cs = {of.zero(false), of.one(false), of.inf(false), of.inf(true), of.nan()};
  for (uint64_t s : specials(in)) {
    for (int pos : {0, last}) {
      for (uint64_t other : {in.one(false), in.zero(false), in.zero(true)}) {
        for (uint64_t c : cs) {
          bl.clear(), bl.fill_ones();
          bl.v.a[pos] = s, bl.v.b[pos] = other, bl.v.c = c;
          bl.push();
        }
      }
    }
  }
  if (in.has_inf()) {  // inf - inf within the block
    bl.clear(), bl.fill_ones();
    bl.v.a[0] = in.inf(false), bl.v.a[last] = in.inf(true);
    bl.push();
  }
  for (uint64_t c : cs) {  // c alone special, products finite
    bl.clear(), bl.fill_ones();
    bl.v.c = c;
    bl.push();
  }
}

void signed_zeros(Builder& bl) {
  const fp::Format& in = in_format(bl.p);
  const fp::Format& of = out_format(bl.p);
  for (int mask = 0; mask < 16; ++mask) {  // all products zero: signs of a, b, one product apart, c
    bl.clear();
    for (int k = 0; k < bl.p.width; ++k) {
      bl.v.a[k] = in.zero(mask & 1);
      bl.v.b[k] = in.zero((mask & 2) != 0 && (k != 0 || (mask & 4) == 0));
    }
    bl.v.c = of.zero(mask & 8);
    bl.push();
  }
  bl.clear();  // x - x: an exact cancellation to +0
  bl.v.a[0] = in.one(false), bl.v.b[0] = in.one(false), bl.v.a[1] = in.one(true), bl.v.b[1] = in.one(false);
  bl.v.c = of.zero(true);
  bl.push();
}

// A large product and a small one `s` exponents below it (the small one's
// fraction all ones or zero), either sign, with c = 0, c at the large
// product's exponent or its negation: the kept bits, the truncation
// direction and c's place in the alignment.
void spreads(Builder& bl) {
  const fp::Format& in = in_format(bl.p);
  const fp::Format& of = out_format(bl.p);
  const int hi = mid_exp(in);
  for (int s = 0; s <= bl.p.kept + 4; ++s) {
    for (int variant = 0; variant < 12; ++variant) {
      const bool neg = variant & 1, ones = variant & 2;
      const int c_kind = variant / 4;
      bl.clear();
      bl.v.a[0] = pow2(in, hi), bl.v.b[0] = pow2(in, hi);
      const int s1 = s / 2, s2 = s - s1;
      bl.v.a[bl.p.width - 1] = finite(in, neg, hi - s1 + in.bias(), ones ? in.frac_mask() : 0);
      bl.v.b[bl.p.width - 1] = finite(in, false, hi - s2 + in.bias(), ones ? in.frac_mask() : 0);
      bl.v.c = c_kind == 0 ? of.zero(false) : pow2(of, 2 * hi, c_kind == 2);
      bl.push();
      bl.v.a[0] = in.zero(false);  // c alone as the large addend
      bl.push();
    }
  }
}

void cancellations(Builder& bl) {
  const fp::Format& in = in_format(bl.p);
  const fp::Format& of = out_format(bl.p);
  const int hi = mid_exp(in);
  for (int s = 0; s <= bl.p.kept + 2; s += 1) {
    for (int variant = 0; variant < 4; ++variant) {
      bl.clear();
      const uint64_t x = finite(in, false, hi + in.bias(), in.frac_mask() >> 1);
      bl.v.a[0] = x, bl.v.b[0] = x;
      bl.v.a[1] = x | in.sign_mask(), bl.v.b[1] = x;
      if (bl.p.width > 2) {
        bl.v.a[2] = finite(in, variant & 1, hi - s + in.bias(), in.frac_mask());
        bl.v.b[2] = finite(in, false, hi + in.bias(), 1);
      }
      if (variant & 2) {  // c cancels the first product instead of the second
        bl.v.a[1] = in.zero(false);
        bl.v.c = fp::ieee::convert(in, of, x, fp::Rounding::rz);
        bl.v.c = fp::ieee::mul(of, bl.v.c, bl.v.c, fp::Rounding::rz) | of.sign_mask();
      }
      bl.push();
    }
  }
}

void extremes(Builder& bl) {
  const fp::Format& in = in_format(bl.p);
  const fp::Format& of = out_format(bl.p);
  const uint64_t tiny = 1;  // the smallest subnormal (or e2m1's 0.5)
  for (bool neg : {false, true}) {
    for (uint64_t c : {of.zero(false), of.max_finite(neg), of.max_finite(!neg), uint64_t{1}, of.sign_mask() | 1}) {
      bl.clear();  // every product the largest: the carry bits
      for (int k = 0; k < bl.p.width; ++k) bl.v.a[k] = in.max_finite(neg), bl.v.b[k] = in.max_finite(false);
      bl.v.c = c;
      bl.push();
      for (uint64_t b : {tiny, in.one(false), in.max_finite(false), in.frac_mask()}) {  // subnormals
        bl.clear();
        for (int k = 0; k < bl.p.width; ++k) bl.v.a[k] = tiny | in.zero(neg && k % 2), bl.v.b[k] = b;
        bl.v.c = c;
        bl.push();
      }
    }
  }
  // Sums just at the output's largest and smallest: c near them, one product.
  for (int e = -3; e <= 3; ++e) {
    for (bool neg : {false, true}) {
      bl.clear();
      bl.v.a[0] = pow2(in, mid_exp(in)), bl.v.b[0] = in.one(neg);
      bl.v.c = finite(of, false, of.max_biased() + e, of.frac_mask());
      bl.push();
      bl.v.c = finite(of, neg, e + 1, of.frac_mask() >> (e + 3));
      bl.v.a[0] = pow2(in, in.emin() + e), bl.v.b[0] = pow2(in, in.emin());
      bl.push();
    }
  }
}

}  // namespace

BlockVectors::BlockVectors(const BlockParams& p, uint64_t seed) : p_(p), state_(seed) {}

std::vector<BlockVector> BlockVectors::structured() const {
  std::vector<BlockVector> out;
  Builder bl{p_, out};
  special_cases(bl);
  signed_zeros(bl);
  spreads(bl);
  cancellations(bl);
  extremes(bl);
  return out;
}

// A finite element with its exponent field within `spread` of `center`.
uint64_t BlockVectors::clustered(const fp::Format& f, int center, int spread) {
  const uint64_t r = next();
  // A number below 2 * spread + 1 from r's low 32 bits by multiply and shift (no division: this runs
  // once an element).
  const int offset = static_cast<int>(((r & 0xffffffffu) * static_cast<uint64_t>(2 * spread + 1)) >> 32) - spread;
  return finite(f, r >> 63, center + offset, r >> 32);  // offset: bits 0-31, fraction: 32 up, sign: 63
}

void BlockVectors::random(BlockVector& v) {
  static constexpr int kSpreads[] = {0, 1, 2, 3, 5, 8, 13, 24, 40};
  const fp::Format& in = in_format(p_);
  const fp::Format& of = out_format(p_);
  const uint64_t shape = next();
  const int n = p_.width;
  const uint64_t in_mask = in.bits_mask(), out_mask = of.bits_mask();
  if (shape % 8 == 0) {  // uniform bit patterns
    for (int k = 0; k < n; ++k) v.a[k] = next() & in_mask, v.b[k] = next() & in_mask;
    v.c = next() & out_mask;
    return;
  }
  const bool subnormal_heavy = shape % 8 == 5;
  const int center = subnormal_heavy ? 1 : 1 + static_cast<int>((shape >> 8) % static_cast<uint64_t>(in.max_biased()));
  const int spread = subnormal_heavy ? 1 : kSpreads[(shape >> 16) % 9];
  for (int k = 0; k < n; ++k) v.a[k] = clustered(in, center, spread), v.b[k] = clustered(in, center, spread);
  if (shape % 8 == 4) {  // cancelling pairs, a low fraction bit perturbed now and then
    for (int k = n / 2; k < n; ++k) {
      const uint64_t r = next();
      v.a[k] = v.a[k - n / 2] ^ in.sign_mask() ^ ((r & 3) == 0 ? 1 : 0);
      v.b[k] = v.b[k - n / 2];
    }
  }
  if (shape % 8 == 6) {  // sparse: about half the elements zero
    for (int k = 0; k < n; ++k) {
      if (next() & 1) v.a[k] &= in.sign_mask();
    }
  }
  if (shape % 8 == 7) {  // one element a uniform bit pattern (specials now and then)
    const uint64_t r = next();
    v.a[r % static_cast<uint64_t>(n)] = (r >> 8) & in_mask;
  }
  // c near the products: its exponent from the products' (2 * (center -
  // bias)) down to past the kept bits; zero a quarter of the time.
  const uint64_t rc = next();
  const int product_exp = 2 * (center - in.bias());
  const int c_exp = product_exp + 4 - static_cast<int>(rc % static_cast<uint64_t>(p_.kept + 12));
  v.c = (rc >> 12) % 4 == 0 ? of.zero((rc >> 14) & 1) : finite(of, (rc >> 15) & 1, c_exp + of.bias(), rc >> 20);
}

}  // namespace ptxfu::cosim
