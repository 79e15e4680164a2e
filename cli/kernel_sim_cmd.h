// `ptxfu sim KERNEL.ptx`: a whole kernel launched on the SM model, its
// arguments from --arg specs, its buffers written to --out-dir.
#pragma once
#include <ostream>
#include <string>

#include "cli/model_cmds.h"
#include "kernel/kernel.h"

namespace ptxfu::cli {

// `ptxfu sim` on a file's text: a kernel when the parser finds functions in
// it, otherwise a straight-line program on --warps warps.
int run_kernel_sim(const SimCmdOptions& options, std::string text, std::ostream& out, std::ostream& err);

}  // namespace ptxfu::cli
