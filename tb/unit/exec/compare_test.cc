// setp, set, selp and slct through exec::execute, against a reference that
// decodes each float exactly into a host double (IEEE comparisons: NaN
// unordered, -0 == +0) and reads integers as host integers. Nothing here
// calls the comparison code of src/exec.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "exec/execute.h"
#include "isa/table.h"
#include "sample.h"
#include "unit/run_by_name.h"

namespace ptxfu {
namespace {

using unittest::form;
using unittest::run;

// ---- the reference
struct Fmt {
  int exp, frac;  // field widths
};
constexpr Fmt kHalf{5, 10}, kBf16{8, 7}, kSingle{8, 23};

// The exact value of an IEEE encoding (not f64), with .ftz's flush.
double decode(Fmt f, uint64_t bits, bool ftz) {
  const uint64_t frac = bits & ((uint64_t{1} << f.frac) - 1);
  const uint64_t exp = (bits >> f.frac) & ((uint64_t{1} << f.exp) - 1);
  const bool neg = (bits >> (f.frac + f.exp)) & 1;
  const int bias = (1 << (f.exp - 1)) - 1;
  double v;
  if (exp == (uint64_t{1} << f.exp) - 1)
    v = frac ? NAN : INFINITY;
  else if (exp == 0)
    v = ftz ? 0.0 : std::ldexp(static_cast<double>(frac), 1 - bias - f.frac);
  else
    v = std::ldexp(static_cast<double>(frac | (uint64_t{1} << f.frac)), static_cast<int>(exp) - bias - f.frac);
  return neg ? -v : v;
}

double decode64(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

bool ref_compare(const std::string& cmp, double a, double b) {
  const bool u = std::isnan(a) || std::isnan(b);
  if (cmp == "eq") return a == b;
  if (cmp == "ne") return !u && a != b;
  if (cmp == "lt" || cmp == "lo") return a < b;
  if (cmp == "le" || cmp == "ls") return a <= b;
  if (cmp == "gt" || cmp == "hi") return a > b;
  if (cmp == "ge" || cmp == "hs") return a >= b;
  if (cmp == "equ") return u || a == b;
  if (cmp == "neu") return u || a != b;
  if (cmp == "ltu") return u || a < b;
  if (cmp == "leu") return u || a <= b;
  if (cmp == "gtu") return u || a > b;
  if (cmp == "geu") return u || a >= b;
  if (cmp == "num") return !u;
  if (cmp == "nan") return u;
  ADD_FAILURE() << "no reference for " << cmp;
  return false;
}

template <typename T>
bool ref_compare_int(const std::string& cmp, T a, T b) {
  if (cmp == "eq") return a == b;
  if (cmp == "ne") return a != b;
  if (cmp == "lt" || cmp == "lo") return a < b;
  if (cmp == "le" || cmp == "ls") return a <= b;
  if (cmp == "gt" || cmp == "hi") return a > b;
  if (cmp == "ge" || cmp == "hs") return a >= b;
  ADD_FAILURE() << "no reference for " << cmp;
  return false;
}

const std::vector<std::string> kFloatCmps = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                             "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
const std::vector<std::string> kSignedCmps = {"eq", "ne", "lt", "le", "gt", "ge"};
const std::vector<std::string> kUnsignedCmps = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};

class Tally {
 public:
  explicit Tally(std::string what) : what_(std::move(what)) {}
  void expect(uint64_t got, uint64_t want, const std::string& form, uint64_t a, uint64_t b) {
    ++checked_;
    if (got == want || bad_++ >= 8) return;
    log_ << "  " << form << std::hex << " 0x" << a << " 0x" << b << ": got 0x" << got << ", want 0x" << want << std::dec
         << "\n";
  }
  ::testing::AssertionResult ok() const {
    if (bad_ == 0 && checked_ > 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what_ << ": " << bad_ << " mismatches in " << checked_ << "\n"
                                         << log_.str();
  }

 private:
  std::string what_;
  std::ostringstream log_;
  uint64_t checked_ = 0, bad_ = 0;
};

// 16-bit float operands b: zeros, +-1, the subnormal and normal edges,
// infinities, quiet and signalling NaNs, then random.
std::vector<uint64_t> half_specials(Fmt f, std::mt19937_64& rng) {
  const uint64_t sign = uint64_t{1} << 15, exp_all = ((uint64_t{1} << f.exp) - 1) << f.frac;
  const uint64_t one = (((uint64_t{1} << (f.exp - 1)) - 1)) << f.frac, frac_all = (uint64_t{1} << f.frac) - 1;
  std::vector<uint64_t> v = {0,
                             sign,
                             one,
                             one | sign,
                             1,
                             1 | sign,
                             frac_all,
                             frac_all | sign,
                             frac_all + 1,
                             exp_all - 1,
                             exp_all,
                             exp_all | sign,
                             exp_all | 1,
                             exp_all | frac_all | sign,
                             exp_all | (uint64_t{1} << (f.frac - 1))};
  for (int i = 0; i < 12; ++i) v.push_back(rng() & 0xffff);
  return v;
}

// setp and set on f16 and bf16: every a against the structured b's, every
// comparison, with and without .ftz (f16) and a boolean operation.
TEST(Compare, HalfEveryValue) {
  std::mt19937_64 rng(11);
  for (const auto& [type, fmt] : {std::pair<std::string, Fmt>{"f16", kHalf}, {"bf16", kBf16}}) {
    const auto bs = half_specials(fmt, rng);
    for (const std::string& cmp : kFloatCmps)
      for (bool ftz : {false, true}) {
        if (ftz && type == "bf16") continue;
        const std::string name = "setp." + cmp + (ftz ? ".ftz." : ".") + type;
        const isa::Instr in = form(name, 2);
        Tally t(name);
        for (uint64_t a : test::every_value(0x10000, 11))  // a sample under the sanitizers (tb/sample.h)
          for (uint64_t b : bs)
            t.expect(run(in, {a, b}).value, ref_compare(cmp, decode(fmt, a, ftz), decode(fmt, b, ftz)), name, a, b);
        EXPECT_TRUE(t.ok());
      }
  }
}

// The x2 packs: p is lane 0 (bits 15:0), q lane 1, each combined with c;
// set writes 1.0 (f16x2: 0x3c00, bf16x2: 0x3f80) or all ones per lane.
TEST(Compare, PairsOnePredicatePerLane) {
  std::mt19937_64 rng(12);
  for (const auto& [type, fmt, one] :
       {std::tuple<std::string, Fmt, uint64_t>{"f16x2", kHalf, 0x3c00}, {"bf16x2", kBf16, 0x3f80}}) {
    auto specials = half_specials(fmt, rng);
    for (const std::string& cmp : kFloatCmps)
      for (const std::string boolop : {"", "and.", "or.", "xor."}) {
        const std::string name = "setp." + cmp + "." + boolop + type;
        const std::string set_name = "set." + cmp + "." + boolop + type + "." + type;
        const std::string set_u32 = "set." + cmp + "." + boolop + "u32." + type;
        const unsigned n = boolop.empty() ? 2 : 3;
        const isa::Instr in = form(name, n), set = form(set_name, n), setu = form(set_u32, n);
        Tally t(name);
        for (int k = 0; k < 3000; ++k) {
          auto pick = [&] { return k % 2 ? rng() & 0xffff : specials[rng() % specials.size()]; };
          const uint64_t a0 = pick(), a1 = pick(), b0 = pick(), b1 = pick(), c = rng() & 1;
          const uint64_t a = a0 | a1 << 16, b = b0 | b1 << 16;
          bool t0 = ref_compare(cmp, decode(fmt, a0, false), decode(fmt, b0, false));
          bool t1 = ref_compare(cmp, decode(fmt, a1, false), decode(fmt, b1, false));
          if (boolop == "and.") t0 = t0 && c, t1 = t1 && c;
          if (boolop == "or.") t0 = t0 || c, t1 = t1 || c;
          if (boolop == "xor.") t0 = t0 != c, t1 = t1 != c;
          const exec::Result r = run(in, {a, b, c});
          t.expect(r.value, t0, name, a, b);
          t.expect(r.second, t1, name + " q", a, b);
          t.expect(run(set, {a, b, c}).value, (t0 ? one : 0) | (t1 ? one : 0) << 16, set_name, a, b);
          t.expect(run(setu, {a, b, c}).value, (t0 ? 0xffffu : 0u) | (t1 ? 0xffffu : 0u) << 16, set_u32, a, b);
        }
        EXPECT_TRUE(t.ok());
      }
  }
}

// 16-bit integers: every a against edge and random b's, every comparison
// the type takes (b16: eq/ne on the bits; u16 adds lo/ls/hi/hs).
TEST(Compare, Int16EveryValue) {
  std::mt19937_64 rng(13);
  std::vector<uint64_t> bs = {0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff};
  for (int i = 0; i < 11; ++i) bs.push_back(rng() & 0xffff);
  for (const auto& [type, cmps] : {std::pair<std::string, std::vector<std::string>>{"b16", {"eq", "ne"}},
                                   {"u16", kUnsignedCmps},
                                   {"s16", kSignedCmps}})
    for (const std::string& cmp : cmps) {
      const std::string name = "setp." + cmp + "." + type;
      const isa::Instr in = form(name, 2);
      Tally t(name);
      for (uint64_t a : test::every_value(0x10000, 13))  // a sample under the sanitizers (tb/sample.h)
        for (uint64_t b : bs) {
          const bool want = type == "s16" ? ref_compare_int(cmp, static_cast<int16_t>(a), static_cast<int16_t>(b))
                                          : ref_compare_int(cmp, static_cast<uint16_t>(a), static_cast<uint16_t>(b));
          t.expect(run(in, {a, b}).value, want, name, a, b);
        }
      EXPECT_TRUE(t.ok());
    }
}

// 32/64-bit integers and f32/f64: structured x structured plus random;
// setp and set (u32, s32 and f32 destinations) with every boolean operation.
TEST(Compare, WideTypesWithBooleanOps) {
  std::mt19937_64 rng(14);
  const std::vector<uint64_t> f32s = {0,          0x80000000, 0x3f800000, 0xbf800000, 1,
                                      0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000,
                                      0xff800000, 0x7fc00000, 0x7f800001, 0xffffffff};
  const std::vector<uint64_t> f64s = {0,
                                      0x8000000000000000,
                                      0x3ff0000000000000,
                                      1,
                                      0x000fffffffffffff,
                                      0x7ff0000000000000,
                                      0xfff0000000000000,
                                      0x7ff8000000000000,
                                      0x7ff0000000000001};
  const std::vector<uint64_t> ints = {
      0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff};
  struct Case {
    std::string type;
    std::vector<std::string> cmps;
    const std::vector<uint64_t>* specials;
    unsigned bits;
  };
  const Case cases[] = {{"f32", kFloatCmps, &f32s, 32},    {"f64", kFloatCmps, &f64s, 64},
                        {"u32", kUnsignedCmps, &ints, 32}, {"s32", kSignedCmps, &ints, 32},
                        {"u64", kUnsignedCmps, &ints, 64}, {"s64", kSignedCmps, &ints, 64},
                        {"b32", {"eq", "ne"}, &ints, 32},  {"b64", {"eq", "ne"}, &ints, 64}};
  for (const Case& c : cases) {
    const uint64_t m = c.bits == 64 ? ~uint64_t{0} : 0xffffffff;
    std::vector<uint64_t> vals;
    for (uint64_t v : *c.specials) vals.push_back(v & m);
    for (int i = 0; i < 20; ++i) vals.push_back(rng() & m);
    for (const std::string& cmp : c.cmps)
      for (const std::string boolop : {"", "and.", "or.", "xor."})
        for (bool ftz : {false, true}) {
          if (ftz && c.type != "f32") continue;
          const std::string mods = cmp + "." + boolop + (ftz ? "ftz." : "");
          const unsigned n = boolop.empty() ? 2 : 3;
          const isa::Instr setp = form("setp." + mods + c.type, n);
          const isa::Instr set_u = form("set." + mods + "u32." + c.type, n);
          const isa::Instr set_s = form("set." + mods + "s32." + c.type, n);
          const isa::Instr set_f = form("set." + mods + "f32." + c.type, n);
          Tally t("setp." + mods + c.type);
          for (uint64_t a : vals)
            for (uint64_t b : vals)
              for (uint64_t p : {0, 1}) {
                bool r;
                if (c.type == "f32")
                  r = ref_compare(cmp, decode(kSingle, a, ftz), decode(kSingle, b, ftz));
                else if (c.type == "f64")
                  r = ref_compare(cmp, decode64(a), decode64(b));
                else if (c.type[0] == 's' && c.bits == 32)
                  r = ref_compare_int(cmp, static_cast<int32_t>(a), static_cast<int32_t>(b));
                else if (c.type[0] == 's')
                  r = ref_compare_int(cmp, static_cast<int64_t>(a), static_cast<int64_t>(b));
                else
                  r = ref_compare_int(cmp, a, b);
                bool pr = r, qr = !r;
                if (boolop == "and.") pr = r && p, qr = !r && p;
                if (boolop == "or.") pr = r || p, qr = !r || p;
                if (boolop == "xor.") pr = r != p, qr = !r != p;
                const exec::Result res = run(setp, {a, b, p});
                t.expect(res.value, pr, "p", a, b);
                t.expect(res.second, qr, "q", a, b);
                t.expect(run(set_u, {a, b, p}).value, pr ? 0xffffffff : 0, "set.u32", a, b);
                t.expect(run(set_s, {a, b, p}).value, pr ? 0xffffffff : 0, "set.s32", a, b);
                t.expect(run(set_f, {a, b, p}).value, pr ? 0x3f800000 : 0, "set.f32", a, b);
              }
          EXPECT_TRUE(t.ok());
        }
  }
}

// set with a half destination: 1.0 as f16 (0x3c00) or bf16 (0x3f80), all
// ones in u16/s16.
TEST(Compare, SetHalfDestinations) {
  const isa::Instr f16 = form("set.lt.f16.s32", 2), bf16 = form("set.lt.bf16.f32", 2);
  const isa::Instr u16 = form("set.lt.u16.f16", 2), s16 = form("set.gt.s16.bf16", 2);
  EXPECT_EQ(run(f16, {0xffffffff, 0}).value, 0x3c00u);  // -1 < 0
  EXPECT_EQ(run(f16, {0, 0}).value, 0u);
  EXPECT_EQ(run(bf16, {0xbf800000, 0}).value, 0x3f80u);
  EXPECT_EQ(run(u16, {0xbc00, 0x3c00}).value, 0xffffu);
  EXPECT_EQ(run(s16, {0x3f80, 0x7fc0}).value, 0u);  // NaN: unordered
}

TEST(Compare, SelpAndSlct) {
  std::mt19937_64 rng(15);
  const std::vector<uint64_t> f32c = {0,          0x80000000, 1,          0x80000001, 0x3f800000,
                                      0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000};
  for (const char* type : {"b16", "u32", "s64", "f32", "f64"}) {
    const isa::Instr selp = form(std::string("selp.") + type, 3);
    const isa::Instr slct_s = form(std::string("slct.") + type + ".s32", 3);
    const isa::Instr slct_f = form(std::string("slct.") + type + ".f32", 3);
    const isa::Instr slct_ftz = form(std::string("slct.ftz.") + type + ".f32", 3);
    const unsigned bits = isa::info(selp.type).bits;
    const uint64_t m = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    for (int k = 0; k < 2000; ++k) {
      const uint64_t a = rng() & m, b = rng() & m;
      const uint64_t c = k < 4 ? (k & 1) : rng() & 1;
      EXPECT_EQ(run(selp, {a, b, c}).value, c ? a : b);
      const uint32_t ci = static_cast<uint32_t>(k < 10 ? f32c[static_cast<size_t>(k)] : rng());
      EXPECT_EQ(run(slct_s, {a, b, ci}).value, static_cast<int32_t>(ci) >= 0 ? a : b);
      const double cf = decode(kSingle, ci, false), cz = decode(kSingle, ci, true);
      EXPECT_EQ(run(slct_f, {a, b, ci}).value, cf >= 0 ? a : b) << std::hex << ci;  // NaN: b; -0: a
      EXPECT_EQ(run(slct_ftz, {a, b, ci}).value, cz >= 0 ? a : b) << std::hex << ci;
    }
  }
}

}  // namespace
}  // namespace ptxfu
