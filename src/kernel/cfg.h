// The control-flow graph of a loaded function and the immediate
// post-dominator of each instruction, where the SIMT stack reconverges the
// paths of a divergent branch (GPGPU-Sim's rule).
#pragma once
#include <vector>

#include "kernel/kernel.h"

namespace ptxfu::kernel {

// Successors of instruction `pc` of `f` (the func_end marker has none;
// ret and exit lead to it).
void successors(const Kernel& k, const Function& f, uint32_t pc, std::vector<uint32_t>& out);

// Sets Inst::ipdom of every bra and ret of `f`: the nearest instruction
// every path from it to the function's end passes through. An instruction
// from which the end cannot be reached (an endless loop) reconverges at the
// end.
void compute_ipdoms(Kernel& k, Function& f);

}  // namespace ptxfu::kernel
