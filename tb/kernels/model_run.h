// The kernel tests' runs on the SM model, each a simulate() of its own in
// this process. Each launch runs loosely and approximately timed; both must
// end alike, cycle for cycle.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "kernel/kernel.h"
#include "models/kernel_sm.h"

namespace ptxfu::kernel::testing {

using StallCounts = std::array<uint64_t, static_cast<size_t>(models::WarpStall::kCount)>;

struct ModelRun {
  RunResult result;  // ok, error, warp_instructions, ctas, memory
  uint64_t cycles = 0;
  StallCounts stalls{};            // issue-less sub-partition cycles
  std::vector<StallCounts> lines;  // per instruction: warp-cycles waiting to issue it
  std::vector<uint64_t> issued;    // per instruction: warp-instructions
};

// The config is `config_yaml` when given, else PTXFU_TEST_CONFIG (an
// embedded name) or sm_90. registers_per_thread 0: the model's estimate.
ModelRun run_on_model(const Kernel& k, const Launch& l, bool approximately_timed, uint64_t max_cycles = 0,
                      const std::string& config_yaml = "", unsigned registers_per_thread = 0);

// Both styles; fails the test when they differ in cycles, results or memory.
RunResult run_on_model_both_styles(const Kernel& k, const Launch& l);

// `ptxfu ARGS` (the built CLI), its stdout and stderr together and its exit status (-1: none).
struct Cli {
  int status = -1;
  std::string out;
};
Cli ptxfu(const std::string& args);

}  // namespace ptxfu::kernel::testing
