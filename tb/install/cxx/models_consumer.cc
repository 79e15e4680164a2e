// Runs a small program on the installed SystemC model (ptxfu::models) and
// checks warp 0's registers against host integer arithmetic.
#include <cstdio>

#include "kernel/kernel.h"
#include "models/config.h"
#include "models/simulator.h"

int main() {
  using namespace ptxfu::models;
  const ArchConfig config = load_config_file(PTXFU_DATA_DIR "/configs/sm_80.yaml");
  const ptxfu::kernel::Kernel program = ptxfu::kernel::load_straight_line(
      ".reg .b32 %r<4>;\n"
      "mov.u32 %r0, %laneid;\n"
      "mad.lo.u32 %r1, %r0, 0x9e3779b9, 0x7f4a7c15;\n"
      "add.u32 %r2, %r1, %r0;\n",
      "consumer.ptx", config.caps);
  SimJob job;
  job.config = &config;
  job.kernel = &program;
  job.warps = 4;
  const SimResult r = simulate({job}).front();
  int failures = 0;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t r1 = lane * 0x9e3779b9u + 0x7f4a7c15u;
    if (r.warp0_registers[1][lane] != r1 || r.warp0_registers[2][lane] != uint32_t(r1 + lane)) ++failures;
  }
  if (r.cycles == 0 || r.warp_instructions != 4 * (3 + 1)) ++failures;  // and each warp's exit
  std::printf("%s: %llu cycles, %llu warp instructions, %d failures\n", failures ? "FAIL" : "ok",
              static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.warp_instructions),
              failures);
  return failures ? 1 : 0;
}
