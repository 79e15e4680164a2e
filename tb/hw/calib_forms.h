// The forms the GPU calibration suite (latency_bench.cu) times, as one table.
// Plain preprocessor data with no CUDA in it, so that the suite (nvcc) and the
// host tests that check what ptxas makes of it (calib_sass_test.cc) read the
// same rows.
//
// PTXFU_CALIB_FORMS(X) calls X once per row:
//
//   X(id, form, consumer, min_sm, sass, ctype, constraint, ptx)
//
//   id          enumerator naming the row (FormId)
//   form        the timed form, spelled as `ptxfu eval` and `ptxfu bench --form` spell it
//   consumer    for a producer->consumer pair, the consumer's form; "" otherwise
//   min_sm      the oldest target that has the form (older targets skip the row)
//   sass        hardware instructions one step becomes (ptxas 13.0, sm_75 to sm_100;
//               on sm_120 fma.rn.f64 is DFMA + 4 NOPs): calib_sass_test checks it
//               in the cubins, so that ptxas folding or fusing a chain cannot go
//               unnoticed
//   ctype       the C++ type of the chain register; constraint: its asm constraint
//   ptx         one step. %0 is the chain register (read and written); %1 %2 %3 are
//               loop-invariant operands of the same type, which rotate over four
//               registers from step to step, so that two neighbouring steps never
//               share all their inputs (ptxas would merge two lop3 of the same
//               inputs into one). Other registers are declared inside { }.
//
// A pair's step is the producer then the consumer, the consumer's result
// feeding the next producer: its chain measures the round trip, and the suite
// turns that into a producer->consumer latency with the producer's and the
// consumer's own rows (calib_csv.h, producer_to_consumer). Every pair's
// consumer, and its producer where it has one, is also a row of its own.
//
// What ptxas 13.0 makes of the steps (read from the cubins' opcode fields):
// - add.s32: two dependent add.s32 are fused into one IADD3, so the step is
//   two adds with different invariants: one IADD3 per step, the instruction
//   `ptxfu bench`'s iadd3 models;
// - fma.rn.f16x2: alternates HFMA2 and HFMA2.MMA (two pipes), as in real code;
// - sin.approx.f32 is FMUL.RZ + MUFU.SIN; rsqrt.approx.f32 and lg2.approx.f32
//   (no .ftz) add the denormal scaling around the MUFU (4 instructions);
// - mul.wide.s32: the step keeps the high word, so that ptxas cannot drop the
//   wide multiply for a 32-bit IMAD;
// - cvt.rn.f32.s32 is I2F on sm_80 and I2FP (an ALU instruction) on sm_90;
// - setp.lt.f32 -> selp.b32 is FSETP + SEL; selp.b32 alone (a loop-invariant
//   predicate) is one SEL.
#pragma once

namespace ptxfu::hw::calib {
inline constexpr int kChainSteps = 64;    // a latency chain has kChainSteps and 2 * kChainSteps steps
inline constexpr int kStreamRounds = 16;  // a throughput stream has kStreamRounds and 2 * kStreamRounds rounds
inline constexpr int kStreams = 8;        // of kStreams independent steps (chains per thread)
}  // namespace ptxfu::hw::calib

#define PTXFU_CALIB_FORMS(X)                                                                                       \
  X(kFmaF32, "fma.rn.f32", "", 70, 1, float, "f", "fma.rn.f32 %0, %0, %1, %2;")                                    \
  X(kAddF32, "add.rn.f32", "", 70, 1, float, "f", "add.rn.f32 %0, %0, %1;")                                        \
  X(kFmaF16x2, "fma.rn.f16x2", "", 70, 1, unsigned, "r", "fma.rn.f16x2 %0, %0, %1, %2;")                           \
  X(kMadLoS32, "mad.lo.s32", "", 70, 1, unsigned, "r", "mad.lo.s32 %0, %0, %1, %2;")                               \
  X(kAddS32, "add.s32", "", 70, 1, unsigned, "r", "{.reg .b32 t; add.s32 t, %0, %1; add.s32 %0, t, %2;}")          \
  X(kFmaF64, "fma.rn.f64", "", 70, 1, double, "d", "fma.rn.f64 %0, %0, %1, %2;")                                   \
  X(kEx2Ftz, "ex2.approx.ftz.f32", "", 70, 1, float, "f", "ex2.approx.ftz.f32 %0, %0;")                            \
  X(kEx2, "ex2.approx.f32", "", 70, 1, float, "f", "ex2.approx.f32 %0, %0;")                                       \
  X(kRsqrtFtz, "rsqrt.approx.ftz.f32", "", 70, 1, float, "f", "rsqrt.approx.ftz.f32 %0, %0;")                      \
  X(kRsqrt, "rsqrt.approx.f32", "", 70, 4, float, "f", "rsqrt.approx.f32 %0, %0;")                                 \
  X(kSin, "sin.approx.f32", "", 70, 2, float, "f", "sin.approx.f32 %0, %0;")                                       \
  X(kLg2Ftz, "lg2.approx.ftz.f32", "", 70, 1, float, "f", "lg2.approx.ftz.f32 %0, %0;")                            \
  X(kLg2, "lg2.approx.f32", "", 70, 4, float, "f", "lg2.approx.f32 %0, %0;")                                       \
  X(kTanh, "tanh.approx.f32", "", 75, 1, float, "f", "tanh.approx.f32 %0, %0;")                                    \
  X(kCvtF16x2F32, "cvt.rn.f16x2.f32", "", 80, 1, unsigned, "r",                                                    \
    "{.reg .f32 a, b; mov.b32 a, %0; mov.b32 b, %1; cvt.rn.f16x2.f32 %0, a, b;}")                                  \
  X(kCvtRniS32F32, "cvt.rni.s32.f32", "", 70, 1, unsigned, "r",                                                    \
    "{.reg .f32 a; mov.b32 a, %0; cvt.rni.s32.f32 %0, a;}")                                                        \
  X(kCvtF32S32, "cvt.rn.f32.s32", "", 70, 1, unsigned, "r", "{.reg .f32 d; cvt.rn.f32.s32 d, %0; mov.b32 %0, d;}") \
  X(kSelp, "selp.b32", "", 70, 1, unsigned, "r", "{.reg .pred p; setp.ne.b32 p, %3, 0; selp.b32 %0, %0, %1, p;}")  \
  X(kLop3, "lop3.b32", "", 70, 1, unsigned, "r", "lop3.b32 %0, %0, %1, %2, 0x96;")                                 \
  X(kPrmt, "prmt.b32", "", 70, 1, unsigned, "r", "prmt.b32 %0, %0, %1, %2;")                                       \
  X(kShf, "shf.l.wrap.b32", "", 70, 1, unsigned, "r", "shf.l.wrap.b32 %0, %0, %1, %2;")                            \
  X(kPopc, "popc.b32", "", 70, 1, unsigned, "r", "popc.b32 %0, %0;")                                               \
  X(kMulWide, "mul.wide.s32", "", 70, 1, unsigned, "r",                                                            \
    "{.reg .b64 w; .reg .b32 lo; mul.wide.s32 w, %0, %1; mov.b64 {lo, %0}, w;}")                                   \
  X(kFmaToAdd, "fma.rn.f32", "add.s32", 70, 2, float, "f",                                                         \
    "{.reg .b32 t, u; fma.rn.f32 %0, %0, %1, %2; mov.b32 t, %0; mov.b32 u, %3; add.s32 t, t, u; mov.b32 %0, t;}")  \
  X(kAddToFma, "add.s32", "fma.rn.f32", 70, 2, float, "f",                                                         \
    "{.reg .b32 t, u; mov.b32 t, %0; mov.b32 u, %3; add.s32 t, t, u; mov.b32 %0, t; fma.rn.f32 %0, %0, %1, %2;}")  \
  X(kEx2ToFma, "ex2.approx.ftz.f32", "fma.rn.f32", 70, 2, float, "f",                                              \
    "ex2.approx.ftz.f32 %0, %0; fma.rn.f32 %0, %0, %1, %2;")                                                       \
  X(kCvtToHfma2, "cvt.rn.f16x2.f32", "fma.rn.f16x2", 80, 2, unsigned, "r",                                         \
    "{.reg .f32 a, b; mov.b32 a, %0; mov.b32 b, %1; cvt.rn.f16x2.f32 %0, a, b; fma.rn.f16x2 %0, %0, %2, %3;}")     \
  X(kSetpToSelp, "setp.lt.f32", "selp.b32", 70, 2, unsigned, "r",                                                  \
    "{.reg .pred p; .reg .f32 a, b; mov.b32 a, %0; mov.b32 b, %1; setp.lt.f32 p, a, b; selp.b32 %0, %2, %3, p;}")
