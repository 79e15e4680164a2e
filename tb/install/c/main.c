/* Checks the installed C API against host integer arithmetic (64-bit
 * products, sums and carries of seeded random operands) and host float
 * arithmetic on an exactly representable case. Exit 1 on any disagreement. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <ptxfu/ptxfu.h>
#include <ptxfu/version.h>

static int failures = 0, checks = 0;

static void expect(int ok, const char* what, uint64_t got, uint64_t want) {
  ++checks;
  if (!ok && ++failures <= 10)
    printf("FAIL %s: got 0x%llx, want 0x%llx\n", what, (unsigned long long)got, (unsigned long long)want);
}

static uint64_t state = 0x853c49e6748fea9bULL;
static uint32_t next(void) { /* xorshift64* */
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return (uint32_t)((state * 0x2545f4914f6cdd1dULL) >> 32);
}

static uint32_t bits_of(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

int main(void) {
  for (int i = 0; i < 100000; ++i) {
    const uint32_t a = next(), b = next(), c = next();
    uint64_t d = 0;
    int cc = 0;
    const uint64_t s[2] = {a, b};
    expect(ptxfu_eval2("mul.wide.u32", a, b, &d) == PTXFU_OK && d == (uint64_t)a * b, "mul.wide.u32", d,
           (uint64_t)a * b);
    expect(ptxfu_eval3("mad.lo.u32", a, b, c, &d) == PTXFU_OK && d == (uint32_t)(a * b + c), "mad.lo.u32", d,
           (uint32_t)(a * b + c));
    expect(ptxfu_eval("add.cc.u32", s, 2, 0, &d, &cc) == PTXFU_OK && d == (uint32_t)(a + b) &&
               cc == ((uint64_t)a + b > 0xffffffffu),
           "add.cc.u32", d, (uint32_t)(a + b));
  }
  {
    uint64_t d = 0;
    const float want = 1.5f * 2.25f + 0.125f; /* exact in binary32 */
    expect(
        ptxfu_eval3("fma.rn.f32", bits_of(1.5f), bits_of(2.25f), bits_of(0.125f), &d) == PTXFU_OK && d == bits_of(want),
        "fma.rn.f32", d, bits_of(want));
  }
  {
    uint64_t d = 0;
    expect(ptxfu_eval2("add.bogus.u32", 1, 2, &d) == PTXFU_BAD_FORM && strstr(ptxfu_last_error(), "add.bogus.u32"),
           ptxfu_last_error(), 0, 0);
  }
  {
    /* A tensor-core instruction: ones times twos plus 0.5, exact in f32. */
    uint64_t a[16 * 16], b[16 * 8], c[16 * 8], d[16 * 8];
    int i;
    for (i = 0; i < 16 * 16; ++i) a[i] = 0x3f80;                   /* bf16 1.0 */
    for (i = 0; i < 16 * 8; ++i) b[i] = 0x4000, c[i] = 0x3f000000; /* bf16 2.0, f32 0.5 */
    expect(ptxfu_mma("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_80", a, b, c, d) == PTXFU_OK &&
               d[0] == 0x42020000 && d[16 * 8 - 1] == 0x42020000,
           "ptxfu_mma", d[0], 0x42020000); /* 16 * 2 + 0.5 = 32.5 */
  }
  printf("%s: ptxfu %s, %d checks, %d failures\n", failures ? "FAIL" : "ok", PTXFU_VERSION, checks, failures);
  return failures ? 1 : 0;
}
