// Golden models for the co-simulation.
#pragma once
#include "cosim/checker.h"

namespace ptxfu::cosim {

// ptxfu's exact core (exec::execute). Empty when this build has no core
// executor for floating point yet.
Golden core_golden();

// A golden model over many vectors at once: out[i] from the sources
// src[k][i] (k < 3, each zero-extended to 64 bits).
using GoldenMany = std::function<void(const isa::Instr& instr, size_t n, const uint64_t* const* src, uint64_t* out)>;
// The core's array path (exec::execute_float_many: one decode per call, the
// core's array forms for the arithmetic); empty without a float executor.
GoldenMany core_golden_many();
// Any golden model, one vector at a time.
GoldenMany one_at_a_time(Golden golden);

// An independent, deliberately simple reference: GNU MPFR computes the IEEE
// result (exact intermediate, one rounding, gradual underflow through
// mpfr_subnormalize), then the NVIDIA policy (.ftz .sat .relu .oob, canonical
// NaN) and the min/max pseudo-code are applied as the PTX ISA words them.
// Handles add/sub/mul/fma/min/max/neg/abs on f16, bf16 and their x2 packs.
uint64_t reference_execute(const isa::Instr& instr, const uint64_t* src);
Golden reference_golden();

// The OOB-NaN bit pattern the reference uses (matched on the magnitude).
extern const uint16_t kReferenceOobNan;

}  // namespace ptxfu::cosim
