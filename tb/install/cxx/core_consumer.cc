// Checks the installed C++ API against the host's own arithmetic: binary32
// add and mul on normal operands (round to nearest even, as add.rn.f32 and
// mul.rn.f32) and fma on exactly representable cases; integers against
// host integers. Exit 1 on any disagreement.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <ptxfu/ptxfu.hpp>

namespace {

int failures = 0;
int checks = 0;

void expect(bool ok, const char* what, unsigned long long got, unsigned long long want) {
  ++checks;
  if (!ok && ++failures <= 10) std::printf("FAIL %s: got 0x%llx, want 0x%llx\n", what, got, want);
}

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

}  // namespace

int main() {
  if (std::strcmp(ptxfu::version(), PTXFU_VERSION) != 0) {
    std::printf("FAIL: library %s, headers %s\n", ptxfu::version(), PTXFU_VERSION);
    return 1;
  }
  // fma on values whose product and sum are exact in binary32.
  const ptxfu::Form fma("fma.rn.f32", 3);
  expect(fma.eval({bits(1.5f), bits(2.25f), bits(0.125f)}).value == bits(1.5f * 2.25f + 0.125f), "fma.rn.f32",
         fma.eval({bits(1.5f), bits(2.25f), bits(0.125f)}).value, bits(3.5f));

  // add and mul, many at once, on random normal operands: the host rounds the same way.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  const size_t n = 100000;
  std::vector<uint64_t> a(n), b(n), sum(n), prod(n);
  for (size_t i = 0; i < n; ++i) a[i] = bits(dist(rng)), b[i] = bits(dist(rng));
  const uint64_t* src[] = {a.data(), b.data()};
  const ptrdiff_t strides[] = {1, 1};
  ptxfu::Form("add.rn.f32", 2).eval_many(n, src, strides, nullptr, 0, sum.data(), nullptr, nullptr);
  ptxfu::Form("mul.rn.f32", 2).eval_many(n, src, strides, nullptr, 0, prod.data(), nullptr, nullptr);
  for (size_t i = 0; i < n; ++i) {
    float x, y;
    uint32_t ua = static_cast<uint32_t>(a[i]), ub = static_cast<uint32_t>(b[i]);
    std::memcpy(&x, &ua, 4);
    std::memcpy(&y, &ub, 4);
    expect(sum[i] == bits(x + y), "add.rn.f32", sum[i], bits(x + y));
    expect(prod[i] == bits(x * y), "mul.rn.f32", prod[i], bits(x * y));
  }

  // Integers: the carry chain of a 64-bit add, against host uint64_t.
  const ptxfu::Form add_cc("add.cc.u32", 2), addc("addc.u32", 2);
  std::mt19937_64 rng64(11);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t x = rng64(), y = rng64();
    const auto lo = add_cc.eval({x & 0xffffffff, y & 0xffffffff});
    const auto hi = addc.eval({x >> 32, y >> 32}, lo.carry);
    expect((hi.value << 32 | lo.value) == x + y, "add.cc/addc.u32", hi.value << 32 | lo.value, x + y);
  }

  // Formats: e4m3's largest value is 448 = 1.75 * 2^8; f16 1.0 is 0x3c00.
  const ptxfu::Format* e4m3 = ptxfu::find_format("e4m3");
  expect(e4m3 && e4m3->max() == 1.75 * 256 && e4m3->max_bits() == 0x7e, "e4m3 max", e4m3 ? e4m3->max_bits() : 0, 0x7e);
  expect(ptxfu::find_format("f16")->encode(1.0) == 0x3c00, "f16 encode(1.0)", ptxfu::find_format("f16")->encode(1.0),
         0x3c00);

  // A tensor-core instruction: ones times twos plus 0.5, exact in f32 (16 * 2 + 0.5 = 32.5).
  const ptxfu::MmaInstruction mma("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_80");
  const std::vector<uint64_t> d = mma.mma(std::vector<uint64_t>(16 * 16, 0x3f80), std::vector<uint64_t>(16 * 8, 0x4000),
                                          std::vector<uint64_t>(16 * 8, 0x3f000000));
  expect(d.size() == 16 * 8 && d[0] == 0x42020000 && d.back() == 0x42020000, "MmaInstruction::mma", d[0], 0x42020000);

  // check and errors carry ptxas's words.
  const ptxfu::CheckResult r = ptxfu::check("add.sat.u32 %r1, %r2, %r3;\nadd.s32 %r1, %r2, %r3;\n", "sm_80");
  expect(!r.module && r.verdicts.size() == 2 && !r.verdicts[0].ok && r.verdicts[1].ok &&
             r.verdicts[0].message == "Modifier '.sat' does not apply to '.u32' type",
         "check", r.verdicts.size(), 2);
  try {
    ptxfu::Form("fma.rn.oob.relu.f16x2", 3, "sm_80");
    expect(false, "illegal form accepted", 0, 1);
  } catch (const ptxfu::Error& e) {
    expect(std::strcmp(e.what(), "Modifier '.oob' requires .target sm_90 or higher") == 0, e.what(), 0, 0);
  }

  std::printf("%s: %d checks, %d failures\n", failures ? "FAIL" : "ok", checks, failures);
  return failures ? 1 : 0;
}
