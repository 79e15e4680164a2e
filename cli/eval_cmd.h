// `ptxfu eval`: one instruction with hexadecimal operands per line in, one
// destination value per line out (contract in the README).
#pragma once
#include <cstdio>
#include <ostream>

#include "cli/check_cmd.h"

namespace ptxfu::cli {

struct EvalOptions {
  TargetOptions target;
  size_t max_line = 64 * 1024;
};

// Streams `in` to `out` in constant memory. Returns 0 if every line
// evaluated, 1 if any line erred (its output line says why), 2 on usage error.
int run_eval(std::FILE* in, std::FILE* out, std::ostream& err, const EvalOptions& options);

}  // namespace ptxfu::cli
