// Every pair of 16-bit operands of one f16/bf16 form (add sub mul min max,
// with its rounding modifier or .NaN) through the core's executor, against
// the separately written oracle of half_oracle.h. Sharded by the first
// operand, run on several threads.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace ptxfu::exhaustive {

struct PairCheckOptions {
  std::string form;  // as `ptxfu eval` spells it: "add.rz.f16", "min.NaN.bf16"
  unsigned shard_index = 0, shard_count = 1;
  unsigned threads = 0;        // 0: the machine's
  unsigned max_reported = 10;  // mismatches printed as eval lines
};

struct PairCheckResult {
  uint64_t pairs = 0, mismatches = 0;
  double seconds = 0;
};

// Writes the first mismatches to `report` as `ptxfu eval` lines, each
// followed by a `# expected E got G` comment. nullopt (and a message in
// `error`) when the form is not one this check covers.
std::optional<PairCheckResult> check_pairs(const PairCheckOptions& options, std::ostream& report, std::string& error);

}  // namespace ptxfu::exhaustive
