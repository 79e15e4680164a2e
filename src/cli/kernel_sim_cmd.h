// `ptxfu sim KERNEL.ptx`: a whole kernel launched on the SM model, its
// arguments from --arg specs, its buffers written to --out-dir.
#pragma once
#include <ostream>
#include <string>
#include <string_view>

#include "cli/model_cmds.h"
#include "kernel/kernel.h"

namespace ptxfu::cli {

// One --arg for parameter `p` (index `index`): u32:1024, s32:-3, u64:7,
// s64:-1, f32:0.5, f64:2, raw bits (f32:0x3f000000), buf:FILE,
// buf:zeros:BYTES or buf:random:BYTES:SEED (SplitMix64 bytes). Throws
// kernel::KernelError naming the parameter.
kernel::Arg parse_arg(std::string_view spec, unsigned index, const kernel::Param& p);

// "X[,Y[,Z]]"; throws kernel::KernelError naming `option`.
kernel::Dim3 parse_dim3(std::string_view text, std::string_view option);

// `ptxfu sim` on a file's text: a kernel when the parser finds functions in
// it, otherwise a straight-line program on --warps warps.
int run_kernel_sim(const SimCmdOptions& options, std::string text, std::ostream& out, std::ostream& err);

}  // namespace ptxfu::cli
