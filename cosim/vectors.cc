#include "cosim/vectors.h"

#include <algorithm>

namespace ptxfu::cosim {

namespace {
constexpr uint16_t kSign = 0x8000;
}

VectorSource::VectorSource(const Form& form, uint64_t seed)
    : form_(form), exp_bits_(form.bf16 ? 8 : 5), man_bits_(form.bf16 ? 7 : 10), rng_(seed * 0x9e3779b97f4a7c15ull + 1) {
  const unsigned fmax = (1u << man_bits_) - 1;
  const unsigned emax = (1u << exp_bits_) - 2;  // largest finite biased exponent
  const unsigned bias = (1u << (exp_bits_ - 1)) - 1;
  auto mk = [&](unsigned s, unsigned e, unsigned f) {
    return static_cast<uint16_t>((s << 15) | (e << man_bits_) | (f & fmax));
  };
  const unsigned all1 = emax + 1;
  for (unsigned s = 0; s < 2; ++s) {
    // zeros and subnormals: smallest, largest, walking ones, half
    edges_.push_back(mk(s, 0, 0));
    for (unsigned f : {1u, 2u, 3u, fmax, fmax - 1, 1u << (man_bits_ - 1), (1u << (man_bits_ - 1)) + 1})
      edges_.push_back(mk(s, 0, f));
    for (int b = 0; b < man_bits_; ++b) edges_.push_back(mk(s, 0, 1u << b));
    // normals at the exponent boundaries and around 1.0
    for (unsigned e : {1u, 2u, 3u, bias - 2, bias - 1, bias, bias + 1, bias + 2, emax - 1, emax})
      for (unsigned f : {0u, 1u, fmax, fmax - 1, 1u << (man_bits_ - 1), (1u << (man_bits_ - 1)) + 1})
        edges_.push_back(mk(s, e, f));
    // infinities and NaNs (quiet, signalling, all-ones, the OOB-NaN candidates)
    edges_.push_back(mk(s, all1, 0));
    edges_.push_back(mk(s, all1, 1u << (man_bits_ - 1)));
    edges_.push_back(mk(s, all1, 1));
    edges_.push_back(mk(s, all1, fmax));
  }
  edges_.push_back(static_cast<uint16_t>(PTXFU_COSIM_OOB_NAN));
  edges_.push_back(static_cast<uint16_t>(PTXFU_COSIM_OOB_NAN | 0x8000));
  edges_.push_back(0x7ff7);
  edges_.push_back(0x7fff);
  std::sort(edges_.begin(), edges_.end());
  edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());

  for (unsigned s = 0; s < 2; ++s) {
    for (uint16_t v :
         {mk(s, 0, 0), mk(s, 0, 1), mk(s, 0, fmax), mk(s, 1, 0), mk(s, bias, 0), mk(s, bias, 1), mk(s, bias, fmax),
          mk(s, bias + 1, 1u << (man_bits_ - 1)), mk(s, bias - 1, fmax), mk(s, emax, fmax), mk(s, all1, 0)})
      small_edges_.push_back(v);
  }
  small_edges_.push_back(mk(0, all1, 1u << (man_bits_ - 1)));
  small_edges_.push_back(static_cast<uint16_t>(PTXFU_COSIM_OOB_NAN));
  small_edges_.push_back(static_cast<uint16_t>(PTXFU_COSIM_OOB_NAN | 0x8000));
  small_edges_.push_back(0x7fff);
  build_structured();
}

void VectorSource::push_lane_tuple(const uint16_t* ops) {
  if (form_.lanes == 1) {
    Vector v;
    for (unsigned i = 0; i < 3; ++i) v.src[i] = ops[i];
    structured_.push_back(v);
    return;
  }
  if (!half_full_) {
    std::copy(ops, ops + 3, waiting_);
    half_full_ = true;
    return;
  }
  Vector v;
  for (unsigned i = 0; i < 3; ++i) v.src[i] = waiting_[i] | (static_cast<uint32_t>(ops[i]) << 16);
  structured_.push_back(v);
  half_full_ = false;
}

void VectorSource::build_structured() {
  const unsigned fmax = (1u << man_bits_) - 1;
  const unsigned emax = (1u << exp_bits_) - 2;
  const unsigned bias = (1u << (exp_bits_ - 1)) - 1;
  auto mk = [&](unsigned s, unsigned e, unsigned f) {
    return static_cast<uint16_t>((s << 15) | (e << man_bits_) | (f & fmax));
  };
  const uint16_t one = mk(0, bias, 0);
  const isa::Op op = form_.instr.op;
  const bool fma = op == isa::Op::fma;
  // x (op) y in the form's own operand order: for fma, x * 1 + y.
  auto addlike = [&](uint16_t x, uint16_t y) {
    uint16_t t[3] = {x, y, 0};
    if (fma) {
      t[1] = one;
      t[2] = y;
    }
    push_lane_tuple(t);
  };
  // x * y (+ z for fma)
  auto mullike = [&](uint16_t x, uint16_t y, uint16_t z) {
    uint16_t t[3] = {x, y, z};
    push_lane_tuple(t);
  };
  auto rnd = [&](unsigned n) { return static_cast<unsigned>(rng_() % n); };

  if (form_.num_src == 1) {
    // Unary forms: every value.
    for (unsigned x = 0; x < 0x10000; ++x) {
      uint16_t t[3] = {static_cast<uint16_t>(x), 0, 0};
      push_lane_tuple(t);
    }
  } else if (form_.num_src == 2) {
    for (uint16_t x : edges_)
      for (uint16_t y : edges_) addlike(x, y);
  } else {
    for (uint16_t x : small_edges_)
      for (uint16_t y : small_edges_)
        for (uint16_t z : small_edges_) mullike(x, y, z);
    for (uint16_t x : edges_)
      for (uint16_t y : edges_) mullike(x, y, small_edges_[rnd(small_edges_.size())]);
  }

  if (form_.num_src >= 2) {
    // Every exponent against neighbours: equal and opposite values, 1.0, the
    // smallest normal, the largest finite.
    for (unsigned e = 0; e <= emax + 1; ++e)
      for (unsigned f : {0u, fmax, 1u}) {
        const uint16_t x = mk(0, e, f);
        for (uint16_t y :
             {x, static_cast<uint16_t>(x ^ kSign), one, mk(1, bias, 0), mk(0, 1, 0), mk(1, emax, fmax), mk(0, 0, 1)}) {
          addlike(x, y);
          addlike(y, x);
          mullike(x, y, mk(rnd(2), e, rnd(fmax + 1)));
        }
      }
    // Sums across every exponent distance 0..man+5, with halfway (a power of
    // two an exact half ulp below), near-halfway and sticky patterns.
    for (int n = 0; n < 4000; ++n) {
      const unsigned d = rnd(man_bits_ + 6);
      const unsigned ex = d + 1 + rnd(emax - d);
      const unsigned ey = ex - d;
      const unsigned pat = rnd(4);
      const unsigned fy = pat == 0 ? 0 : pat == 1 ? (1u << (man_bits_ - 1)) : pat == 2 ? fmax : rnd(fmax + 1);
      addlike(mk(rnd(2), ex, rnd(fmax + 1)), mk(rnd(2), ey, fy));
    }
    // Products that are exact ties: x * (1 + 2^-j) with x's low j bits 10..0.
    for (int n = 0; n < 3000; ++n) {
      const unsigned j = 1 + rnd(man_bits_);
      const unsigned fx = (rnd(fmax + 1) & ~((1u << j) - 1)) | (1u << (j - 1));
      const unsigned ex = 1 + rnd(emax);
      const int ey_raw = 2 * static_cast<int>(bias) - static_cast<int>(ex) + static_cast<int>(rnd(5)) - 2;
      const unsigned ey = static_cast<unsigned>(std::min(static_cast<int>(emax), std::max(1, ey_raw)));
      mullike(mk(rnd(2), ex, fx), mk(rnd(2), ey, 1u << (man_bits_ - j)), mk(rnd(2), 0, 0));
    }
    // Subnormal and underflowing results: exponent sums just below emin.
    for (int n = 0; n < 4000; ++n) {
      const int target = 1 - static_cast<int>(rnd(man_bits_ + 5));  // biased result exponent
      const int ex = 1 + static_cast<int>(rnd(bias));
      const int ey = std::max(0, std::min(static_cast<int>(emax), target - ex + static_cast<int>(bias)));
      const uint16_t z = rnd(2) ? mk(rnd(2), 0, rnd(fmax + 1)) : mk(rnd(2), 0, 0);
      mullike(mk(rnd(2), ex, rnd(fmax + 1)), mk(rnd(2), ey, rnd(fmax + 1)), z);
      addlike(mk(rnd(2), rnd(3), rnd(fmax + 1)), mk(rnd(2), rnd(3), rnd(fmax + 1)));
    }
    // Results around the overflow threshold.
    for (int n = 0; n < 2000; ++n) {
      const int ex = static_cast<int>(emax) - static_cast<int>(rnd(4));
      const int ey = static_cast<int>(bias) + static_cast<int>(rnd(3));
      mullike(mk(rnd(2), ex, rnd(fmax + 1)), mk(rnd(2), ey, rnd(fmax + 1)), mk(rnd(2), emax - rnd(3), rnd(fmax + 1)));
      addlike(mk(0, emax, fmax - rnd(4)), mk(0, emax - rnd(man_bits_ + 3), rnd(fmax + 1)));
    }
    // Cancellation: y close to -x.
    for (int n = 0; n < 3000; ++n) {
      const uint16_t x = mk(rnd(2), 1 + rnd(emax), rnd(fmax + 1));
      const uint16_t y = static_cast<uint16_t>((x ^ kSign) + rnd(9) - 4);
      addlike(x, y);
      if (fma) mullike(x, mk(0, bias, rnd(4)), static_cast<uint16_t>(x ^ kSign));
    }
  }
  if (half_full_) {  // pad the last x2 vector with a copy of lane 0
    uint16_t t[3] = {waiting_[0], waiting_[1], waiting_[2]};
    push_lane_tuple(t);
  }
}

uint16_t VectorSource::random_lane_operand(unsigned i, const uint16_t* earlier) {
  const unsigned fmax = (1u << man_bits_) - 1;
  const unsigned emax = (1u << exp_bits_) - 2;
  const unsigned bias = (1u << (exp_bits_ - 1)) - 1;
  const uint64_t r = rng_();
  const unsigned mode = r & 7;
  const uint16_t bits = static_cast<uint16_t>(r >> 16);
  if (mode <= 2) return bits;                               // uniform
  if (mode == 3) return edges_[(r >> 32) % edges_.size()];  // an edge value
  const unsigned s = (r >> 8) & 1;
  const unsigned f = static_cast<unsigned>(r >> 40) & fmax;
  int e;
  if (mode <= 5 && i > 0) {
    // close in exponent to what the earlier operands make (cancellation,
    // alignment across the whole window)
    const int e0 = static_cast<int>((earlier[0] >> man_bits_) & (emax + 1));
    int target = e0;
    if (i == 2 && form_.num_src == 3)
      target = e0 + static_cast<int>((earlier[1] >> man_bits_) & (emax + 1)) - static_cast<int>(bias);
    else if (i == 1 && form_.num_src == 3)
      target = static_cast<int>(bias);  // b near 1
    e = target + static_cast<int>((r >> 24) % 25) - 12;
  } else if (mode == 6) {
    e = static_cast<int>((r >> 24) % (bias + 1));  // small: underflow
  } else {
    e = static_cast<int>(emax) - static_cast<int>((r >> 24) % (bias + 1));  // large: overflow
  }
  e = std::max(0, std::min(static_cast<int>(emax) + 1, e));
  return static_cast<uint16_t>((s << 15) | (static_cast<unsigned>(e) << man_bits_) | f);
}

Vector VectorSource::random() {
  Vector v;
  for (unsigned l = 0; l < form_.lanes; ++l) {
    uint16_t ops[3] = {0, 0, 0};
    for (unsigned i = 0; i < form_.num_src; ++i) ops[i] = random_lane_operand(i, ops);
    for (unsigned i = 0; i < 3; ++i) v.src[i] |= static_cast<uint32_t>(ops[i]) << (16 * l);
  }
  return v;
}

uint64_t VectorSource::exhaustive_size(const Form& form) {
  const uint64_t combos = form.num_src == 1 ? (uint64_t{1} << 16) : (uint64_t{1} << 32);
  return form.lanes == 2 ? combos / 2 : combos;
}

Vector VectorSource::exhaustive(const Form& form, uint64_t index) {
  Vector v;
  for (unsigned l = 0; l < form.lanes; ++l) {
    const uint64_t combo = form.lanes == 2 ? 2 * index + l : index;
    const uint16_t a = form.num_src == 1 ? static_cast<uint16_t>(combo) : static_cast<uint16_t>(combo >> 16);
    const uint16_t b = static_cast<uint16_t>(combo);
    v.src[0] |= static_cast<uint32_t>(a) << (16 * l);
    if (form.num_src == 2) v.src[1] |= static_cast<uint32_t>(b) << (16 * l);
  }
  return v;
}

}  // namespace ptxfu::cosim
