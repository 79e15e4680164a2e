// copysign and testp through the executor, against the host's own IEEE
// library (std::copysign, std::fpclassify): exhaustive over every f16-sized
// pattern spread across f32, structured edges for f64, and seeded random.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "exec/execute.h"
#include "isa/forms.h"

namespace ptxfu {
namespace {

using isa::Mod;
using isa::Op;
using isa::Type;

isa::Instr form(Op op, Type t, isa::ModSet mods, unsigned num_src) {
  const isa::Instr in = isa::make_form(op, t, mods, num_src);
  EXPECT_NE(in.row, nullptr) << "no such form in the table";
  return in;
}

uint64_t run(const isa::Instr& in, std::initializer_list<uint64_t> src) {
  return exec::execute(in, src.begin(), false).value;
}

template <typename F, typename U>
F as_float(U bits) {
  F f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
template <typename U, typename F>
U as_bits(F f) {
  U u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The host's verdict for each testp class (PTX: zero counts as normal).
template <typename F>
bool host_class(F x, Mod m) {
  const int c = std::fpclassify(x);
  switch (m) {
    case Mod::finite: return std::isfinite(x);
    case Mod::infinite: return c == FP_INFINITE;
    case Mod::number: return c != FP_NAN;
    case Mod::notanumber: return c == FP_NAN;
    case Mod::normal: return c == FP_NORMAL || c == FP_ZERO;
    default: return c == FP_SUBNORMAL;
  }
}

constexpr Mod kClasses[] = {Mod::finite, Mod::infinite, Mod::number, Mod::notanumber, Mod::normal, Mod::subnormal};

std::vector<uint32_t> f32_patterns() {
  std::vector<uint32_t> v;
  for (uint32_t hi = 0; hi < (1u << 16); ++hi)
    v.push_back(hi << 16 | (hi & 1 ? 0x1u : 0u));  // every sign/exponent/top-fraction
  std::mt19937 rng(11);
  for (int i = 0; i < 1000000; ++i) v.push_back(rng());
  return v;
}

std::vector<uint64_t> f64_patterns() {
  std::vector<uint64_t> v;
  for (uint64_t e : {0ull, 1ull, 0x3ffull, 0x7feull, 0x7ffull})
    for (uint64_t frac : {0ull, 1ull, 0x8000000000000ull, 0xfffffffffffffull})
      for (uint64_t s : {0ull, 1ull}) v.push_back(s << 63 | e << 52 | frac);
  std::mt19937_64 rng(12);
  for (int i = 0; i < 1000000; ++i) v.push_back(rng());
  return v;
}

TEST(SignClass, TestpF32MatchesHostClassification) {
  const auto patterns = f32_patterns();
  for (Mod m : kClasses) {
    size_t wrong = 0;
    const isa::Instr in = form(Op::testp, Type::f32, isa::bit(m), 1);
    for (uint32_t a : patterns) {
      const bool want = host_class(as_float<float>(a), m);
      if (run(in, {a}) != want && ++wrong < 5)
        ADD_FAILURE() << "testp." << isa::name(m) << ".f32 0x" << std::hex << a << " want " << want;
    }
    EXPECT_EQ(wrong, 0u) << isa::name(m);
  }
}

TEST(SignClass, TestpF64MatchesHostClassification) {
  const auto patterns = f64_patterns();
  for (Mod m : kClasses) {
    size_t wrong = 0;
    const isa::Instr in = form(Op::testp, Type::f64, isa::bit(m), 1);
    for (uint64_t a : patterns)
      if (run(in, {a}) != host_class(as_float<double>(a), m) && ++wrong < 5)
        ADD_FAILURE() << "testp." << isa::name(m) << ".f64 0x" << std::hex << a;
    EXPECT_EQ(wrong, 0u) << isa::name(m);
  }
}

// PTX copysign.type d, a, b copies the sign of a onto b; std::copysign(x, y)
// gives x's magnitude with y's sign, so the host call is copysign(b, a).
TEST(SignClass, CopysignMatchesHostCopysign) {
  const auto f32 = f32_patterns();
  std::mt19937 rng(13);
  size_t wrong = 0;
  const isa::Instr c32 = form(Op::copysign, Type::f32, 0, 2), c64 = form(Op::copysign, Type::f64, 0, 2);
  for (uint32_t b : f32) {
    const uint32_t a = rng();
    const uint32_t want = as_bits<uint32_t>(std::copysign(as_float<float>(b), as_float<float>(a)));
    if (run(c32, {a, b}) != want && ++wrong < 5)
      ADD_FAILURE() << std::hex << "copysign.f32 0x" << a << " 0x" << b << " want 0x" << want;
  }
  std::mt19937_64 rng64(14);
  for (uint64_t b : f64_patterns()) {
    const uint64_t a = rng64();
    const uint64_t want = as_bits<uint64_t>(std::copysign(as_float<double>(b), as_float<double>(a)));
    if (run(c64, {a, b}) != want && ++wrong < 5)
      ADD_FAILURE() << std::hex << "copysign.f64 0x" << a << " 0x" << b << " want 0x" << want;
  }
  EXPECT_EQ(wrong, 0u);
}

}  // namespace
}  // namespace ptxfu
