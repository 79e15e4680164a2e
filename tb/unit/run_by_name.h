// A form of the table by its PTX spelling, and one execution of it: what the
// suites that test executors by name (tb/unit/int, tb/unit/exec) share.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "exec/execute.h"
#include "isa/decode.h"
#include "isa/table.h"

namespace ptxfu::unittest {

// The decoded form of `mnemonic` with `num_src` sources (newest target).
inline isa::Instr form(const std::string& mnemonic, unsigned num_src) {
  isa::Instr in;
  isa::Diagnostic d;
  EXPECT_TRUE(isa::decode(mnemonic, num_src, 1, in, d)) << mnemonic << ": " << d.message;
  return in;
}

// Executes `in` on `src` (zero-extended bit patterns, carry-in 0).
inline exec::Result run(const isa::Instr& in, std::vector<uint64_t> src) {
  src.resize(isa::kMaxSources);
  return exec::execute(in, src.data(), false);
}

}  // namespace ptxfu::unittest
