// `ptxfu check`: legality of PTX arithmetic statements for a target.
#pragma once
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "isa/target_options.h"

namespace ptxfu::cli {

using isa::TargetOptions;

struct CheckOptions {
  TargetOptions target;
  std::string input_name = "-";  // for file:line:col diagnostics
  size_t max_line = 64 * 1024;
};

// Reads statements from `in`, writes one verdict per statement to `out`
// (statement mode) or file:line:col diagnostics (file mode, entered at the
// first directive). Returns the exit status: 0 all ok, 1 any error, 2 usage.
int run_check(std::FILE* in, std::ostream& out, std::ostream& err, const CheckOptions& options);

}  // namespace ptxfu::cli
