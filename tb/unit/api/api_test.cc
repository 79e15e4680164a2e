// The C++ API (ptxfu/ptxfu.hpp) against the core it wraps: every legal form
// evaluated over arrays (eval_many, with strides and broadcasting) equals
// exec::execute per element; formats are the core's rows; check() gives
// check_source's verdicts; errors carry the command line's messages.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include <ptxfu/ptxfu.hpp>

#include "exec/execute.h"
#include "fp/format.h"
#include "isa/forms.h"

namespace {

TEST(Api, EveryFormEvaluatedOverArraysEqualsTheExecutorPerElement) {
  std::mt19937_64 rng(5);
  constexpr size_t kN = 67;  // not a multiple of any block size
  int forms = 0;
  ptxfu::isa::for_each_legal_form([&](const ptxfu::isa::Instr& in) {
    // Not for this array API: .rs needs an arch-specific target (sm_100a); mov's unpacking and
    // 128-bit forms carry more than one 64-bit value per element.
    if (in.has(ptxfu::isa::Mod::rs) || ptxfu::isa::is_vector(in.row->dest) || ptxfu::isa::dest_bits(in) > 64) return;
    for (unsigned k = 0; k < in.num_src; ++k)
      if (ptxfu::isa::src_bits(in, k) > 64) return;
    const std::string spelling = ptxfu::isa::spell(in);
    const ptxfu::Form form(spelling, in.num_src);
    ASSERT_EQ(form.num_sources(), in.num_src) << spelling;
    std::vector<std::vector<uint64_t>> src(8, std::vector<uint64_t>(2 * kN));
    const uint64_t* ptr[8];
    ptrdiff_t strides[8];
    for (unsigned k = 0; k < in.num_src; ++k) {
      const unsigned bits = form.source_bits(k);
      for (uint64_t& v : src[k]) v = bits >= 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
      ptr[k] = src[k].data();
      strides[k] = static_cast<ptrdiff_t>(k % 3);  // 0: one value for all; 1, 2: strided
    }
    std::vector<uint8_t> carry_in(kN);
    for (auto& c : carry_in) c = rng() & 1;
    std::vector<uint64_t> value(kN), second(kN);
    std::vector<uint8_t> carry(kN);
    form.eval_many(kN, ptr, strides, form.reads_carry() ? carry_in.data() : nullptr, 1, value.data(), second.data(),
                   carry.data());
    for (size_t i = 0; i < kN; ++i) {
      uint64_t s[8] = {};
      for (unsigned k = 0; k < in.num_src; ++k) s[k] = ptr[k][static_cast<ptrdiff_t>(i) * strides[k]];
      const auto want = ptxfu::exec::execute(in, s, form.reads_carry() && carry_in[i]);
      ASSERT_EQ(value[i], want.value) << spelling << " element " << i;
      if (form.num_dests() == 2) {
        ASSERT_EQ(second[i], want.second) << spelling;
      }
      if (form.writes_carry()) {
        ASSERT_EQ(carry[i] != 0, want.carry_out) << spelling;
      }
      if (i < 3) {
        const auto one = form.eval(s, form.reads_carry() && carry_in[i]);
        ASSERT_EQ(one.value, want.value) << spelling;
      }
    }
    ++forms;
  });
  EXPECT_GT(forms, 5000);
}

TEST(Api, OperandsWiderThanTheirWidthAreErrors) {
  const ptxfu::Form fma("fma.rn.f16", 3);
  EXPECT_EQ(fma.eval({0x3c00, 0x4000, 0x3c00}).value, 0x4200u);
  try {
    fma.eval({0x3c00, 0x14000, 0x3c00});
    FAIL();
  } catch (const ptxfu::Error& e) {
    EXPECT_STREQ(e.what(), "operand 2 '0x14000' does not fit in 16 bits");
  }
  const uint64_t a[2] = {0x3c00, 0x3c00}, b[2] = {0x3c00, 0x10000};
  const uint64_t* src[3] = {a, b, a};
  const ptrdiff_t strides[3] = {1, 1, 1};
  uint64_t d[2];
  EXPECT_THROW(fma.eval_many(2, src, strides, nullptr, 0, d, nullptr, nullptr), ptxfu::Error);
  try {
    ptxfu::Form("fma.rn.oob.relu.f16x2", 3, "sm_80");
    FAIL();
  } catch (const ptxfu::Error& e) {
    EXPECT_STREQ(e.what(), "Modifier '.oob' requires .target sm_90 or higher");
    EXPECT_EQ(e.column(), 1u);
  }
  EXPECT_THROW(ptxfu::Form("add.u32", 2, "sm_999"), ptxfu::Error);
}

TEST(Api, FormatsAreTheCoresRows) {
  const auto& all = ptxfu::formats();
  ASSERT_EQ(all.size(), std::size(ptxfu::fp::kFormatTable));
  for (size_t i = 0; i < all.size(); ++i) {
    const ptxfu::fp::Format& row = *ptxfu::fp::kFormatTable[i];
    const ptxfu::Format& f = all[i];
    EXPECT_EQ(f.name(), row.name);
    EXPECT_EQ(ptxfu::find_format(row.name), &f);
    EXPECT_EQ(f.width(), row.width());
    const int shift = f.name() == "tf32" ? 13 : 0;
    EXPECT_EQ(f.max_bits(), row.max_finite(false) << shift) << row.name;
    EXPECT_EQ(f.nan_bits().has_value(), row.has_nan()) << row.name;
    EXPECT_EQ(f.encode(f.max()), f.max_bits()) << row.name;
    EXPECT_EQ(f.encode(f.min_normal()), f.min_normal_bits()) << row.name;
  }
  EXPECT_EQ(ptxfu::find_format("e4m3")->max(), 448.0);
  EXPECT_EQ(ptxfu::find_format("f16")->encode(1.0 + 1.0 / 4096, ptxfu::Rounding::rp), 0x3c01u);
  EXPECT_EQ(ptxfu::find_format("nope"), nullptr);
  EXPECT_THROW(ptxfu::find_format("e2m1")->decode(0x10), ptxfu::Error);
}

TEST(Api, CheckGivesTheVerdicts) {
  const auto r = ptxfu::check("add.sat.u32 %r1, %r2, %r3;\n  add.s32 %r1, %r2, %r3;\n", "sm_80");
  ASSERT_EQ(r.verdicts.size(), 2u);
  EXPECT_FALSE(r.module);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.verdicts[0].message, "Modifier '.sat' does not apply to '.u32' type");
  EXPECT_EQ(r.verdicts[1].line, 2u);
  EXPECT_EQ(r.verdicts[1].column, 3u);
  EXPECT_TRUE(r.verdicts[1].ok);
  EXPECT_THROW(ptxfu::check("add.s32 %r1, %r2, %r3;"), ptxfu::Error);  // loose statements need a target
  const auto m = ptxfu::check(".version 8.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n  ret;\n}\n");
  EXPECT_TRUE(m.module);
  EXPECT_TRUE(m.ok()) << (m.verdicts.empty() ? "" : m.verdicts[0].message);
}

}  // namespace
