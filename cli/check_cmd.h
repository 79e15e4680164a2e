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
  size_t max_input = size_t{1} << 30;  // a whole module is read at once
};

// Reads `in` whole. Loose statements (no directive anywhere) get one verdict
// each on `out`; a module (any directive) gets file:line:col diagnostics for
// everything ptxas would reject. Returns the exit status: 0 all ok, 1 any
// error, 2 usage.
int run_check(std::FILE* in, std::ostream& out, std::ostream& err, const CheckOptions& options);

}  // namespace ptxfu::cli
