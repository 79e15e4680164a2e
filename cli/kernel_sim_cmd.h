// `ptxfu sim KERNEL.ptx`: a whole kernel launched on the SM model, its
// arguments from --arg specs, its buffers written to --out-dir.
#pragma once
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/model_cmds.h"
#include "kernel/kernel.h"
#include "models/kernel_sm.h"
#include "models/simulator.h"

namespace ptxfu::cli {

// `ptxfu sim` on a file's text: a kernel when the parser finds functions in
// it, otherwise a straight-line program on --warps warps.
int run_kernel_sim(const SimCmdOptions& options, std::string text, std::ostream& out, std::ostream& err);

// The --profile of `sim` and `run`: per instruction, its source line and
// what it did; summed per line of the listing (the module's text, one
// string_view a line) and printed, or as the JSON `lines` array.
struct InstructionProfile {
  unsigned line = 0;
  models::LineProfile use;
};
std::vector<InstructionProfile> instruction_profiles(const kernel::Kernel& k, const models::SimResult& r);
void print_profile(const std::vector<InstructionProfile>& profile, const std::vector<std::string_view>& listing,
                   std::ostream& out);
nlohmann::json profile_json(const std::vector<InstructionProfile>& profile,
                            const std::vector<std::string_view>& listing);
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace ptxfu::cli
