// The --arg and --grid/--block spellings of a kernel launch, shared by
// `ptxfu sim` and the kernel programs of sweep specs.
#pragma once
#include <string_view>

#include "kernel/kernel.h"

namespace ptxfu::sweep {

// One --arg for parameter `p` (index `index`): u32:1024, s32:-3, u64:7,
// s64:-1, f32:0.5, f64:2, raw bits (f32:0x3f000000), buf:FILE,
// buf:zeros:BYTES or buf:random:BYTES:SEED (SplitMix64 bytes), any buffer
// followed by +OFFSET (bytes into it). Throws
// kernel::KernelError naming the parameter.
kernel::Arg parse_arg(std::string_view spec, unsigned index, const kernel::Param& p);

// --const NAME=FILE (the file's bytes) or NAME=random:SEED (SplitMix64
// bytes, the variable's size) for a module .const or .global variable of
// `k`. make_memory checks the name and the size. Throws kernel::KernelError.
kernel::VariableFill parse_variable_fill(std::string_view spec, const kernel::Kernel& k);

// "X[,Y[,Z]]"; throws kernel::KernelError naming `option`.
kernel::Dim3 parse_dim3(std::string_view text, std::string_view option);

}  // namespace ptxfu::sweep
