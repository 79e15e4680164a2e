// `ptxfu cosim --op mma.block`: the tensor-core block FMA RTL
// (rtl_ref/ptxfu_block_fma.sv) against the engine (src/mma/block_fma.h),
// one block result at a time.
//
//   ptxfu cosim --op mma.block --arch sm_80 --in f16 --out f32 [--family mma|wmma|wgmma]
//               [--vectors N] [--seed S] [--jobs N] [--stages N] [--broken]
//   ptxfu cosim --op mma.block --replay FILE|-
//
// The numerics row of (arch, family, in, out) picks the RTL parameter set
// with the same block (rows of other targets with the same widths share
// it). Output: on mismatches, the first failing blocks as replayable lines
//   mma.block sm_80 mma f16 f32 a=0x3c00,... b=... c=0x00000000 # expected 0x... got 0x...
// (`--replay` reads such lines, runs each through the RTL and the engine and
// prints `0x<rtl> # engine 0x<engine> match|MISMATCH`), then
//   # <structured> structured blocks, then seeded random; <B> blocks on <J> threads
//   vectors=N mismatches=M vectors_per_s=R
// where a vector is one block result. Exit 0 when all matched, 1 on
// mismatches, 2 on bad options.
#pragma once
#include <iosfwd>
#include <string>

#include "cosim/block_models.h"
#include "cosim/cosim.h"

namespace ptxfu::cosim {

int run_block_cosim(const CosimOptions& o, std::ostream& out);

// The same vectors and report for a row the caller gives (one block, see
// block_matches) on model `m`: how a parameter set no table row has (e2m1
// in a 32-wide block) is checked against the engine.
int run_block_row(const CosimOptions& o, const mma::NumericsRow& row, const BlockModel& m, std::ostream& out);

// The numerics row and RTL model for an arch/family/in/out and pipeline
// configuration; nullptr with `error` saying why (no such row, a row that
// is not one block, no model built for its parameters).
const BlockModel* resolve_block(const std::string& arch, const std::string& family, const std::string& in,
                                const std::string& out, int stages, bool broken, const mma::NumericsRow** row,
                                std::string& error);

// The NUM_STAGES values built for block FMA sets, in build order: "3, 0, 5 (not every set has every one)".
std::string available_block_stages();

}  // namespace ptxfu::cosim
