// Seeded random kernels run on the timing oracle (timing_oracle.h) and on
// the SM model; the cycle counts must be equal.
#include "kernel_test_util.h"
#include "model_run.h"
#include "models/config.h"
#include "timing_oracle.h"

namespace ptxfu::kernel::testing {
namespace {

using models::ArchConfig;

// A random kernel: per thread, a loop of a data-dependent trip count with
// arithmetic of every pipe, shared and global memory, a divergent branch
// and barriers.
std::string random_kernel(uint64_t seed) {
  SplitMix64 rng{seed};
  std::string b = ".version 8.0\n.target sm_90\n.address_size 64\n";
  b += ".visible .entry k(.param .u64 buf)\n{\n";
  b += ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .f32 %f<6>;\n.reg .b64 %rd<6>;\n";
  b += ".shared .align 4 .b8 sh[4096];\n";
  b += "ld.param.u64 %rd1, [buf];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n";
  b += "and.b32 %r3, %r1, 7;\nadd.s32 %r3, %r3, 1;\nmov.u32 %r4, 0;\ncvt.rn.f32.u32 %f1, %r1;\nmov.f32 %f2, "
       "0f3F000000;\n";
  b += "mul.wide.u32 %rd2, %r1, " + std::to_string(4 * (1 + rng.next() % 4)) + ";\nadd.s64 %rd3, %rd1, %rd2;\n";
  b += "shl.b32 %r5, %r1, " + std::to_string(2 + rng.next() % 4) +
       ";\nand.b32 %r5, %r5, 4092;\nmov.u32 %r6, sh;\nadd.s32 %r6, %r6, %r5;\n";
  b += "LOOP:\n";
  const char* ops[] = {"fma.rn.f32 %f1, %f1, %f2, %f2;",
                       "ex2.approx.f32 %f3, %f2;",
                       "add.s32 %r4, %r4, %r3;",
                       "mul.lo.s32 %r7, %r4, %r3;",
                       "ld.global.u32 %r8, [%rd3];",
                       "st.shared.u32 [%r6], %r4;",
                       "ld.shared.u32 %r9, [%r6];",
                       "add.f32 %f2, %f2, %f3;",
                       "st.global.u32 [%rd3], %r7;",
                       "cvt.rzi.s32.f32 %r10, %f1;",
                       "fma.rn.f64 %rd4, %rd4, %rd4, %rd4;"};
  const unsigned n = 4 + static_cast<unsigned>(rng.next() % 8);
  for (unsigned i = 0; i < n; ++i) {
    std::string op = ops[rng.next() % std::size(ops)];
    if (op.find("f64") != std::string::npos) op = "add.s64 %rd4, %rd4, %rd2;";
    b += op + "\n";
  }
  b += "setp.eq.u32 %p2, %r3, 3;\n@%p2 bra SKIP;\nadd.s32 %r4, %r4, %r8;\nadd.s32 %r4, %r4, %r9;\nSKIP:\n";
  b += "sub.s32 %r3, %r3, 1;\nsetp.ne.u32 %p1, %r3, 0;\n@%p1 bra LOOP;\n";
  if (rng.next() % 2) b += "bar.sync 0;\n";
  b += "add.s32 %r4, %r4, %r10;\nst.global.u32 [%rd3], %r4;\nret;\n}\n";
  return b;
}

TEST(KernelTimingOracle, RandomKernelsTakeTheOraclesCycles) {
  const char* name = std::getenv("PTXFU_TEST_CONFIG");
  for (const std::string& cfg : {std::string(name ? name : "sm_90"), std::string("sm_75"), std::string("sm_120")}) {
    const ArchConfig c = models::load_config(cfg);
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      const std::string text = random_kernel(seed * 7919 + cfg.size());
      const Kernel k = load_kernel(text, "random.ptx");
      Launch l;
      l.grid = {static_cast<uint32_t>(1 + seed % 5)};
      l.block = {static_cast<uint32_t>(32 * (1 + seed % 4) - (seed % 3) * 5)};
      l.args = {Arg::zeros(64 * 1024)};
      std::string yaml;
      for (const auto& e : models::embedded_configs())
        if (e.name == cfg) yaml = std::string(e.text);
      const ModelRun m = run_on_model(k, l, seed % 2 == 0, 0, yaml);
      ASSERT_TRUE(m.result.ok) << m.result.error << "\n" << text;
      EXPECT_EQ(m.cycles, run_oracle(c, k, l).cycles) << cfg << " seed " << seed << "\n" << text;
    }
  }
}

}  // namespace
}  // namespace ptxfu::kernel::testing
